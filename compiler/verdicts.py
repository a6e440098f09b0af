"""Kept verdicts: `questc check` gives the diagnostics an earlier run found when nothing they
depend on has changed (docs/performance.md, "Kept verdicts"). Two grains, one mechanism:

- the whole check (compiler/commands/check.py): what a check of PATH… can read is known
  before it starts: the folders given and the pack search path (--pack-path,
  QUESTC_PATH, the shipped packs). Found, it is printed and nothing is compiled;
- each pack checked (compiler/pipeline.py): what a pack's diagnostics depend on is the
  folders of the packs it requires and its own. After an edit, only the packs whose
  folders changed, or that require one that did, are compiled again.

A verdict is kept under a hash of those folders (every file's bytes), the options, the
working folder (it names the files in the messages) and the compiler's own code, grammar,
catalogue and schemas, so a verdict found under its key is what the same inputs gave. It
holds the diagnostics and the texts of the lines they show. Like ruff's or mypy's cache.

No verdict is kept or used when the answer could depend on anything else or when hashing
could not be exact: plugins enabled (their code is not the compiler's) or asked for by a
pack, a symbolic link or an unreadable entry in a folder (its target lies elsewhere),
more than MAX_BYTES to hash, or a folder that changed while it was checked. The
configuration's ignore/error lists are applied after the verdict, so they need not be
in the key. Storage is compiler/diskcache.py's: a private folder, full key on the first
line, pickles read only through its checks.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from compiler import cachekeys, diskcache

if TYPE_CHECKING:
    from collections.abc import Iterable

    from compiler.diagnostics import Diagnostic

    Entries = tuple[tuple[str, str, str], ...]  # (relative path, kind, digest) of each entry of a tree

VERDICT_FORMAT = b"questc-verdict 1"
MAX_BYTES = 64 * 1024 * 1024  # more than this to hash: compile instead


def key(*parts: object) -> str | None:
    """The key of a verdict: the compiler's code and `parts` (options, the working folder,
    the trees below). None when a part has no stable fingerprint."""
    try:
        return cachekeys.persistent(VERDICT_FORMAT, os.getcwd(), *parts)
    except (OSError, TypeError, UnicodeError):  # a name that is not text: compile instead
        return None


def trees(roots: Iterable[str | os.PathLike[str]]) -> tuple[tuple[str, str, Entries], ...] | None:
    """(name, absolute path, every entry below) for each root; None when one of them
    cannot be hashed exactly (a link, an unreadable entry, too many bytes)."""
    budget = [MAX_BYTES]
    out: list[tuple[str, str, Entries]] = []
    for root in roots:
        tree = _tree(Path(root), budget)
        if tree is None:
            return None
        out.append((str(root), os.path.abspath(root), tree))
    return tuple(out)


def _tree(root: Path, budget: list[int]) -> Entries | None:
    """Every entry under `root` (itself included) as (relative path, kind, digest), sorted;
    None at a symbolic link, an entry that cannot be read, or past the byte budget."""
    out: list[tuple[str, str, str]] = []
    try:
        st = os.lstat(root)
    except FileNotFoundError:
        return (("", "missing", ""),)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        entry = _entry(root, st, budget)
        return None if entry is None else (("",) + entry,)
    try:
        for here, dirs, files in os.walk(root, onerror=_raise):
            dirs.sort()
            for name in sorted(dirs + files):
                path = os.path.join(here, name)
                st = os.lstat(path)
                entry = ("dir", "") if stat.S_ISDIR(st.st_mode) else _entry(path, st, budget)
                if entry is None:
                    return None
                out.append((os.path.relpath(path, root),) + entry)
    except (OSError, UnicodeError):  # a folder that cannot be listed: the loader reports it
        return None
    return tuple(out)


def _raise(exc: OSError) -> None:
    raise exc


def _entry(path: str | os.PathLike[str], st: os.stat_result, budget: list[int]) -> tuple[str, str] | None:
    if stat.S_ISLNK(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):  # a FIFO or a device: the loader refuses it by kind, never reads it
        return ("other", oct(stat.S_IFMT(st.st_mode)))
    budget[0] -= st.st_size
    if budget[0] < 0:
        return None
    # One read per file and run: the whole check's key, each pack's key and the second
    # look after compiling ask again. A file written meanwhile has another time or size.
    seen = (os.fspath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    digest = _DIGESTS.get(seen)
    if digest is None:
        from compiler import reader

        # the guarded reader: no link followed, a regular file, no more than it said it holds
        data = reader.read_bytes(path, max_bytes=st.st_size, links=False)
        if isinstance(data, reader.Refused):
            return None
        digest = _DIGESTS[seen] = hashlib.sha256(data).hexdigest()
    return ("file", digest)


_DIGESTS: dict[tuple[str, int, int, int, int, int], str] = {}  # (path, device, inode, size, times) -> sha256 of the bytes


def whole_check(value: object) -> bool:
    """What `questc check` keeps (compiler/commands/check.py): (its diagnostics, {pack
    folder: pack id})."""
    return isinstance(value, tuple) and len(value) == 2 and diskcache.diagnostics(value[0]) and _names(value[1])


def one_pack(value: object) -> bool:
    """What each pack keeps (compiler/pipeline.py): ((pack id, what loading it reported)
    for each pack of its closure, the diagnostics of its check)."""
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple)
            and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and diskcache.diagnostics(p[1])
                    for p in value[0])
            and diskcache.diagnostics(value[1]))


def _names(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def replay(key: str, shape: Callable[[object], bool]) -> object | None:
    """What `keep` stored under `key` (the source texts its diagnostics show accepted
    again for the renderer), or None. `shape(value)` says whether the value is what the
    caller keeps: a file of any other shape (damaged, truncated, from a bug) is a miss,
    compiled again and replaced, never an internal error (issue 38)."""
    data = diskcache.load(_name(key), _header(key))
    if data is None:
        return None
    try:
        stored = pickle.loads(data)
    except Exception:  # a damaged file: compile instead
        return None
    if not (isinstance(stored, tuple) and len(stored) == 2 and _names(stored[1]) and shape(stored[0])):
        return None
    value: object
    value, texts = stored
    from compiler.diagnostics.render import accept_source

    for name, text in texts.items():
        accept_source(name, text)
    return value


def keep(key: str, value: object, items: Iterable[Diagnostic]) -> None:
    """Keep `value` (diagnostics and what they need) with the texts of the files the
    diagnostics `items` point into."""
    from compiler.diagnostics.render import accepted

    names = sorted({s.file for d in items for s in (d.span, *(r.span for r in d.related))})
    texts = {n: t for n in names if (t := accepted(n)) is not None}
    try:
        data = pickle.dumps((value, texts), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    diskcache.save(_name(key), _header(key), data)


def _name(key: str) -> str:
    return f"verdict-{key[:32]}.pickle"


def _header(key: str) -> bytes:
    return VERDICT_FORMAT + b" " + key.encode()

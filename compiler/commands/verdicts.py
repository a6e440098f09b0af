"""Kept verdicts: `questc check` gives the diagnostics an earlier run found when nothing it
could read has changed (docs/performance.md, "Kept verdicts").

What a check of PATH… can read is bounded and known before it starts: the folders given
and the pack search path (--pack-path, QUESTC_PATH, the shipped packs), the compiler's own
code, grammar, catalogue and schemas, the options and the working directory (which names
the files in the messages). A verdict is kept under a hash of all of them, the bytes of
every file in those folders included, so a run finding a verdict under its key finds the
diagnostics the same inputs gave: it prints them, with the source lines they show, and
compiles nothing. Like ruff's or mypy's cache, this turns a check of an unchanged tree
from a compile into a few milliseconds of hashing.

No verdict is kept or used when the answer could depend on anything else or when hashing
could not be exact: plugins enabled (their code is not the compiler's) or asked for by a
pack, a symbolic link or an unreadable entry in a folder (its target lies elsewhere),
more than MAX_BYTES to hash, or a file that changed while the check ran. The
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

from compiler import diskcache
from compiler.diagnostics.model import Diagnostic, Sink
from compiler.options import Options

VERDICT_FORMAT = b"questc-verdict 1"
MAX_BYTES = 64 * 1024 * 1024  # more than this to hash: compile instead


def key_of(paths: list[str], options: Options) -> str | None:
    """The hash of everything a check of `paths` with `options` can read, or None when no
    verdict may be used (see the module's docstring)."""
    if options.plugins:
        return None
    from compiler.packs import search_path

    budget = [MAX_BYTES]
    trees = []
    for root in (*map(Path, paths), *search_path(options.pack_path)):
        tree = _tree(root, budget)
        if tree is None:
            return None
        trees.append((str(root), os.path.abspath(root), tree))
    try:
        return diskcache.fingerprint(VERDICT_FORMAT, diskcache.code_version(), os.getcwd(), tuple(paths), options, tuple(trees))
    except (OSError, TypeError, UnicodeError):  # a name that is not text: compile instead
        return None


def _tree(root: Path, budget: list[int]) -> tuple | None:
    """Every entry under `root` (itself included) as (relative path, kind, digest), sorted;
    None at a symbolic link, an entry that cannot be read, or past the byte budget."""
    out: list[tuple] = []
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


def _entry(path, st: os.stat_result, budget: list[int]) -> tuple[str, str] | None:
    if stat.S_ISLNK(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):  # a FIFO or a device: the loader refuses it by kind, never reads it
        return ("other", oct(stat.S_IFMT(st.st_mode)))
    budget[0] -= st.st_size
    if budget[0] < 0:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            return ("file", hashlib.sha256(f.read()).hexdigest())
    except OSError:
        return None


def replay(key: str, sink: Sink) -> dict[str, str] | None:
    """The diagnostics kept under `key` put into `sink` (with the source texts their lines
    come from) and the pack roots they were found in (root -> pack id), or None."""
    data = diskcache.load(_name(key), _header(key))
    if data is None:
        return None
    try:
        items, roots, texts = pickle.loads(data)
        if not all(isinstance(d, Diagnostic) for d in items):
            return None
    except Exception:  # a damaged file: compile instead
        return None
    from compiler.diagnostics.render import accept_source

    for name, text in texts.items():
        accept_source(name, text)
    sink.extend(items)
    return roots


def keep(key: str, items: list[Diagnostic], roots: dict[str, str]) -> None:
    """Keep the diagnostics of a check (before the configuration's lists are applied), with
    the texts of the files they point into."""
    from compiler.diagnostics.render import accepted

    names = sorted({s.file for d in items for s in (d.span, *(r.span for r in d.related))})
    texts = {n: t for n in names if (t := accepted(n)) is not None}
    try:
        data = pickle.dumps((tuple(items), dict(roots), texts), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    diskcache.save(_name(key), _header(key), data)


def _name(key: str) -> str:
    return f"verdict-{key[:32]}.pickle"


def _header(key: str) -> bytes:
    return VERDICT_FORMAT + b" " + key.encode()

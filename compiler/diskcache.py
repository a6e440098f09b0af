"""Results kept between runs, in a directory only their user can write.

What is costly on a cold start and a pure function of its inputs is kept: the built
Lark parser (about 0.3 s to build the LALR tables; `syntax/parser_cache.py`), each
quest file's syntax tree and each catalog file's loaded document with the diagnostics
they gave (`kept`, used by the pipeline), and the seeded analysis of an exploration deck
(200 dealt tables; `passes/chain.py`). Each is stored under a hash of everything it
depends on, the compiler's own code and the libraries' versions included (the keys:
compiler/cachekeys.py), and a file is used only when:

- the directory is `$XDG_CACHE_HOME/questc` (or `~/.cache/questc`), made with mode 0700;
- the directory and the file are owned by the current user, not writable by group or
  others, and not symbolic links. Both are opened without following links and checked
  on the open descriptors, so neither can be swapped between the check and the read;
- the file's first line is its format and the full key; anything else (a stale, planted,
  truncated or damaged file) is ignored and the result computed again.

When any check fails the result is computed, slower but never unsafe. A file is written
to a private temporary name and renamed over the old one, so a reader never sees half a
file and two runs saving at once do not mix their bytes. The folder is kept to
MAX_FILES files: past that, the oldest written are removed. It is listed on a run's
first save and after every quarter of MAX_FILES saves, not on each one (listing a full
folder on each of a first run's few hundred saves cost seconds), so a quarter more may
pile up between two listings.
"""

from __future__ import annotations

import os
import pickle
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, TypeVar, cast

from compiler import cachekeys
from compiler.diagnostics import Sink

T = TypeVar("T")
KEPT_FORMAT = b"questc-kept 1"  # bump when what `kept` stores changes shape
MAX_FILES = 4096


def cache_dir() -> Path:
    """`$QUESTC_CACHE_DIR`, else `$XDG_CACHE_HOME/questc`, else `~/.cache/questc` (a
    relative path in either variable is passed over, as the XDG specification says)."""
    own = os.environ.get("QUESTC_CACHE_DIR", "")
    if os.path.isabs(own):
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "questc"


@contextmanager
def switched(on: bool) -> Iterator[None]:
    """Within the block, nothing is read from or written to the cache folder when `on` is
    False (`--no-cache`): every result is computed, as on a machine without the folder."""
    global _ENABLED
    before, _ENABLED = _ENABLED, on
    try:
        yield
    finally:
        _ENABLED = before


_ENABLED = True


def load(name: str, header: bytes) -> bytes | None:
    """The bytes after the first line of cache file `name`, when that line is `header`
    and the file and its directory pass the checks above; otherwise None."""
    directory = _open_private_dir()
    if directory is None:
        return None
    try:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=directory)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not (stat.S_ISREG(st.st_mode) and _private(st)):
                return None
            if f.readline().rstrip(b"\n") != header:
                return None
            return f.read()
    finally:
        os.close(directory)


def save(name: str, header: bytes, data: bytes) -> None:
    """Write `header`, a line end and `data` as cache file `name` (atomically). A full
    disk or an untrusted directory costs the next run the computation, nothing more."""
    directory = _open_private_dir()
    if directory is None:
        return
    tmp = f".{name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=directory)
        with os.fdopen(fd, "wb") as f:
            f.write(header + b"\n" + data)
        os.replace(tmp, name, src_dir_fd=directory, dst_dir_fd=directory)
    except (OSError, NotImplementedError):
        try:
            os.unlink(tmp, dir_fd=directory)
        except OSError:
            pass
    else:
        global _SAVED
        _SAVED += 1
        if _SAVED >= max(1, MAX_FILES // 4):
            _SAVED = 0
            try:
                _prune(directory)
            except OSError:  # a folder that cannot be listed is pruned by a later run
                pass
    finally:
        os.close(directory)


_SAVED = MAX_FILES  # saves since the folder was last pruned: the first save of a run prunes


def _prune(directory: int) -> None:
    """Remove the oldest files when the folder holds more than MAX_FILES."""
    with os.scandir(directory) as it:
        entries = [(e.stat(follow_symlinks=False).st_mtime_ns, e.name) for e in it if e.is_file(follow_symlinks=False)]
    if len(entries) <= MAX_FILES:
        return
    for _, name in sorted(entries)[: len(entries) - MAX_FILES * 3 // 4]:
        try:
            os.unlink(name, dir_fd=directory)
        except OSError:
            pass


def kept(kind: str, parts: tuple[str, ...], compute: Callable[[Sink], T], sink: Sink,
         expect: type | tuple[type, ...] = object) -> T:
    """`compute(sink)` for inputs `parts` (texts, names), or the result and diagnostics a
    previous run kept for exactly the same `kind`, `parts` and compiler code, with the
    diagnostics replayed into `sink`. The file is a pickle, read only through `load`'s
    checks (a private folder, the full key on the first line), and used only when it
    holds what `kept` stores: a pair of a result of type `expect` and a tuple of
    diagnostics. Anything else (truncated, damaged, another shape) is a miss: computed
    again and the file replaced."""
    key = cachekeys.persistent(KEPT_FORMAT, kind, *parts)
    name, header = f"{kind}-{key[:32]}.pickle", KEPT_FORMAT + b" " + key.encode()
    data = load(name, header)
    if data is not None:
        try:
            stored = pickle.loads(data)
        except Exception:  # a truncated or damaged file: compute again
            stored = None
        if shaped(stored, expect):
            result, items = stored
            sink.extend(items)
            return cast(T, result)  # checked: an instance of `expect`, the caller's T at run time
    local = Sink()
    result = compute(local)
    try:
        data = pickle.dumps((result, tuple(local.items)), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        data = None  # not storable: the next run computes it again
    if data is not None:
        save(name, header, data)
    sink.extend(local.items)
    return result


def diagnostics(value: object) -> bool:
    """Whether `value` is a tuple of diagnostics (what a kept file's second half must be)."""
    from compiler.diagnostics import Diagnostic

    return isinstance(value, tuple) and all(isinstance(d, Diagnostic) for d in value)


def shaped(stored: object, expect: type | tuple[type, ...]) -> bool:
    """Whether a kept file's value is (result of type `expect`, tuple of diagnostics)."""
    return isinstance(stored, tuple) and len(stored) == 2 and isinstance(stored[0], expect) and diagnostics(stored[1])


# ---------------------------------------------------------------- checks
def _private(st: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _open_private_dir() -> int | None:
    """A descriptor of the cache directory (made if missing), or None when it cannot be
    trusted or made."""
    if not _ENABLED:
        return None  # --no-cache
    if not all(hasattr(os, name) for name in ("getuid", "O_NOFOLLOW", "O_DIRECTORY")):
        return None  # no owners or safe opening to check with (Windows): compute every time
    path = cache_dir()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode) and _private(st):
        return fd
    os.close(fd)
    return None

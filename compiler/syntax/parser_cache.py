"""The built Lark parser, kept between runs in a directory only its user can write.

Building the LALR tables from grammar.lark takes about 0.3 s, more than a whole cold
check of a small pack, so a fresh `questc check` loads them from a file instead. That
file is a pickle, and unpickling runs whatever code the file names; so it is read only
when nobody but the current user could have written it:

- the directory is `$XDG_CACHE_HOME/questc` (or `~/.cache/questc`), made with mode 0700;
- the directory and the file must be owned by the current user, not be writable by
  group or others, and not be symbolic links. Both are opened without following links
  and checked on the open descriptors, so neither can be swapped between the check and
  the read;
- the file's first line is a hash of everything the tables depend on (grammar text,
  Lark options, Lark and Python versions); the pickle after it is read only when that
  line matches, so a stale file is rebuilt instead of trusted.

When any check fails the parser is built from the grammar, slower but never unsafe.
Lark's own `cache=True` is not used: it keeps its pickle in the shared temp folder
(`/tmp/.lark_cache_*`), where any local user can plant one, and it unpickles part of
the file before comparing hashes.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import sys
from pathlib import Path

import lark
from lark import Lark

FORMAT = b"questc-parser-cache 1"  # bump when the file layout changes


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "questc"


def key_of(grammar: str, options: dict) -> str:
    """What the built tables depend on. `options` must have a stable repr (no objects
    whose repr holds an address: the postlexer is named by its class)."""
    described = {k: (type(v).__qualname__ if k == "postlex" else v) for k, v in sorted(options.items())}
    text = "\n".join([FORMAT.decode(), grammar, repr(described), lark.__version__, sys.version])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_name(key: str) -> str:
    return f"parser-{key[:32]}.pickle"


def load_or_build(grammar: str, options: dict) -> Lark:
    """The parser for `grammar` with `options`: from the private cache when a trusted
    file for exactly this key is there, otherwise built (and saved for the next run)."""
    key = key_of(grammar, options)
    name = file_name(key)
    directory = _open_private_dir()
    if directory is None:
        return Lark(grammar, **options)
    try:
        parser = _load(directory, name, key)
        if parser is None:
            parser = Lark(grammar, **options)
            _save(directory, name, key, parser)
        return parser
    finally:
        os.close(directory)


# ---------------------------------------------------------------- checks
def _private(st: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _open_private_dir() -> int | None:
    """A descriptor of the cache directory (made if missing), or None when it cannot be
    trusted or made."""
    if not all(hasattr(os, name) for name in ("getuid", "O_NOFOLLOW", "O_DIRECTORY")):
        return None  # no owners or safe opening to check with (Windows): build every time
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


def _load(directory: int, name: str, key: str) -> Lark | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=directory)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not (stat.S_ISREG(st.st_mode) and _private(st)):
            return None
        if f.readline().rstrip(b"\n") != FORMAT + b" " + key.encode():
            return None
        data = f.read()
    try:
        return Lark.load(io.BytesIO(data))  # a pickle: reached only through the checks above
    except Exception:  # a truncated or damaged file: rebuild it
        return None


def _save(directory: int, name: str, key: str, parser: Lark) -> None:
    """Write to a private temporary file, then rename it over `name`: a reader never
    sees half a file, and two checks saving at once do not mix their bytes."""
    buffer = io.BytesIO()
    buffer.write(FORMAT + b" " + key.encode() + b"\n")
    parser.save(buffer)
    tmp = f".{name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=directory)
        with os.fdopen(fd, "wb") as f:
            f.write(buffer.getvalue())
        os.replace(tmp, name, src_dir_fd=directory, dst_dir_fd=directory)
    except (OSError, NotImplementedError):  # a full disk (or no *at() calls) costs the next run the build
        try:
            os.unlink(tmp, dir_fd=directory)
        except OSError:
            pass

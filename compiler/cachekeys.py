"""Every cache key questc derives, from one place.

A result is remembered (in the process, compiler/memo.py) or kept between runs
(compiler/diskcache.py: parsed files, loaded catalogs, deck analyses, the Lark parser,
`questc check`'s verdicts) under a key that must stand for *everything* the result
depends on. Two kinds:

- `persistent(FORMAT, *parts)`, for what is kept on disk: the parts (texts, options,
  folders' digests…), the format of the kept file, and the *environment* that made it:
  the compiler's own code, grammar, catalogue and schemas (`code_version`), Python's
  version, and the version of every installed library that can change a result
  (`LIBRARIES`: the parser, the YAML loader, the schema validator, the geometry and
  graph libraries, the image library, the PO reader). Upgrading any of them, or
  Python, misses every kept result, which is then computed again;
- `text_digest(text)` and plain tuples, for what is remembered in one process: the code
  and the libraries cannot change under a running process, so its keys are the inputs.

`fingerprint(*values)` is the one stable hash both rest on.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import numbers
import os
import re
import sys
from pathlib import Path
from typing import Iterable

# Distributions whose version can change what questc reports or writes (PEP 503 names).
LIBRARIES = (
    "lark", "ruamel-yaml", "ruamel-yaml-clib", "jsonschema", "referencing", "networkx", "shapely",
    "numpy", "scipy", "pillow", "polib",
)


def fingerprint(*values: object) -> str:
    """A hash of `values` that is the same in every run for equal values: dataclasses by
    their type and every field, mappings and sets in sorted order, numbers and strings by
    type and value. Any other kind of object raises TypeError (the caller then computes
    without the cache): a key must stand for all of its inputs, never for part of them."""
    h = hashlib.sha256()
    for v in values:
        h.update(_canonical(v).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def _canonical(v: object) -> str:
    # numbers.Rational: ints and fractions (not importing `fractions` itself saves 1.6 ms a run)
    if v is None or isinstance(v, (bool, int, float, str, bytes, numbers.Rational, enum.Enum)):
        return f"{type(v).__name__}:{v!r}"
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        fields = ",".join(f"{f.name}={_canonical(getattr(v, f.name))}" for f in dataclasses.fields(v))
        return f"{type(v).__module__}.{type(v).__qualname__}({fields})"
    if isinstance(v, (tuple, list)):
        return f"{type(v).__name__}[" + ",".join(_canonical(x) for x in v) + "]"
    if isinstance(v, (set, frozenset)):
        return "set{" + ",".join(sorted(_canonical(x) for x in v)) + "}"
    items = getattr(v, "items", None)
    if callable(items) and hasattr(v, "keys"):
        return "map{" + ",".join(sorted(f"{_canonical(k)}:{_canonical(x)}" for k, x in items())) + "}"
    raise TypeError(f"no stable fingerprint for {type(v).__qualname__}")


def text_digest(text: str) -> str:
    """The key part standing for a text (lone surrogates included) in the process's memo."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def persistent(format: bytes, *parts: object) -> str:
    """The key of a result kept between runs: its file format, the environment that makes
    it (`environment`) and its inputs. TypeError when a part has no stable fingerprint."""
    return fingerprint(format, environment(), *parts)


def environment() -> str:
    """What every kept result depends on besides its inputs: the compiler's code, Python,
    the platform and the libraries' versions. Worked out once per run."""
    global _ENVIRONMENT
    if _ENVIRONMENT is None:
        _ENVIRONMENT = fingerprint(code_version(), sys.version, sys.platform, os.uname().machine if hasattr(os, "uname") else "",
                                   library_versions())
    return _ENVIRONMENT


def library_versions() -> tuple[tuple[str, str], ...]:
    """(name, version) of each of LIBRARIES installed, read from the names of the
    distributions' metadata folders on `sys.path` (`numpy-2.1.3.dist-info`), the first
    found winning as an import would. Listing the folders costs well under a millisecond;
    `importlib.metadata` would cost more than that, and importing the libraries to read
    their `__version__` what questc saves by importing them only when a pass needs them."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip, a missing folder
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                project, _, version = name.rsplit(".", 1)[0].partition("-")
                key = _NORMAL.sub("-", project).lower()
                if key in LIBRARIES and key not in found:
                    found[key] = version
    return tuple(sorted(found.items()))


_NORMAL = re.compile(r"[-_.]+")


def code_version() -> str:
    """A fingerprint of the compiler itself: its code, grammar, diagnostic catalogue and
    the schemas it validates with, so a kept result never outlives what made it. Worked
    out once per run."""
    global _CODE
    if _CODE is None:
        from compiler.resources import schemas_dir

        _CODE = files_fingerprint((Path(__file__).resolve().parent, schemas_dir()))
    return _CODE


def files_fingerprint(roots: Iterable[Path]) -> str:
    """A hash of every file below `roots` (bytecode left out) by its name, size, device,
    inode, modification and change times. Size and modification time alone (what mypy's
    and ruff's caches judge by) missed an edit that kept the size with the time set back
    (`touch -d`, `os.utime`, an editor that keeps times): a stale verdict was replayed.
    The change time cannot be set back, and a file replaced (installed, checked out,
    saved by renaming) has a new inode, so every write counts, without reading the
    2.2 MB of code on each run (issue 38: about 2.5 ms more per run, 5% of a kept check)."""
    h = hashlib.sha256()
    for root in roots:
        for path, st in _files(str(root)):
            h.update(f"{os.path.relpath(path, root)}\x00{st.st_size}\x00{st.st_dev}\x00{st.st_ino}\x00"
                     f"{st.st_mtime_ns}\x00{st.st_ctime_ns}\x00".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _files(root: str) -> list[tuple[str, os.stat_result]]:
    """Every file below `root` with its stat, sorted by path; compiled bytecode left out."""
    out = []
    with os.scandir(root) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    out.extend(_files(entry.path))
            elif entry.is_file():
                out.append((entry.path, entry.stat()))
    return sorted(out)


def forget() -> None:
    """Work the environment out again on the next key (tests that change it)."""
    global _CODE, _ENVIRONMENT
    _CODE = _ENVIRONMENT = None


_CODE: str | None = None
_ENVIRONMENT: str | None = None

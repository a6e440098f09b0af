"""Read a pack's files safely: inside the pack, UTF-8 text, bounded size.

A content pack never runs code and never reads outside its folder: symbolic links and
`..` that leave the pack are refused with a located diagnostic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics import Sink, Span


@dataclass(frozen=True)
class Source:
    path: Path  # absolute, resolved
    name: str  # as shown in diagnostics: relative to the working directory when possible
    text: str


def display_name(path: Path) -> str:
    try:
        return os.path.relpath(path, Path.cwd()) if path.is_absolute() else str(path)
    except ValueError:  # another drive on Windows
        return str(path)


def inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except (ValueError, OSError, RuntimeError):
        return False


def read_source(root: Path, path: Path, sink: Sink, *, max_bytes: int) -> Source | None:
    """Read one file of the pack at `root`; report and return None when it may not or cannot be read."""
    name = display_name(path)
    if not inside(root, path):
        sink.report("P0105", Span.whole_file(name), path=name)
        return None
    try:
        size = path.stat().st_size
        if size > max_bytes:
            sink.report("P0107", Span.whole_file(name), path=name, size=size, limit=max_bytes)
            return None
        raw = path.read_bytes()
    except OSError as exc:
        sink.report("P0109", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
        return None
    if b"\x00" in raw:
        sink.report("P0106", Span.whole_file(name), path=name, detail=" (it holds NUL bytes: a binary file?)")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        sink.report("P0106", Span(name, line, col), path=name, detail=f" (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
        return None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        sink.report("P0108", Span.whole_file(name), path=name)
    return Source(path.resolve(), name, text)


def pack_files(root: Path, sink: Sink, *, max_bytes: int) -> list[Source]:
    """Every catalog (*.yaml except pack.yaml) and quest (*.quest) file of a pack, sorted by path."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "assets")
        here = Path(dirpath)
        for d in list(dirnames):  # a linked folder is a way out of the pack
            if (here / d).is_symlink() and not inside(root, here / d):
                sink.report("P0105", Span.whole_file(display_name(here / d)), path=display_name(here / d))
                dirnames.remove(d)
        for f in sorted(filenames):
            if f.startswith("."):
                continue
            if (f.endswith(".yaml") and not (here == root and f == "pack.yaml")) or f.endswith(".quest"):
                found.append(here / f)
    out = []
    for path in sorted(found, key=lambda p: p.relative_to(root).as_posix()):
        src = read_source(root, path, sink, max_bytes=max_bytes)
        if src is not None:
            out.append(src)
    return out

"""Read a pack's files safely: inside the pack, regular files only, UTF-8 text, bounded size.

A content pack never runs code and never reads outside its folder: symbolic links and
`..` that leave the pack are refused with a located diagnostic. `read_source` is the one
routine that reads pack content (sources, pack.yaml, `questc fmt`), through the guarded
reader every file questc reads goes through (compiler/reader.py); `walk` is the one
way a pack's folders are listed. A file it refuses is never opened again by name: the
diagnostic renderer shows only the text accepted here (`accept_source`).

The overlay: an editor's unsaved text stands in for a file's contents. `set_overlay(path,
text)` makes `read_source` return `text` for that file instead of reading the disk (every
other check, inside the pack, still applies), and `pack_files` lists an overlaid file
that is not saved yet. Only the language server (compiler/commands/editor/) sets it; the command
line never does, so the overlay is empty there.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator

from compiler.diagnostics import Sink, Span
from compiler.diagnostics.render import accept_source, forget_source, visible
from compiler import frozen, reader


@frozen
class Source:
    path: Path  # absolute, resolved
    name: str  # as shown in diagnostics: relative to the working directory when possible
    text: str  # line endings normalised to "\n"
    newline: str = "\n"  # the file's own line ending ("\r\n" or "\n"): what `questc fmt` writes back


display_name = reader.display_name  # as shown in diagnostics


def inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except (ValueError, OSError, RuntimeError):
        return False


def _resolved(path: Path) -> Path:
    """`path` with its links followed, or as it is when they loop or cannot be followed."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a loop of symbolic links
        return path


LINE_BREAK = reader.LINE_BREAK  # CRLF and lone CR; LF stays

# resolved path -> the editor's text for it (see the module's docstring)
_OVERLAY: dict[Path, str] = {}


def set_overlay(path: Path, text: str) -> None:
    """Read `text` instead of the file at `path` from now on (the editor's unsaved text)."""
    _OVERLAY[Path(path).resolve()] = text


def drop_overlay(path: Path) -> None:
    """Read the file at `path` from the disk again (the editor closed it)."""
    _OVERLAY.pop(Path(path).resolve(), None)


def overlaid() -> tuple[Path, ...]:
    return tuple(_OVERLAY)


def _overlay_text(text: str, max_bytes: int) -> str | reader.Refused:
    """An editor's text read as the file of its bytes would be: over `max_bytes` (P0107),
    holding NUL or a lone surrogate, which no UTF-8 file holds (P0106, located)."""
    if len(text) > max_bytes:  # every character is at least one byte: no need to encode
        return reader._too_large(f"more than {max_bytes}", max_bytes)
    raw = text.encode("utf-8", "surrogatepass")
    return reader._too_large(len(raw), max_bytes) if len(raw) > max_bytes else reader.text_of(raw)

def read_source(root: Path, path: Path, sink: Sink, *, max_bytes: int) -> Source | None:
    """Read one file of the pack at `root`; report and return None when it may not or cannot be read.

    The path is resolved and must stay inside the pack (P0105); the file itself is read
    by the one guarded reader (compiler/reader.py), at its resolved path and without
    following a link there (one made since the check), and what it refuses is a P01xx
    code: not a regular file P0113, too large P0107, not UTF-8 or binary P0106, any
    other refusal of the system P0109."""
    name = display_name(path)
    forget_source(name)  # until accepted again, no line of this name is shown
    try:
        real = path.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of symbolic links
        sink.report("P0109", Span.whole_file(name), path=name, problem=getattr(exc, "strerror", None) or str(exc))
        return None
    if not inside(root, real):
        sink.report("P0105", Span.whole_file(name), path=name)
        return None
    if real in _OVERLAY:  # an editor's unsaved text, held to a file's rules (issue 38)
        text = _overlay_text(_OVERLAY[real], max_bytes)
        if isinstance(text, reader.Refused):
            _refused(name, text, sink)
            return None
        return _accepted(name, real, text, sink)
    raw = reader.read_bytes(real, max_bytes=max_bytes, links=False)
    text = raw if isinstance(raw, reader.Refused) else reader.text_of(raw)
    if isinstance(text, reader.Refused):
        _refused(name, text, sink)
        return None
    return _accepted(name, real, text, sink)


def _refused(name: str, refused: reader.Refused, sink: Sink) -> None:
    """The reader's refusal as the pack code that has always said it."""
    if refused.why == "kind":
        sink.report("P0113", Span.whole_file(name), path=name, kind=refused.kind)
    elif refused.why == "size":
        sink.report("P0107", Span.whole_file(name), path=name, size=refused.size, limit=refused.limit)
    elif refused.why in ("nul", "utf8"):
        sink.report("P0106", refused.span(name), path=name, detail=refused.detail)
    else:  # the system's refusal; "link": one made between the check and the open
        sink.report("P0109", Span.whole_file(name), path=name, problem=refused.problem)


def _accepted(name: str, real: Path, text: str, sink: Sink) -> Source:
    text = text.removeprefix("\ufeff")
    first = re.search(r"\r\n|\r|\n", text)  # the first line's own ending
    newline = "\r\n" if first and first.group() == "\r\n" else "\n"
    # One way to end a line from here on: the parser, the YAML loader and the renderer
    # count lines alike, and a lone-CR file is not one long comment.
    text = LINE_BREAK.sub("\n", text)
    if not text.strip():
        sink.report("P0108", Span.whole_file(name), path=name)
    accept_source(name, text)
    return Source(real, name, text, newline)


def walk(root: Path, sink: Sink) -> Iterator[tuple[Path, list[str], list[str]]]:
    """os.walk below `root` without following links, sorted, hidden entries left out. A
    folder that cannot be listed is reported (P0109) instead of silently skipped. The
    caller may prune the folder list it is given, as with os.walk."""

    def refused(exc: OSError) -> None:
        name = display_name(Path(exc.filename)) if exc.filename else display_name(root)
        sink.report("P0109", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))

    for dirpath, dirnames, filenames in os.walk(root, onerror=refused, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        yield Path(dirpath), dirnames, sorted(f for f in filenames if not f.startswith("."))


def _utf8_name(path: Path, sink: Sink) -> bool:
    """A file name reaches the bundle (where each text comes from), so it must be text:
    bytes that are not UTF-8 arrive as lone surrogates, which no JSON file can hold."""
    try:
        path.name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        name = visible(display_name(path))  # \udcff for the byte 0xff: valid text in every format
        sink.report("P0114", Span.whole_file(name), path=name)
        return False


def pack_files(root: Path, sink: Sink, *, max_bytes: int) -> list[Source]:
    """Every catalog (*.yaml except pack.yaml) and quest (*.quest) file of a pack, sorted by path."""
    found: list[Path] = []
    for here, dirnames, filenames in walk(root, sink):
        dirnames[:] = [d for d in dirnames if d != "assets" and _utf8_name(here / d, sink)]
        for d in list(dirnames):  # a linked folder is a way out of the pack
            if (here / d).is_symlink() and not inside(root, here / d):
                sink.report("P0105", Span.whole_file(display_name(here / d)), path=display_name(here / d))
                dirnames.remove(d)
        for f in filenames:
            if (f.endswith(".yaml") and not (here == root and f == "pack.yaml")) or f.endswith(".quest"):
                if _utf8_name(here / f, sink):
                    found.append(here / f)
    if _OVERLAY:  # an editor's new file, not saved yet
        known = {_resolved(p) for p in found}  # a file in a loop of links is P0109 when it is read
        real_root = root.resolve()
        for path in _OVERLAY:
            if path not in known and path.suffix in (".yaml", ".quest") and path != real_root / "pack.yaml" \
                    and inside(real_root, path) and not path.exists():
                found.append(root / path.relative_to(real_root))
    out = []
    for path in sorted(found, key=lambda p: p.relative_to(root).as_posix()):
        src = read_source(root, path, sink, max_bytes=max_bytes)
        if src is not None:
            out.append(src)
    return out

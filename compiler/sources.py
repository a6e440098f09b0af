"""Read a pack's files safely: inside the pack, regular files only, UTF-8 text, bounded size.

A content pack never runs code and never reads outside its folder: symbolic links and
`..` that leave the pack are refused with a located diagnostic. `read_source` is the one
routine that reads pack content (sources, pack.yaml, `questc fmt`); `walk` is the one
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
import stat
from pathlib import Path
from typing import Iterator

from compiler.diagnostics import Sink, Span
from compiler.diagnostics.render import accept_source, forget_source, visible
from compiler import frozen


@frozen
class Source:
    path: Path  # absolute, resolved
    name: str  # as shown in diagnostics: relative to the working directory when possible
    text: str  # line endings normalised to "\n"
    newline: str = "\n"  # the file's own line ending ("\r\n" or "\n"): what `questc fmt` writes back


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


# O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever.
# O_NOFOLLOW: the path opened is already resolved, so a link in its last step can only
# have appeared since the check that it stays inside the pack.
_OPEN_FLAGS = os.O_RDONLY | sum(  # distinct bits; 0 for a flag this system does not have
    getattr(os, flag, 0) for flag in ("O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC", "O_BINARY")
)

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)

LINE_BREAK = re.compile(r"\r\n?")  # CRLF and lone CR; LF stays

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


def _overlay_bytes(text: str, name: str, sink: Sink, max_bytes: int) -> bytes | None:
    """An editor's text as the bytes of a file (P0107 over `max_bytes`); the caller then
    reads them as a file's (NUL, and a lone surrogate, which no UTF-8 file holds: P0106)."""
    if len(text) > max_bytes:  # every character is at least one byte: no need to encode
        sink.report("P0107", Span.whole_file(name), path=name, size=f"more than {max_bytes}", limit=max_bytes)
        return None
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > max_bytes:
        sink.report("P0107", Span.whole_file(name), path=name, size=len(raw), limit=max_bytes)
        return None
    return raw

def _not_regular(mode: int, name: str, sink: Sink) -> bool:
    """True (and P0113 reported) when `mode` is not a regular file's."""
    if stat.S_ISREG(mode):
        return False
    kind = next((what for test, what in _KINDS if test(mode)), "not a regular file")
    sink.report("P0113", Span.whole_file(name), path=name, kind=kind)
    return True


def _read_bounded(real: Path, name: str, sink: Sink, max_bytes: int) -> bytes | None:
    """The bytes of the regular file at the resolved path `real`, at most `max_bytes`.
    What is checked (kind, size) is the open descriptor, the same file that is read; at
    most `max_bytes + 1` bytes are read, so a file that grows, lies about its size or
    never ends costs no memory."""
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except OSError as exc:
        try:  # a socket cannot even be opened: say what it is rather than why it failed
            refused = _not_regular(os.stat(real).st_mode, name, sink)
        except OSError:
            refused = False
        if not refused:
            sink.report("P0109", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
        return None
    try:
        st = os.fstat(fd)
        if _not_regular(st.st_mode, name, sink):
            return None
        if st.st_size > max_bytes:
            sink.report("P0107", Span.whole_file(name), path=name, size=st.st_size, limit=max_bytes)
            return None
        chunks: list[bytes] = []
        got = 0
        while got <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > max_bytes:
            sink.report("P0107", Span.whole_file(name), path=name, size=f"more than {max_bytes}", limit=max_bytes)
            return None
        return b"".join(chunks)
    except OSError as exc:
        sink.report("P0109", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
        return None
    finally:
        os.close(fd)


def read_source(root: Path, path: Path, sink: Sink, *, max_bytes: int) -> Source | None:
    """Read one file of the pack at `root`; report and return None when it may not or cannot be read."""
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
        raw = _overlay_bytes(_OVERLAY[real], name, sink, max_bytes)
    else:
        raw = _read_bounded(real, name, sink, max_bytes)
    if raw is None:
        return None
    if b"\x00" in raw:
        sink.report("P0106", Span.whole_file(name), path=name, detail=" (it holds NUL bytes: a binary file?)")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = LINE_BREAK.sub("\n", raw[: exc.start].decode("utf-8"))  # valid up to the bad byte
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        sink.report("P0106", Span(name, line, col), path=name, detail=f" (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
        return None
    return _accepted(name, real, text, sink)


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
        known = {p.resolve() for p in found}
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

"""The one guarded reader: every file questc reads because a user named it goes through here.

Pack files (`sources.read_source`), the configuration (`questc.toml`, `pyproject.toml`,
`--config`), activation state files (`activate --state`), `.activation-test` files,
spreadsheets and PO files of `questc strings`, the plugins' inputs (Tiled maps and
tilesets, TAG JSON, Valkyrie folders and packages) and the bundles `view` and `serve`
hand out are all read by `read_bytes` / `read_text`, with the same rules:

- **regular files only.** The file is opened with `O_NONBLOCK` (a named pipe would
  otherwise wait for a writer forever) and its kind is checked with `fstat` on the open
  descriptor: a FIFO, a device, a socket or a folder is refused before a byte is read;
- **links where it matters.** `links=False` refuses a symbolic link in the last step of
  the path (checked with `lstat`, and opened with `O_NOFOLLOW`, so a link made between
  the two is refused too). The configuration is always read so; pack files are resolved
  and checked to stay inside the pack first (`sources.py`);
- **bounded.** The size is checked on the descriptor, and at most `max_bytes + 1` bytes
  are read, so a file that grows, lies about its size (`/proc`) or never ends costs no
  memory;
- **text is UTF-8** (a located refusal at the first bad byte) and never holds NUL;
- **ownership, where asked** (`owned=True`, the configuration questc finds on its own):
  a file that belongs to another user (neither the current user nor root) is refused,
  naming its owner, as git refuses a repository owned by someone else;
- **nesting, for JSON data** (`load_json`: Tiled maps, TAG data): a text nested deeper
  than `MAX_DEPTH` is refused by a cheap scan (`nesting`) before json recurses. YAML
  (state files, activation tests) is bounded by its own loader the same way (Y0010,
  compiler/catalogs/yamlload.py).

A refusal is a `Refused` value (what is wrong, in words, and where), never an exception;
`read_reported` turns it into the caller's diagnostic code. A refused file never has a
line shown: its name is forgotten by the renderer (`diagnostics.render.forget_source`),
and only accepted text is registered (`accept_source`).

Files the compiler ships (schemas, the grammar, fonts, the player) are trusted and read
by `compiler.resources.packaged_*` instead; questc's own private cache and outputs are
written and read by their own modules. `tests/test_readers.py` finds every other way a
file is opened in compiler/ and plugins/ and fails on it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import Any, Union

from compiler import frozen
from compiler.diagnostics import Sink, Span

StrPath = Union[str, "os.PathLike[str]"]

# JSON data (Tiled maps, TAG data) nests a handful of levels; json recurses once per
# level, and Python's stack gives out long before a file of a few megabytes does. The
# same number as the YAML loader's limit (yamlload.MAX_DEPTH).
MAX_DEPTH = 100

# O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever. O_BINARY:
# Windows. Each is 0 where the system lacks it.
_OPEN_FLAGS = os.O_RDONLY | sum(getattr(os, flag, 0) for flag in ("O_NONBLOCK", "O_CLOEXEC", "O_BINARY"))
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
)

LINE_BREAK = re.compile(r"\r\n?")  # CRLF and lone CR; LF stays


@frozen
class Refused:
    """Why a file was not read. `problem` says it in words, after "cannot read X: "."""

    why: str  # "os", "kind", "link", "owner", "size", "nul", "utf8", "depth", "json"
    problem: str
    line: int = 1
    column: int = 1
    kind: str = ""  # why == "kind": "a named pipe (FIFO)", …
    size: int | str = 0  # why == "size": the size found, or "more than N"
    limit: int = 0  # why == "size" or "depth"
    detail: str = ""  # why == "nul" or "utf8": " (byte 0xff at offset 3)"
    owner: str = ""  # why == "owner": "bob (uid 1001)"

    def span(self, name: str) -> Span:
        return Span(name, self.line, self.column)


def kind_of(mode: int) -> str | None:
    """What a file of `mode` is, in words, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in KINDS if test(mode)), "not a regular file")


def _not_regular(kind: str) -> Refused:
    return Refused("kind", f"it is {kind}, not a regular file", kind=kind)


def _link() -> Refused:
    return Refused("link", "it is a symbolic link, which questc does not follow here", kind="a symbolic link")


def _my_uid() -> int | None:
    """The user whose files are trusted (besides root's); None where files have no owners."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def _user(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _foreign(uid: int) -> Refused | None:
    me = _my_uid()
    if me is None or uid in (me, 0):
        return None
    return Refused("owner", f"it belongs to {_user(uid)}, not to you or root", owner=_user(uid))


def read_bytes(path: StrPath, *, max_bytes: int, links: bool = True, owned: bool = False) -> bytes | Refused:
    """The bytes of the regular file at `path`, at most `max_bytes`, or why not.

    What is checked (kind, owner, size) is the open descriptor, the same file that is
    read. `links=False`: a symbolic link at `path` is refused, never followed. `owned`:
    a file of another user (neither the current one nor root) is refused."""
    if not links:
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return _link()
        except OSError:
            pass  # the open below says why
    try:
        fd = os.open(path, _OPEN_FLAGS | (0 if links else _NOFOLLOW))
    except OSError as exc:
        if not links and exc.errno == errno.ELOOP:
            return _link()  # made a link since the lstat above
        try:  # a socket cannot even be opened: say what it is rather than why it failed
            kind = kind_of(os.stat(path).st_mode)
        except OSError:
            kind = None
        if kind is not None:
            return _not_regular(kind)
        return Refused("os", exc.strerror or str(exc))
    try:
        st = os.fstat(fd)
        kind = kind_of(st.st_mode)
        if kind is not None:
            return _not_regular(kind)
        if owned:
            foreign = _foreign(st.st_uid)
            if foreign is not None:
                return foreign
        if st.st_size > max_bytes:
            return _too_large(st.st_size, max_bytes)
        chunks: list[bytes] = []
        got = 0
        while got <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > max_bytes:
            return _too_large(f"more than {max_bytes}", max_bytes)
        return b"".join(chunks)
    except OSError as exc:
        return Refused("os", exc.strerror or str(exc))
    finally:
        os.close(fd)


def _too_large(size: int | str, limit: int) -> Refused:
    shown = f"{size:,}" if isinstance(size, int) else size
    return Refused("size", f"it is {shown} bytes, over the limit of {limit:,}", size=size, limit=limit)


def text_of(raw: bytes) -> str | Refused:
    """`raw` as UTF-8 text, or why not: NUL bytes (a binary file), or the first byte that
    is not UTF-8, located by line and column."""
    nul = raw.find(b"\x00")
    if nul >= 0:
        line, col = _place(raw, nul)
        return Refused("nul", "it holds NUL bytes (a binary file?)", line, col, detail=" (it holds NUL bytes: a binary file?)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _place(raw, exc.start)
        where = f"byte 0x{raw[exc.start]:02x} at offset {exc.start}"
        return Refused("utf8", f"it is not UTF-8 text ({where})", line, col, detail=f" ({where})")


def _place(raw: bytes, offset: int) -> tuple[int, int]:
    """Line and column (in characters, lines ended as the parsers count them) of byte `offset`."""
    before = LINE_BREAK.sub("\n", raw[:offset].decode("utf-8", errors="replace"))
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def read_text(path: StrPath, *, max_bytes: int, links: bool = True, owned: bool = False,
              newlines: bool = True) -> str | Refused:
    """`read_bytes`, then `text_of`. `newlines`: a leading byte-order mark dropped and CRLF
    and lone CR made LF (the parsers and the renderer count lines alike)."""
    raw = read_bytes(path, max_bytes=max_bytes, links=links, owned=owned)
    if isinstance(raw, Refused):
        return raw
    text = text_of(raw)
    if isinstance(text, Refused) or not newlines:
        return text
    return LINE_BREAK.sub("\n", text.removeprefix("\ufeff"))


def display_name(path: StrPath) -> str:
    """`path` as diagnostics show it: relative to the working folder when it is absolute."""
    path = Path(path)
    try:
        return os.path.relpath(path, Path.cwd()) if path.is_absolute() else str(path)
    except ValueError:  # another drive on Windows
        return str(path)


def refuse(name: str, refused: Refused, sink: Sink, code: str, field: str = "problem", /, **args: object) -> None:
    """Report `refused` as `code` (its words as `field` of the message); no line of `name`
    is shown, except for a JSON syntax error (`load_json`) in text the reader accepted."""
    from compiler.diagnostics.render import forget_source

    if refused.why != "json":
        forget_source(name)
    words: dict[str, Any] = {field: refused.problem, **args}
    sink.report(code, refused.span(name), **words)


def read_reported(path: StrPath, sink: Sink, code: str, field: str = "problem", /, *, max_bytes: int,
                  name: str | None = None, links: bool = True, owned: bool = False, newlines: bool = True,
                  depth: bool = False, **args: object) -> str | None:
    """`read_text` of `path`, or None after reporting `code` at the place of the refusal,
    with the refusal's words as the message's `field` (and `args`). The text accepted is
    registered for the renderer under `name` (default: `display_name(path)`). `depth`:
    the text is data, refused when nested deeper than MAX_DEPTH (`nesting`)."""
    from compiler.diagnostics.render import accept_source, forget_source

    name = display_name(path) if name is None else name
    forget_source(name)  # until accepted again, no line of this name is shown
    got = read_text(path, max_bytes=max_bytes, links=links, owned=owned, newlines=newlines)
    if not isinstance(got, Refused) and depth:
        got = nesting(got) or got
    if isinstance(got, Refused):
        refuse(name, got, sink, code, field, **args)
        return None
    accept_source(name, got)
    return got


# ---------------------------------------------------------------- nesting of data
# What hides a bracket: strings (a quote opens one only where a token may start, so the
# apostrophe of a plain YAML word does not) and YAML comments (a `#` at the start of a
# line or after a blank).
_HIDDEN = re.compile(  # each alternative starts with its character, so the regex skips the rest fast
    r""""(?<![^\s\[\]{},:]")[^"\\]*(?:\\.[^"\\]*)*"?"""
    r"""|'(?<![^\s\[\]{},:]')[^']*(?:''[^']*)*'?"""
    r"""|\#(?<!\S\#)[^\n]*""",
    re.S,
)
_TOKENS = re.compile(_HIDDEN.pattern + r"|[\[\]{}]", re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _deepest(text: str) -> int:
    """How deep the brackets of `text` nest (a closing bracket with none open is passed
    over), without a loop in Python: the depth after each bracket is its prefix sum less
    the lowest prefix sum so far (when below zero)."""
    from itertools import accumulate, islice
    from operator import sub

    brackets = _NOT_BRACKET.sub("", _HIDDEN.sub(" ", text))
    if not brackets:
        return 0
    prefix = list(accumulate(map(_STEP.__getitem__, brackets)))
    return int(max(map(sub, prefix, islice(accumulate(prefix, min, initial=0), 1, None))))


def nesting(text: str, limit: int = MAX_DEPTH) -> Refused | None:
    """None when `text` (JSON, or YAML in flow style) nests at most `limit` brackets deep;
    else a refusal located at the bracket one too deep. Linear, without recursion, so it
    runs before a parser that recurses once per level (json, the YAML composer)."""
    if text.count("[") + text.count("{") <= limit or _deepest(text) <= limit:
        return None  # the common case costs two counts; a large file, a few regex passes
    depth = 0
    for m in _TOKENS.finditer(text):  # only to say where: the file is refused
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return Refused("depth", f"it is nested more than {limit} levels deep", line, col, limit=limit)
        elif c in "]}":
            depth = max(0, depth - 1)
    return None  # not reached: both walks count alike


def load_json(text: str, limit: int = MAX_DEPTH) -> object | Refused:
    """`json.loads(text)`, or a located refusal: nested deeper than `limit` (checked
    first, so json never recurses that far), or not JSON."""
    import json

    deep = nesting(text, limit)
    if deep is not None:
        return deep
    try:
        value: object = json.loads(text)
        return value
    except json.JSONDecodeError as exc:
        return Refused("json", f"invalid JSON ({exc.msg})", exc.lineno, exc.colno)
    except (RecursionError, ValueError) as exc:  # a 5,000-digit number (int's limit); the stack, should the scan miss
        return Refused("json", f"invalid JSON ({str(exc)[:200] or type(exc).__name__})")

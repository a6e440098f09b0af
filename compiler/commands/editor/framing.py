"""Reading the Language Server Protocol's messages from a byte stream, whatever arrives.

A message is headers (`Content-Length: N`, maybe `Content-Type: …`), a blank line and N
bytes of JSON. pygls 2 reads this with `readline()` and `read(N)` and trusts N: a header
of `Content-Length: 99999999999999999999` made the read raise and the server exit, a line
without an end was read whole into memory, and a body that is not UTF-8 was dropped
without an answer. `Framer.next` reads instead:

- header lines of at most MAX_LINE bytes: a longer run without a line end is passed over
  in pieces (counted in `skipped`), never held;
- a body of at most MAX_MESSAGE bytes. A longer one is not held either: it is passed
  over in chunks (`("rejected", why)`), and since a body of valid JSON never holds the
  bytes `Content-Length: N` followed by a line end (a line end in JSON text is escaped),
  finding them there means the length lied and the next message starts at them: reading
  goes on from there, so a bogus length costs one message, not the session;
- a header `Content-Length` is found at the end of a line even after junk, so a body
  shorter than its length said (the next header glued to it) costs only that message.

What is done with a body (UTF-8, JSON, answering a request it can identify) is the
server's (compiler/commands/editor/server.py, `QuestServer.take`).
"""

from __future__ import annotations

import re
from typing import BinaryIO, Literal

MAX_LINE = 8192  # bytes of one header line; real ones are under 100
MAX_MESSAGE = 64 * 1024 * 1024  # bytes of one body: a 4 MB file's didOpen, escaped as JSON, is well under this
CHUNK = 64 * 1024

HEADER = re.compile(rb"content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?\n\Z", re.IGNORECASE)  # at a line's end
HEADER_ANYWHERE = re.compile(rb"content-length[ \t]*:[ \t]*\d+[ \t]*\r?\n", re.IGNORECASE)
KEEP = 64  # bytes kept back while passing over a body: a header cut by a chunk's end is still found
TOO_MANY_DIGITS = 18  # a length of more digits is beyond any limit (and int() of thousands of digits is refused)

# what Framer.next reads: a message's body, why one was passed over, or the end of the stream
Frame = tuple[Literal["message"], bytes] | tuple[Literal["rejected"], str] | tuple[Literal["end"], None]


class Framer:
    """The messages of `stream` (a binary file: `read1` is used where it exists, so a read
    never waits for more bytes than one message needs)."""

    def __init__(self, stream: BinaryIO, max_message: int = MAX_MESSAGE) -> None:
        self.read = getattr(stream, "read1", None) or stream.read
        self.max_message = max_message
        self.buf = bytearray()
        self.eof = False
        self.skipped = 0  # bytes passed over that were no header (reported and reset by the caller)

    def _fill(self) -> bool:
        if self.eof:
            return False
        chunk = self.read(CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def _line(self) -> bytes | None:
        """The next line with its end, or a piece of MAX_LINE bytes of a longer one (no
        line end), or what is left at the end of the stream; None when nothing is."""
        while True:
            end = self.buf.find(b"\n", 0, MAX_LINE)
            if end >= 0:
                return self._take(end + 1)
            if len(self.buf) >= MAX_LINE:  # the last KEEP bytes stay: a header cut here is found whole
                return self._take(MAX_LINE - KEEP)
            if not self._fill():
                return self._take(len(self.buf)) if self.buf else None

    def _take(self, n: int) -> bytes:
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def _exactly(self, n: int) -> bytes | None:
        while len(self.buf) < n:
            if not self._fill():
                return None
        return self._take(n)

    def _pass_over(self, n: int) -> None:
        """Pass over the `n` bytes of a body too large to hold, or up to a header inside
        them (the length lied: the next message starts there)."""
        while n > 0:
            found = HEADER_ANYWHERE.search(self.buf)
            if found is not None and found.start() < n:
                del self.buf[: found.start()]
                return
            if len(self.buf) >= n:  # the rest of the body is here, and holds no header
                del self.buf[:n]
                return
            drop = len(self.buf) - KEEP
            if drop > 0:
                del self.buf[:drop]
                n -= drop
            if not self._fill():
                return

    def buffered(self) -> bool:
        """Whether `next` would return a message already read, without reading: the
        server then takes it at once, so the messages that arrived while it was busy (a
        burst of didOpen) are taken together and the checks they ask for are one."""
        pos, length = 0, None
        while True:
            end = self.buf.find(b"\n", pos, pos + MAX_LINE)
            if end < 0:
                return False
            line, pos = bytes(self.buf[pos:end + 1]), end + 1
            found = HEADER.search(line)
            if found is not None:
                digits = found.group(1)
                length = int(digits) if len(digits) <= TOO_MANY_DIGITS else 10**TOO_MANY_DIGITS
            elif line in (b"\r\n", b"\n") and length is not None:
                return length <= self.max_message and len(self.buf) - pos >= length

    def next(self) -> Frame:
        """("message", body bytes), ("rejected", why in words) or ("end", None)."""
        length: int | None = None
        while True:
            line = self._line()
            if line is None:
                return "end", None
            found = HEADER.search(line) if line.endswith(b"\n") else None
            if found is not None:
                digits = found.group(1)
                length = int(digits) if len(digits) <= TOO_MANY_DIGITS else 10**TOO_MANY_DIGITS
                junk = found.start()
                if junk:
                    self.skipped += junk
                continue
            if line in (b"\r\n", b"\n"):
                if length is None:  # a blank line with no length before it
                    self.skipped += len(line)
                    continue
                if length > self.max_message:
                    self._pass_over(length)
                    return "rejected", (f"a message of {length:,} bytes (Content-Length) is over the limit of "
                                        f"{self.max_message:,}: passed over")
                body = self._exactly(length)
                if body is None:
                    return "end", None
                return "message", body
            if length is None or not line.endswith(b"\n") or b":" not in line:
                self.skipped += len(line)  # not a header (another header, Content-Type, is passed over silently)

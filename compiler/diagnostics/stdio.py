"""Standard output and error that may be gone: a pipe whose reader quit (`questc … | head`),
a full device (`> /dev/full`), a descriptor closed before questc started (`>&-`).

An OSError from writing stdout looks exactly like one from writing a file, so while a
command runs `cli.main` wraps both streams: their write failures become `StreamFailed`,
which says which stream failed, and `ended` turns that into a quiet exit (see
docs/robustness.md, "Killed builds, closed pipes and neighbours"):

- a closed pipe ends with no message and exit 141 (128 + SIGPIPE), what the shell
  reports for `cat`, `grep` or `git` cut off the same way: the output was not all read,
  so under `set -o pipefail` a truncated `questc check` never passes for a clean one;
- any other failure of stdout (ENOSPC, EIO, EBADF) is one line on stderr and exit 1, as
  for an output file that cannot be written (I0003); a failing stderr is exit 1, silent.

Stdlib only: `questc --version` goes through here and must start fast.
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, TextIO

if TYPE_CHECKING:
    from typing import Any

CLOSED_PIPE = 128 + 13  # 128 + SIGPIPE: the status of a process the closed pipe killed
CANNOT_WRITE = 1


class StreamFailed(Exception):
    def __init__(self, name: str, stream: TextIO | None, error: OSError):
        super().__init__(f"cannot write {name}: {error}")
        self.name, self.stream, self.error = name, stream, error


class _Marked:
    """`stream`, but its write failures raise StreamFailed naming it."""

    def __init__(self, name: str, stream: TextIO | None):
        self._name, self._stream = name, stream

    def _failed(self, error: OSError) -> StreamFailed:
        return StreamFailed(self._name, self._stream, error)

    def write(self, text: str) -> int:
        if self._stream is None:  # Python gives None for a descriptor closed at start-up
            raise self._failed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise self._failed(exc) from exc

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._failed(exc) from exc

    def __getattr__(self, attr: str) -> Any:  # isatty, encoding, fileno… of the real stream: whatever they are
        if self._stream is None:
            raise self._failed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        return getattr(self._stream, attr)


@contextmanager
def marked() -> Iterator[None]:
    """While the block runs, writes to sys.stdout and sys.stderr that fail raise StreamFailed.
    The block should end with `flush()`, so buffered output fails inside it, not at exit."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Marked("standard output", saved[0]), _Marked("standard error", saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def flush() -> None:
    sys.stdout.flush()
    sys.stderr.flush()


def ended(failure: StreamFailed) -> int:
    """Silence the failed stream and say, on stderr if it still works, why questc stopped."""
    _to_devnull(failure.stream)
    if failure.error.errno == errno.EPIPE:  # the reader has gone: nothing to say, no one to say it to
        return CLOSED_PIPE
    if failure.name == "standard output":
        say(f"error[I0003]: cannot write {failure.name}: {failure.error.strerror or failure.error}\n")
    return CANNOT_WRITE


def say(text: str) -> None:
    """Write to stderr if it is still there; when it is not, the exit code is all that is left."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except StreamFailed as failure:
        _to_devnull(failure.stream)
    except OSError:
        _to_devnull(sys.stderr)


def _to_devnull(stream: TextIO | None) -> None:
    """Point the stream's descriptor at /dev/null: Python flushes stdout once more at exit,
    and that flush would fail again ("Exception ignored … BrokenPipeError")."""
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # an in-memory stream (tests)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)

"""One writer at a time per output folder: an advisory lock on `DIR/.questc.lock`.

Two builds (or a build and `questc watch`) writing into one folder would race in the
rename swap and would remove each other's staging folders as leftovers. A build holds
the lock while it tidies, writes and swaps; a second one waits for it, says so once,
and gives up after `WAIT_SECONDS` (diagnostic I0004).

The kernel drops an flock when its holder exits, even under `kill -9`, so a lock never
goes stale. The lock file itself is left in place: deleting it would let a third build
lock a new file while a second still waits on the old one.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

try:
    import fcntl
except ImportError:  # Windows: no flock; builds into one folder are not serialised there
    _HAVE_FLOCK = False
else:
    _HAVE_FLOCK = True

LOCK_NAME = ".questc.lock"
WAIT_SECONDS = 60.0  # a build's write phase takes well under a second; a minute means a stuck holder
_POLL_SECONDS = 0.05


class LockTimeout(Exception):
    def __init__(self, lock: Path, seconds: float):
        super().__init__(f"{lock} still held after {seconds:g} s")
        self.lock, self.seconds = lock, seconds


def _say_waiting(lock: Path) -> None:
    from compiler.diagnostics.render import visible  # a folder's name may hold control characters

    sys.stderr.write(f"questc: another questc is writing into {visible(str(lock.parent))}; waiting for it (lock {visible(str(lock))})\n")


@contextmanager
def writer_lock(out_dir: Path, on_wait: Callable[[Path], None] = _say_waiting) -> Iterator[Path]:
    """Hold `out_dir`'s lock for the block. Raises LockTimeout after WAIT_SECONDS, OSError
    when the lock file cannot be opened (an unwritable folder)."""
    lock = out_dir / LOCK_NAME
    # never through a link planted under the lock's name (O_CREAT would make its target)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        if _HAVE_FLOCK:
            _acquire(fd, lock, on_wait)
        yield lock
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _acquire(fd: int, lock: Path, on_wait: Callable[[Path], None]) -> None:
    # Polled rather than a blocking flock, so the wait is bounded and Ctrl-C stays prompt.
    deadline = None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if deadline is None:
            deadline = time.monotonic() + WAIT_SECONDS
            on_wait(lock)
        elif time.monotonic() >= deadline:
            raise LockTimeout(lock, WAIT_SECONDS)
        time.sleep(_POLL_SECONDS)

"""What a person at a terminal sees besides the diagnostics: -q/-v, colour, progress, timings.

- `begin(verbose, quiet, machine)` once per command (compiler/cli.py), `end()` after it.
- `stage(label)` around each stage of the pipeline (`packs`, `load d2e-quests`,
  `passes d2e-quests`, `emit d2e-quests`, `write`): with -v its duration is printed on
  stderr at the end; on a terminal, a command still running after PROGRESS_AFTER
  seconds shows the current stage on one line of stderr, rewritten in place and erased
  before anything else is printed. It is drawn with a carriage return and spaces only
  (no terminal escape sequences), so a terminal with NO_COLOR gets no escapes at all. Never with -q, never for --format json|sarif|github
  (their output stays the same bytes whatever the streams are), never when stderr is
  not a terminal.
- `colour(stream)`: NO_COLOR (any non-empty value) turns colour off; otherwise
  FORCE_COLOR (non-empty) turns it on; otherwise only a terminal gets colour.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TextIO

PROGRESS_AFTER = 1.0  # seconds before the progress line appears
_TICK = 0.1


class _State:
    def __init__(self) -> None:
        self.verbose = False
        self.quiet = False
        self.timings: list[tuple[str, float]] = []
        self.label = ""
        self.started = 0.0
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.drawn = 0  # length of the progress line now on the screen (0: none)


_S = _State()


def quiet() -> bool:
    return _S.quiet


def colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def begin(*, verbose: bool = False, quiet: bool = False, machine: bool = False) -> None:
    global _S
    _S = _State()
    _S.verbose, _S.quiet = verbose, quiet
    _S.started = time.monotonic()
    if not quiet and not machine and _terminal(sys.stderr):
        _S.thread = threading.Thread(target=_draw_loop, args=(_S,), name="questc-progress", daemon=True)
        _S.thread.start()


@contextmanager
def stage(label: str) -> Iterator[None]:
    """Time one stage and show it as the current one."""
    state = _S
    state.label = label
    start = time.perf_counter()
    try:
        yield
    finally:
        state.timings.append((label, time.perf_counter() - start))


def erase_progress() -> None:
    """Stop drawing and erase the progress line (before any other output on stderr)."""
    state = _S
    state.stop.set()
    if state.thread is not None and state.thread is not threading.current_thread():
        state.thread.join(timeout=1)
    with state.lock:
        if state.drawn:
            _write("\r" + " " * state.drawn + "\r")
            state.drawn = 0


def end() -> None:
    erase_progress()
    if _S.verbose and _S.timings:
        from compiler.diagnostics.stdio import say

        width = max(len(label) for label, _ in _S.timings)
        lines = [f"timing: {label:<{width}}  {seconds * 1000:8.1f} ms\n" for label, seconds in _S.timings]
        lines.append(f"timing: {'total':<{width}}  {(time.monotonic() - _S.started) * 1000:8.1f} ms\n")
        say("".join(lines))


def _write(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - a progress line is never worth a failure
        pass


def progress_line(label: str, elapsed: float) -> str:
    return f"questc: {label or 'starting'}… {elapsed:.1f} s"


def _draw_loop(state: _State) -> None:
    if state.stop.wait(PROGRESS_AFTER):
        return
    while not state.stop.is_set():
        with state.lock:
            if state.stop.is_set():
                break
            elapsed = time.monotonic() - state.started
            line = progress_line(state.label, elapsed)
            _write("\r" + line.ljust(state.drawn))  # spaces cover a longer line drawn before
            state.drawn = max(len(line), state.drawn)
        state.stop.wait(_TICK)

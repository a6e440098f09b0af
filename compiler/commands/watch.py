"""questc watch [PATH…] [-o DIR]: rebuild on every save.

Builds once, then waits for file-system events on the folders given (watchfiles:
inotify, FSEvents or ReadDirectoryChangesW) and builds again when a pack file (.yaml,
.quest, translations/*.po) or a folder is saved, created, deleted or moved: diagnostics, then — when the
packs are clean — bundles, images and manifests written atomically, as `questc build`
does. A burst of saves (an editor writing several files, a git checkout) gives one
rebuild: it starts once the files have been quiet for --debounce seconds. Changes made
during a rebuild are kept by the watcher and give one more. Unchanged files are not
parsed again (compiler/memo.py). Where events do not arrive (network folders, some
containers), --poll looks at the files every --interval seconds instead; a file that
vanishes while it looks is passed over. Stop with Ctrl-C (exit 0).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from compiler.commands.common import add_output_arguments, add_pack_arguments

if TYPE_CHECKING:
    import threading

    from compiler.diagnostics.model import Sink

# what a caller learns of each build (`questc serve` shows failed builds in the page)
Report = Callable[[int, "Sink"], None]

PACK_SUFFIXES = (".yaml", ".quest", ".po")  # .po: translations/<lang>.po (docs/translations.md)
SECONDS = (0.01, 3600.0)  # what --debounce and --interval accept
# The watcher yields an empty batch when it has been idle this long: the first one tells
# that it is running (so a save during the first build is not missed), later ones let a
# stop request (tests) be seen.
IDLE_MS = 100


def seconds(text: str) -> float:
    """argparse type of --debounce and --interval: a finite number of seconds in SECONDS."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number of seconds") from None
    low, high = SECONDS
    if not (math.isfinite(value) and low <= value <= high):
        raise argparse.ArgumentTypeError(f"must be a number of seconds from {low:g} to {high:g}; got `{text}`")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)
    add_output_arguments(parser)
    parser.add_argument(
        "--debounce", type=seconds, default=0.02, metavar="SECONDS",
        help="rebuild once the files have been quiet this long (default: 0.02)",
    )
    parser.add_argument(
        "--poll", action="store_true",
        help="look at the files every --interval instead of waiting for file-system events (network folders, some containers)",
    )
    parser.add_argument(
        "--interval", type=seconds, default=0.5, metavar="SECONDS",
        help="how often to look for changes when polling (default: 0.5)",
    )


def is_pack_change(path: str, output: Path | str) -> bool:
    """A change that can alter a build: a pack file, or a folder (moving or removing a
    folder of pack files is a single event) — not questc's own output, not hidden files
    (editor swap files, staging folders)."""
    real = os.path.realpath(path)
    if real == str(output) or real.startswith(str(output) + os.sep):
        return False
    name = os.path.basename(path)
    return not name.startswith(".") and (name.endswith(PACK_SUFFIXES) or not os.path.splitext(name)[1])


def file_events(args: argparse.Namespace, stop: threading.Event | None = None) -> Iterator[set[tuple[Any, str]]]:
    """Batches of (change, path) under the existing PATHs, one batch per quiet spell, and an
    empty batch after IDLE_MS without changes; the first batch says the watcher is running.
    Ends when `stop` (anything with is_set(), e.g. threading.Event) is set."""
    roots = [p for p in args.paths if os.path.exists(p)]
    if not roots:
        return iter(())
    if args.poll:
        return poll_events(roots, args, stop)
    import watchfiles

    return watchfiles.watch(
        *roots,
        step=round(args.debounce * 1000),  # watchfiles' step: yield once no change came for this long
        debounce=_longest_burst_ms(args),  # and at the latest after this, in a long burst
        rust_timeout=IDLE_MS,
        yield_on_timeout=True,
        stop_event=stop,
        poll_delay_ms=round(args.interval * 1000),  # where watchfiles itself falls back to polling (WSL)
    )


def _longest_burst_ms(args: argparse.Namespace) -> int:
    debounce: float = args.debounce
    return max(1600, round(debounce * 4000))


def poll_events(roots: list[str], args: argparse.Namespace, stop: threading.Event | None = None) -> Iterator[set[tuple[str, str]]]:
    """questc's own poller (--poll): every --interval seconds, the (mtime in ns, size) of each
    pack file. Not watchfiles' poller, which compares modification times in whole seconds
    and so misses a second save within the same second."""
    output = os.path.realpath(args.output)
    seen = _stamps(roots, output)
    yield set()
    while not (stop is not None and stop.is_set()):
        _pause(args.interval, stop)
        now = _stamps(roots, output)
        changed = _differ(seen, now)
        burst_ends = time.monotonic() + _longest_burst_ms(args) / 1000
        while changed and time.monotonic() < burst_ends:  # wait for a quiet spell of --debounce
            _pause(args.debounce, stop)
            later = _stamps(roots, output)
            more = _differ(now, later)
            now = later
            if not more:
                break
            changed |= more
        seen = now
        yield {("changed", path) for path in changed}


def _pause(seconds: float, stop: threading.Event | None) -> None:
    if stop is None:
        time.sleep(seconds)
    else:
        stop.wait(seconds)


def _differ(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> set[str]:
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def _stamps(roots: list[str], output: str) -> dict[str, tuple[int, int]]:
    """(mtime in ns, size) of every pack file below the roots."""
    stamps: dict[str, tuple[int, int]] = {}
    for root in roots:
        for path in _pack_files_below(root, output):
            try:
                st = os.stat(path)
            except OSError:  # gone since its folder was listed: the unguarded stat was the old I0001
                continue
            stamps[path] = (st.st_mtime_ns, st.st_size)
    return stamps


def _pack_files_below(root: str, output: str) -> Iterator[str]:
    if not os.path.isdir(root):
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root):  # os.walk passes over folders that vanish
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and os.path.realpath(os.path.join(dirpath, d)) != output]
        yield from (os.path.join(dirpath, n) for n in filenames if n.endswith(PACK_SUFFIXES) and not n.startswith("."))


def rebuild(args: argparse.Namespace, report: Report | None = None) -> int:
    """One `questc build` with the watch's arguments, and a status line on stderr; `report`
    is told the exit code and the diagnostics."""
    from compiler.commands import build

    started = time.perf_counter()
    status, sink = build.build(args)
    if report is not None:
        report(status, sink)
    took = time.perf_counter() - started
    verdict = "built" if status == 0 else "not built (see above)"
    from compiler.diagnostics.render import visible  # a folder's name may hold control characters

    sys.stderr.write(f"[questc watch] {verdict} in {took:.2f} s; watching {visible(', '.join(args.paths))}\n")
    sys.stderr.flush()
    return status


class WatcherFailed(Exception):
    """The watcher could not start or go on (an unreadable folder, the system's limit of
    watches reached); not a crash of questc: said in one line, exit 1."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


def _next(events: Iterator[set[tuple[Any, str]]]) -> set[tuple[Any, str]] | None:
    try:
        return next(events, None)
    except OSError as exc:
        raise WatcherFailed(exc) from exc


def watch(
    args: argparse.Namespace,
    changes: Iterable[set[tuple[Any, str]]] | None = None,
    cycles: int | None = None,
    report: Report | None = None,
) -> int:
    """Build once, then again after every batch with a pack change; the last build's exit code.

    `changes` stands in for `file_events(args)` and `cycles` bounds the number of builds
    (tests). The first batch only says the watcher is running: the first build, made
    after it, covers whatever it holds. `report` is told each build's exit code and
    diagnostics.
    """
    output = Path(os.path.realpath(args.output))
    events = iter(file_events(args) if changes is None else changes)
    try:
        if _next(events) is None:  # nothing exists to watch
            code = rebuild(args, report)
            sys.stderr.write("[questc watch] nothing to watch: none of the paths given exists\n")
            return code
        code = rebuild(args, report)
        builds = 1
        while cycles is None or builds < cycles:
            batch = _next(events)
            if batch is None:  # stopped
                break
            if any(is_pack_change(path, output) for _, path in batch):
                code = rebuild(args, report)
                builds += 1
        return code
    except WatcherFailed as failed:
        exc = failed.error
        from compiler.diagnostics.render import visible

        sys.stderr.write(f"[questc watch] cannot watch {visible(', '.join(args.paths))}: {visible(str(exc.strerror or exc))}; "
                         "--poll may work where file-system events do not\n")
        return 1
    finally:
        close = getattr(events, "close", None)
        if close is not None:  # stop the watcher thread now, not when the generator is collected
            close()


def run(args: argparse.Namespace) -> int:
    try:
        return watch(args)  # returns only when there is nothing to watch
    except KeyboardInterrupt:  # the way to stop watching
        return 0

"""Internal errors: write the traceback to a crash report and print diagnostic I0001 (exit 3)."""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import traceback
from pathlib import Path

from compiler import __version__
from compiler.diagnostics.model import Sink, Span

INTERNAL_ERROR = 3


def report_crash(exc: BaseException, argv: list[str]) -> int:
    text = "".join(traceback.format_exception(exc))
    body = f"questc {__version__}\nargv: {argv}\npython: {sys.version}\n\n{text}"
    digest = hashlib.sha256(body.encode()).hexdigest()[:12]
    folder = Path(os.environ.get("QUESTC_CRASH_DIR") or tempfile.gettempdir())
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # a new file of our own (O_EXCL, mode 0600): never through a link planted in a
        # shared temp folder, never over someone else's file
        fd, where = tempfile.mkstemp(prefix=f"questc-crash-{digest}-", suffix=".txt", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(body)
    except OSError:
        where = "(could not be written)"
    sink = Sink()
    try:
        sink.report("I0001", Span("<questc>"), problem=f"{type(exc).__name__}: {exc}"[:300], report=where)
        from compiler.diagnostics.render import print_diagnostics

        print_diagnostics(sink, _format(argv))
    except BaseException:  # noqa: BLE001 - even the catalogue, or stderr itself, may be broken
        from compiler.diagnostics.stdio import say

        say(f"error[I0001]: internal error: {type(exc).__name__}; crash report: {where}\n")
    return INTERNAL_ERROR


def _format(argv: list[str]) -> str:
    """The output format the command was asked for, so a tool reading `--format json`
    gets the internal error as JSON too."""
    from compiler.diagnostics.render import RENDERERS

    for i, arg in enumerate(argv):
        value = arg.partition("=")[2] if arg.startswith("--format=") else argv[i + 1] if arg == "--format" and i + 1 < len(argv) else None
        if value in RENDERERS:
            return value
    return "human"

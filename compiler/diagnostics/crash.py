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
    path = folder / f"questc-crash-{digest}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        where = str(path)
    except OSError:
        where = "(could not be written)"
    sink = Sink()
    try:
        sink.report("I0001", Span("<questc>"), problem=f"{type(exc).__name__}: {exc}"[:300], report=where)
        from compiler.diagnostics.render import print_diagnostics

        print_diagnostics(sink, "human")
    except BaseException:  # noqa: BLE001 - even the catalogue, or stderr itself, may be broken
        from compiler.stdio import say

        say(f"error[I0001]: internal error: {type(exc).__name__}; crash report: {where}\n")
    return INTERNAL_ERROR

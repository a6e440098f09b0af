"""questc explain CODE: what a diagnostic means, with an example and the fix."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", metavar="CODE", help="a diagnostic code such as M0101")


def explain_text(code: str) -> str | None:
    from compiler.diagnostics.catalogue import CATALOGUE

    entry = CATALOGUE.get(code.upper())
    if entry is None:
        return None
    parts = [f"{entry.code} ({entry.severity.value}): {entry.message}", "", "What", f"  {entry.explanation}"]
    if entry.example:
        parts += ["", "Example"] + [f"  {line}" for line in entry.example.splitlines()]
    if entry.fix:
        parts += ["", "Fix", f"  {entry.fix}"]
    return "\n".join(parts) + "\n"


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.catalogue import CATALOGUE

    text = explain_text(args.code)
    if text is None:
        from compiler.diagnostics.hints import hint

        suffix = hint(args.code.upper(), CATALOGUE)
        from compiler.diagnostics.render import visible

        sys.stderr.write(f"questc explain: unknown code `{visible(args.code)}`{visible(suffix)}\n")
        return 2
    sys.stdout.write(text)
    return 0

"""questc explain CODE: what a diagnostic means, with an example and the fix;
questc explain --list [PREFIX]: every code (or those starting with PREFIX), one a line."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", metavar="CODE", nargs="?", help="a diagnostic code such as M0101 (with --list: a prefix such as M or S01)")
    parser.add_argument("--list", action="store_true", help="list every code, one a line: code, severity, message (only those starting with CODE, when given)")


def list_text(prefix: str = "") -> str:
    """`CODE  severity  message` for every code starting with `prefix` (case-blind)."""
    from compiler.diagnostics.catalogue import CATALOGUE

    rows = [(code, e.severity.value, e.readable) for code, e in sorted(CATALOGUE.items()) if code.startswith(prefix.upper())]
    return "".join(f"{code}  {sev:<7}  {msg}\n" for code, sev, msg in rows)


def explain_text(code: str) -> str | None:
    from compiler.diagnostics.catalogue import CATALOGUE

    entry = CATALOGUE.get(code.upper())
    if entry is None:
        return None
    parts = [f"{entry.code} ({entry.severity.value}): {entry.readable}", "", "What", f"  {entry.explanation}"]
    if entry.example:
        parts += ["", "Example"] + [f"  {line}" for line in entry.example.splitlines()]
    if entry.fix:
        parts += ["", "Fix", f"  {entry.fix}"]
    if entry.rule:
        parts += ["", "Rulebook rule", f"  {entry.rule}.", "  On a quest another program plays (a pack with `origin: valkyrie`), a warning quoting this rule."]
    return "\n".join(parts) + "\n"


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.catalogue import CATALOGUE

    if args.list:
        listed = list_text(args.code or "")
        if not listed:
            from compiler.diagnostics.render import visible

            sys.stderr.write(f"questc explain: no code starts with `{visible(args.code or '')}`\n")
            return 2
        sys.stdout.write(listed)
        return 0
    if args.code is None:
        sys.stderr.write("questc explain: error: give a CODE, or --list\n")
        return 2
    text = explain_text(args.code)
    if text is None:
        from compiler.diagnostics.hints import hint

        suffix = hint(args.code.upper(), CATALOGUE)
        from compiler.diagnostics.render import visible

        sys.stderr.write(f"questc explain: unknown code `{visible(args.code)}`{visible(suffix)}\n")
        return 2
    sys.stdout.write(text)
    return 0

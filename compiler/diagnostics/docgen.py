"""Generate docs/diagnostics.md from the code catalogue (`make docs`)."""

from __future__ import annotations

import sys

from compiler.diagnostics.catalogue import CATALOGUE

PHASES = {
    "P": "Packs", "Y": "YAML and catalogs", "S": "Syntax", "R": "Names", "M": "Maps",
    "L": "Line of sight", "Q": "Quests", "C": "Cards and decks", "W": "World",
    "K": "Campaign (1st edition)", "G": "Rendering", "T": "Translations", "A": "Activation state files", "X": "Command line", "F": "Configuration",
    "I": "Internal errors",
}


def generate() -> str:
    out = [
        "# Diagnostics",
        "",
        "Generated from `compiler/diagnostics/codes/*.yaml` by `make docs`; `questc explain CODE` prints the same,",
        "and `questc explain --list` lists the codes. In a message, `<name>` stands for the value filled in",
        "(a tile code, a name, a count).",
        "",
    ]
    phase = None
    for code, e in CATALOGUE.items():
        if code[0] != phase:
            phase = code[0]
            out += [f"## {PHASES.get(phase, phase)} ({phase})", ""]
        out += [f"### {code} — {e.severity.value}", "", f"`` {e.readable} ``", "", e.explanation, ""]
        if e.example:
            out += ["Example:", "", "```", e.example, "```", ""]
        if e.fix:
            out += [f"Fix: {e.fix}", ""]
        if e.rule:
            out += [f"Rulebook rule: {e.rule}. On a quest another program plays (a pack with `origin: valkyrie`), a warning quoting this rule.", ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate())

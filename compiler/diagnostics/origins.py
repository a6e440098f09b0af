"""Quests another program plays: a rulebook rule they break is a warning that quotes the rule.

A pack whose `pack.yaml` says `origin: valkyrie` holds a quest the Valkyrie app plays (what
`questc import valkyrie` writes, and the pack `questc check` builds in memory from a Valkyrie
quest). The app places what the quest says whatever the rulebooks say, so on such a pack a
code that enforces a rule the rulebooks state (its catalogue entry's `rule`) is a warning
whose message quotes the rule and its source; in any other pack it stays what the catalogue
says. Codes about what the app rejects (VK04xx) and questc's own impossibilities (unknown
names, broken syntax) have no `rule` and are untouched. docs/valkyrie.md, "Rulebook rules".
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from compiler.diagnostics.model import Diagnostic, Severity

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

# origin -> what the message adds after the rule (variation in a table: another player app
# is one more line)
ORIGINS: dict[str, str] = {
    "valkyrie": "the Valkyrie app plays the quest anyway",
}


def played_elsewhere(items: Iterable[Diagnostic], packs: Iterable[tuple[Path, str]]) -> list[Diagnostic]:
    """`items` with each error of a rulebook-rule code located in a pack of `packs` (root
    folder, origin) made a warning that quotes the rule; everything else as it is."""
    from compiler.diagnostics.catalogue import CATALOGUE

    roots = [(str(root) + os.sep, ORIGINS[origin]) for root, origin in packs if origin in ORIGINS]
    out = list(items)
    if not roots:
        return out
    where: dict[str, str | None] = {}  # span file -> the origin's words, or None (one realpath per file)
    for i, d in enumerate(out):
        entry = CATALOGUE.get(d.code)
        if d.severity is not Severity.ERROR or entry is None or not entry.rule:
            continue
        if d.span.file not in where:
            real = os.path.realpath(d.span.file)
            where[d.span.file] = next((words for root, words in roots if real.startswith(root)), None)
        words = where[d.span.file]
        if words is not None:
            out[i] = replace(d, severity=Severity.WARNING, message=f"{d.message}; rulebook: {entry.rule}; {words}")
    return out

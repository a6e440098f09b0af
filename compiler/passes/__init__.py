"""PASSES: the ordered validation and computation passes, each a pure function.

Each pass is one module here, `compiler/passes/<name>.py`, whose `<name>_pass` has one
signature:

    def maps_pass(model: Model, sink: Sink) -> Model

It reads the model fields it declares in `reads`, reports problems to `sink`, and returns
`model.with_(...)` with the fields in `writes`. It never mutates its input and never
builds JSON (that is compiler/emit/). A pass whose inputs are missing (an earlier stage
failed) returns the model unchanged: later stages skip what depends on broken parts.

A pass runs only when the pack holds something it `needs` (catalog entries of a kind, or
declarations of a namespace); its module is imported only then, so checking a
catalog-only pack never loads shapely, networkx or numpy. Adding a check is adding a
module and a line here; `tests/test_passes.py` checks that every field read is written by
an earlier pass.
"""

from __future__ import annotations

import importlib
from typing import Callable

from compiler.diagnostics import Sink
from compiler import frozen
from compiler.memo import Same, remembered_as
from compiler.model import Model


@frozen
class Pass:
    name: str  # compiler/passes/<name>.py defines <name>_pass
    needs: tuple[str, ...]  # what in the pack makes it run: "catalog:<kind>", a declaration namespace or "translations"
    reads: tuple[str, ...] = ()  # model fields written by earlier passes
    writes: tuple[str, ...] = ()  # model fields it sets

    @property
    def function(self) -> Callable[[Model, Sink], Model]:
        function: Callable[[Model, Sink], Model] = getattr(importlib.import_module(f"compiler.passes.{self.name}"), f"{self.name}_pass")
        return function

    def results(self, model: Model, sink: Sink) -> dict[str, object]:
        out = self.function(model, sink)
        return {name: getattr(out, name) for name in self.writes}

    def applies(self, model: Model) -> bool:
        return any(model.has(source) for source in self.needs)


DECLARED = ("quest", "encounter", "card", "deck", "campaign", "app_campaign")

PASSES: tuple[Pass, ...] = (
    Pass("dice", needs=("catalog:dice",), writes=("dice",)),
    Pass("terrain", needs=("catalog:terrain",), reads=("dice",), writes=("terrain",)),
    Pass("tokens", needs=("catalog:tokens", *DECLARED), writes=("token_kinds",)),
    Pass("lines", needs=("catalog:lines",), writes=("line_rules",)),
    Pass("templates", needs=("catalog:templates",), writes=("templates",)),
    Pass("monsters", needs=("catalog:monsters",), reads=("dice",), writes=("monsters",)),
    Pass("symbols", needs=DECLARED, writes=("symbols",)),
    Pass("tiles", needs=("catalog:tiles",), reads=("terrain",), writes=("tiles",)),
    Pass("maps", needs=("quest", "encounter", "campaign"), reads=("dice", "terrain", "tiles", "line_rules"), writes=("maps",)),
    Pass("quests", needs=("quest",), reads=("monsters", "symbols", "maps"), writes=("quests",)),
    Pass("quest_chains", needs=("quest",), reads=("quests",)),
    Pass("encounters", needs=("encounter",), reads=("monsters", "symbols", "maps"), writes=("encounters",)),
    Pass("expectations", needs=("quest", "encounter"), reads=("maps", "quests", "encounters"), writes=("expectations",)),
    Pass("cards", needs=("card", "deck"), reads=("monsters", "symbols"), writes=("cards", "decks")),
    Pass(
        "chain",
        needs=("deck",),
        reads=("terrain", "tiles", "maps", "cards", "decks"),
        writes=("encounter_links", "deck_analysis"),
    ),
    Pass("adventure", needs=("quest",), reads=("symbols", "encounters", "cards", "decks"), writes=("adventures",)),
    Pass("effects", needs=("catalog:effects", "catalog:tracks", "catalog:chests"), reads=("dice", "monsters", "cards", "decks"), writes=("effects",)),
    Pass("world", needs=("catalog:world",), reads=("dice",), writes=("worlds",)),
    Pass(
        "campaign",
        needs=("campaign", "catalog:campaign"),
        reads=("dice", "monsters", "symbols", "tiles", "maps", "worlds"),
        writes=("campaign",),
    ),
    Pass("app_campaign", needs=("app_campaign",), reads=("symbols",), writes=("app_campaigns",)),
    Pass("rtl_state", needs=("catalog:rtl_state",), reads=("dice", "monsters", "worlds", "campaign"), writes=("rtl_state",)),
    Pass(
        "provenance",
        needs=("catalog:world", "catalog:monsters", "catalog:tiles", "catalog:tokens", "catalog:terrain", "catalog:lines", "catalog:templates", "catalog:campaign", "campaign", "app_campaign", "catalog:rtl_state"),
        reads=("worlds", "monsters", "tiles", "token_kinds", "campaign", "app_campaigns", "rtl_state"),
        writes=("illustrative",),
    ),
    Pass("translations", needs=("translations",), reads=("quests", "encounters", "cards", "adventures", "campaign", "app_campaigns"), writes=("languages",)),
)


def run_passes(model: Model, sink: Sink) -> Model:
    """Every pass that applies, in order. A pass is pure, so its results are remembered
    under everything it could read (compiler/memo.py): the options and packs, the catalog
    documents and, for a pass that reads declarations, the quest files (by identity: an unchanged file is the very same object),
    and the model fields it declares. `questc watch` recomputes only what an edit reaches."""
    catalogs = (
        model.options,
        model.pack,
        model.packs,
        tuple((kind, i, Same(e.doc), e.path, e.pack) for kind, entries in model.catalogs.items() for i, e in entries.items()),
    )
    modules = tuple(Same(m) for m in model.modules)
    translations = tuple(Same(t) for t in model.translation_files)
    for p in PASSES:
        if p.applies(model):
            declared: tuple[object, ...] = modules if set(p.needs) & set(DECLARED) else ()  # catalog passes read no quest file
            if "translations" in p.needs:  # it reads the declarations (doc comments) and the PO files
                declared = (modules, translations)
            key = ("pass", p.name, catalogs, declared, tuple(Same(getattr(model, f)) for f in p.reads))
            model = model.with_(**remembered_as(key, lambda local: p.results(model, local), sink))
    return model

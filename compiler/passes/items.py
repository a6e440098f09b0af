"""A quest's item slots (docs/language.md, "Quest items and shops"), checked once per quest.

    item_slots(quest, sink) -> the slots as declared, each fault reported:
      Q0214  a slot declared twice
      Q0217  a slot that is written so it can hold nothing (a warning: the app plays it, giving nothing)
      Q0215  a slot no effect gives or sells and the party does not start with (a warning)
      Q0216  `shop` offering fewer than two slots

`give ID` / `shop ID, …` naming no slot is Q0301 (compiler/passes/quests.py), as every other
unknown name an effect gives. questc has no catalog of the items themselves: a `named` item
that is not a slot, and the traits a slot draws by, are taken as written.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from compiler.diagnostics import Related, Sink
from compiler.syntax import ast


def item_slots(quest: ast.Quest, sink: Sink) -> tuple[ast.ItemSlot, ...]:
    slots: dict[str, ast.ItemSlot] = {}
    for s in quest.items:
        if s.id in slots:
            sink.report("Q0214", s.span, item=s.id, problem="it is declared twice in the quest",
                        related=(Related(slots[s.id].span, "first declared here"),))
            continue
        slots[s.id] = s
    for s in slots.values():
        problem = _written_wrong(s, slots)
        if problem is not None:
            sink.report("Q0217", s.span, item=s.id, problem=problem)
    for s in _never_filled(slots):
        sink.report("Q0217", s.span, item=s.id,
                    problem="it names only item slots that copy each other's item, so none of them ever holds one")
    used: set[str] = set()
    for effect in _effects(quest):
        if effect.kind == "shop" and len(set(effect.args)) < 2:
            sink.report("Q0216", effect.span, count=len(set(effect.args)),
                        fix=f"write `give {effect.args[0]}` to hand the item to the party" if effect.args else "name two item slots")
        if effect.kind in ("give", "shop"):
            used.update(effect.args)
    for s in slots.values():
        if not s.starting and s.id not in used:
            sink.report("Q0215", s.span, item=s.id)
    return tuple(slots.values())


def _written_wrong(s: ast.ItemSlot, slots: dict[str, ast.ItemSlot]) -> str | None:
    """Why slot `s` as written can hold no item (None: it can, as far as questc knows)."""
    if s.id in s.named or s.id in s.exclude:
        return "it names itself (a slot may name the item of another slot)"
    if s.named and s.drawn:
        return ("`named` picks one item, `traits` / `with` draw one at random: write one of them "
                "(and `except` for items the draw must leave out)")
    if s.exclude and not s.drawn:
        return "`except` leaves items out of a draw by traits, and the slot draws by none (add `traits` or `with`)"
    if not s.named and not s.drawn:
        return "it names no item and no traits to draw one by (add `named ITEM`, `traits …` or `with …`)"
    return None


def _never_filled(slots: dict[str, ast.ItemSlot]) -> list[ast.ItemSlot]:
    """Slots written well whose `named` items are all slots that never hold an item: each
    copies another's, round a cycle (the app waits for the other slot's item forever)."""
    filled: set[str] = set()
    changed = True
    while changed:
        changed = False
        for s in slots.values():
            if s.id in filled or _written_wrong(s, slots) is not None:
                continue
            if s.drawn or any(n not in slots or n in filled for n in s.named):
                filled.add(s.id)
                changed = True
    return [s for s in slots.values() if s.id not in filled and _written_wrong(s, slots) is None]


def _effects(quest: ast.Quest) -> Iterator[ast.Effect]:
    events = [ev for enc in quest.encounters for ev in enc.body.events]
    if quest.adventure is not None:
        events += list(quest.adventure.events)
    for ev in events:
        yield from _walk(ev.effects)


def _walk(effects: Iterable[ast.Effect]) -> Iterator[ast.Effect]:
    for f in effects:
        yield f
        for c in f.choices:
            yield from _walk(c.effects)

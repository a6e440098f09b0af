"""Designers' expectations: every `expect …` statement checked on its encounter.

`expectations_pass(model, sink) -> model`: `model.expectations`, one CheckedExpectation
per statement, in file order; a failed one is a located error (Q0701–Q0704) that shows
the actual value. What they measure (docs/language.md, "Expectations"):

- `expect [no] sight A -> B [with open D, …]`: line of sight between two spaces with no
  figures on the map, doors as they start (or opened), as `questc los` computes it;
- `expect range|cost A to B OP N [with open …]`: the counted range, or the movement cost
  of the cheapest move, compared with N (as `questc path` gives them);
- `expect [un]reachable P`: P (a space, or a tile, mark or token name) reached from the
  heroes' start with every door opened on the way (as M0301 counts);
- `expect event N can fire | never fires`: the N-th event of the encounter, decided by the
  quests pass's analysis (Q0303).

Cascade control: an encounter whose map or quest could not be resolved is skipped (its
errors are already out); a space that does not resolve is reported once (M0207/M0216/
M0217/M0218) and its expectation is not checked.
"""

from __future__ import annotations

import operator
from typing import Callable, Iterable

from compiler.diagnostics import Sink
from compiler.diagnostics.hints import hint
from compiler.geometry import graph
from compiler.geometry.lattice import Cell
from compiler.model import Model
from compiler.model import quest as m
from compiler.passes.spaces import resolve_space
from compiler.syntax import ast

COMPARE = {"==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def expectations_pass(model: Model, sink: Sink) -> Model:
    checked: list[m.CheckedExpectation] = []
    quests = model.quests or {}
    encounters = model.encounters or {}
    for decl in model.declarations(ast.Quest):
        resolved = quests.get(decl.id)
        for _k, inline in enumerate(decl.encounters):
            if not inline.body.expectations:
                continue
            enc = next((e for e in resolved.encounters if e.number == inline.number), None) if resolved else None
            if enc is None or resolved is None:
                continue  # the quest or its map did not resolve: already reported
            where = f"quest `{decl.id}`" + (f", encounter {inline.number}" if len(decl.encounters) > 1 else "")
            fired = frozenset(e.index for e in enc.events if e.can_fire) if enc.reachable else frozenset()
            checked += _check_body(inline.body, enc, where, fired, sink)
    for top in model.declarations(ast.Encounter):
        enc = encounters.get(top.id)
        if not top.body.expectations or enc is None:
            continue
        fired = m.fixpoint(enc, first=False).fired  # a dealt encounter: no `on start`
        checked += _check_body(top.body, enc, f"encounter `{top.id}`", fired, sink)
    checked.sort(key=lambda c: (c.span.file, c.span.line, c.span.column))
    return model.with_(expectations=tuple(checked))


def _check_body(body: ast.EncounterBody, enc: m.QuestEncounter, where: str, fired: frozenset[int], sink: Sink) -> list[m.CheckedExpectation]:
    out = []
    for x in body.expectations:
        result = _Checker(enc, where, fired, sink).check(x)
        if result is not None:
            holds, actual = result
            out.append(m.CheckedExpectation(x.kind, holds, actual, where, x.span))
    return out


class _Checker:
    def __init__(self, enc: m.QuestEncounter, where: str, fired: frozenset[int], sink: Sink) -> None:
        self.enc, self.amap, self.board = enc, enc.map, enc.map.board
        self.where, self.fired, self.sink = where, fired, sink

    def check(self, x: ast.Expectation) -> tuple[bool, str] | None:
        kind: Callable[[ast.Expectation], tuple[bool, str] | None] = getattr(self, x.kind)  # sight, range, …
        return kind(x)

    # -------------------------------------------------- helpers
    def doors(self, x: ast.Expectation) -> frozenset[str] | None:
        """The doors `with open` names, added to those open at the start (None: one unknown)."""
        known = {d.id for d in self.board.doors}
        ok = True
        for name in x.open_doors:
            if name not in known:
                self.sink.report("Q0708", x.span, where=self.where, name=name, hint=hint(name, known, sink=self.sink))
                ok = False
        if not ok:
            return None
        return graph.door_state(self.board, None) | frozenset(x.open_doors)

    def pair(self, x: ast.Expectation) -> tuple[Cell, Cell, frozenset[str]] | None:
        assert x.a is not None and x.b is not None  # sight, range and cost name two spaces (the grammar)
        a = resolve_space(self.amap, x.a, self.sink)
        b = resolve_space(self.amap, x.b, self.sink)
        doors = self.doors(x)
        if a is None or b is None or doors is None:
            return None
        return a, b, doors

    def closed_on_the_way(self, a: Cell, b: Cell, doors: frozenset[str]) -> str:
        closed = graph.closed_doors_on_the_way(self.board, a, b, doors)
        if not closed:
            return ""
        return " (closed door " + ", ".join(f"`{d}`" for d in closed) + " on the way)"

    # -------------------------------------------------- kinds
    def sight(self, x: ast.Expectation) -> tuple[bool, str] | None:
        got = self.pair(x)
        if got is None:
            return None
        a, b, doors = got
        from compiler.geometry.sight import SightEngine

        w = SightEngine(self.board).witness(a, b, open_doors=doors)
        if w is None:
            actual = "there is none"
        elif isinstance(w, tuple) and w[0] == w[1]:
            actual = f"there is one: the spaces share corner ({w[0][0]},{w[0][1]})"
        elif isinstance(w, tuple):
            (x1, y1), (x2, y2) = w
            actual = f"there is one: a clear line from corner ({x1},{y1}) to corner ({x2},{y2})"
        else:
            actual = f"there is one ({w})"
        holds = (w is None) == x.negated
        if not holds:
            self.sink.report("Q0701", x.span, want="no line of sight" if x.negated else "line of sight",
                             src=self.amap.describe(a), dst=self.amap.describe(b), actual=actual)
        return holds, actual

    def range(self, x: ast.Expectation) -> tuple[bool, str] | None:
        return self.measure(x, "range", lambda a, b, doors: graph.counting_distance(self.board, a, b, doors))

    def cost(self, x: ast.Expectation) -> tuple[bool, str] | None:
        def cost(a: Cell, b: Cell, doors: frozenset[str]) -> int | None:
            route = graph.cheapest_move(self.board, a, b, doors)
            return None if route is None else route.cost

        return self.measure(x, "movement cost", cost)

    def measure(self, x: ast.Expectation, what: str,
                measure: Callable[[Cell, Cell, frozenset[str]], int | None]) -> tuple[bool, str] | None:
        assert x.op is not None and x.value is not None  # range and cost compare with a number (the grammar)
        got = self.pair(x)
        if got is None:
            return None
        a, b, doors = got
        value = measure(a, b, doors)
        holds = value is not None and COMPARE[x.op](value, x.value)
        actual = str(value) if value is not None else "none: no way through" + self.closed_on_the_way(a, b, doors)
        if not holds:
            self.sink.report("Q0702", x.span, measure=what, src=self.amap.describe(a), dst=self.amap.describe(b),
                             op=x.op, value=x.value, actual=actual)
        return holds, actual

    def reachable(self, x: ast.Expectation) -> tuple[bool, str] | None:
        cells = self.place(x)
        if cells is None:
            return None
        label = self.place_label(x)
        starts = [self.board.spaces[i] for i in self.enc.start]
        if not starts:
            self.sink.report("Q0706", x.span, where=self.where, kind="unreachable" if x.negated else "reachable")
            return None
        lost = set(graph.unreachable(self.board, starts))
        reached = [c for c in cells if c not in lost and not self.board.rule(c).blocks_movement]
        if reached:
            actual = f"{self.amap.describe(reached[0])} is reached"
        else:
            actual = "no move from the start gets there, even with every door open"
        holds = bool(reached) != x.negated
        if not holds:
            self.sink.report("Q0703", x.span, place=label, state="unreachable" if x.negated else "reachable",
                             actual=actual)
        return holds, actual

    def place(self, x: ast.Expectation) -> Iterable[Cell] | None:
        p = x.place
        assert p is not None  # `expect [un]reachable PLACE` (the grammar)
        if not isinstance(p, str):
            c = resolve_space(self.amap, p, self.sink)
            return None if c is None else [c]
        tile = self.amap.by_name.get(p)
        if tile is not None:
            return sorted(tile.local_of, key=lambda c: (c[1], c[0]))
        if p in self.amap.marks:
            return [self.amap.marks[p]]
        token = next((t for t in self.enc.tokens if t.id == p), None)
        if token is not None:
            return [self.board.spaces[token.space]]
        known = [*self.amap.by_name, *self.amap.marks, *(t.id for t in self.enc.tokens)]
        self.sink.report("Q0707", x.span, where=self.where, name=p, hint=hint(p, known, sink=self.sink))
        return None

    def place_label(self, x: ast.Expectation) -> str:
        p = x.place
        assert p is not None  # `expect [un]reachable PLACE` (the grammar)
        if isinstance(p, str):
            return f"`{p}`"
        c = resolve_space(self.amap, p, Sink())
        return self.amap.describe(c) if c is not None else "the space"

    def event(self, x: ast.Expectation) -> tuple[bool, str] | None:
        events = self.enc.events
        assert x.value is not None  # `expect event N …` (the grammar)
        if not 1 <= x.value <= len(events):
            count = f"{len(events)} event" + ("" if len(events) == 1 else "s")
            self.sink.report("Q0705", x.span, where=self.where, number=x.value, count=count)
            return None
        ev = events[x.value - 1]
        can = ev.index in self.fired
        if not ev.resolved:
            return None  # it names something unknown: already reported
        actual = "it can fire" if can else "it never fires"
        holds = can != x.negated
        if not holds:
            self.sink.report("Q0704", x.span, number=x.value, trigger=_trigger_text(ev.trigger),
                             want="never to fire" if x.negated else "to be able to fire", actual=actual)
        return holds, actual


def _trigger_text(t: m.Trigger) -> str:
    words = {"start": "on start", "encounter_start": "on encounter start", "morale_zero": "on morale_zero",
             "doom_reaches_fate": "on doom_reaches_fate", "hero_defeated": "on hero_defeated",
             "all_heroes_defeated": "on all_heroes_defeated"}
    if t.kind in words:
        return words[t.kind]
    if t.kind == "round_end":
        return f"on round_end {t.number}"
    if t.kind == "variable":
        return f"on variable {t.subject} >= {t.number}"
    if t.kind == "enters" and t.subject is None:
        return "on enters a space"
    return f"on {t.kind} {t.subject}"

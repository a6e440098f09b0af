"""Campaign variables across a chain of quests (docs/language.md, "Campaign variables").

A `campaign var NAME = N` keeps its value when play moves on by `next` or `next quest`.
Each quest is analysed alone (compiler/passes/quests.py), so the values such a variable
may arrive with depend on the quests that lead to it. This module closes that loop:

    resolve_chain(quests, resolve, sink) -> {quest id: ResolvedQuest}

resolves every quest once with its declared starting values, reads what each quest may
hand on (`ResolvedQuest.campaign_out`, the interval of every value of each campaign
variable in the encounters played) and where to (the `next quest` effects that can fire),
gives each target the hull of what its predecessors hand on (and its own declared start:
every quest of a pack may also be started alone), and resolves again until nothing grows.
A bound still moving after `WIDEN_AFTER` rounds (a hub whose sub-quest adds 1 each visit)
is widened to unbounded, which is sound: more values, never fewer. If the values still
move after `MAX_ROUNDS` rounds, every campaign variable of every quest is taken as
unbounded (also sound) and the pack says so (Q0807, a note-level warning). Diagnostics
come from the last resolution only.

`check_declarations(quests, sink)`: Q0805 (one campaign variable declared with different
starting values in quests of one chain), Q0806 (a name that is a campaign variable in one
quest of a chain and a quest's own variable in another).
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from compiler.diagnostics import Related, Sink
from compiler.model import quest as m
from compiler.syntax import ast

WIDEN_AFTER = 4
MAX_ROUNDS = 12

Entries = dict[str, dict[str, m.Interval]]
Resolve = Callable[[ast.Quest, Mapping[str, m.Interval] | None, Sink], m.ResolvedQuest | None]


def has_campaign_vars(quests: Iterable[ast.Quest]) -> bool:
    return any(v.campaign for q in quests for enc in q.encounters for v in enc.body.variables)


def resolve_chain(quests: list[ast.Quest], resolve: Resolve, sink: Sink) -> dict[str, m.ResolvedQuest]:
    """Every quest resolved with the campaign variables' values play may arrive with."""
    entries: Entries = {}
    converged = False
    for rounds in range(MAX_ROUNDS):
        scratch = Sink()
        resolved = {q.id: rq for q in quests if (rq := resolve(q, entries.get(q.id), scratch)) is not None}
        new = _entries(resolved)
        if _within(new, entries):  # nothing grows: the last resolution saw every value
            converged = True
            break
        new = {qid: {v: _hull(iv, entries[qid][v]) if v in entries.get(qid, {}) else iv for v, iv in vs.items()}
               for qid, vs in new.items()}
        if rounds >= WIDEN_AFTER:
            new = {qid: {v: _widen(entries.get(qid, {}).get(v), iv) for v, iv in vs.items()} for qid, vs in new.items()}
        entries = new
    if not converged:
        names = {v.name for q in quests for enc in q.encounters for v in enc.body.variables if v.campaign}
        entries = {q.id: {v: m.ANY for v in names} for q in quests}
        first = next(v for q in quests for enc in q.encounters for v in enc.body.variables if v.campaign)
        sink.report("Q0807", first.span, rounds=MAX_ROUNDS)
    out: dict[str, m.ResolvedQuest] = {}
    for q in quests:
        rq = resolve(q, entries.get(q.id), sink)
        if rq is not None:
            out[q.id] = rq
    return out


def _within(new: Entries, old: Entries) -> bool:
    """Is every interval of `new` inside the one `old` gives the same quest and variable?"""
    for qid, vs in new.items():
        for v, (lo, hi) in vs.items():
            if v not in old.get(qid, {}):
                return False
            olo, ohi = old[qid][v]
            if (olo is not None and (lo is None or lo < olo)) or (ohi is not None and (hi is None or hi > ohi)):
                return False
    return True


def _widen(old: m.Interval | None, new: m.Interval) -> m.Interval:
    if old is None:
        return new  # newly reached: not growth
    return (new[0] if new[0] == old[0] else None, new[1] if new[1] == old[1] else None)


def _entries(resolved: Mapping[str, m.ResolvedQuest]) -> Entries:
    """quest id -> campaign variable -> the hull of what the quests leading to it hand on."""
    out: Entries = {}
    for _, rq in sorted(resolved.items()):
        for target in sorted(_leads(rq)):
            if target not in resolved:
                continue
            here = out.setdefault(target, {})
            for v, iv in rq.campaign_out.items():
                here[v] = _hull(here[v], iv) if v in here else iv
    return out


def _leads(rq: m.ResolvedQuest) -> set[str]:
    """The quests a `next quest` that can fire names (an `if` arm never taken leads nowhere)."""
    return {f.args[0] for enc in rq.encounters if enc.reachable for ev in enc.events if ev.can_fire
            for f in m.all_effects(ev.effects, enc.dead) if f.kind == "next_quest" and f.args}


def _hull(a: m.Interval, b: m.Interval) -> m.Interval:
    lo = None if a[0] is None or b[0] is None else min(a[0], b[0])
    hi = None if a[1] is None or b[1] is None else max(a[1], b[1])
    return (lo, hi)


# ---------------------------------------------------------------- declarations
def check_declarations(quests: list[ast.Quest], sink: Sink) -> None:
    """Q0805 / Q0806 within each chain (quests joined by `next quest`, either way)."""
    ids = {q.id for q in quests}
    links: dict[str, set[str]] = {q.id: set() for q in quests}
    for q in quests:
        for enc in q.encounters:
            for ev in enc.body.events:
                for t in _named(ev.effects):
                    if t in ids:
                        links[q.id].add(t)
                        links[t].add(q.id)
    seen: set[str] = set()
    by_id = {q.id: q for q in quests}
    for q in quests:
        if q.id in seen:
            continue
        chain, todo = [], [q.id]
        seen.add(q.id)
        while todo:
            here = todo.pop()
            chain.append(here)
            for t in sorted(links[here]):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        order = [x.id for x in quests if x.id in set(chain)]  # declaration order
        _check_chain([by_id[i] for i in order], sink)


def _check_chain(chain: list[ast.Quest], sink: Sink) -> None:
    first: dict[str, tuple[str, ast.VarDecl]] = {}  # campaign variable -> (quest, its first declaration)
    for q in chain:
        for enc in q.encounters:
            for v in enc.body.variables:
                if v.campaign and v.name not in first:
                    first[v.name] = (q.id, v)
    _check_unset(chain, first, sink)
    for q in chain:
        for enc in q.encounters:
            for v in enc.body.variables:
                if v.name not in first:
                    continue
                qid, d = first[v.name]
                if d is v:
                    continue
                if not v.campaign:
                    sink.report("Q0806", v.span, name=v.name, quest=q.id, other=qid,
                                related=(Related(d.span, f"`{v.name}` is a campaign variable here"),))
                elif v.value != d.value:
                    sink.report("Q0805", v.span, name=v.name, quest=q.id, value=v.value, other=qid, first=d.value,
                                related=(Related(d.span, f"`{v.name}` starts at {d.value} here"),))


def _named(effects: Iterable[ast.Effect]) -> Iterable[str]:
    for e in effects:
        if e.kind == "next_quest" and e.args:
            yield e.args[0]
        for c in e.choices:
            yield from _named(c.effects)


def _check_unset(chain: list[ast.Quest], first: Mapping[str, tuple[str, ast.VarDecl]], sink: Sink) -> None:
    """Q0313 for a campaign variable declared without a value everywhere in the chain, read
    by a condition, and set by no effect of any quest of the chain (the quests pass leaves
    campaign variables to this check: another quest may set them)."""
    given = {v.name for q in chain for enc in q.encounters for v in enc.body.variables if v.campaign and v.given}
    written = {f.args[0] for q in chain for enc in q.encounters for ev in enc.body.events for f in _effects(ev.effects)
               if f.kind in ("set", "advance", "add", "subtract") and f.args}
    said: set[str] = set()
    for q in chain:
        for enc in q.encounters:
            own = {v.name for v in enc.body.variables if v.campaign}
            for ev in enc.body.events:
                conds = [ev.condition] + [c.condition for f in _effects(ev.effects) for c in f.choices]
                for c in conds:
                    for o in _operands(c):
                        name = o.name or ""
                        if name in own and name in first and name not in given | written | said:
                            said.add(name)
                            sink.report("Q0313", o.span, name=name,
                                        where=f"quest `{q.id}` (a campaign variable that no quest of its chain sets)")


def _effects(effects: Iterable[ast.Effect]) -> Iterable[ast.Effect]:
    for e in effects:
        yield e
        for c in e.choices:
            yield from _effects(c.effects)


def _operands(c: ast.Condition | None) -> Iterable[ast.Operand]:
    if c is None:
        return
    for o in (c.left, c.right):
        if o is not None and o.kind == "variable":
            yield o
    for p in c.parts:
        yield from _operands(p)

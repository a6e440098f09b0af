"""Quests of one pack that lead to each other: `next quest NAME` (docs/language.md,
"Quest chains").

    quest_chains_pass(model, sink) -> model (reports only; the bundle reads the effects)

Q0801: `next quest` names no quest of the pack (with a did-you-mean). A quest that can
hand play on with `next quest` is not judged alone for "can never be won / lost"
(compiler/passes/quests.py leaves Q0305/Q0306 to this pass): it can be won when it, or a
quest its chain reaches, has a `win` that can fire, and lost likewise (an `if` arm
never taken, Q0325, neither ends the quest nor hands it on). When the chain
reaches a quest that hands nothing on, that quest is judged alone (Q0305, Q0306) and
says the fault; only a chain that never ends (quests leading only to each other) is
reported here, at each quest (Q0802, Q0803). Q0804 (a warning): a `next quest` that a
party of the quest's hero counts may take, to a quest written for other counts, with no
`heroes` condition on the way to it (the web player plays it with the nearest count).
Chains may loop (a hub quest and the quests it sends the party to and back) and a quest
no chain reaches is fine: every quest of a pack may also be played on its own.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

from compiler.diagnostics import Related, Sink
from compiler.diagnostics.hints import hint_and_fix
from compiler.model import Model
from compiler.model import quest as m
from compiler.syntax import ast


def quest_chains_pass(model: Model, sink: Sink) -> Model:
    declared = model.declarations(ast.Quest)
    ids = {q.id for q in declared}
    by_id = {q.id: q for q in declared}
    for q in declared:
        for e, guarded in _next_quests(q):
            target = e.args[0] if e.args else ""
            if target not in ids:
                suffix, fix = hint_and_fix(target, ids, sink=sink)
                sink.report("Q0801", e.span, quest=q.id, name=target, hint=suffix, fix=fix)
                continue
            ours, theirs = _heroes(q), _heroes(by_id[target])
            left = [h for h in range(ours[0], ours[1] + 1) if not theirs[0] <= h <= theirs[1]]
            if left and not guarded:
                other = by_id[target]
                where = other.heroes.span if other.heroes is not None else other.span
                sink.report("Q0804", e.span, quest=q.id, name=target, ours=_range(ours), theirs=_range(theirs),
                            counts=" or ".join(map(str, left)), party="party" if len(left) == 1 else "parties",
                            related=(Related(where, f"quest `{target}` is for {_range(theirs)} heroes"),))
    resolved = model.quests or {}
    complete = {q.id for q in declared if not q.incomplete and q.adventure is None}
    outcomes = {qid: _outcomes(rq) for qid, rq in resolved.items()}
    for qid, (_, _, leads, _) in sorted(outcomes.items()):
        if not leads or qid not in complete:
            continue  # judged alone by the quests pass (Q0305, Q0306), or broken by an error already reported
        reach = _reached(qid, outcomes)
        # a quest of the chain that did not resolve, or is unknown (Q0801): its errors are out, and it may be the one that ends it
        missing = any(t not in outcomes for t in reach)
        can_win = missing or any(outcomes[t][0] or outcomes[t][3] for t in reach if t in outcomes)
        can_lose = missing or any(outcomes[t][1] or outcomes[t][3] for t in reach if t in outcomes)
        if any(not outcomes[t][2] for t in reach if t in outcomes):
            # a quest where the chain ends is judged alone (Q0305, Q0306): when it lacks the
            # ending this one lacks, its error says so (one fault, one error)
            can_win = can_lose = True
        rq = resolved[qid]
        others = sorted(t for t in reach if t != qid and t in outcomes)
        chain = ", ".join(f"`{t}`" for t in others) if others else "none"
        related = tuple(Related(resolved[t].span, f"quest `{t}` is on its chain") for t in others)
        if not can_win:
            lost_too = "" if can_lose else "; it can never be lost either"
            sink.report("Q0802", rq.span, quest=qid, chain=chain, also=lost_too, related=related)
        elif not can_lose:
            sink.report("Q0803", rq.span, quest=qid, chain=chain, related=related)
    return model


def _next_quests(q: ast.Quest) -> Iterator[tuple[ast.Effect, bool]]:
    """Each `next quest` of `q`, and whether a condition on the way to it (the event's, a
    choice's, an `if` arm's) reads the hero count."""
    for enc in q.encounters:
        for ev in enc.body.events:
            yield from _walk(ev.effects, _reads_heroes(ev.condition))


def _walk(effects: Iterable[ast.Effect], guarded: bool) -> Iterator[tuple[ast.Effect, bool]]:
    for e in effects:
        if e.kind == "next_quest":
            yield e, guarded
        before = False  # an `if` arm is taken only when the arms before it fail: their conditions guard it too
        for c in e.choices:
            here = _reads_heroes(c.condition)
            yield from _walk(c.effects, guarded or here or (before and e.kind == "if"))
            before = before or here


def _reads_heroes(c: ast.Condition | None) -> bool:
    if c is None:
        return False
    if c.kind == "heroes" or any(o is not None and o.kind == "heroes" for o in (c.left, c.right)):
        return True
    return any(_reads_heroes(p) for p in c.parts)


def _heroes(q: ast.Quest) -> tuple[int, int]:
    return (q.heroes.low, q.heroes.high) if q.heroes else (2, 4)


def _range(r: tuple[int, int]) -> str:
    return str(r[0]) if r[0] == r[1] else f"{r[0]}..{r[1]}"


def _outcomes(q: m.ResolvedQuest) -> tuple[bool, bool, frozenset[str], bool]:
    """(a `win` can fire, a `lose` can fire, the quests a `next quest` that can fire names,
    unsure: an event broken by a reported error, or an `end`, may end it either way)."""
    kinds: set[str] = set()
    leads: set[str] = set()
    unsure = False
    for enc in q.encounters:
        for ev in enc.events:
            if not ev.resolved and ({"win", "lose", "end", "next_quest"} & set(ev.ends)):
                unsure = True
            if not ev.can_fire:
                continue
            for f in m.all_effects(ev.effects, enc.dead):  # an `if` arm never taken (Q0325) leads nowhere
                kinds.add(f.kind)
                if f.kind == "next_quest" and f.args:
                    leads.add(f.args[0])
    # an `end` that can fire may be a win or a loss (docs/language.md, "Endings"): the chain is
    # not said to be unwinnable or unlosable for it; the quest holding it says so alone (Q0330)
    return "win" in kinds, "lose" in kinds, frozenset(leads), unsure or "end" in kinds


def _reached(start: str, outcomes: Mapping[str, tuple[bool, bool, frozenset[str], bool]]) -> set[str]:
    """`start` and every quest its `next quest` effects lead to, step after step."""
    seen = {start}
    todo = [start]
    while todo:
        here = outcomes.get(todo.pop())
        for t in sorted(here[2]) if here is not None else ():
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen

"""Quests of one pack that lead to each other: `next quest NAME` (docs/language.md,
"Quest chains").

    quest_chains_pass(model, sink) -> model (reports only; the bundle reads the effects)

Q0801: `next quest` names no quest of the pack (with a did-you-mean). A quest that can
hand play on with `next quest` is not judged alone for "can never be won / lost"
(compiler/passes/quests.py leaves Q0305/Q0306 to this pass): it can be won when it, or a
quest its chain reaches, has a `win` that can fire, and lost likewise. When the chain
reaches a quest that hands nothing on, that quest is judged alone (Q0305, Q0306) and
says the fault; only a chain that never ends (quests leading only to each other) is
reported here, at each quest (Q0802, Q0803).
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
    for q in declared:
        for e in _next_quests(q):
            target = e.args[0] if e.args else ""
            if target not in ids:
                suffix, fix = hint_and_fix(target, ids, sink=sink)
                sink.report("Q0801", e.span, quest=q.id, name=target, hint=suffix, fix=fix)
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


def _next_quests(q: ast.Quest) -> Iterator[ast.Effect]:
    for enc in q.encounters:
        for ev in enc.body.events:
            yield from (e for e in _walk(ev.effects) if e.kind == "next_quest")


def _walk(effects: Iterable[ast.Effect]) -> Iterator[ast.Effect]:
    for e in effects:
        yield e
        for c in e.choices:
            yield from _walk(c.effects)


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
            for f in m.all_effects(ev.effects):
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

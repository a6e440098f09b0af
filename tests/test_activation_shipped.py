"""Every shipped activation card of natures-ire, for every group it lists, on every shipped
encounter map that spawns that group: the executor resolves it without an unhandled case,
and every outcome is legal under the movement rules."""

from __future__ import annotations

import functools

import pytest

from compiler.model import activation as act
from compiler.options import Options
from compiler.pipeline import compile_paths
from conftest import REPO

HERO_ATTRS = [dict(might=3, knowledge=2, willpower=4, awareness=1, health=12),
              dict(might=5, knowledge=1, willpower=2, awareness=3, health=14),
              dict(might=1, knowledge=5, willpower=3, awareness=2, health=10),
              dict(might=2, knowledge=3, willpower=1, awareness=4, health=8)]


@functools.cache
def model():
    result = compile_paths([str(REPO / "content" / "natures-ire")], Options(sight=False))
    assert not result.sink.errors
    return result.model


def situation(m, enc_id: str, rules: str) -> act.Situation:
    enc = m.encounters[enc_id]
    board = enc.map.board
    sp = board.spaces
    heroes = []
    starts = list(enc.start) or [t.space for t in enc.tokens]
    taken = set()
    for k, i in enumerate(starts[:4]):
        heroes.append(act.Hero(f"h{k}", (sp[i],), HERO_ATTRS[k], damage=k))
        taken.add(sp[i])
    mons = []
    for s in enc.spawns:
        cat = m.monsters[s.group]
        for n, f in enumerate(s.figures.get(4, ())):
            cells = act.norm_cells(sp[i] for i in f.spaces)
            if set(cells) & taken:
                continue
            taken |= set(cells)
            st = cat.stats("act1", f.rank)
            mons.append(act.Monster(f"{s.id}.{n}", s.group, f.rank, cells, st.speed, cat.size, cat.attack_type,
                                    tuple(st.abilities), tuple(st.surges)))
    tokens = {}
    for t in enc.tokens:
        if t.kind in ("search", "objective"):
            tokens.setdefault(f"{t.kind}_token", []).append(sp[t.space])
    return act.Situation(board, tuple(heroes), tuple(mons), None, {k: tuple(v) for k, v in tokens.items()}, {}, frozenset(), rules)


def cases():
    m = model()
    out = []
    for cid, card in sorted(m.cards.activation.items()):
        for g in card.groups:
            for enc_id, groups in sorted(m.cards.spawned_by.items()):
                if g.group in groups and enc_id in m.encounters:
                    out.append((cid, g.group, enc_id))
    return out


def legal(sit: act.Situation, res: act.Activation) -> None:
    geo = act.Geo(sit.board, sit.open_doors)
    heroes = {c for h in sit.heroes for c in h.cells}
    for o in res.outcomes:
        placed = [c for m in sit.monsters for c in (o.positions.get(m.id) or m.cells)]
        assert len(placed) == len(set(placed)), "two figures share a space"
        assert not set(placed) & heroes
        for s in o.steps:
            if s.move is None:
                continue
            assert all(not sit.board.rule(c).blocks_movement for c in s.move.end)
            if len(s.move.end) == 1 and s.verb != "leave_pit":
                assert not geo.is_pit(s.move.end[0])
            if s.verb == "leave_pit":
                continue
            cost = 0
            for a, b in zip(s.move.path, s.move.path[1:]):
                assert geo.moving.has_edge(a, b) and b not in heroes and geo.monster_may_enter(b)
                cost += geo.moving.edges[a, b]["weight"]
            assert cost == s.move.cost
            assert s.move.path[-1] in s.move.end


def test_there_are_cases():
    assert len(cases()) >= 20


@pytest.mark.parametrize("rules", act.RULES)
def test_every_shipped_card_on_every_map_it_can_appear_on(rules):
    m = model()
    for cid, group, enc_id in cases():
        sit = situation(m, enc_id, rules)
        if not any(mon.group == group for mon in sit.monsters):
            continue
        res = act.activate(sit, m.cards.activation[cid], group)
        assert res.outcomes, (cid, group, enc_id)
        legal(sit, res)


def test_every_shipped_card_as_a_whole_on_every_encounter_map():
    """The whole card (every group on the map, in card order) on every encounter with monsters."""
    m = model()
    ran = 0
    for enc_id in sorted(m.encounters):
        sit = situation(m, enc_id, "coop")
        if not sit.monsters:
            continue
        for cid, card in sorted(m.cards.activation.items()):
            res = act.activate_card(sit, card)
            on_map = {mon.group for mon in sit.monsters}
            assert set(res.groups) == {g.group for g in card.groups} & on_map, (cid, enc_id)
            assert res.outcomes, (cid, enc_id)
            for o in res.outcomes:
                placed = [c for cells in o.positions.values() for c in cells]
                assert len(placed) == len(set(placed)), (cid, enc_id)  # no two figures share a space
                assert not set(placed) & {c for h in sit.heroes for c in h.cells}
            ran += 1
    assert ran >= 20

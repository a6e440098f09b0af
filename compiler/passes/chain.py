"""The chain pass: each top-level encounter's entrance and exit checked, and every legal
exploration deck dealt onto a table in many seeded orders (compiler/model/layout.py) to
report how often end caps are needed and how large the table grows.
"""

from __future__ import annotations

import json
from typing import Mapping

from compiler import cachekeys, diskcache
from compiler.diagnostics import Sink
from compiler.geometry.assemble import AssembledMap
from compiler.geometry.tiles import DIRECTION, Tile
from compiler.model import Model
from compiler.model.cards import CardSet, DeckPlan
from compiler.model.layout import ANALYSIS_ORDERS, ANALYSIS_SEED, Analysis, EncounterLinks, Port, analyse
from compiler.syntax import ast

BLOCKED_WARNING_SHARE = (1, 20)  # warn (C0402) when an exit cannot take its cap in >= 5% of orders


# ---------------------------------------------------------------- entrances and exits
def _port(enc: ast.Encounter, amap: AssembledMap, ref: ast.OpeningRef | None, what: str, sink: Sink) -> Port | None:
    if ref is None:
        return None
    label = f"{ref.tile}.{ref.side}" + (f".{ref.index}" if ref.index else "")
    placed = amap.by_name.get(ref.tile or "")
    if placed is None:
        return None  # the maps pass reported it (M0207), or the tile's own mistake
    op = placed.tile.opening(ref.side, ref.index)
    if op is None:
        return None  # the maps pass reported it (M0202)
    joined = next((j for j in amap.joins if j.touches(placed.name, op)), None)
    if joined is not None:
        other = joined.b if joined.a == placed.name else joined.a
        sink.report("C0302", ref.span, what=what, encounter=enc.id, problem=f"`{label}` is joined to `{other}`")
        return None
    dx, dy = DIRECTION[placed.facing(op)]
    outside = [(x + dx, y + dy) for (x, y) in (placed.to_world(c) for c in placed.tile.opening_cells(op))]
    covered = [c for c in outside if c in amap.owner]
    if covered:
        sink.report("C0302", ref.span, what=what, encounter=enc.id,
                    problem=f"`{label}` faces {amap.describe(covered[0])}, a square of the same map")
        return None
    return Port(placed.name, op)


def encounter_links(enc: ast.Encounter, amap: AssembledMap, sink: Sink, cap_widths: set[int] | None = None) -> EncounterLinks:
    entrance = _port(enc, amap, enc.body.entrance, "entrance", sink)
    exit_ = _port(enc, amap, enc.body.exit, "exit", sink)
    # a port is found only for an opening written (ref not None)
    if entrance is not None and exit_ is not None and entrance == exit_ and enc.body.exit is not None:
        sink.report("C0303", enc.body.exit.span, encounter=enc.id)
    if cap_widths is not None:
        for port, ref, what in ((entrance, enc.body.entrance, "entrance"), (exit_, enc.body.exit, "exit")):
            if port is not None and ref is not None and port.opening.width not in cap_widths:
                sink.report("C0304", ref.span, what=what, ref=f"{port.tile}.{port.opening.label}", encounter=enc.id, width=port.opening.width)
    return EncounterLinks(enc.id, amap.tiles, entrance, exit_)


# ---------------------------------------------------------------- the pass
def roles_of(plans: Mapping[str, DeckPlan], cards: CardSet) -> dict[str, set[str]]:
    """encounter id -> its roles in exploration decks: start, middle, final."""
    roles: dict[str, set[str]] = {}
    for plan in plans.values():
        if plan.kind != "exploration":
            continue
        final = plan.mains.get(max(plan.mains)) if plan.mains else None
        for cid in plan.cards:
            enc = cards.encounter_of.get(cid)
            if enc is None:
                continue
            card = cards.exploration.get(cid)
            # a second card marked `start` is C0202's one error: it is not checked as a middle card
            marked_start = card is not None and card.role == "start"
            role = "start" if cid == plan.start or marked_start else "final" if cid == final else "middle"
            roles.setdefault(enc, set()).add(role)
    return roles


def chain_pass(model: Model, sink: Sink) -> Model:
    """PASSES entry (after cards_pass and the maps pass): entrance/exit checks, deck analysis."""
    cards = model.cards
    plans = model.decks or {}
    encounters = {e.id: e for e in model.declarations(ast.Encounter)}
    if cards is None or not encounters:
        return model
    tiles = model.tiles or {}
    maps = model.maps.encounters if model.maps is not None else {}
    cap_widths = {t.all_openings()[0].width for t in tiles.values() if t.kind == "end_cap" and len(t.all_openings()) == 1}
    roles = roles_of(plans, cards)
    links: dict[str, EncounterLinks] = {}
    for eid, enc in sorted(encounters.items()):
        if enc.body.map is None:
            if eid in roles:
                sink.report("C0301", enc.span, encounter=eid, what="map")
            continue
        need = set()
        for role in roles.get(eid, ()):
            need |= {"start": {"exit"}, "final": {"entrance"}, "middle": {"entrance", "exit"}}[role]
        for what in sorted(need):
            if getattr(enc.body, what) is None:
                sink.report("C0301", enc.span, encounter=eid, what=what)
        amap = maps.get(eid)
        if amap is not None:
            before = sink.errors
            ln = encounter_links(enc, amap, sink, cap_widths or None)
            if sink.errors == before:  # a port in error (C0302-C0304): no layout analysis built on it
                links[eid] = ln
    analyses = {}
    for did, plan in plans.items():
        if plan.kind != "exploration" or not plan.legal:
            continue
        if not _complete(plan, cards.encounter_of, links, roles):
            continue
        a = kept_analysis(plan, links, cards.encounter_of, tiles)
        analyses[did] = a
        w, h, _ = a.largest
        sink.report("C0401", plan.span, deck=did, needing=a.needing_end_caps, orders=a.orders, width=w, height=h)
        for blocked, n in sorted(a.exit_cap_blocked.items()):
            if n * BLOCKED_WARNING_SHARE[1] < a.orders * BLOCKED_WARNING_SHARE[0]:
                continue  # rare: left to the bundle's analysis (`exit_cap_blocked`)
            sink.report("C0402", encounters[blocked].span, deck=did, encounter=blocked, count=n, orders=a.orders)
    return model.with_(encounter_links=links, deck_analysis=analyses)


def _complete(plan: DeckPlan, encounter_of: Mapping[str, str], links: Mapping[str, EncounterLinks],
              roles: Mapping[str, set[str]]) -> bool:
    """Every card of the deck has an encounter with a map and the ports its role needs."""
    for cid in plan.cards:
        eid = encounter_of.get(cid)
        if eid is None or eid not in links:
            return False
        ln = links[eid]
        r = roles.get(eid, set())
        if ("middle" in r or "final" in r) and ln.entrance is None:
            return False
        if ("middle" in r or "start" in r) and ln.exit is None:
            return False
    return True


# ---------------------------------------------------------------- the analysis, kept between runs
ANALYSIS_FORMAT = b"questc-deck-analysis 1"  # bump when the file layout changes


def kept_analysis(plan: DeckPlan, links: Mapping[str, EncounterLinks], encounter_of: Mapping[str, str],
                  tiles: Mapping[str, Tile]) -> Analysis:
    """`analyse(…)`, or the analysis a previous run stored in the private cache
    (compiler/diskcache.py) for exactly the same inputs: the deck plan, the encounters
    its cards name with their maps, the tile catalog, the seeds and the compiler's code.
    Dealing 200 tables is most of a cold check of a cooperative pack; its inputs change
    only when the deck, its encounters' maps or the tiles do."""
    cards = sorted(c for c in plan.cards if c in encounter_of)
    used_of = {c: encounter_of[c] for c in cards}
    used = {e: links[e] for e in sorted(set(used_of.values())) if e in links}
    try:
        key = cachekeys.persistent(ANALYSIS_FORMAT, plan, used, used_of, tiles,
                                    ANALYSIS_SEED, ANALYSIS_ORDERS)
    except TypeError:
        return analyse(plan, links, encounter_of, tiles)
    name, header = f"analysis-{key[:32]}.json", ANALYSIS_FORMAT + b" " + key.encode()
    data = diskcache.load(name, header)
    kept = _read_analysis(data) if data is not None else None
    if kept is not None and kept.deck == plan.id:
        return kept
    fresh = analyse(plan, links, encounter_of, tiles)
    diskcache.save(name, header, _write_analysis(fresh))
    return fresh


def _write_analysis(a: Analysis) -> bytes:
    return json.dumps({
        "deck": a.deck, "seed": a.seed, "orders": a.orders, "needing": a.needing_end_caps,
        "cap_max": a.end_cap_pairs_max, "cap_total": a.end_cap_pairs_total, "largest": list(a.largest),
        "collisions": [[x, y, n] for (x, y), n in a.collisions.items()],
        "exit_cap_blocked": [[e, n] for e, n in a.exit_cap_blocked.items()],
    }).encode("utf-8")


def _read_analysis(data: bytes) -> Analysis | None:
    """The analysis in `data`, or None when the file is not exactly what `_write_analysis` writes."""
    try:
        d = json.loads(data)
        ints = (d["seed"], d["orders"], d["needing"], d["cap_max"], d["cap_total"], *d["largest"])
        pairs = [(str(x), str(y), n) for x, y, n in d["collisions"]]
        blocked = [(str(e), n) for e, n in d["exit_cap_blocked"]]
        if not isinstance(d["deck"], str) or len(d["largest"]) != 3 or not all(
                type(n) is int for n in (*ints, *(p[2] for p in pairs), *(b[1] for b in blocked))):
            return None
        return Analysis(d["deck"], d["seed"], d["orders"], d["needing"], d["cap_max"], d["cap_total"],
                        tuple(d["largest"]), {(x, y): n for x, y, n in pairs}, dict(blocked))
    except (ValueError, KeyError, TypeError):
        return None

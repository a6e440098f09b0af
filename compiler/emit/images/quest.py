"""Quest and encounter maps as pictures: assemble each `map { … }`, place what the body says.

    quest_maps(model, lang=None) -> {map id: MapPicture}
    encounter_picture(body, amap, title, resolved) -> MapPicture

Tokens and spawns come from the quest pass's resolution (model.quests and
"encounters"): every figure on its real footprint, labelled with the hero counts it is
placed for. Pictures are drawn only for packs without errors, so that pass has run.

Map ids: a quest with one encounter -> `<quest>`; encounter N of a longer quest ->
`<quest>-<N>`; a top-level encounter -> `<encounter>`. Problems (unknown tiles, bad
spaces) were reported by the checking passes; here anything that does not resolve is
simply left out of the picture (a throwaway Sink), so drawing never adds diagnostics.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Mapping

from compiler.emit.images.pictures import Caption, MapPicture, SpawnPoint, TileOutline, Token, monster_initials
from compiler.emit.images.words import word
from compiler.geometry.lattice import Cell, Edge
from compiler.model import Model
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.geometry.assemble import AssembledMap
    from compiler.geometry.board import Board
    from compiler.model.campaign import CheckedLevel, CheckedLocation
    from compiler.model.quest import QuestEncounter
    from compiler.model.quest import Token as QuestToken

# (map id, title, body, map, resolved encounter or None, owner): one map `assembled_maps` finds
MapSource = tuple[str, str, ast.EncounterBody, "AssembledMap", "QuestEncounter | None", tuple[str, str]]


def hero_label(guard: ast.HeroGuard | None) -> str:
    """`heroes 3+` -> "3+", `heroes 2..3` -> "2-3", `heroes 4` -> "4", none -> ""."""
    if guard is None:
        return ""
    if guard.low == guard.high:
        return str(guard.low)
    if guard.high >= 4:
        return f"{guard.low}+"
    return f"{guard.low}-{guard.high}"


def _opening_edges(amap: AssembledMap, ref: ast.OpeningRef | None) -> frozenset[Edge]:
    if ref is None or ref.tile is None:
        return frozenset()
    placed = amap.by_name.get(ref.tile)
    if placed is None:
        return frozenset()
    op = placed.tile.opening(ref.side, ref.index)
    return placed.opening_edges(op) if op is not None else frozenset()


def _unjoined_openings(amap: AssembledMap) -> frozenset[Edge]:
    joined: set[Edge] = set()
    for j in amap.joins:
        joined |= j.edges
    edges: set[Edge] = set()
    for placed in amap.tiles:
        for op in placed.tile.all_openings():
            edges |= placed.opening_edges(op)
    return frozenset(edges - joined)


def _counts_label(counts: list[int], all_counts: tuple[int, ...]) -> str:
    """The hero counts a figure is placed for, as a guard label ("" = every count)."""
    if tuple(counts) == all_counts:
        return ""
    low, high = counts[0], counts[-1]
    if len(counts) != high - low + 1:  # not a range (an ettin minion with 2 and 4 heroes, not 3)
        return ",".join(map(str, counts))
    return hero_label(ast.HeroGuard(low, 4 if high == all_counts[-1] and high >= 4 else high))


def _resolved_figures(
    resolved: QuestEncounter, board: Board, texts: Mapping[str, str] | None = None, base: tuple[str, ...] = (),
    counts: tuple[int, ...] = (),
) -> tuple[list[Token], list[SpawnPoint]]:
    """Setup tokens and figures of a resolved encounter (compiler/model/quest.py); token
    labels from `texts` (string id -> text of one language) where it has them. `counts`: the
    quest's hero counts (a spawn's own `heroes` guard leaves the others out of its figures,
    and its label must still say so); () = each spawn's own."""
    spaces = board.spaces
    texts = texts or {}

    def label(t: QuestToken) -> str:
        if t.label is None:
            return ""
        return texts.get(".".join(map(str, (*base, f"e{resolved.number}", "token", t.id, "label"))), t.label.value)

    tokens = [Token(spaces[t.space], t.kind, t.colour, label(t)) for t in resolved.tokens if t.when == "setup"]
    spawns = []
    for sp in resolved.spawns:
        if sp.when != "setup":
            continue
        all_counts = counts or tuple(sorted(sp.figures))
        seen: dict[tuple[str, tuple[int, ...]], list[int]] = {}  # (rank, footprint) -> hero counts
        for h in all_counts:
            for fig in sp.figures.get(h, ()):
                seen.setdefault((fig.rank, fig.spaces), []).append(h)
        initials = monster_initials(sp.group)
        for (rank, footprint), placed_for in seen.items():
            spawns.append(SpawnPoint(tuple(spaces[i] for i in footprint), initials, rank, _counts_label(placed_for, all_counts)))
    return tokens, spawns


def encounter_picture(
    body: ast.EncounterBody,
    amap: AssembledMap,
    title: str = "",
    resolved: QuestEncounter | None = None,
    texts: Mapping[str, str] | None = None,
    base: tuple[str, ...] = (),
    counts: tuple[int, ...] = (),
) -> MapPicture:
    """One encounter's map with its tiles, openings, tokens, spawns, start, entrance and exit.
    `texts` (string id -> text, one language) and `base` (the encounter's owner: ("quest",
    id) or ("encounter", id)) translate its token labels."""
    tiles = tuple(TileOutline(t.code, t.cells, t.name if t.name != t.code else "", t.hidden) for t in amap.tiles)
    tokens, spawns = _resolved_figures(resolved, amap.board, texts, base, counts) if resolved is not None else ([], [])
    starts: list[Cell] = []
    features = amap.features
    if body.start is not None:
        glyph = features.glyph(body.start.tile) if body.start.tile is not None else None
        if glyph is not None:
            from compiler.geometry.features import around

            starts.extend(c for c in around(amap.board, glyph.cells) if not amap.board.rule(c).blocks_movement)
        elif body.start.tile is not None and body.start.tile in amap.by_name:
            starts.extend(amap.by_name[body.start.tile].cells)
        starts.extend(c for c in map(amap.space, body.start.spaces) if c is not None)
    entrances = _opening_edges(amap, body.entrance)
    exits = _opening_edges(amap, body.exit)
    return MapPicture(
        board=amap.board,
        tiles=tiles,
        openings=_unjoined_openings(amap) - entrances - exits,
        tokens=tuple(tokens),
        spawns=tuple(spawns),
        hero_starts=tuple(dict.fromkeys(starts)),
        entrances=entrances,
        exits=exits,
        glyphs=tuple((g.cells, g.active) for g in features.glyphs),
        chests=tuple((c.cell, c.tier) for c in features.chests),
        portal=frozenset(features.portal.cells) if features.portal is not None else frozenset(),
        hazards=features.hazards,
        title=title,
    )


def assembled_maps(model: Model, texts: Mapping[str, str] | None = None, lang: str | None = None) -> list[MapSource]:
    """(map id, title, body, AssembledMap, resolved encounter or None, owner) for every map the
    pack's own quests and encounters draw, from the maps pass (a map it could not
    assemble was reported there and is not drawn). Titles from `texts` (string id ->
    text of one language) where it has them, `encounter N` in `lang` (words.py). The
    owner is ("quest", id) or ("encounter", id): the start of its texts' string ids."""
    texts = texts or {}
    if model.maps is None:
        return []
    resolved_quests = {(q.id, e.number): e for q in (model.quests or {}).values() for e in q.encounters}
    resolved_encounters = model.encounters or {}
    out: list[MapSource] = []
    for quest in model.declarations(ast.Quest):
        many = len(quest.encounters) > 1
        for enc in quest.encounters:
            amap = model.maps.quests.get(quest.id, {}).get(enc.number)
            if amap is None:
                continue
            map_id = f"{quest.id}-{enc.number}" if many else quest.id
            title = texts.get(f"quest.{quest.id}.name", quest.name.value) + (f", {word('encounter', lang)} {enc.number}" if many else "")
            out.append((map_id, title, enc.body, amap, resolved_quests.get((quest.id, enc.number)), ("quest", quest.id)))
    for top in model.declarations(ast.Encounter):
        amap = model.maps.encounters.get(top.id)
        if amap is not None:
            name = texts.get(f"encounter.{top.id}.name", top.name.value) if top.name is not None else top.id
            out.append((top.id, name, top.body, amap, resolved_encounters.get(top.id), ("encounter", top.id)))
    return sorted(out, key=lambda item: item[0])


def hero_counts(model: Model, owner: tuple[str, str]) -> tuple[int, ...]:
    """The hero counts a map's quest is played with (() for a top-level encounter, or a
    quest that did not resolve)."""
    quest = (model.quests or {}).get(owner[1]) if owner[0] == "quest" else None
    return quest.hero_counts if quest is not None else ()


def quest_maps(model: Model, lang: str | None = None) -> dict[str, MapPicture]:
    """Every map picture of the pack; with `lang`, its titles and token labels in that
    language where the pack's translations have them (`model.languages`)."""
    texts = (model.languages or {}).get(lang) if lang is not None else None
    out: dict[str, MapPicture] = {}
    for map_id, title, body, amap, resolved, owner in assembled_maps(model, texts, lang):
        out[map_id] = replace(encounter_picture(body, amap, title, resolved, texts, owner, hero_counts(model, owner)), lang=lang)
    return out


def seen_from(board: Board, origin: Cell, blockers: frozenset[Cell] = frozenset()) -> frozenset[Cell]:
    """The spaces the sight engine says a figure in `origin` sees (doors in their start state)."""
    from compiler.geometry.sight import SightEngine

    table = SightEngine(board).table(blockers=blockers - {origin})
    row = table.matrix[board.index[origin]]
    return frozenset(c for c, ok in zip(board.spaces, row.tolist()) if ok)


def reachable_within(board: Board, origin: Cell, points: int, blockers: frozenset[Cell] = frozenset()) -> frozenset[Cell]:
    """The spaces a figure in `origin` can move to with at most `points` movement points.

    Moves use the space graph's step costs (terrain entry/leave costs, walls, closed doors
    in their start state, links); a space holding a blocking figure is never entered.
    """
    import networkx as nx

    from compiler.geometry.graph import door_state, movement_graph, with_doors

    g = with_doors(movement_graph(board), door_state(board, None))
    g = nx.subgraph_view(g, filter_node=lambda c: c == origin or c not in blockers)
    costs = nx.single_source_dijkstra_path_length(g, origin, cutoff=max(0, points), weight="weight")
    return frozenset(costs)


def level_picture(lv: CheckedLevel) -> MapPicture:
    """A 1st-edition dungeon level (compiler/model/campaign.py CheckedLevel): its map, the
    red-shaded areas where minions are not set up, the portal, the leader and the glyph
    the heroes arrive on. Titled with its card number and title as written. Only for a
    level whose map was assembled."""
    d = lv.decl
    if lv.map is None:
        raise ValueError(f"level {d.id} has no assembled map to draw")
    base = encounter_picture(d.body, lv.map)
    spawns: tuple[SpawnPoint, ...] = ()
    if d.leader is not None and lv.leader_at is not None:
        spawns = (SpawnPoint((lv.leader_at,), monster_initials(d.leader.monster.name), "master"),)
    number = f"{d.number}. " if d.number is not None else ""
    return replace(
        base,
        spawns=spawns,
        hero_starts=tuple(lv.start),
        no_minions=frozenset(lv.no_minions),
        portal=frozenset(lv.portal),
        title=f"{number}{d.title.value}",
    )


def location_picture(lc: CheckedLocation) -> MapPicture:
    """A location card's outdoor map with the camp: the watch and bedroll spaces (an
    ambush) as hero starts, and the four dead ends captioned `X`. Only for a card whose
    map was assembled."""
    d = lc.decl
    if lc.map is None:
        raise ValueError(f"location {d.id} has no assembled map to draw")
    base = encounter_picture(d.body, lc.map)
    captions = tuple(Caption(c, "X") for c in lc.dead_ends)
    return replace(base, hero_starts=tuple(dict.fromkeys((*lc.watch, *lc.bedrolls))), captions=captions, title=d.title.value)


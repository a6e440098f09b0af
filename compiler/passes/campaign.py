"""The campaign pass: the 1st-edition Road to Legend declarations checked against the
campaign rules catalog, the monster catalog, the world and their own maps
(docs/campaign.md):

- gates name campaign levels in order, expansions are known, sources are rulebook or
  illustrative;
- a level's leader is a catalogued monster carrying a known runekey that opens a door of
  its colour; minion options name catalogued monsters in groups a to d, each group
  needing every expansion its monsters come in; red-shaded tiles and the portal are
  placed on the level's map;
- dungeons, rumors, legendary areas and keeps chain their levels through portals, in the
  right number, and stand on world locations of the right kind; a rumor's distance can be
  met from the start and its legal places are listed for every party location;
- incident cards have shields, exact ambush odds from the black power die, a leader when
  they fight; location cards set up the camp on their starting piece and have exit pieces;
- plots have their seven cards; treachery is spent within what is held and what the
  avatar may hold, and the opening hand stays within its limit.
"""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import Any, Iterable, Mapping, TypeVar

from compiler.catalogs.dice import face_shows, faces_of
from compiler.catalogs.document import Entry
from compiler.diagnostics import Related, Sink, Span
from compiler.geometry.assemble import AssembledMap, PlacedTile
from compiler.diagnostics.hints import did_you_mean
from compiler.model import Model
from compiler.model import campaign as c
from compiler.syntax import ast

CATALOG_DIE = "black_power"
D = TypeVar("D")


def _hint(value: str, choices: Iterable[str], sink: Sink) -> tuple[str, str | None]:
    guess = did_you_mean(value, sorted(choices), None, sink)
    return (f"; did you mean `{guess}`?", guess) if guess else ("", None)


def _words(names: Iterable[str]) -> str:
    items = [f"`{n}`" for n in names]
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else (items[0] if items else "none")


# --------------------------------------------------------------------------- the rules catalog
def read_rules(entry: Entry, sink: Sink) -> c.CampaignRules:
    """One `campaign:` catalog entry (already schema-valid) as CampaignRules; thresholds
    must grow with the levels (K0108)."""
    data = entry.data if isinstance(entry.data, dict) else {}
    levels: list[c.CampaignLevel] = []
    last: tuple[int, str] | None = None
    for i, raw in enumerate(data.get("levels") or ()):
        lv = c.CampaignLevel(
            id=str(raw["id"]),
            name=str(raw.get("name", raw["id"])),
            order=i,
            threshold=raw.get("threshold"),
            power_cards=raw.get("power_cards"),
            tavern_cost=raw.get("tavern_cost"),
            source=raw.get("source", data.get("source", "illustrative")),
        )
        if lv.threshold is not None:
            if last is not None and lv.threshold <= last[0]:
                sink.report("K0108", entry.span("levels", i, "threshold"), level=lv.id, threshold=lv.threshold,
                            previous=last[1], before=last[0])
            last = (lv.threshold, lv.id)
        levels.append(lv)
    t = data.get("treachery") or {}
    defaults = c.TreacheryRules()
    treachery = c.TreacheryRules(
        types=tuple(t.get("types", defaults.types)),
        card_kinds=tuple(t.get("card_kinds", defaults.card_kinds)),
        base_hand=t.get("base_hand", defaults.base_hand),
        max_hand=t.get("max_hand", defaults.max_hand),
        points_per_extra_card=t.get("points_per_extra_card", defaults.points_per_extra_card),
        threat_per_point=t.get("threat_per_point", defaults.threat_per_point),
    )
    return c.CampaignRules(
        id=entry.id,
        name=str(data.get("name", entry.id)),
        levels=tuple(levels),
        final_battle=data.get("final_battle"),
        expansions=MappingProxyType(dict(sorted((data.get("expansions") or {}).items()))),
        runekeys=tuple(data.get("runekeys") or (c.DEFAULT_RUNEKEY,)),
        treachery=treachery,
        span=entry.key_span(),
        source=data.get("source", "illustrative"),
        facts=MappingProxyType(dict(data.get("facts") or {})),
    )


def die_faces(dice: Mapping[str, Any]) -> tuple[dict[str, int], int] | None:
    """How many faces of the black power die show a blank, a surge, a power enhancement."""
    faces = faces_of(dice.get(CATALOG_DIE)) if dice else None
    if not faces:
        return None
    return {f: sum(1 for x in faces if face_shows(x, f)) for f in c.DIE_FACES}, len(faces)


# --------------------------------------------------------------------------- the checker
class _Checker:
    def __init__(self, model: Model, sink: Sink) -> None:
        self.sink = sink
        self.monsters = model.monsters or {}
        self.maps = model.maps.campaign if model.maps is not None else {}
        self.tiles = model.tiles or {}
        entries = sorted((model.catalogs.get("campaign") or {}).items())
        self.rules = read_rules(entries[0][1], sink) if entries else None
        worlds = [w for _, w in sorted((model.worlds or {}).items()) if w.ok]
        self.world = worlds[0] if worlds else None
        table = (model.symbols or {}).get("campaign") or {}
        self.decls = {i: d for i, d in table.items()}
        self.faces = die_faces(model.catalogs.get("dice") or {})
        self.in_play: dict[str, tuple[str, ...]] = {}

    def report(self, code: str, span: Span, **kw: Any) -> None:
        self.sink.report(code, span, **kw)

    def of(self, kind: type[D]) -> dict[str, D]:
        return {i: d for i, d in sorted(self.decls.items()) if isinstance(d, kind)}

    # ----------------------------------------------------------------- shared statements
    def common(self, decl: ast.CampaignDeclaration) -> tuple[str, ...]:
        """Check gate, needs and source; the campaign levels the declaration is in play at."""
        levels = self._common(decl)
        self.in_play[decl.id] = levels
        return levels

    def _common(self, decl: ast.CampaignDeclaration) -> tuple[str, ...]:
        com: ast.Common = decl.common
        if com.source is not None and com.source.name not in c.SOURCES:
            hint, fix = _hint(com.source.name, c.SOURCES, self.sink)
            self.report("K0105", com.source.span, value=com.source.name, hint=hint, fix=fix)
        self.expansion(com.needs)
        rules = self.rules
        if rules is None:
            return ()
        every = tuple(lv.id for lv in rules.campaign_levels)
        if com.gate is None:
            return every
        known = {lv.id for lv in rules.levels}
        ok = True
        for ref in dict.fromkeys((com.gate.low, com.gate.high)):
            if ref.name not in known:
                hint, fix = _hint(ref.name, known, self.sink)
                self.report("K0101", ref.span, value=ref.name, hint=hint, fix=fix, levels=_words(lv.id for lv in rules.levels))
                ok = False
        if not ok:
            return every
        low, high = rules.level(com.gate.low.name), rules.level(com.gate.high.name)
        assert low is not None and high is not None  # both names are known levels (K0101 above)
        if low.order > high.order:
            self.report("K0102", com.gate.span, low=low.id, high=high.id)
            return every
        levels = c.gate_levels(rules, low.id, high.id)
        if not levels:
            self.report("K0103", com.gate.span, gate=low.id if low is high else f"{low.id}..{high.id}")
        return levels

    def expansion(self, ref: ast.Ref | None) -> bool:
        """False (after K0104) when `ref` names no expansion of the catalog."""
        if ref is None or self.rules is None or ref.name in self.rules.expansions:
            return True
        hint, fix = _hint(ref.name, self.rules.expansions, self.sink)
        self.report("K0104", ref.span, value=ref.name, hint=hint, fix=fix, known=_words(self.rules.expansions) if self.rules.expansions else "none declared")
        return False

    def monster(self, ref: ast.Ref, what: str) -> bool:
        if ref.name in self.monsters:
            return True
        hint, fix = _hint(ref.name, self.monsters, self.sink)
        self.report("K0110", ref.span, name=ref.name, what=what, hint=hint, fix=fix)
        return False

    def reference(self, ref: ast.Ref, kind: type[D], what: str) -> D | None:
        """The declaration `ref` names if it is of `kind`; K0130 / K0131 otherwise."""
        decl = self.decls.get(ref.name)
        if decl is None:
            choices = [i for i, d in self.decls.items() if isinstance(d, kind)]
            hint, fix = _hint(ref.name, choices, self.sink)
            self.report("K0130", ref.span, name=ref.name, what=what, hint=hint, fix=fix)
            return None
        if not isinstance(decl, kind):
            self.report("K0131", ref.span, name=ref.name, actual=_kind_name(decl), expected=what,
                        related=(Related(decl.span, "declared here"),))
            return None
        return decl

    def missing(self, decl: ast.CampaignDeclaration, what: str, statement: str) -> None:
        self.report("K0143", decl.span, what=what, id=decl.id, statement=statement)

    def location(self, ref: ast.Ref | None, kind: str, decl: ast.CampaignDeclaration, what: str) -> str | None:
        """A world location of `kind` (K0121 / K0122); None when there is no world to check."""
        if ref is None:
            self.missing(decl, what, "at LOCATION")
            return None
        world = self.world
        if world is None:
            return None
        loc = world.locations.get(ref.name)
        if loc is None:
            from compiler.model.world import hint_location

            hint, fix = hint_location(world, ref.name)
            self.report("K0121", ref.span, name=ref.name, world=world.id, hint=hint, fix=fix)
            return None
        if loc.kind != kind:
            self.report("K0122", ref.span, name=ref.name, actual=loc.kind, expected=kind, what=what)
            return None
        return loc.id

    # ----------------------------------------------------------------- levels
    def minions(self, groups: Iterable[ast.MinionGroup], level_needs: ast.Ref | None, lettered: bool) -> None:
        seen: dict[str, ast.MinionGroup] = {}
        for g in groups:
            # a misspelt `needs` (K0104, here or on the level) is not also K0114
            needs_known = self.expansion(g.needs) and (
                level_needs is None or self.rules is None or level_needs.name in self.rules.expansions)
            if lettered and g.group is not None:
                if g.group.name not in c.MINION_GROUPS:
                    hint, fix = _hint(g.group.name, c.MINION_GROUPS, self.sink)
                    self.report("K0113", g.group.span, group=g.group.name, groups=_words(c.MINION_GROUPS), hint=hint, fix=fix)
                elif g.group.name in seen:
                    self.report("K0109", g.group.span, group=g.group.name,
                                related=(Related(seen[g.group.name].span, "first given here"),))
                else:
                    seen[g.group.name] = g
            elif not lettered and g.group is not None:
                self.report("K0113", g.group.span, group=g.group.name, groups="none on an incident card (one force of minions)", hint="", fix=None)
            if not g.options:
                self.report("K0115", g.span, what="this minion group", count=0)
            for opt in g.options:
                if opt.count < 1:
                    self.report("K0115", opt.span, what=f"`{opt.monster.name}`", count=opt.count)
                if not self.monster(opt.monster, "minion"):
                    continue
                need = self.monsters[opt.monster.name].expansion
                have = {r.name for r in (g.needs, level_needs) if r is not None}
                if need and need not in have and needs_known:
                    self.report("K0114", opt.monster.span, monster=opt.monster.name, expansion=need,
                                group=f"group {g.group.name}" if g.group is not None else "this force", fix=None)

    def placed(self, amap: AssembledMap, ref: ast.Ref, what: str) -> PlacedTile | None:
        placed = amap.by_name.get(ref.name)
        if placed is None:
            hint, fix = _hint(ref.name, amap.by_name, self.sink)
            self.report("K0118", ref.span, name=ref.name, what=what, hint=hint, fix=fix)
        return placed

    def level(self, decl: ast.Level) -> c.CheckedLevel:
        from compiler.passes.spaces import resolve_space

        levels = self.common(decl)
        amap = self.maps.get(decl.id)
        if decl.card and decl.number is None:
            self.missing(decl, "a Dungeon Level card", "number N")
        if not decl.card and decl.number is not None:
            self.report("K0116", decl.span, id=decl.id)
        runekey = None
        leader_at = None
        if decl.leader is not None:
            self.monster(decl.leader.monster, "leader")
            key = decl.leader.carries
            runekey = key.name if key is not None else (c.DEFAULT_RUNEKEY if decl.card else None)
            if key is not None and self.rules is not None and key.name not in self.rules.runekeys:
                hint, fix = _hint(key.name, self.rules.runekeys, self.sink)
                self.report("K0111", key.span, value=key.name, keys=_words(self.rules.runekeys), hint=hint, fix=fix)
                runekey = None
            if amap is not None and decl.leader.at is not None:
                leader_at = resolve_space(amap, decl.leader.at, self.sink)
            if amap is not None and runekey is not None and decl.body.map is not None:
                colours = {d.colour for d in decl.body.map.doors}
                if runekey not in colours:
                    self.report("K0112", (key or decl.leader.monster).span, key=runekey, id=decl.id)
        elif decl.card:
            self.missing(decl, "a Dungeon Level card", "leader MONSTER")
        self.minions(decl.minions, decl.common.needs, lettered=True)
        no_minions: set[tuple[int, int]] = set()
        portal: tuple[tuple[int, int], ...] = ()
        start: set[tuple[int, int]] = set()
        if amap is not None and decl.body.start is not None:  # its spaces were checked by the maps pass
            quiet = Sink()
            start.update(x for x in (resolve_space(amap, r, quiet) for r in decl.body.start.spaces) if x is not None)
            if decl.body.start.tile in amap.by_name:
                start.update(amap.by_name[decl.body.start.tile].cells)
        if amap is not None:
            for ref in decl.no_minions:
                p = self.placed(amap, ref, "red-shaded")
                if p is not None:
                    no_minions.update(p.cells)
            if decl.portal is not None:
                p = self.placed(amap, decl.portal, "portal")
                if p is not None:
                    portal = tuple(sorted(p.cells, key=lambda xy: (xy[1], xy[0])))
        elif decl.body.map is None:
            self.missing(decl, "a level", "map { … }")
        return c.CheckedLevel(
            decl=decl,
            map=amap,
            levels=levels,
            runekey=runekey,
            leader_at=leader_at,
            no_minions=tuple(sorted(no_minions, key=lambda xy: (xy[1], xy[0]))),
            portal=portal,
            start=tuple(sorted(start, key=lambda xy: (xy[1], xy[0]))),
        )

    def numbers(self, levels: Mapping[str, c.CheckedLevel]) -> None:
        first: dict[int, ast.Level] = {}
        for lv in levels.values():
            d = lv.decl
            if d.card and d.number is not None:
                if d.number in first:
                    self.report("K0117", d.span, number=d.number, id=d.id,
                                related=(Related(first[d.number].span, f"`{first[d.number].id}` has it"),))
                else:
                    first[d.number] = d

    # ----------------------------------------------------------------- chains
    def chain(self, decl: ast.CampaignDeclaration, kind: str, location: str | None, drawn: tuple[ast.Ref, ...], final: ast.Ref | None,
              levels: Mapping[str, c.CheckedLevel]) -> c.Chain:
        """The levels of one place in order: drawn cards (named, or None = dealt in play)
        then its own final level; each level's portal leads to the next, the last to the surface."""
        ids: list[str | None] = []
        seen: dict[str, ast.Ref] = {}
        for ref in drawn:
            lv = self.reference(ref, ast.Level, "dungeon level")
            if lv is not None and not lv.card:
                self.report("K0131", ref.span, name=ref.name, actual="special level", expected="Dungeon Level card",
                            related=(Related(lv.span, "declared here"),))
                lv = None
            ids.append(ref.name if lv is not None else None)
            if lv is not None:
                if ref.name in seen:
                    self.report("K0133", ref.span, name=ref.name, related=(Related(seen[ref.name].span, "first here"),))
                seen[ref.name] = ref
        expected_drawn = c.DRAWN_LEVELS[kind]
        if kind == "dungeon" and len(drawn) != expected_drawn:
            self.report("K0132", decl.span, id=decl.id, what="dungeon", count=len(drawn), expected=expected_drawn)
        if kind != "dungeon":
            ids = [None] * expected_drawn
            if final is None:
                self.missing(decl, _kind_name(decl), "final LEVEL")
            else:
                lv = self.reference(final, ast.Level, "special level")
                if lv is not None and lv.card:
                    self.report("K0131", final.span, name=final.name, actual="Dungeon Level card", expected="special level",
                                related=(Related(lv.span, "declared here"),))
                    lv = None
                ids.append(final.name if lv is not None else None)
        for ref_id in ids:
            if ref_id is not None and ref_id in levels and levels[ref_id].map is not None and not levels[ref_id].portal:
                where = next((r for r in (*drawn, final) if r is not None and r.name == ref_id), None)
                self.report("K0134", where.span if where else decl.span, name=ref_id, id=decl.id)
        exits = tuple(
            (ids[i + 1] or "next") if i + 1 < len(ids) else "surface" for i in range(len(ids))
        )
        return c.Chain(decl.id, kind, location, tuple(ids), exits)

    # ----------------------------------------------------------------- rumors
    def rumor(self, decl: ast.RumorCard) -> tuple[c.CheckedRumor, ast.Ref | None]:
        levels = self.common(decl)
        placements: dict[str, tuple[str, ...]] = {}
        from_start: tuple[str, ...] = ()
        if decl.distance is None:
            self.missing(decl, "a rumor card", "distance N")
        elif decl.distance < 1:
            self.report("K0141", decl.distance_span, distance=decl.distance)
        elif self.world is not None:
            placements = {k: tuple(v) for k, v in c.rumor_placements(self.world, decl.distance).items()}
            from_start = placements.get(self.world.start, ())
            if not from_start:
                from compiler.model.world import distances_from

                far = max(distances_from(self.world, self.world.start).values(), default=0)
                self.report("K0142", decl.distance_span, distance=decl.distance, start=self.world.start, far=far)
        return c.CheckedRumor(decl, levels, MappingProxyType(placements), from_start), decl.final

    # ----------------------------------------------------------------- incidents and locations
    def incident(self, decl: ast.IncidentCard) -> c.CheckedIncident:
        levels = self.common(decl)
        if not decl.shields:
            self.missing(decl, "an incident card", "shield COLOUR")
        for ref in decl.shields:
            if ref.name not in c.SHIELDS:
                hint, fix = _hint(ref.name, c.SHIELDS, self.sink)
                self.report("K0171", ref.span, value=ref.name, hint=hint, fix=fix)
        for ref in decl.ambush:
            if ref.name not in c.DIE_FACES:
                hint, fix = _hint(ref.name, c.DIE_FACES, self.sink)
                self.report("K0172", ref.span, value=ref.name, hint=hint, fix=fix)
        if decl.non_combat is not None:
            parts = [name for name, there in (("leader", decl.leader), ("minions", decl.minions),
                                              ("ambush", decl.ambush), ("ability", decl.abilities)) if there]
            if parts:
                self.report("K0174", decl.span, id=decl.id, parts=_words(parts))
            return c.CheckedIncident(decl, levels, None)
        if decl.leader is None:
            self.missing(decl, "a combat incident card", "leader MONSTER")
        else:
            self.monster(decl.leader.monster, "leader")
            if decl.leader.carries is not None or decl.leader.at is not None:
                self.report("K0175", decl.leader.span, id=decl.id)
        self.minions(decl.minions, decl.common.needs, lettered=False)
        for ab in decl.abilities:
            if ab.reinforce is not None:
                self.monster(ab.reinforce, "reinforcement")
        ambush = None
        if not decl.ambush:
            self.missing(decl, "a combat incident card", "ambush FACE")
        elif self.faces is not None and all(r.name in c.DIE_FACES for r in decl.ambush):
            counts, total = self.faces
            ambush = c.ambush_chance(counts, total, (r.name for r in decl.ambush))
        return c.CheckedIncident(decl, levels, ambush)

    def location_card(self, decl: ast.LocationCard) -> c.CheckedLocation:
        from compiler.passes.spaces import resolve_space

        levels = self.common(decl)
        amap = self.maps.get(decl.id)
        found: dict[str, tuple[tuple[int, int], ...]] = {"watch": (), "bedrolls": (), "dead_ends": ()}
        exits: list[str] = []
        if decl.body.map is None:
            self.missing(decl, "a location card", "map { … }")
        if decl.camp is None:
            self.missing(decl, "a location card", "camp on TILE { … }")
        if amap is not None and decl.camp is not None:
            start = self.placed(amap, decl.camp.tile, "camp")
            board = amap.board
            rules = {cell: board.rules[t] for cell, t in zip(board.spaces, board.terrain)}
            used: dict[tuple[int, int], Any] = {}
            for part, want in (("watch", 1), ("bedrolls", c.PARTY - 1), ("dead_ends", c.PARTY)):
                refs = getattr(decl.camp, part)
                if len(refs) != want:
                    self.report("K0182", decl.camp.span, part=part, count=len(refs), expected=want)
                cells = []
                for ref in refs:
                    cell = resolve_space(amap, ref, self.sink)
                    if cell is None:
                        continue
                    if start is not None and cell not in start.cells:
                        self.report("K0181", ref.span, space=amap.describe(cell), why="is not on the starting piece")
                    elif rules[cell].blocks_movement:
                        self.report("K0181", ref.span, space=amap.describe(cell),
                                    why=f"holds {rules[cell].id}, where no hero can stand")
                    elif part != "dead_ends" and cell in used:
                        self.report("K0181", ref.span, space=amap.describe(cell),
                                    why="already holds a hero of the camp")
                    cells.append(cell)
                    if part != "dead_ends":
                        used[cell] = ref
                found[part] = tuple(cells)
        if amap is not None:
            for ref in decl.exits:
                p = self.placed(amap, ref, "exit")
                if p is None:
                    continue
                if p.tile.kind != "exit":
                    self.report("K0183", ref.span, name=ref.name, piece=p.code,
                                kind=("an " if p.tile.kind[:1] in "aeiou" else "a ") + p.tile.kind)
                else:
                    exits.append(ref.name)
            if not decl.exits:
                self.report("K0184", decl.span, id=decl.id)
        return c.CheckedLocation(decl, amap, levels, found["watch"], found["bedrolls"], found["dead_ends"], tuple(exits))

    # ----------------------------------------------------------------- plots and treachery
    def plot(self, decl: ast.Plot) -> None:
        self.common(decl)
        counts = Counter(card.role for card in decl.cards)
        if any(counts[role] != n for role, n in c.PLOT_ROLES.items()):
            shown = ", ".join(f"{counts[r]} {r}" for r in c.PLOT_ROLES)
            self.report("K0191", decl.span, id=decl.id, found=shown)
        ids: dict[str, ast.PlotCard] = {}
        for card in decl.cards:
            if card.id in ids:
                self.report("K0133", card.span, name=card.id, related=(Related(ids[card.id].span, "first here"),))
            ids[card.id] = card
            if card.role == "step" and (card.cost is None or card.cost < 1):
                self.report("K0192", card.span, id=card.id, role=card.role, rule="costs XP (`cost N`, N at least 1)")
            elif card.role != "step" and card.cost not in (None, 0):
                self.report("K0192", card.span, id=card.id, role=card.role, rule="costs nothing (no `cost`, or `cost 0`)")

    def treachery_type(self, ref: ast.Ref) -> bool:
        types = self.rules.treachery.types if self.rules is not None else c.TreacheryRules().types
        if ref.name in types:
            return True
        hint, fix = _hint(ref.name, types, self.sink)
        self.report("K0201", ref.span, value=ref.name, types=_words(types), hint=hint, fix=fix)
        return False

    def treachery_card(self, decl: ast.TreacheryCard) -> None:
        self.common(decl)
        if decl.gem is None:
            self.missing(decl, "a treachery card", "gem TYPE COST")
        else:
            self.treachery_type(decl.gem)
            if decl.cost is not None and decl.cost < 1:
                self.report("K0203", decl.gem.span, id=decl.id)
        kinds = self.rules.treachery.card_kinds if self.rules is not None else c.TreacheryRules().card_kinds
        if decl.kind is None:
            self.missing(decl, "a treachery card", "kind KIND")
        elif decl.kind.name not in kinds:
            hint, fix = _hint(decl.kind.name, kinds, self.sink)
            self.report("K0204", decl.kind.span, value=decl.kind.name, kinds=_words(kinds), hint=hint, fix=fix)

    def limits(self, entries: Iterable[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for e in entries:
            if not self.treachery_type(e.type):
                continue
            if e.type.name in out:
                self.report("K0202", e.type.span, value=e.type.name, related=(Related(out[e.type.name].span, "first given here"),))
                continue
            out[e.type.name] = e
        return out

    def avatar(self, decl: ast.Avatar) -> None:
        self.common(decl)
        self.limits(decl.treachery)

    def overlord_deck(self, decl: ast.OverlordDeck) -> c.CheckedDeck:
        self.common(decl)
        rules = self.rules.treachery if self.rules is not None else c.TreacheryRules()
        avatar = None
        if decl.avatar is None:
            self.missing(decl, "an overlord deck", "avatar ID")
        else:
            avatar = self.reference(decl.avatar, ast.Avatar, "avatar")
        held_by = self.limits(decl.held)
        held = {t: e.points for t, e in held_by.items()}
        if avatar is not None:
            caps = {lim.type.name: lim for lim in avatar.treachery}
            for t, e in held_by.items():
                cap = caps.get(t)
                most = cap.max if cap is not None else 0
                if e.points > most:
                    self.report("K0205", e.span, points=e.points, type=t, avatar=avatar.id, max=most,
                                related=(Related(cap.span if cap else avatar.span, "the avatar's limit"),))
        spent: Counter[str] = Counter()
        spent_at: dict[str, Span] = {}
        for ref in decl.add:
            card = self.reference(ref, ast.TreacheryCard, "treachery card")
            if card is None or card.gem is None or card.cost is None:
                continue
            spent[card.gem.name] += card.cost
            spent_at.setdefault(card.gem.name, ref.span)
        for t in sorted(spent):
            if spent[t] > held.get(t, 0):
                self.report("K0206", spent_at[t], type=t, spent=spent[t], held=held.get(t, 0), id=decl.id)
        hand = c.opening_hand(rules, held, {t: min(n, held.get(t, 0)) for t, n in spent.items()})
        if hand.extra_cards and hand.hand == rules.max_hand and hand.wasted >= rules.points_per_extra_card:
            self.report("K0207", decl.span, id=decl.id, wasted=hand.wasted, max=rules.max_hand)
        return c.CheckedDeck(decl, MappingProxyType(dict(sorted(held.items()))), hand)

    # ----------------------------------------------------------------- everything
    def run(self) -> c.Campaign:
        if self.rules is None and self.decls:
            self.report("K0106", next(iter(self.decls.values())).span)
        levels = {i: self.level(d) for i, d in self.of(ast.Level).items()}
        self.numbers(levels)
        chains: dict[str, c.Chain] = {}
        for i, dungeon in self.of(ast.Dungeon).items():
            self.common(dungeon)
            loc = self.location(dungeon.at, "dungeon", dungeon, "a dungeon")
            chains[i] = self.chain(dungeon, "dungeon", loc, dungeon.levels, None, levels)
        rumors: dict[str, c.CheckedRumor] = {}
        for i, rumor in self.of(ast.RumorCard).items():
            rumors[i], final = self.rumor(rumor)
            chains[i] = self.chain(rumor, "rumor", None, (), final, levels)
        for i, area in self.of(ast.LegendaryArea).items():
            gated = self.common(area)
            loc = self.location(area.at, "legendary", area, "a legendary area")
            if loc is not None and self.world is not None:  # a location is found only in a world
                opens = self.world.locations[loc].level
                if area.common.gate is None and opens is not None:
                    self.in_play[i] = (opens,)
                if opens is not None and area.common.gate is not None and tuple(gated) != (opens,):
                    self.report("K0151", area.common.gate.span, id=area.id, location=loc, level=opens)
            chains[i] = self.chain(area, "legendary", loc, (), area.final, levels)
        for i, avatar in self.of(ast.Avatar).items():
            self.avatar(avatar)
            loc = None
            if avatar.keep is None:
                self.missing(avatar, "an avatar", "keep LOCATION")
            else:
                loc = self.location(avatar.keep, "keep", avatar, "an Overlord's Keep")
            chains[i] = self.chain(avatar, "keep", loc, (), avatar.final, levels)
        chained = {lv for ch in chains.values() for lv in ch.levels}
        for i, lv in levels.items():  # a chained level without a portal is K0134 at its use
            if lv.map is not None and lv.decl.portal is None and i not in chained:
                self.report("K0119", lv.decl.span, id=i)
        incidents = {i: self.incident(d) for i, d in self.of(ast.IncidentCard).items()}
        locations = {i: self.location_card(d) for i, d in self.of(ast.LocationCard).items()}
        for plot in self.of(ast.Plot).values():
            self.plot(plot)
        for card in self.of(ast.TreacheryCard).values():
            self.treachery_card(card)
        decks = {i: self.overlord_deck(d) for i, d in self.of(ast.OverlordDeck).items()}
        M = MappingProxyType
        return c.Campaign(
            rules=self.rules,
            levels=M(levels),
            chains=M(dict(sorted(chains.items()))),
            dungeons=M(self.of(ast.Dungeon)),
            rumors=M(rumors),
            legendary=M(self.of(ast.LegendaryArea)),
            avatars=M(self.of(ast.Avatar)),
            incidents=M(incidents),
            locations=M(locations),
            plots=M(self.of(ast.Plot)),
            treachery_cards=M(self.of(ast.TreacheryCard)),
            overlord_decks=M(decks),
            world=self.world.id if self.world is not None else None,
            in_play=M(dict(sorted(self.in_play.items()))),
        )


KIND_NAMES = {
    ast.Dungeon: "dungeon",
    ast.RumorCard: "rumor card",
    ast.LegendaryArea: "legendary area",
    ast.Avatar: "avatar",
    ast.IncidentCard: "incident card",
    ast.LocationCard: "location card",
    ast.Plot: "plot",
    ast.TreacheryCard: "treachery card",
    ast.OverlordDeck: "overlord deck",
}


def _kind_name(decl: ast.Declaration) -> str:
    if isinstance(decl, ast.Level):
        return "Dungeon Level card" if decl.card else "special level"
    return KIND_NAMES.get(type(decl), type(decl).__name__)


def campaign_pass(model: Model, sink: Sink) -> Model:
    """The campaign declarations checked (Campaign); with only the rules catalog, the rules alone."""
    return model.with_(campaign=_Checker(model, sink).run())

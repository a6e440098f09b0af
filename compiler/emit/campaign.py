"""The bundle's `campaign` section (schemas/bundle/campaign.schema.json): the 1st-edition
campaign, checked by compiler/passes/campaign.py, as data a front end runs without the
rules engine: levels with their maps (spaces by index, red-shaded and portal spaces,
where the leader stands), the chains of levels each place is explored through, rumors
with their legal places from every party location, exact ambush odds, treachery spent.

String ids (compiler/emit/strings.py: ids name a place, never the wording):
    campaign.<id>.title | .name | .leader.name | .leader.rules | .special | .description
        | .rumor | .instructions | .reward | .treasure | .flavor | .non_combat | .rule
        | .ability.<k> | .card.<card id>.title | .card.<card id>.text | .rules
The same walk gives them to `questc check` (compiler/model/texts.py: campaign_texts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Protocol

from compiler.emit.shared import JSONObject
from compiler.emit.maps import map_json
from compiler.emit.rtl_state import rtl_state_json
from compiler.emit.strings import StringTable
from compiler.model import Model
from compiler.model import campaign as c
from compiler.model.texts import campaign_texts
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.geometry.assemble import AssembledMap
    from compiler.geometry.lattice import Cell

# (declaration id, key) -> string id: where `_texts` put each campaign text
Ids = dict[tuple[str, str], str]


class _Declared(Protocol):
    """A campaign declaration: each has the common fields (source, needs)."""

    @property
    def common(self) -> ast.Common: ...


def _texts(camp: c.Campaign, table: StringTable) -> Ids:
    """Every campaign text added to the table; (declaration id, key) -> string id."""
    ids: Ids = {}
    for sid, text, _note in campaign_texts(camp):
        if text is not None:
            table.add(sid, text)
            decl, key = sid.split(".", 2)[1:]
            ids[(decl, key)] = sid
    return ids


def _common(decl: _Declared, in_play: tuple[str, ...]) -> JSONObject:
    out: JSONObject = {"in_play": list(in_play), "source": decl.common.source.name if decl.common.source else "illustrative"}
    if decl.common.needs is not None:
        out["needs"] = decl.common.needs.name
    return out


def _minions(groups: tuple[ast.MinionGroup, ...]) -> list[JSONObject]:
    out = []
    for g in groups:
        d: JSONObject = {"options": [{"monster": o.monster.name, "count": o.count} for o in g.options]}
        if g.group is not None:
            d["group"] = g.group.name
        if g.needs is not None:
            d["needs"] = g.needs.name
        out.append(d)
    return out


def _indices(amap: AssembledMap, cells: Iterable[Cell]) -> list[int]:
    index = amap.board.index
    return sorted(index[cell] for cell in cells if cell in index)


def level_json(lv: c.CheckedLevel, ids: Ids, sight: bool) -> JSONObject:
    d = lv.decl
    out: JSONObject = {"kind": "card" if d.card else "special", **_common(d, lv.levels)}
    out["title"] = ids[(d.id, "title")]
    if d.number is not None:
        out["number"] = d.number
    if d.leader is not None:
        leader: JSONObject = {"monster": d.leader.monster.name}
        for key, sid in (("name", "leader.name"), ("rules", "leader.rules")):
            if (d.id, sid) in ids:
                leader[key] = ids[(d.id, sid)]
        if lv.runekey is not None:
            leader["runekey"] = lv.runekey
        if lv.map is not None and lv.leader_at is not None:
            leader["space"] = lv.map.board.index[lv.leader_at]
        out["leader"] = leader
    out["minions"] = _minions(d.minions)
    for key in ("special", "description"):
        if (d.id, key) in ids:
            out[key] = ids[(d.id, key)]
    if lv.map is not None:
        out["map"] = map_json(lv.map, sight=sight)
        out["no_minions"] = _indices(lv.map, lv.no_minions)
        out["portal"] = _indices(lv.map, lv.portal)
        out["start"] = _indices(lv.map, lv.start)
    return out


def chain_json(ch: c.Chain) -> JSONObject:
    return {
        "kind": ch.kind,
        "location": ch.location,
        "levels": list(ch.levels),
        "portals": list(ch.exits),
    }


def rumor_json(r: c.CheckedRumor, ids: Ids) -> JSONObject:
    d = r.decl
    out: JSONObject = {**_common(d, r.levels), "title": ids[(d.id, "title")], "keep_card": d.keep_card}
    if d.distance is not None:
        out["distance"] = d.distance
    for key in ("rumor", "instructions", "reward"):
        if (d.id, key) in ids:
            out[key] = ids[(d.id, key)]
    if d.final is not None:
        out["final"] = d.final.name
    out["placements"] = {k: list(v) for k, v in sorted(r.placements.items())}
    out["from_start"] = list(r.from_start)
    return out


def incident_json(i: c.CheckedIncident, ids: Ids) -> JSONObject:
    d = i.decl
    out: JSONObject = {
        **_common(d, i.levels),
        "title": ids[(d.id, "title")],
        "combat": d.non_combat is None,
        "shields": [r.name for r in d.shields],
        "ambush_faces": [r.name for r in d.ambush],
        "minions": _minions(d.minions),
        "abilities": [],
    }
    if i.ambush is not None:
        out["ambush"] = c.fraction_json(i.ambush)
    if d.leader is not None:
        leader: JSONObject = {"monster": d.leader.monster.name}
        for key, sid in (("name", "leader.name"), ("rules", "leader.rules")):
            if (d.id, sid) in ids:
                leader[key] = ids[(d.id, sid)]
        out["leader"] = leader
    for k, ab in enumerate(d.abilities, 1):
        a: JSONObject = {"cost": ab.cost}
        if ab.reinforce is not None:
            a.update(kind="reinforce", monster=ab.reinforce.name)
        else:
            a.update(kind="text", text=ids[(d.id, f"ability.{k}")])
        out["abilities"].append(a)
    for key in ("flavor", "non_combat"):
        if (d.id, key) in ids:
            out[key] = ids[(d.id, key)]
    return out


def location_json(lc: c.CheckedLocation, ids: Ids, sight: bool) -> JSONObject:
    d = lc.decl
    out: JSONObject = {**_common(d, lc.levels), "title": ids[(d.id, "title")], "exits": list(lc.exits)}
    if (d.id, "rule") in ids:
        out["rule"] = ids[(d.id, "rule")]
    if lc.map is not None:
        out["map"] = map_json(lc.map, sight=sight)
        if d.camp is not None:
            out["camp"] = {
                "tile": d.camp.tile.name,
                "watch": _indices(lc.map, lc.watch),
                "bedrolls": _indices(lc.map, lc.bedrolls),
                "dead_ends": _indices(lc.map, lc.dead_ends),
            }
    return out


def rules_json(r: c.CampaignRules) -> JSONObject:
    levels = []
    for lv in r.levels:
        d: JSONObject = {"id": lv.id, "name": lv.name, "order": lv.order}
        for key in ("threshold", "power_cards", "tavern_cost"):
            if getattr(lv, key) is not None:
                d[key] = getattr(lv, key)
        levels.append(d)
    t = r.treachery
    out: JSONObject = {
        "name": r.name,
        "levels": levels,
        "expansions": dict(r.expansions),
        "runekeys": list(r.runekeys),
        "treachery": {
            "types": list(t.types),
            "card_kinds": list(t.card_kinds),
            "base_hand": t.base_hand,
            "max_hand": t.max_hand,
            "points_per_extra_card": t.points_per_extra_card,
            "threat_per_point": t.threat_per_point,
        },
    }
    if r.final_battle is not None:
        out["final_battle"] = r.final_battle
    return out


def campaign_section(model: Model, table: StringTable) -> JSONObject | None:
    camp = model.campaign
    if camp is None:
        return None
    sight = model.options.sight
    ids = _texts(camp, table)
    playing = camp.in_play
    out: JSONObject = {}
    if camp.rules is not None:
        out["rules"] = {camp.rules.id: rules_json(camp.rules)}
    if camp.world is not None:
        out["world"] = camp.world
    out["levels"] = {i: level_json(lv, ids, sight) for i, lv in camp.levels.items()}
    out["chains"] = {i: chain_json(ch) for i, ch in camp.chains.items()}
    out["dungeons"] = {i: {**_common(d, playing.get(i, ())), "name": ids[(i, "name")], "chain": i} for i, d in camp.dungeons.items()}
    out["rumors"] = {i: rumor_json(r, ids) for i, r in camp.rumors.items()}
    out["legendary_areas"] = {i: legendary_json(d, ids, playing.get(i, ())) for i, d in camp.legendary.items()}
    out["avatars"] = {i: avatar_json(d, ids, playing.get(i, ())) for i, d in camp.avatars.items()}
    out["incidents"] = {i: incident_json(x, ids) for i, x in camp.incidents.items()}
    out["locations"] = {i: location_json(x, ids, sight) for i, x in camp.locations.items()}
    out["plots"] = {i: plot_json(d, ids, playing.get(i, ())) for i, d in camp.plots.items()}
    out["treachery_cards"] = {i: treachery_json(d, ids, playing.get(i, ())) for i, d in camp.treachery_cards.items()}
    out["overlord_decks"] = {i: overlord_deck_json(x, playing.get(i, ())) for i, x in camp.overlord_decks.items()}
    out["illustrative"] = sorted({f.where for f in (model.illustrative or ())})
    state = rtl_state_json(model)  # the moving state (compiler/emit/rtl_state.py)
    if state is not None:
        out["state"] = state
    return out


def legendary_json(d: ast.LegendaryArea, ids: Ids, in_play: tuple[str, ...]) -> JSONObject:
    i = d.id
    return {**_common(d, in_play), "name": ids[(i, "name")], "chain": i, **({"treasure": ids[(i, "treasure")]} if (i, "treasure") in ids else {})}


def avatar_json(d: ast.Avatar, ids: Ids, in_play: tuple[str, ...]) -> JSONObject:
    return {
        **_common(d, in_play),
        "name": ids[(d.id, "name")],
        "chain": d.id,
        "keep": d.keep.name if d.keep is not None else None,
        "treachery": {t.type.name: {"cost": t.cost, "max": t.max} for t in d.treachery},
    }


def plot_json(d: ast.Plot, ids: Ids, in_play: tuple[str, ...]) -> JSONObject:
    i = d.id
    return {
        **_common(d, in_play),
        "name": ids[(i, "name")],
        "cards": [
            {
                "id": card.id,
                "role": card.role,
                "title": ids[(i, f"card.{card.id}.title")],
                "cost": card.cost or 0,
                **({"text": ids[(i, f"card.{card.id}.text")]} if (i, f"card.{card.id}.text") in ids else {}),
            }
            for card in d.cards
        ],
    }


def treachery_json(d: ast.TreacheryCard, ids: Ids, in_play: tuple[str, ...]) -> JSONObject:
    i = d.id
    return {
        **_common(d, in_play),
        "title": ids[(i, "title")],
        "gem": d.gem.name if d.gem is not None else None,
        "cost": d.cost,
        "kind": d.kind.name if d.kind is not None else None,
        "threat": d.threat,
        **({"rules": ids[(i, "rules")]} if (i, "rules") in ids else {}),
    }


def overlord_deck_json(x: c.CheckedDeck, in_play: tuple[str, ...]) -> JSONObject:
    return {
        **_common(x.decl, in_play),
        "avatar": x.decl.avatar.name if x.decl.avatar is not None else None,
        "held": dict(x.held),
        "add": [r.name for r in x.decl.add],
        "spent": dict(x.hand.spent),
        "leftover": x.hand.leftover,
        "extra_cards": x.hand.extra_cards,
        "hand": x.hand.hand,
    }

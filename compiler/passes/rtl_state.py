"""The campaign-state pass: the 1st-edition advanced campaign's moving state (`rtl_state:`
catalog entries) checked against the campaign catalog, the world, the monsters, the dice
and the campaign declarations, and its recorded weeks replayed (docs/campaign.md, "The
moving state"):

- every name resolves: the campaign and world, cities and places (siege capital,
  encounter outcomes, vaults, quest items, where party upgrades are sold), trail types,
  campaign levels, dice, monsters a lieutenant reinforces, avatars, plot cards, the
  lieutenants the overlord starts with (K0501), and each is of the right kind (K0502);
- a siege can end: the razing face is on the razing die (K0503);
- every upgrade, lieutenant and secret training can be paid for before the Final Battle
  takes all XP away, at a level the campaign reaches (K0504);
- every legendary area can be entered: its level has a window of conquest before the
  next level or the Final Battle, and a trail leads there with the upgrades the party
  can buy (K0505); secret training has a secret master area to happen in (K0506);
- no vault holds more quest items than it can (K0507);
- the recorded weeks, replayed, break no rule (K0511 - K0522).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterable

import networkx as nx

from compiler.catalogs.dice import FACE_SYMBOLS, face_shows, faces_of
from compiler.catalogs.document import Entry
from compiler.diagnostics import Sink, Span
from compiler.diagnostics.hints import hint_and_fix
from compiler.model import Model
from compiler.model import rtl_state as r
from compiler.model.provenance import Fact
from compiler.model.world import TRAIL_TYPES, World
from compiler.syntax import ast


def _names(known: Iterable[str]) -> str:
    items = [f"`{k}`" for k in sorted(known)]
    if not items:
        return "none"
    return ", ".join(items[:8]) + (f" and {len(items) - 8} more" if len(items) > 8 else "")


class _Reader:
    """One entry read into StateRules; every static problem reported at its node."""

    def __init__(self, entry: Entry, model: Model, sink: Sink) -> None:
        self.e, self.model, self.sink = entry, model, sink
        self.d: dict[str, Any] = entry.data if isinstance(entry.data, dict) else {}
        campaigns = model.catalogs.get("campaign") or {}
        self.campaign_entry = campaigns.get(str(self.d.get("campaign")))
        cdata = self.campaign_entry.data if self.campaign_entry is not None and isinstance(self.campaign_entry.data, dict) else {}
        self.levels: tuple[tuple[str, int], ...] = tuple(
            (str(lv["id"]), int(lv["threshold"])) for lv in cdata.get("levels") or () if lv.get("threshold") is not None
        )
        self.all_levels = {str(lv["id"]) for lv in cdata.get("levels") or ()}
        self.final: int | None = cdata.get("final_battle")
        self.card_kinds = set((cdata.get("treachery") or {}).get("card_kinds") or ())
        worlds = model.worlds or {}
        self.world: World | None = worlds.get(str(self.d.get("world")))
        camp = model.campaign
        # the campaign declarations (avatars, plots) are those of the pack being compiled:
        # an entry of a required pack names declarations of its own pack, checked there;
        # and only a pack that declares avatars (plots) has names to check against
        self.own = camp is not None and entry.pack == model.pack.id
        self.avatars = dict(camp.avatars) if camp is not None else {}
        self.plot_cards = {card.id for plot in (camp.plots.values() if camp is not None else ()) for card in plot.cards}

    # ----------------------------------------------------------------- reporting
    def unknown(self, span: Span, name: str, what: str, known: Iterable[str]) -> None:
        known = sorted(known)
        hint, fix = hint_and_fix(name, known, None, self.sink)
        self.sink.report("K0501", span, what=what, name=name, hint=hint or f" (known: {_names(known)})", fix=fix)

    def location(self, name: str | None, kind: str | None, *path: Any) -> bool:
        """Whether `name` is a location of the world (of `kind` when given)."""
        if name is None or self.world is None:
            return False
        loc = self.world.locations.get(name)
        if loc is None:
            self.unknown(self.e.span(*path), name, f"a location of world `{self.world.id}`", self.world.locations)
            return False
        if kind is not None and loc.kind != kind:
            self.sink.report("K0502", self.e.span(*path), name=name, actual=loc.kind, expected=kind)
            return False
        return True

    def level(self, name: str, *path: Any, key: bool = False) -> bool:
        if self.campaign_entry is None or name in self.all_levels:
            return True
        span = self.e.key_span(*path) if key else self.e.span(*path)
        self.unknown(span, name, f"a level of campaign `{self.campaign_entry.id}`", self.all_levels)
        return False

    # ----------------------------------------------------------------- reading
    def read(self) -> r.StateRules | None:
        d = self.d
        cid, wid = str(d.get("campaign")), str(d.get("world"))
        if self.campaign_entry is None:
            self.unknown(self.e.span("campaign"), cid, "a campaign catalog entry", self.model.catalogs.get("campaign") or {})
        if self.world is None:
            worlds = self.model.worlds or {}
            if wid not in worlds:
                self.unknown(self.e.span("world"), wid, "a world catalog", worlds)
            return None  # a world with errors has them reported already
        week, start, xp, siege = (d.get(k) or {} for k in ("week", "start", "xp", "siege"))
        secret, vaults, carry, training = (d.get(k) or {} for k in ("secret_training", "vaults", "carry", "training"))
        reinforcement = d.get("reinforcement") or {}
        begin: dict[str, Any] = {}
        if "begins_at" in d:
            later = start.get("later") or {}
            lv = str(d["begins_at"])
            if lv not in later:
                self.unknown(self.e.span("begins_at"), lv, "a level `start.later` gives numbers for", later)
            else:
                begin = later[lv]
        M = MappingProxyType
        state = r.StateRules(
            id=self.e.id, campaign=cid, world=wid, heroes=int(d.get("heroes", 4)),
            overlord_conquest=int(week.get("overlord_conquest", 0)), per_razed_city=int(week.get("per_razed_city", 0)),
            overlord_upgrades=int(week.get("overlord_upgrades", 1)), tamalir_per_week=int(week.get("tamalir_upgrades", 1)),
            treasury=int(start.get("treasury", 0)), begin_conquest=int(begin.get("conquest", 0)), begin_coins=int(begin.get("coins", 0)),
            start_lieutenants=tuple(start.get("lieutenants") or ()),
            awards=M({i: r.Award(i, int(a.get("heroes", 0)), int(a.get("overlord", 0)), int(a.get("coins", 0)))
                      for i, a in sorted((d.get("awards") or {}).items())}),
            overlord_xp_per=int(xp.get("overlord_per_conquest", 1)), hero_xp_per=int(xp.get("hero_per_conquest", 1)),
            siege_die=siege.get("die"), raze_on=siege.get("raze_on"), lifted=bool(siege.get("lifted_without_lieutenant", True)),
            capital=siege.get("capital", self.world.start),
            outcomes=M({i: r.Outcome(i, int(o.get("loot_dice", 0)), o.get("party_to"), bool(o.get("continues", True)))
                        for i, o in sorted((d.get("outcomes") or {}).items())}),
            training_costs=M({step: r.Cost(int(c.get("coins", 0)), int(c.get("xp", 0)))
                              for step, c in sorted(training.items()) if step in r.TRAIN_STEPS}),
            per_training=int(training.get("trait_upgrades_per_training", 2)),
            max_dice=training.get("max_dice"), max_skills=training.get("max_skills"),
            marker_starts=str(reinforcement.get("starts", "faceup")), flip_cost=reinforcement.get("flip_cost"),
            marker_blocks=str(reinforcement.get("blocks", "spawn")),
            hero_sheets=M({h: r.HeroSheet(h, str(sh.get("name", h)), M(dict(sorted((sh.get("dice") or {}).items()))), tuple(sh.get("skills") or ()))
                           for h, sh in sorted((d.get("hero_sheets") or {}).items())}),
            level_limits=M({lv: M(dict(sorted(lim.items()))) for lv, lim in sorted((training.get("level_limits") or {}).items())}),
            secret_costs=M({lv: r.Cost(int(c.get("coins", 0)), int(c.get("xp", 0))) for lv, c in sorted((secret.get("costs") or {}).items())}),
            secret_once_per_level=bool(secret.get("once_per_level", True)),
            vault_capacity=int(vaults.get("capacity", 1)), vault_filled=M(dict(sorted((vaults.get("filled") or {}).items()))),
            carry_lieutenant=int(carry.get("lieutenant", 1)), carry_party=int(carry.get("party", 1)),
            heroes_behind=bool((d.get("legendary") or {}).get("heroes_behind", False)),
            tamalir_upgrades=M({i: r.TamalirUpgrade(i, str(u["name"]), int(u["xp"])) for i, u in sorted((d.get("tamalir_upgrades") or {}).items())}),
            party_upgrades=M({i: r.PartyUpgrade(i, str(u["name"]), int(u.get("coins", 0)), u.get("unlocks"), tuple(u.get("sold_at") or ()))
                              for i, u in sorted((d.get("party_upgrades") or {}).items())}),
            lieutenants=M({i: r.Lieutenant(i, str(lt["name"]), lt.get("avatar"), lt.get("xp"), lt.get("power_card"), lt.get("fortify_threat"),
                                           tuple(lt.get("minions") or ()))
                           for i, lt in sorted((d.get("lieutenants") or {}).items())}),
            quest_items=M({i: r.QuestItem(i, str(q["name"]), str(q["at"]), q.get("plot_card")) for i, q in sorted((d.get("quest_items") or {}).items())}),
        )
        self.check(state)
        return state

    # ----------------------------------------------------------------- static checks
    def check(self, s: r.StateRules) -> None:
        assert self.world is not None
        world = self.world
        for i, lid in enumerate(s.start_lieutenants):
            if lid not in s.lieutenants:
                self.unknown(self.e.span("start", "lieutenants", i), lid, "a lieutenant card of this state", s.lieutenants)
        for lv in sorted((self.d.get("start") or {}).get("later") or {}):
            self.level(lv, "start", "later", lv, key=True)
        for lv in sorted((self.d.get("training") or {}).get("level_limits") or {}):
            self.level(lv, "training", "level_limits", lv, key=True)
        self.siege(s)
        for oid, o in s.outcomes.items():
            if o.party_to is not None:
                self.location(o.party_to, "city", "outcomes", oid, "party_to")
        blocks = (self.d.get("reinforcement") or {}).get("blocks")
        if blocks is not None and self.card_kinds and blocks not in self.card_kinds:
            self.unknown(self.e.span("reinforcement", "blocks"), str(blocks), "an overlord card kind", self.card_kinds)
        self.training(s)
        self.sheets(s)
        for city in s.vault_filled:
            self.location(city, "city", "vaults", "filled", city)
        self.items(s)
        most = r.most_xp(s, self.final)
        for uid, tu in s.tamalir_upgrades.items():
            if most is not None and tu.xp > most[0]:
                self.sink.report("K0504", self.e.span("tamalir_upgrades", uid, "xp"), what=f"Tamalir upgrade `{uid}`", verb="bought",
                                 why=f"it costs each hero {tu.xp} XP, and a hero earns at most {most[0]} before the Final Battle (at {self.final} combined conquest) sets XP to zero")
        for uid, pu in s.party_upgrades.items():
            if pu.unlocks is not None and pu.unlocks not in TRAIL_TYPES:
                self.unknown(self.e.span("party_upgrades", uid, "unlocks"), pu.unlocks, "a trail type", TRAIL_TYPES)
            for k, city in enumerate(pu.sold_at):
                if self.location(city, "city", "party_upgrades", uid, "sold_at", k) and not world.locations[city].has("market"):
                    self.sink.report("K0502", self.e.span("party_upgrades", uid, "sold_at", k), name=city, actual="city without a Market", expected="city with a Market")
        self.lieutenants(s, most)
        self.legendary(s)

    def siege(self, s: r.StateRules) -> None:
        if s.capital is not None and "capital" in (self.d.get("siege") or {}):
            self.location(s.capital, "city", "siege", "capital")
        if s.siege_die is None:
            return
        dice = self.model.catalogs.get("dice") or {}
        if s.siege_die not in dice:
            self.unknown(self.e.span("siege", "die"), s.siege_die, "a die of the dice catalog", dice)
            return
        faces = faces_of(dice[s.siege_die]) or []
        if s.raze_on is not None and not any(face_shows(f, s.raze_on) for f in faces):
            self.sink.report("K0503", self.e.span("siege", "raze_on"), face=s.raze_on, die=s.siege_die)

    def training(self, s: r.StateRules) -> None:
        secret = self.d.get("secret_training")
        if not secret:
            return
        assert self.world is not None
        if not any(loc.kind == "secret_master" for loc in self.world.locations.values()):
            self.sink.report("K0506", self.e.key_span("secret_training"), world=self.world.id)
        reached = {lid for lid, thr in self.levels if self.final is None or thr < self.final}
        most = r.most_xp(s, self.final)
        for lv, cost in s.secret_costs.items():
            if not self.level(lv, "secret_training", "costs", lv, key=True):
                continue
            if self.campaign_entry is not None and lv not in reached:
                self.sink.report("K0504", self.e.key_span("secret_training", "costs", lv), what=f"secret training at `{lv}`", verb="had",
                                 why=f"the campaign never reaches the {lv} level before the Final Battle")
            elif most is not None and cost.xp > most[0]:
                self.sink.report("K0504", self.e.span("secret_training", "costs", lv, "xp"), what=f"secret training at `{lv}`", verb="had",
                                 why=f"it costs {cost.xp} XP, and a hero earns at most {most[0]} before the Final Battle")

    def sheets(self, s: r.StateRules) -> None:
        """A hero sheet within the limits of training (p.23): no trait above the most dice,
        no more skills than the most."""
        for hid, sheet in s.hero_sheets.items():
            for trait, n in sheet.dice.items():
                if s.max_dice is not None and n > s.max_dice:
                    self.sink.report("K0523", self.e.span("hero_sheets", hid, "dice", trait), hero=hid,
                                     why=f"starts with {n} power dice in {trait}, and no hero may have more than {s.max_dice} in a trait")
            if s.max_skills is not None and len(sheet.skills) > s.max_skills:
                self.sink.report("K0523", self.e.span("hero_sheets", hid, "skills"), hero=hid,
                                 why=f"starts with {len(sheet.skills)} skills, and a hero may have at most {s.max_skills}")

    def items(self, s: r.StateRules) -> None:
        assert self.world is not None
        held: dict[str, list[str]] = {c: [f"`{what}`"] for c, what in s.vault_filled.items()}
        for iid, q in s.quest_items.items():
            if q.plot_card is not None and self.own and self.plot_cards and q.plot_card not in self.plot_cards:
                self.unknown(self.e.span("quest_items", iid, "plot_card"), q.plot_card, "a plot card of the campaign", self.plot_cards)
            if not self.location(q.at, None, "quest_items", iid, "at"):
                continue
            if self.world.locations[q.at].kind == "city":
                held.setdefault(q.at, []).append(f"`{iid}`")
                if len(held[q.at]) > s.vault_capacity:
                    self.sink.report("K0507", self.e.span("quest_items", iid, "at"), city=q.at, capacity=s.vault_capacity,
                                     held=", ".join(held[q.at][:-1]))

    def lieutenants(self, s: r.StateRules, most: tuple[int, int] | None) -> None:
        monsters = self.model.monsters or {}
        for lid, lt in s.lieutenants.items():
            for k, m in enumerate(lt.minions):
                if m not in monsters:
                    self.unknown(self.e.span("lieutenants", lid, "minions", k), m, "a catalogued monster", monsters)
            if lt.avatar is not None and self.own and self.avatars and lt.avatar not in self.avatars:
                self.unknown(self.e.span("lieutenants", lid, "avatar"), lt.avatar, "an avatar of the campaign", self.avatars)
            for lv in sorted(((self.d.get("lieutenants") or {}).get(lid) or {}).get("stats") or {}):
                self.level(lv, "lieutenants", lid, "stats", lv, key=True)
            if most is not None and lt.xp is not None and lt.xp > most[1]:
                self.sink.report("K0504", self.e.span("lieutenants", lid, "xp"), what=f"lieutenant `{lid}`", verb="recruited",
                                 why=f"it costs {lt.xp} XP, and the overlord earns at most {most[1]} before the Final Battle")

    def legendary(self, s: r.StateRules) -> None:
        """Each legendary area has a window of play and a way in."""
        assert self.world is not None
        world = self.world
        usable = r.usable_types(s, [u for u in s.party_upgrades])
        unknown_types = any(pu.unlocks is not None and pu.unlocks not in TRAIL_TYPES for pu in s.party_upgrades.values())
        g = nx.Graph()
        g.add_nodes_from(world.locations)
        g.add_edges_from(t.ends for t in world.trails if t.type in usable)
        bounds = [thr for _, thr in self.levels] + ([self.final] if self.final is not None else [])
        for lid, loc in world.locations.items():
            if loc.kind != "legendary":
                continue
            why = None
            if self.campaign_entry is not None and loc.level is not None:
                window = [thr for lv, thr in self.levels if lv == loc.level]
                if not window:
                    why = f"its level `{loc.level}` is not a level the campaign reaches"
                else:
                    later = [b for b in bounds if b > window[0]]
                    if self.final is not None and window[0] >= self.final:
                        why = f"its level `{loc.level}` begins at {window[0]} combined conquest, when the Final Battle has begun"
                    elif not later and self.final is None:
                        why = None
                    elif later and min(later) <= window[0]:
                        why = f"the {loc.level} level ends as soon as it begins"
            if why is None and unknown_types:
                continue  # a misspelt `unlocks` is K0501 already: no reachability from it
            if why is None and world.start in g and not nx.has_path(g, world.start, lid):
                kinds = sorted({t.type for t in world.trails if lid in t.ends})
                why = (f"no trail reaches it from `{world.start}` with the party's upgrades "
                       f"(its trails are {', '.join(kinds) or 'none'}; the party can use {', '.join(sorted(usable))})")
            if why is not None:
                self.sink.report("K0505", self._world_span(lid, loc.span), id=lid, why=why)

    def _world_span(self, lid: str, fallback: Span) -> Span:
        """Where to say a legendary area is closed: at the state's world reference when the
        area's own catalog belongs to another pack (the state is what closes it)."""
        world_entries = self.model.catalogs.get("world") or {}
        we = world_entries.get(self.world.id) if self.world is not None else None
        if we is not None and we.pack != self.e.pack:
            return self.e.span("world")
        return fallback

    # ----------------------------------------------------------------- the replay
    def keep(self) -> str | None:
        assert self.world is not None
        for avatar in self.avatars.values():
            if isinstance(avatar, ast.Avatar) and avatar.keep is not None and avatar.keep.name in self.world.locations:
                return avatar.keep.name
        keeps = sorted(i for i, loc in self.world.locations.items() if loc.kind == "keep")
        return keeps[0] if keeps else None

    def raze_die(self, s: r.StateRules) -> tuple[tuple[str, bool], ...]:
        """The razing die's faces from the dice catalog: each face's label (`blank`, or the
        symbols it shows) and whether it shows the razing face; () without one."""
        dice = self.model.catalogs.get("dice") or {}
        if s.siege_die is None or s.raze_on is None or s.siege_die not in dice:
            return ()
        out = []
        for f in faces_of(dice[s.siege_die]) or []:
            shown = [sym for sym in FACE_SYMBOLS if face_shows(f, sym)]
            out.append(("+".join(shown) or "blank", face_shows(f, s.raze_on)))
        return tuple(out)

    def replay(self, s: r.StateRules) -> r.Replay:
        assert self.world is not None
        weeks = [list(w.get("events") or ()) for w in self.d.get("weeks") or ()]
        out = r.replay(s, self.world, self.levels, self.final, self.keep(), weeks)
        for p in out.problems:
            path: tuple[Any, ...] = ("weeks", p.week)
            if p.event is not None:
                path += ("events", p.event) + ((p.arg,) if p.arg else ())
            fields = dict(p.fields)
            if p.code == "K0501":
                known = fields.pop("known")
                hint, fix = hint_and_fix(fields["name"], known, None, self.sink)
                self.sink.report("K0501", self.e.span(*path), what=fields["what"], name=fields["name"], hint=hint or f" (known: {_names(known)})", fix=fix)
            else:
                self.sink.report(p.code, self.e.span(*path), **fields)
        return out


# Blocks of an entry that are one fact each, and tables whose every item is one.
FACT_BLOCKS = ("week", "start", "xp", "siege", "reinforcement", "training", "secret_training", "vaults", "carry", "legendary", "final_battle")
FACT_TABLES = ("awards", "outcomes", "tamalir_upgrades", "party_upgrades", "lieutenants", "quest_items", "hero_sheets")


def state_facts(model: Model) -> list[Fact]:
    """The illustrative facts of every campaign state the bundle ships (the provenance
    pass lists them; docs/campaign.md, "Sources"): each block and each card whose `source`
    is not `rulebook`, each field a `facts:` marks illustrative, and the record of weeks
    unless the entry itself says `source: rulebook`."""
    out: list[Fact] = []
    entries = model.catalogs.get("rtl_state") or {}
    for sid in sorted(model.rtl_state or {}):
        entry = entries.get(sid)
        data = entry.data if entry is not None and isinstance(entry.data, dict) else None
        if entry is None or data is None:
            continue
        where = f"campaign.state.{sid}"
        for block in FACT_BLOCKS:
            if isinstance(data.get(block), dict) and data[block].get("source") != "rulebook":
                out.append(Fact(f"{where}.{block}", entry.key_span(block)))
        for table in FACT_TABLES:
            for iid, item in sorted((data.get(table) or {}).items()):
                if not isinstance(item, dict):
                    continue
                if item.get("source") != "rulebook":
                    out.append(Fact(f"{where}.{table}.{iid}", entry.key_span(table, iid)))
                    continue
                for key, src in sorted((item.get("facts") or {}).items()):
                    if src != "rulebook":
                        out.append(Fact(f"{where}.{table}.{iid}.{key}", entry.span(table, iid, "facts", key)))
        if data.get("weeks") and data.get("source") != "rulebook":
            out.append(Fact(f"{where}.record", entry.key_span("weeks")))
    return out


def rtl_state_pass(model: Model, sink: Sink) -> Model:
    """Every `rtl_state:` entry read, checked and its recorded weeks replayed."""
    out: dict[str, r.CheckedState] = {}
    for sid, entry in sorted((model.catalogs.get("rtl_state") or {}).items()):
        reader = _Reader(entry, model, sink)
        state = reader.read()
        if state is None:
            continue
        out[sid] = r.CheckedState(state=state, replay=reader.replay(state), data=MappingProxyType(dict(reader.d)),
                                  world=reader.world, levels=reader.levels, final_battle=reader.final, keep=reader.keep(),
                                  raze_die=reader.raze_die(state))
    return model.with_(rtl_state=MappingProxyType(out))

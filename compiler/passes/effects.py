"""The effects pass: card effects as typed data, the loot track, experience in play order.

    effects_pass(model, sink) -> model.effects (compiler.model.effects.CheckedEffects)

Reads the `effects` catalog (card id -> place -> typed effects) and the `tracks` catalog
(loot tracks) against the pack's cards, decks and monsters, in the vocabulary of
compiler/model/effects.py. Codes C06xx (compiler/diagnostics/codes/effects.yaml): an
unknown kind (did-you-mean), a card or a place that does not exist, fields a kind does
not take or lacks, unknown conditions, attributes and monster groups, a deck that does
not exist, a loot step beyond the track. A card whose effects have an error keeps only
its clean places. Experience is found, not catalogued twice: every `gain xp` of the
exploration cards, in the order a deck plays them (start, mains by number, the rest).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from compiler.catalogs.dice import face_kind
from compiler.catalogs.document import Entry
from compiler.geometry.features import CHEST_DICE
from compiler.diagnostics import Sink
from compiler.diagnostics.hints import did_you_mean, hint
from compiler.model import Model
from compiler.model.cards import CONDITION_ALIASES, CONDITIONS, HERO_ATTRIBUTES, CardSet
from compiler.model import effects as fx
from compiler.syntax import ast

Path = tuple[Any, ...]
RANKED_WHO = re.compile(r"hero_with_(most|least|highest|lowest)_([a-z]+)")


def card_places(card: ast.ExplorationCard | ast.PerilCard) -> list[str]:
    """The places of a card that have text, in card order."""
    if isinstance(card, ast.ExplorationCard):
        return (["after_setup"] if card.after_setup is not None else []) + [f"overlord.{k}" for k in range(1, len(card.overlord) + 1)]
    return [key for key in ("effect", "without_monsters", "with_monsters") if getattr(card, key) is not None]


class _Checker:
    """Checks effects of one entry, each problem a located C06xx; `ok` says whether all were clean."""

    def __init__(self, model: Model, sink: Sink, decks: tuple[str, ...], loot: Mapping[str, fx.LootTrack],
                 morale: Mapping[str, fx.MoraleTrack] | None = None) -> None:
        self.sink = sink
        self.morale = morale
        self.monsters = sorted((model.monsters or {}).keys())
        self.decks = decks
        self.loot = loot
        self.ok = True

    def report(self, code: str, span: Any, **fields: Any) -> None:
        self.sink.report(code, span, **fields)
        self.ok = False

    def effects(self, entry: Entry, path: Path, items: Iterable[Any]) -> None:
        for i, e in enumerate(items):
            self.effect(entry, path + (i,), e)

    def effect(self, entry: Entry, path: Path, e: Mapping[str, Any]) -> None:
        kind = str(e.get("do"))
        if kind not in fx.KINDS:
            guess = did_you_mean(kind, fx.KINDS, sink=self.sink)
            self.report("C0601", entry.span(*path, "do"), kind=kind, hint=f"; did you mean `{guess}`?" if guess else "",
                        known=", ".join(fx.KINDS), fix=guess)
            return
        required, optional = fx.KINDS[kind]
        takes = set(required) | set(optional)
        for key in e:
            if key != "do" and key not in takes:
                guess = did_you_mean(key, sorted(takes), sink=self.sink)
                self.report("C0604", entry.key_span(*path, key), kind=kind,
                            problem=f"takes no `{key}`{'; did you mean `' + guess + '`?' if guess else ''} (it takes: {', '.join(required + optional) or 'nothing more'})",
                            fix=guess)
        missing = [k for k in required if k not in e]
        if missing:
            self.report("C0604", entry.span(*path), kind=kind, problem=f"needs {', '.join(f'`{k}`' for k in missing)}")
        self.values(entry, path, kind, e)
        for key in fx.NESTED:
            if isinstance(e.get(key), list):
                self.effects(entry, path + (key,), e[key])
        for j, option in enumerate(e.get("options") or []):
            self.effects(entry, path + ("options", j), option)

    def values(self, entry: Entry, path: Path, kind: str, e: Mapping[str, Any]) -> None:
        def bad(key: str, problem: str) -> None:
            self.report("C0604", entry.span(*path, key), kind=kind, problem=problem)

        def unknown(key: str, what: str, name: str, known: Iterable[str]) -> None:
            names = sorted(known)
            guess = did_you_mean(name, names, sink=self.sink)
            self.report("C0605", entry.span(*path, key), kind=kind, what=what, name=name,
                        hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)

        if "what" in e and kind in fx.WHAT and e["what"] not in fx.WHAT[kind]:
            bad("what", f"`what: {e['what']}` is not one of {', '.join(fx.WHAT[kind])}{hint(e['what'], fx.WHAT[kind])}")
        if "token" in e and e["token"] not in fx.TOKENS:
            bad("token", f"`token: {e['token']}` is not one of {', '.join(fx.TOKENS)}{hint(e['token'], fx.TOKENS)}")
        if kind == "morale" and ("by" in e) == ("to" in e):
            bad("do", "needs either `by: N` or `to: start`")
        elif kind == "morale" and "to" in e and e["to"] != "start":
            bad("to", f"`to` is `start` (back to where morale started), not `{e['to']}`")
        if kind == "act" and e.get("to") not in fx.ACTS:
            bad("to", f"`to: {e.get('to')}` is not an act a game moves to (2: Act II)")
        if isinstance(e.get("by"), str) and e["by"] not in fx.BY_WORDS.get(kind, ()):
            words = fx.BY_WORDS.get(kind, ())
            bad("by", f"`by` is a number{' or ' + ', '.join(words) if words else ''}, not `{e['by']}`")
        if kind == "discard":
            if ("card" in e) == ("deck" in e):
                bad("do", "needs either `card: this` (this card) or `deck` (cards of that deck from the hand)")
            elif "card" in e and e["card"] != "this":
                bad("card", f"`card` is `this` (the card being played), not `{e['card']}`")
        if "condition" in e:
            cond = CONDITION_ALIASES.get(str(e["condition"]).lower(), str(e["condition"]).lower())
            if cond not in CONDITIONS:
                unknown("condition", "condition", str(e["condition"]), CONDITIONS)
        if "attribute" in e and e["attribute"] not in HERO_ATTRIBUTES:
            unknown("attribute", "hero attribute", str(e["attribute"]), HERO_ATTRIBUTES)
        if "group" in e and self.monsters and e["group"] not in self.monsters:
            unknown("group", "monster group", str(e["group"]), self.monsters)
        if isinstance(e.get("groups"), list) and self.monsters:
            for k, g in enumerate(e["groups"]):
                if g not in self.monsters:
                    guess = did_you_mean(g, self.monsters, sink=self.sink)
                    self.report("C0605", entry.span(*path, "groups", k), kind=kind, what="monster group", name=g,
                                hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
        if "who" in e:
            self.who(entry, path, kind, str(e["who"]))
        if "deck" in e and e["deck"] not in self.decks:
            guess = did_you_mean(e["deck"], self.decks, sink=self.sink)
            self.report("C0606", entry.span(*path, "deck"), kind=kind, deck=e["deck"],
                        hint=f"; did you mean `{guess}`?" if guess else "", known=", ".join(self.decks), fix=guess)
        if kind in ("loot", "loot_payout"):
            self.loot_step(entry, path, kind, e.get("by"))
        if kind == "morale" and self.morale is not None and not self.morale:
            self.report("C0607", entry.span(*path, "do"), problem="`morale` effect, but no morale track in this pack's catalogs to move")

    def who(self, entry: Entry, path: Path, kind: str, who: str) -> None:
        if who in fx.WHO or who.startswith("figure:"):
            return
        if who.startswith("monster:"):
            group = who.split(":", 1)[1]
            if self.monsters and group not in self.monsters:
                guess = did_you_mean(group, self.monsters, sink=self.sink)
                self.report("C0605", entry.span(*path, "who"), kind=kind, what="monster group", name=group,
                            hint=f"; did you mean `{guess}`?" if guess else "", fix=f"monster:{guess}" if guess else None)
            return
        m = RANKED_WHO.fullmatch(who)
        if m and (m.group(2) in HERO_ATTRIBUTES or m.group(2) == "damage"):
            return
        known = list(fx.WHO) + ["monster:GROUP", "figure:ID", "hero_with_most|least|highest|lowest_ATTR"]
        self.report("C0604", entry.span(*path, "who"), kind=kind,
                    problem=f"`who: {who}` chooses no one{hint(who, fx.WHO)} (who: {', '.join(known)})")

    def loot_step(self, entry: Entry, path: Path, kind: str, by: Any) -> None:
        if not self.loot:
            self.report("C0607", entry.span(*path, "do"), problem=f"`{kind}` effect, but no loot track in this pack's catalogs to move")
            return
        if not isinstance(by, int):
            return
        if kind == "loot":
            top = max(max(t.limit.values()) for t in self.loot.values())
            if by > top:
                self.report("C0607", entry.span(*path, "by"),
                            problem=f"`loot by {by}` steps beyond the loot track: no loot limit is above {top}")
        else:
            top = max(len(t.payout) for t in self.loot.values()) - 1
            if abs(by) > top:
                self.report("C0607", entry.span(*path, "by"),
                            problem=f"`loot_payout by {by}` moves the payout token beyond its {top + 1} spaces")


def _loot_track(tid: str, entry: Entry, sink: Sink) -> fx.LootTrack | None:
    data = entry.data if isinstance(entry.data, dict) else {}
    spaces = int(data["spaces"])
    limit = {int(k): int(v) for k, v in (data.get("limit") or {}).items()}
    ok = True
    for k, v in sorted(limit.items()):
        if v > spaces:
            sink.report("C0607", entry.span("limit", k) if (entry.path + ("limit", k)) in entry.doc.spans else entry.span("limit"),
                        problem=f"loot track `{tid}`: the loot limit for {k} heroes is {v}, above its {spaces} spaces")
            ok = False
    if not ok:
        return None
    on = {str(ev): tuple(items or ()) for ev, items in sorted((data.get("on") or {}).items())}
    return fx.LootTrack(tid, spaces, limit, tuple(int(n) for n in data["payout"]), dict(sorted((data.get("decks") or {}).items())),
                        on, str(data.get("name", "")))


def _gains_xp(effects: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for e in effects:
        if e.get("do") == "gain" and e.get("what") == "xp":
            yield e
        for key in fx.NESTED:
            yield from _gains_xp(e.get(key) or ())
        for option in e.get("options") or ():
            yield from _gains_xp(option)


def experience(model: Model, cards: CardSet, typed: Mapping[str, fx.CardEffects]) -> dict[str, tuple[Mapping[str, Any], ...]]:
    """Exploration deck -> every `gain xp` of its cards, in play order: the start card, the
    main encounters by number, then the other cards (drawn in any order) by id."""
    out: dict[str, tuple[Mapping[str, Any], ...]] = {}
    for did, plan in sorted((model.decks or {}).items()):
        if plan.kind != "exploration":
            continue
        order = ([plan.start] if plan.start else []) + [plan.mains[n] for n in sorted(plan.mains)]
        order += sorted(c for c in plan.cards if c not in order)
        mains = {c: n for n, c in plan.mains.items()}
        awards: list[Mapping[str, Any]] = []
        for cid in order:
            if cid not in typed:
                continue
            card = cards.exploration.get(cid)
            places = card_places(card) if card is not None else []
            for place in places:
                for e in _gains_xp(typed[cid].places.get(place, ())):
                    awards.append({"card": cid, "place": place, "role": card.role if card else "ordinary",
                                   "main": mains.get(cid), "amount": int(e.get("amount", 0)), "who": str(e.get("who", "each_hero"))})
        if awards:
            out[did] = tuple(awards)
    return out


def effects_pass(model: Model, sink: Sink) -> Model:
    cards = model.cards
    loot: dict[str, fx.LootTrack] = {}
    morale: dict[str, fx.MoraleTrack] = {}
    for tid, entry in sorted((model.catalogs.get("tracks") or {}).items()):
        data = entry.data if isinstance(entry.data, dict) else {}
        if data.get("kind") == "morale":
            start = data.get("start", "heroes")  # the schema requires it: `heroes` or a number
            morale[tid] = fx.MoraleTrack(tid, None if start == "heroes" else int(start),
                                         {str(ev): tuple(items or ()) for ev, items in sorted((data.get("on") or {}).items())},
                                         str(data.get("name", "")))
            continue
        track = _loot_track(tid, entry, sink)
        if track is not None:
            loot[tid] = track
    declared = tuple(sorted((model.decks or {}).keys()))
    act_decks = tuple(sorted({d for t in loot.values() for d in t.decks.values()}))
    decks = tuple(sorted(set(declared) | set(fx.SUPPLY_DECKS) | set(act_decks)))
    for _tid, entry in sorted((model.catalogs.get("tracks") or {}).items()):
        data = entry.data if isinstance(entry.data, dict) else {}
        check = _Checker(model, sink, decks, loot, morale)
        for ev, items in sorted((data.get("on") or {}).items()):
            check.effects(entry, ("on", ev), items or ())
    exploration = dict(cards.exploration) if cards is not None else {}
    peril = dict(cards.peril) if cards is not None else {}
    known_cards = sorted(set(exploration) | set(peril))
    typed: dict[str, fx.CardEffects] = {}
    for cid, entry in sorted((model.catalogs.get("effects") or {}).items()):
        card: ast.ExplorationCard | ast.PerilCard | None = exploration.get(cid) or peril.get(cid)
        if card is None:
            if cards is not None:  # a pack of effects alone (no cards declared) has nothing to check against
                guess = did_you_mean(cid, known_cards, sink=sink)
                sink.report("C0602", entry.key_span(), card=cid, hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
            continue
        places = card_places(card)
        data = entry.data if isinstance(entry.data, dict) else {}
        clean: dict[str, tuple[Mapping[str, Any], ...]] = {}
        for place, items in data.items():
            if place not in places:
                guess = did_you_mean(place, places, sink=sink)
                sink.report("C0603", entry.key_span(place), card=cid, place=f"`{place}`",
                            hint=f"; did you mean `{guess}`?" if guess else "", known=", ".join(places) or "none", fix=guess)
                continue
            check = _Checker(model, sink, decks, loot, morale)
            check.effects(entry, (place,), items or ())
            if check.ok:
                clean[place] = tuple(items or ())
        typed[cid] = fx.CardEffects(cid, {p: clean[p] for p in places if p in clean}, entry.key_span())
    xp = experience(model, cards, typed) if cards is not None else {}
    _experience_where_the_rulebook_gives_it(xp, typed, sink)
    chests = _chests(model, sink, decks, loot)
    return model.with_(effects=fx.CheckedEffects(typed, loot, xp, chests, morale))


def _experience_where_the_rulebook_gives_it(xp: Mapping[str, tuple[Mapping[str, Any], ...]], typed: Mapping[str, fx.CardEffects],
                                            sink: Sink) -> None:
    """C0608 (a warning): experience from a card other than the start card (General Setup)
    or main encounters 1 and 2 (Nature's Ire, "Main Encounters and Experience Points")."""
    seen: set[str] = set()
    for did, awards in sorted(xp.items()):
        for a in awards:
            if a["role"] == "start" or (a["role"] == "main" and a["main"] is not None and a["main"] <= 2) or a["card"] in seen:
                continue
            seen.add(a["card"])
            where = f"main encounter {a['main']}" if a["role"] == "main" else "an ordinary encounter"
            sink.report("C0608", typed[a["card"]].span, card=a["card"], deck=did, where=where)


def _chests(model: Model, sink: Sink, decks: tuple[str, ...], loot: Mapping[str, fx.LootTrack]) -> dict[str, fx.ChestContents]:
    """The chest tiers: each face kind must be one the chest's die shows (blank, enhancement,
    surge on the black power die), and the effects clean."""
    die = (model.dice or {}).get(CHEST_DICE[0])
    kinds = sorted({face_kind(f) for f in die.faces}) if die is not None else []
    out: dict[str, fx.ChestContents] = {}
    for tier, entry in sorted((model.catalogs.get("chests") or {}).items()):
        data = entry.data if isinstance(entry.data, dict) else {}
        check = _Checker(model, sink, decks, loot)
        for kind, items in (data.get("faces") or {}).items():
            if kinds and kind not in kinds:
                guess = did_you_mean(kind, kinds, sink=sink)
                check.report("C0605", entry.key_span("faces", kind), kind="chest", what=f"a face kind of the `{CHEST_DICE[0]}` die,",
                             name=kind, hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)
                continue
            check.effects(entry, ("faces", kind), items or ())
        check.effects(entry, ("none_found",), data.get("none_found") or ())
        if check.ok:
            out[tier] = fx.ChestContents(tier, {k: tuple(v or ()) for k, v in sorted((data.get("faces") or {}).items())},
                                         tuple(data.get("none_found") or ()))
    return out

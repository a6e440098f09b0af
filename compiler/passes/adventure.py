"""Cooperative quests: the decks an adventure plays, its overlord track, how it is won and lost.

    adventure_pass(model, sink) -> model.adventures (quest id -> AdventurePlan)
                                                 (schemas/bundle/adventure.schema.json)

A quest is cooperative when it names a deck or a track (`ast.Quest.adventure`). Its
encounters are the ones its exploration deck deals, so it has no map of its own; the
quests pass leaves it alone and this pass checks it (codes C05xx,
compiler/diagnostics/codes/adventure.yaml):

- the decks: an exploration, an activation and a peril deck, each existing and of its
  kind (did-you-mean on a wrong name);
- the overlord track (the Nature's Ire rules, docs/cards.md): a length, where doom and
  fate start (a space, `heroes` = the hero count, `top` = the last space), doom strictly
  below fate for every hero count the quest allows; typed rules for what moves them:
  `advance doom|fate [by N] on SOURCE` and `draw peril on SOURCE`, SOURCE one of
  fate_step, round_end, hero_defeated, peril_drawn, `defeated FIGURE` (a figure the
  dealt encounters treat as a hero), `hourglass CARD, …` (exploration cards of the deck
  that carry an hourglass);
- winning: the final (highest) main encounter of the exploration deck has a `win` that
  can fire; a `win` in any other dealt encounter is a warning (it ends the adventure
  before its finale);
- losing: an `on doom_reaches_fate { lose … }` event, and some rule that can happen
  moves doom or fate, so the two tokens can meet.

Everything here is a pure function of the model; the pass never mutates its input.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from compiler.diagnostics import Related, Sink, fold_same_place
from compiler.diagnostics.hints import did_you_mean, hint
from compiler.model import Model
from compiler.model import quest as m
from compiler.syntax import ast
from compiler.model.adventure import AdventurePlan, TrackPlan
from compiler.model.cards import CardSet, DeckPlan

DECK_KINDS = ("exploration", "activation", "peril")
HERO_COUNTS = m.HERO_COUNTS
# sources that happen over and over in any game
ALWAYS = ("fate_step", "round_end", "hero_defeated")
ADVENTURE_TRIGGERS = ("doom_reaches_fate",)
ADVENTURE_EFFECTS = ("say", "win", "lose")


# ---------------------------------------------------------------- helpers
def _adventure(quest: ast.Quest) -> ast.Adventure:
    """The adventure of a cooperative quest (the only quests this pass checks)."""
    adv = quest.adventure
    assert adv is not None, f"quest `{quest.id}` is not cooperative"
    return adv


def _counts(quest: ast.Quest) -> tuple[int, ...]:
    low, high = (quest.heroes.low, quest.heroes.high) if quest.heroes else (2, 4)
    return tuple(h for h in HERO_COUNTS if low <= h <= high)


# ---------------------------------------------------------------- checks
def check_decks(quest: ast.Quest, plans: Mapping[str, DeckPlan], sink: Sink) -> dict[str, str]:
    """kind -> deck id for each deck the quest names that exists with that kind (C0511-C0513)."""
    adv = _adventure(quest)
    out: dict[str, str] = {}
    missing = [kind for kind in DECK_KINDS if adv.deck(kind) is None]
    if missing:  # one error for the deck statements the quest lacks
        sink.report("C0513", adv.span, quest=quest.id, kind=" and ".join(missing))
    for kind in DECK_KINDS:
        use = adv.deck(kind)
        if use is None:
            continue
        plan = plans.get(use.deck)
        if plan is None:
            of_kind = [d for d, p in plans.items() if p.kind == kind]
            fix = did_you_mean(use.deck, of_kind, sink=sink)
            sink.report("C0511", use.span, quest=quest.id, kind=kind, deck=use.deck, hint=hint(use.deck, of_kind, sink=sink), fix=fix)
            continue
        if plan.kind != kind:
            sink.report("C0512", use.span, deck=use.deck, actual=plan.kind, kind=kind,
                        related=(Related(plan.span, "the deck"),))
            continue
        out[kind] = use.deck
    return out


def check_body(quest: ast.Quest, sink: Sink) -> None:
    """A cooperative quest's encounters come from its deck: nothing map-bound belongs in it (C0523)."""
    for enc in quest.encounters:
        body = enc.body
        kinds = [word for word, present in (
            ("a `map`", body.map is not None), ("a hero start", body.start is not None),
            ("an entrance or exit", body.entrance is not None or body.exit is not None),
            ("tokens", bool(body.tokens)), ("spawns", any(sp.at is not None or sp.points for sp in body.spawns)),
            ("variables", bool(body.variables)), ("events of a map", bool(body.events)),
            ("flavor or setup text", body.flavor is not None or body.setup is not None),
            ("hero figures", bool(body.heroes_as)),
        ) if present]
        if not kinds and body.spawns:
            continue  # only spawns without a place: S0214 is their one error
        what = ", ".join(kinds) or "an encounter"
        if len(quest.encounters) > 1 or body.events:
            what = f"`encounter {enc.number}` ({what})"
        sink.report("C0523", enc.span, quest=quest.id, what=what)


def resolve_track(quest: ast.Quest, counts: tuple[int, ...], exploration: DeckPlan | None, cardset: CardSet | None,
                  dealt_figures: Mapping[str, str], has_peril: bool, sink: Sink) -> TrackPlan | None:
    """Check the overlord track (C0514, C0515, C0519-C0522, C0526); None when it cannot be resolved."""
    adv = _adventure(quest)
    track = adv.track
    if track is None:
        sink.report("C0514", quest.span, quest=quest.id)
        return None
    starts = _track_starts(track, counts, sink)
    valid = _track_rules(track, exploration, cardset, dealt_figures, sink)
    draws = [r for r in valid if r.action == "draw_peril"]
    if has_peril and not draws:
        sink.report("C0526", track.span, quest=quest.id)
    perils_drawn = bool(draws) and has_peril
    closes = any(
        r.action == "advance" and (r.source in ALWAYS or r.source in ("defeated", "hourglass")
                                   or (r.source == "peril_drawn" and perils_drawn))
        for r in valid
    )
    if starts is None:
        return None
    assert track.spaces is not None and track.doom is not None and track.fate is not None  # starts: all written
    return TrackPlan(
        spaces=track.spaces,
        doom_start=MappingProxyType(starts["doom"]),
        fate_start=MappingProxyType(starts["fate"]),
        doom_written=_written(track.doom),
        fate_written=_written(track.fate),
        rules=tuple(track.rules),
        closes=closes,
    )


def _track_starts(track: ast.Track, counts: tuple[int, ...], sink: Sink) -> dict[str, dict[int, int]] | None:
    """Where doom and fate start for each hero count, on a track long enough, doom below
    fate; None after reporting what is missing or wrong (C0515)."""
    ok = True
    if track.spaces is None:
        sink.report("C0515", track.span, problem="it has no length; write `spaces N`")
        ok = False
    elif track.spaces < 2:
        sink.report("C0515", track.span, problem=f"`spaces {track.spaces}` leaves no room between doom and fate")
        ok = False
    for marker in ("doom", "fate"):
        if getattr(track, marker) is None:
            sink.report("C0515", track.span, problem=f"it does not say where {marker} starts; write `{marker} starts …`")
            ok = False
    if not ok:
        return None
    assert track.spaces is not None  # ok: `spaces N` is written
    starts: dict[str, dict[int, int]] = {}
    for marker in ("doom", "fate"):
        st: ast.TrackStart = getattr(track, marker)
        per = {h: h if st.at == "heroes" else track.spaces if st.at == "top" else int(st.at) for h in counts}
        bad = [h for h, s in per.items() if not 1 <= s <= track.spaces]
        if bad:
            sink.report("C0515", st.span, problem=f"{marker} would start on space {per[bad[0]]}"
                        + (f" with {bad[0]} heroes" if st.at == "heroes" else "")
                        + f", off a track of {track.spaces} spaces")
            ok = False
        starts[marker] = per
    if not ok:
        return None
    assert track.fate is not None  # ok: `fate starts …` is written
    met = [h for h in counts if starts["doom"][h] >= starts["fate"][h]]
    if met:
        h = met[0]
        sink.report("C0515", track.fate.span, problem=f"with {h} heroes doom starts on space {starts['doom'][h]}"
                    f" and fate on space {starts['fate'][h]}: the adventure would be lost before it begins")
        return None
    return starts


def _track_rules(track: ast.Track, exploration: DeckPlan | None, cardset: CardSet | None,
                 dealt_figures: Mapping[str, str], sink: Sink) -> list[ast.TrackRule]:
    """The track's rules that hold (C0519-C0522): an advance by at least one, hourglasses on
    cards of the exploration deck that show one, defeated figures the deck deals."""
    valid: list[ast.TrackRule] = []
    for rule in track.rules:
        good = True
        if rule.action == "advance" and rule.amount < 1:
            sink.report("C0522", rule.span, marker=rule.marker, amount=rule.amount)
            good = False
        if rule.source == "hourglass" and exploration is not None:
            for cid in rule.subjects:
                card = cardset.exploration.get(cid) if cardset is not None else None
                if cid not in exploration.cards or card is None:
                    sink.report("C0519", rule.span, card=cid, deck=exploration.id, hint=hint(cid, exploration.cards, sink=sink),
                                fix=did_you_mean(cid, exploration.cards, sink=sink))
                    good = False
                elif not any(isinstance(item, ast.Hourglass) for item in card.overlord):
                    sink.report("C0520", rule.span, card=cid, related=(Related(card.span, "the card"),))
                    good = False
        if rule.source == "defeated" and exploration is not None:
            name = rule.subjects[0]
            if name not in dealt_figures:
                sink.report("C0521", rule.span, name=name, deck=exploration.id, hint=hint(name, dealt_figures, sink=sink),
                            fix=did_you_mean(name, dealt_figures, sink=sink))
                good = False
        if good:
            valid.append(rule)
    return valid


def _written(st: ast.TrackStart) -> str:
    return st.at if isinstance(st.at, str) else "fixed"


def check_events(quest: ast.Quest, sink: Sink) -> list[ast.EventDecl]:
    """The adventure-wide events (C0524, C0525); returns those that are well-formed."""
    ok = []
    for ev in _adventure(quest).events:
        good = True
        if ev.trigger.kind not in ADVENTURE_TRIGGERS:
            sink.report("C0524", ev.trigger.span, quest=quest.id, trigger=ev.trigger.kind.replace("_", " "))
            good = False
        if ev.condition is not None:
            sink.report("C0527", ev.condition.span, quest=quest.id)
            good = False
        for e in ev.effects:
            if e.kind not in ADVENTURE_EFFECTS:
                sink.report("C0525", e.span, quest=quest.id, effect=e.kind.replace("_", " "))
                good = False
        if good:
            ok.append(ev)
    return ok


def _encounter_wins(eid: str, resolved: Mapping[str, m.QuestEncounter], declared: Mapping[str, ast.Encounter],
                    first: bool) -> bool | None:
    """True when encounter `eid` has a `win` that can fire; None when it cannot be told
    (its map or events did not resolve: errors already reported)."""
    enc = resolved.get(eid)
    if enc is None:
        decl = declared.get(eid)
        if decl is None:
            return None
        return any(e.kind == "win" for ev in decl.body.events for e in ev.effects)
    fired = m.fixpoint(enc, first).fired
    if any(e.index in fired and any(f.kind == "win" for f in e.effects) for e in enc.events):
        return True
    if any(not e.resolved and "win" in e.ends for e in enc.events):
        return None  # an event broken by a reported error may be the winning one
    return False


def check_win(quest: ast.Quest, exploration: DeckPlan | None, cardset: CardSet | None,
              resolved: Mapping[str, m.QuestEncounter], declared: Mapping[str, ast.Encounter],
              sink: Sink) -> tuple[tuple[str, str, int] | None, bool]:
    """The finale wins (C0516); wins in other dealt encounters are warned about (C0517)."""
    if exploration is None or cardset is None:
        return None, True  # the deck is missing: C0511 / C0513 said so
    use = _adventure(quest).deck("exploration")
    assert use is not None  # the quest names the exploration deck it plays (check_decks)
    if not exploration.mains:
        if exploration.legal:
            sink.report("C0516", use.span, quest=quest.id,
                        reason=f"exploration deck `{exploration.id}` has no main encounter to end on")
        return None, False
    number = max(exploration.mains)
    card = exploration.mains[number]
    eid = cardset.encounter_of.get(card)
    if eid is None:
        return None, True  # C0113 / C0114 reported the card
    finale = (card, eid, number)
    wins = _encounter_wins(eid, resolved, declared, first=card == exploration.start)
    if wins is False:
        related = (Related(declared[eid].span, f"encounter `{eid}`"),) if eid in declared else ()
        sink.report("C0516", use.span, quest=quest.id,
                    reason=f"its finale, main encounter {number} (`{eid}`), has no `win` that can fire", related=related)
    for cid in exploration.cards:
        other = cardset.encounter_of.get(cid)
        if other is None or other == eid or other not in declared:
            continue
        if any(e.kind == "win" for ev in declared[other].body.events for e in ev.effects):
            sink.report("C0517", declared[other].span, encounter=other, quest=quest.id, finale=eid)
    return finale, wins is not False


def check_lose(quest: ast.Quest, events: list[ast.EventDecl], track: TrackPlan | None, sink: Sink) -> bool:
    """The adventure can be lost: doom can reach fate and that loses (C0518)."""
    loses = [ev for ev in events if ev.trigger.kind == "doom_reaches_fate" and any(e.kind == "lose" for e in ev.effects)]
    written = _adventure(quest).track
    if not loses:
        if written is not None:  # without a track (C0514) doom and fate do not exist yet
            sink.report("C0518", quest.span, quest=quest.id, reason="no `on doom_reaches_fate { lose … }` event")
        return False
    if track is not None and written is not None and not track.closes:  # a plan is made of a written track
        sink.report("C0518", written.span, quest=quest.id,
                    reason="no rule that can happen advances doom or fate, so they never meet")
        return False
    return True


# ---------------------------------------------------------------- one quest
def check_adventure(quest: ast.Quest, plans: Mapping[str, DeckPlan], cardset: CardSet | None, resolved: Mapping[str, m.QuestEncounter],
                    declared: Mapping[str, ast.Encounter], sink: Sink) -> AdventurePlan:
    """Check one cooperative quest (quest.adventure is not None) and resolve its plan."""
    counts = _counts(quest)
    check_body(quest, sink)
    decks = check_decks(quest, plans, sink)
    exploration = plans.get(decks["exploration"]) if "exploration" in decks else None
    dealt = [cardset.encounter_of[c] for c in (exploration.cards if exploration else ()) if cardset and c in cardset.encounter_of]
    figures = {name: eid for eid in dealt if eid in declared for name in declared[eid].body.heroes_as}
    track = resolve_track(quest, counts, exploration, cardset, figures, "peril" in decks, sink)
    events = check_events(quest, sink)
    finale, winnable = check_win(quest, exploration, cardset, resolved, declared, sink)
    # a `lose` in an event with a misplaced effect (C0525) is still written: no C0518 as well
    losable = check_lose(quest, [ev for ev in _adventure(quest).events if ev.trigger.kind in ADVENTURE_TRIGGERS], track, sink)
    closes = track is not None and track.closes
    resolved_events = tuple(
        m.Event(
            i,
            m.Trigger(ev.trigger.kind, span=ev.trigger.span),
            tuple(m.Effect(e.kind, (), None, e.text, span=e.span) for e in ev.effects),
            can_fire=closes if ev.trigger.kind == "doom_reaches_fate" else True,
            ends=tuple(e.kind for e in ev.effects if e.kind in ("win", "lose")),
            span=ev.span,
        )
        for i, ev in enumerate(events, start=1)
    )
    return AdventurePlan(
        id=quest.id,
        name=quest.name,
        heroes=(counts[0], counts[-1]) if counts else (2, 4),
        decks=MappingProxyType(dict(sorted(decks.items()))),
        track=track,
        events=resolved_events,
        start=exploration.start if exploration is not None else None,
        finale=finale,
        winnable=winnable,
        losable=losable,
        doc=quest.doc,
        span=quest.span,
        hero_counts=counts or HERO_COUNTS,
    )


# ---------------------------------------------------------------- the pass
def adventure_pass(model: Model, sink: Sink) -> Model:
    """Every cooperative quest checked and planned (after the cards and chain passes)."""
    quests = [q for q in model.declarations(ast.Quest) if q.adventure is not None]
    if not quests:
        return model
    symbols = (model.symbols or {}).get("quest", {})
    plans = model.decks or {}
    cardset = model.cards
    resolved = model.encounters or {}
    declared = {e.id: e for e in model.declarations(ast.Encounter)}
    out: dict[str, AdventurePlan] = {}
    for q in quests:
        if symbols and symbols.get(q.id) is not q:
            continue  # a duplicate id (R0101 reported it)
        if not _counts(q):  # e.g. `heroes 1`: nothing to resolve spawns for (a quest without `heroes` has 2-4)
            if q.heroes is not None and 1 <= q.heroes.low <= q.heroes.high <= 4:  # otherwise the parser reported the guard
                sink.report("Q0106", q.heroes.span, quest=q.id, low=q.heroes.low, high=q.heroes.high)
            continue
        local = Sink(comparisons_left=sink.comparisons_left)  # the quest's block-level faults: one error, notes
        out[q.id] = check_adventure(q, plans, cardset, resolved, declared, local)
        sink.comparisons_left = local.comparisons_left
        sink.extend(fold_same_place(local.items))
    return model.with_(adventures=MappingProxyType(dict(sorted(out.items()))))


# ---------------------------------------------------------------- the bundle

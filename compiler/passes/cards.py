"""Cards and decks of cooperative adventures: checks, typed action trees, deck recipes.

    cards_pass(model, sink) -> model.cards (CardSet) and model.decks (id -> DeckPlan)

Cards are the parsed declarations (compiler/syntax/ast.py); this module checks them
against the pack (monster groups, encounters, ranks), checks the action vocabulary
(which verb takes which kind of target, which ordering and filter fits which target),
and turns each deck into a `DeckPlan` that `deal` can shuffle with a seeded
`random.Random` into a legal draw order (the Nature's Ire assembly procedure: start
card aside; the ordinary cards shuffled and dealt into the stacks in order; one main
encounter shuffled into each stack; stacks laid top to bottom as written).

The vocabulary lives in tables (VERB_TARGETS, FILTER_SUBJECTS, ATTRIBUTES, CONDITIONS)
so a new verb or filter is a new row, not a new branch.
"""

from __future__ import annotations

import itertools
from typing import Mapping, Sequence, cast

from compiler.diagnostics import Related, Severity, Sink, Span, fold_same_place
from compiler.diagnostics.hints import did_you_mean, hint
from compiler.model import Model
from compiler.syntax import ast
from compiler.model.cards import (
    CONDITIONS,
    CONDITION_ALIASES,
    CardSet,
    DeckPlan,
    FILTER_SUBJECTS,
    HERO_ATTRIBUTES,
    MAX_GAPS_REPORTED,
    MONSTER_ATTRIBUTES,
    RANKS,
    SUBJECTS,
    StackPlan,
    VERB_TARGETS,
    spawned_groups,
    subject_words,
    target_text,
)

# a card of a deck's kind: exploration, activation, peril
Card = ast.ExplorationCard | ast.ActivationCard | ast.PerilCard


def _rank_missing(monster: object, rank: str) -> bool:
    """True when the monster card has no figures of `rank` (no numbers, or a limit of 0 everywhere)."""
    acts = dict(getattr(monster, "acts", ()) or ())
    has_stats = any(dict(ranks).get(rank) is not None for ranks in acts.values()) if acts else True
    limits = [lim for _, lim in (getattr(monster, "limits", ()) or ())]
    key = "masters" if rank == "master" else "minions"
    allowed = any(getattr(lim, key) > 0 for lim in limits) if limits else True
    return not has_stats or not allowed


# ---------------------------------------------------------------- card checks
def check_action(action: ast.Action, sink: Sink) -> None:
    """The verb/target/filter/attribute/condition checks of one action."""
    allowed = VERB_TARGETS.get(action.verb)
    if action.verb == "discard":
        cond = (action.condition or "").lower()
        if CONDITION_ALIASES.get(cond, cond) not in CONDITIONS:
            sink.report("C0110", action.span, condition=action.condition, hint=hint(cond, CONDITIONS + tuple(CONDITION_ALIASES), sink=sink),
                        fix=did_you_mean(cond, CONDITIONS, sink=sink))
        return
    t = action.target
    if t is None:
        return
    if allowed is None or t.subject not in allowed:
        shown = ", ".join(subject_words(s) for s in allowed) if allowed else "no target"
        sink.report("C0107", action.span, verb=action.verb.replace("_", " "), subject=f"`{subject_words(t.subject)}`", allowed=shown)
        return
    words = target_text(t)
    for f in t.filters:
        if t.subject not in FILTER_SUBJECTS.get(f[0], SUBJECTS):
            sink.report("C0108", t.span, target=words, problem=f"`{f[0].replace('_', ' ')}` applies to heroes only")
        if f[0] == "within" and (len(f) < 2 or int(f[1]) < 1):
            sink.report("C0108", t.span, target=words, problem="`within N` needs N of at least 1")
    if t.order is not None and t.subject not in FILTER_SUBJECTS.get(t.order, SUBJECTS):
        sink.report("C0108", t.span, target=words,
                    problem=f"`{t.order.replace('_', ' ')}` orders figures (heroes or monsters), not {subject_words(t.subject)}s")
    elif t.order in ("highest", "lowest"):
        known = HERO_ATTRIBUTES if t.subject == "hero" else MONSTER_ATTRIBUTES
        if t.attribute not in known:
            sink.report("C0109", t.span, attribute=t.attribute, hint=hint(t.attribute or "", known, sink=sink), fix=did_you_mean(t.attribute or "", known, sink=sink))


def check_activation(card: ast.ActivationCard, monsters: Mapping[str, object] | None, sink: Sink) -> int:
    """Check one activation card; returns its number of untyped `special` actions."""
    seen: dict[str, ast.GroupActivation] = {}
    specials = 0
    for g in card.groups:
        if g.group in seen:
            sink.report("C0102", g.span, card=card.id, group=g.group, related=(Related(seen[g.group].span, "first listed here"),))
        seen.setdefault(g.group, g)
        monster = None
        if monsters is not None:
            monster = monsters.get(g.group)
            if monster is None:
                sink.report("C0101", g.span, card=card.id, group=g.group, hint=hint(g.group, monsters, sink=sink), fix=did_you_mean(g.group, monsters, sink=sink))
        if not any(box.actions for box in g.boxes):
            sink.report("C0103", g.span, card=card.id, group=g.group)
        ranks = [b.rank for b in g.boxes]
        if "all" in ranks and len(ranks) > 1:
            sink.report("C0105", g.span, card=card.id, group=g.group, problem="an `all` box cannot be combined with other boxes")
        for rank in RANKS:
            if ranks.count(rank) > 1:
                sink.report("C0105", g.span, card=card.id, group=g.group, problem=f"two `{rank}` boxes")
        for box in g.boxes:
            if box.rank in RANKS and monster is not None and _rank_missing(monster, box.rank):
                sink.report("C0104", box.span, rank=box.rank, group=g.group)
            for action in box.actions:
                if action.verb == "special":
                    specials += 1
                check_action(action, sink)
    if specials:
        sink.report("C0111", card.span, card=card.id, count=specials)
    return specials


def check_exploration(card: ast.ExplorationCard, encounters: Mapping[str, ast.Encounter], sink: Sink) -> str | None:
    """Check one exploration card; returns the id of the encounter it activates (None if unresolved)."""
    for item in card.overlord:
        if isinstance(item, ast.Hourglass) and item.count < 1:
            sink.report("C0112", item.span, card=card.id)
    name = card.encounter
    if name is None:
        if card.id in encounters:
            return card.id
        sink.report("C0114", card.span, card=card.id)
        return None
    if name not in encounters:
        sink.report("C0113", card.span, card=card.id, encounter=name, hint=hint(name, encounters, sink=sink), fix=did_you_mean(name, encounters, sink=sink))
        return None
    return name


def check_peril(card: ast.PerilCard, sink: Sink) -> None:
    split = (card.with_monsters is not None, card.without_monsters is not None)
    if card.effect is not None and any(split):
        sink.report("C0115", card.span, card=card.id, problem="give either `effect` or the with/without monsters halves, not both")
    elif card.effect is None and split == (False, False):
        sink.report("C0115", card.span, card=card.id, problem="it has no effect")
    elif card.effect is None and not all(split):
        missing = "without_monsters" if split[0] else "with_monsters"
        sink.report("C0115", card.span, card=card.id, problem=f"a split card needs both halves; `{missing}` is missing")


# ---------------------------------------------------------------- deck checks
def _plan_exploration(deck: ast.Deck, cards: Mapping[str, ast.ExplorationCard], sink: Sink) -> DeckPlan:
    return _ExplorationPlanner(deck, cards, sink).plan()


class _ExplorationPlanner:
    """Plans one exploration deck, one method per part: its cards, its start card, its
    main encounters, its stacks. Every fault it reports makes the deck not legal."""

    def __init__(self, deck: ast.Deck, cards: Mapping[str, ast.ExplorationCard], sink: Sink) -> None:
        self.deck, self.cards, self.sink = deck, cards, sink
        self.legal = True

    def report(self, code: str, span: Span, related: tuple[Related, ...] = (), fix: str | None = None,
              severity: Severity | None = None, **args: object) -> None:
        self.sink.report(code, span, related=related, fix=fix, severity=severity, **args)
        self.legal = False

    def plan(self) -> DeckPlan:
        deck, cards = self.deck, self.cards
        members = self.members()
        start = self.start(members)
        mains = self.mains(members)
        pool = tuple(c for c in members if cards[c].role == "ordinary")
        stacks = self.stacks(pool, start, mains)
        return DeckPlan(deck.id, "exploration", deck.span, start, stacks, pool, dict(sorted(mains.items())), self.legal,
                        tuple(members))

    def members(self) -> list[str]:
        """The deck's cards (`cards …`, else every exploration card) and its start card."""
        deck, cards, sink = self.deck, self.cards, self.sink
        if deck.cards:
            members = []
            for cid in deck.cards:
                if cid in cards:
                    members.append(cid)
                else:
                    self.report("C0208", deck.span, deck=deck.id, card=cid, kind="exploration", hint=hint(cid, cards, sink=sink),
                               fix=did_you_mean(cid, cards, sink=sink))
        else:
            members = list(cards)
        if deck.start is not None and deck.start not in members:
            if deck.start in cards:
                members.append(deck.start)
            else:
                self.report("C0208", deck.span, deck=deck.id, card=deck.start, kind="exploration", hint=hint(deck.start, cards, sink=sink),
                           fix=did_you_mean(deck.start, cards, sink=sink))
        return members

    def start(self, members: list[str]) -> str | None:
        """The one start card: the deck's `start`, else its one card of role `start`."""
        deck, cards = self.deck, self.cards
        starts = [c for c in members if cards[c].role == "start"]
        start = None
        if deck.start is not None and deck.start in cards:
            start = deck.start
            if cards[start].role != "start":
                self.report("C0210", deck.span, card=start, deck=deck.id, related=(Related(cards[start].span, "the card"),))
            others = [c for c in starts if c != start]
            if others:
                self.report("C0202", cards[others[0]].span, deck=deck.id, first=start, second=others[0],
                           related=(Related(cards[start].span, "the deck's start card"),))
        elif len(starts) > 1:
            self.report("C0202", cards[starts[1]].span, deck=deck.id, first=starts[0], second=starts[1],
                       related=(Related(cards[starts[0]].span, "first start card"),))
            start = starts[0]
        elif starts:
            start = starts[0]
        elif deck.start is None:
            self.report("C0201", deck.span, deck=deck.id)
        return start

    def mains(self, members: list[str]) -> dict[int, str]:
        """Main encounter number -> card: each number once, numbered from 1 without gaps."""
        deck, cards = self.deck, self.cards
        mains: dict[int, str] = {}
        for cid in members:
            card = cards[cid]
            if card.role != "main" or card.main_number is None:
                continue
            n = card.main_number
            if n in mains:
                self.report("C0204", card.span, deck=deck.id, number=n, first=mains[n], second=cid,
                           related=(Related(cards[mains[n]].span, "first main encounter with that number"),))
                continue
            mains[n] = cid
        count = max(mains) if mains else 0
        # the first few gaps only: `main 1000000` must not report a million numbers
        gaps = list(itertools.islice((n for n in range(1, count + 1) if n not in mains), MAX_GAPS_REPORTED + 1))
        if gaps:  # one diagnostic for the deck, naming the first gaps
            shown = ", ".join(map(str, gaps[:MAX_GAPS_REPORTED])) + (" …" if len(gaps) > MAX_GAPS_REPORTED else "")
            self.report("C0203", deck.span, deck=deck.id, numbers=shown, count=count,
                       missing="is missing" if len(gaps) == 1 else "are missing", s="" if len(gaps) == 1 else "s")
        return mains

    def stacks(self, pool: tuple[str, ...], start: str | None, mains: dict[int, str]) -> tuple[StackPlan, ...]:
        """The stacks dealt from the ordinary cards (`pool`), each with its main encounter:
        every main encounter in one stack, no stack larger than what is left, no card unused."""
        deck, cards = self.deck, self.cards
        # a `start` card not marked `start` (C0210) is among the ordinary cards: the recipe may count it
        # either way, so a count is only wrong when it is wrong both ways
        unsure = start in pool
        if not deck.stacks:
            self.report("C0212", deck.span, deck=deck.id)
        stacks = []
        used: dict[int, Span] = {}
        left = len(pool)
        for i, st in enumerate(deck.stacks, 1):
            main_card = None
            if st.main is not None:
                if st.main in used:
                    self.report("C0205", st.span, deck=deck.id, problem=f"main encounter {st.main} is shuffled into two stacks",
                               related=(Related(used[st.main], "first used here"),))
                elif st.main not in mains:
                    self.report("C0205", st.span, deck=deck.id, problem=f"no card is main encounter {st.main}")
                else:
                    main_card = mains[st.main]
                used.setdefault(st.main, st.span)
            if st.size > left and (st.main is None or st.main in mains):  # a missing main is the stack's one fault
                self.report("C0206", st.span, deck=deck.id, index=i, size=st.size, left=left)
            left = max(0, left - st.size)
            stacks.append(StackPlan(st.size, main_card, st.span))
        total = sum(s.size for s in deck.stacks)
        if deck.stacks and total < len(pool) - unsure:
            self.report("C0207", deck.span, deck=deck.id, total=total, available=len(pool), unused=len(pool) - total)
        for n in sorted(mains):
            if n not in used and deck.stacks:
                self.report("C0205", cards[mains[n]].span, deck=deck.id, problem=f"main encounter {n} (`{mains[n]}`) is in no stack")
        return tuple(stacks)


def _plan_simple(deck: ast.Deck, cards: Mapping[str, object], sink: Sink) -> DeckPlan:
    legal = True
    if deck.start is not None:
        sink.report("C0209", deck.span, kind=deck.kind, deck=deck.id, statement="start")
        legal = False
    for st in deck.stacks:
        sink.report("C0209", st.span, kind=deck.kind, deck=deck.id, statement="stack")
        legal = False
    members = []
    unknown = False
    for cid in deck.cards or tuple(cards):
        if cid in cards:
            if cid not in members:
                members.append(cid)
        else:
            unknown = True
            sink.report("C0208", deck.span, deck=deck.id, card=cid, kind=deck.kind, hint=hint(cid, cards, sink=sink), fix=did_you_mean(cid, cards, sink=sink))
            legal = False
    if not members and not unknown:  # every card it names is unknown: C0208 said so, once per name
        sink.report("C0211", deck.span, kind=deck.kind, deck=deck.id)
        legal = False
    return DeckPlan(deck.id, deck.kind, deck.span, pool=tuple(members), legal=legal)


def plan_decks(decks: list[ast.Deck], by_kind: Mapping[str, Mapping[str, Card]], sink: Sink) -> dict[str, DeckPlan]:
    plans: dict[str, DeckPlan] = {}
    for deck in decks:
        local = Sink(comparisons_left=sink.comparisons_left)  # a deck's faults all point at it: one error, notes
        if deck.kind == "exploration":
            # the cards of kind "exploration" are exploration cards (check_cards)
            exploration = cast(Mapping[str, ast.ExplorationCard], by_kind["exploration"])
            plans[deck.id] = _plan_exploration(deck, exploration, local)
        else:
            plans[deck.id] = _plan_simple(deck, by_kind[deck.kind], local)
        sink.comparisons_left = local.comparisons_left
        sink.extend(fold_same_place(local.items))
    # a card in two decks of its kind; a card no deck of its kind holds (only when decks of that kind exist)
    for kind, cards in by_kind.items():
        holders: dict[str, str] = {}
        kind_plans = [p for p in plans.values() if p.kind == kind]
        for p in kind_plans:
            twice = []
            for cid in p.cards:
                if cid in holders and cid in cards:
                    twice.append(cid)
                holders.setdefault(cid, p.id)
            if twice:  # one error per deck, naming every card it shares
                sink.report("C0116", p.span, kind=kind, cards=", ".join(f"`{c}`" for c in twice),
                            s="" if len(twice) == 1 else "s", verb="is" if len(twice) == 1 else "are",
                            related=(Related(plans[holders[twice[0]]].span, "already in this deck"),))
        if kind_plans:
            for cid, card in cards.items():
                if cid not in holders:
                    sink.report("C0117", card.span, kind=kind, card=cid)
    return dict(sorted(plans.items()))


# ---------------------------------------------------------------- the pass
def check_cards(
    modules_decls: Sequence[ast.Declaration],
    monsters: Mapping[str, object] | None,
    sink: Sink,
) -> tuple[CardSet, dict[str, DeckPlan]]:
    """Check every card and deck among `modules_decls` (the pack's declarations, first of each id)."""
    encounters = {d.id: d for d in modules_decls if isinstance(d, ast.Encounter)}
    exploration = {d.id: d for d in modules_decls if isinstance(d, ast.ExplorationCard)}
    peril = {d.id: d for d in modules_decls if isinstance(d, ast.PerilCard)}
    activation = {d.id: d for d in modules_decls if isinstance(d, ast.ActivationCard)}
    decks = [d for d in modules_decls if isinstance(d, ast.Deck)]

    encounter_of = {}
    for cid, card in exploration.items():
        enc = check_exploration(card, encounters, sink)
        if enc is not None:
            encounter_of[cid] = enc
    for peril_card in peril.values():
        check_peril(peril_card, sink)
    untyped = {cid: check_activation(card, monsters, sink) for cid, card in activation.items()}
    spawned_by = {eid: spawned_groups(e.body) for eid, e in encounters.items()}

    plans = plan_decks(decks, {"exploration": exploration, "activation": activation, "peril": peril}, sink)

    # every group an encounter of an exploration deck can spawn is on every activation card
    dealt = sorted({encounter_of[c] for p in plans.values() if p.kind == "exploration" for c in p.cards if c in encounter_of})
    if not any(p.kind == "exploration" for p in plans.values()):
        dealt = sorted(set(encounter_of.values()))
    needed: dict[str, str] = {}  # group -> first encounter spawning it
    for eid in dealt:
        for group in spawned_by.get(eid, ()):
            if monsters is None or group in monsters:
                needed.setdefault(group, eid)
    act_decks = [p for p in plans.values() if p.kind == "activation"]
    act_cards = sorted({c for p in act_decks for c in p.cards}) if act_decks else sorted(activation)
    for cid in act_cards:
        act = activation.get(cid)
        if act is None:
            continue
        listed = {g.group for g in act.groups}
        for group, eid in sorted(needed.items()):
            if group not in listed:
                sink.report("C0106", act.span, card=cid, group=group, encounter=eid,
                            related=(Related(encounters[eid].span, f"`{eid}` spawns `{group}`"),))

    cardset = CardSet(
        exploration=dict(sorted(exploration.items())),
        peril=dict(sorted(peril.items())),
        activation=dict(sorted(activation.items())),
        encounter_of=dict(sorted(encounter_of.items())),
        untyped=dict(sorted(untyped.items())),
        spawned_by=dict(sorted(spawned_by.items())),
    )
    return cardset, plans


def _first_declarations(model: Model) -> list[ast.Declaration]:
    """Each declaration once: the first of a duplicated id (resolve.py reports the rest)."""
    symbols = model.symbols
    if symbols is None:
        return [d for m in model.modules for d in m.declarations]
    kept = {id(d) for table in symbols.values() for d in table.values()}
    return [d for m in model.modules for d in m.declarations if id(d) in kept]


def cards_pass(model: Model, sink: Sink) -> Model:
    """The checked cards and the deck plans (after the monsters and symbols passes)."""
    decls = _first_declarations(model)
    if not any(isinstance(d, (ast.ExplorationCard, ast.PerilCard, ast.ActivationCard, ast.Deck)) for d in decls):
        return model
    monsters: Mapping[str, object] | None = model.monsters
    if monsters is None:
        entries = (model.catalogs or {}).get("monsters") or {}
        monsters = dict(entries)  # ids are enough for the checks when the typed pass did not run
    cardset, plans = check_cards(decls, monsters, sink)
    return model.with_(cards=cardset).with_(decks=plans)

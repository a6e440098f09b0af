"""The 2nd-edition app campaign (Road to Legend) as a process a run walks through.

A campaign is acts of quests; each quest is story, side, interlude or finale, and may be
unlocked by a condition on earlier outcomes (`after first_blood won`). The rules of a
run (docs/campaign.md, "The app campaign (2nd edition)"):

* The acts are played in order. In the current act, the *spine* (story, interlude and
  finale quests) not yet played whose condition holds is what the party may play next;
  when none is left the act ends (side quests not played are gone) and the next begins.
  After the last act, or after a finale, the campaign is over.
* Side quests of the current act whose condition holds are the pool the app draws from:
  with `side_offer K` it offers K of them, each K-subset equally likely (the app's roll);
  without, every one.
* The party picks one quest among the spine and the offered side quests (a run picks
  uniformly: the players' choice, not a rule), and wins it with its `odds` (1/2 unless
  written; a model of the table, not a rule).
* Weeks: a spine quest with `weeks N` ("Begin in N weeks") starts counting when it
  opens; each side quest attempted advances the campaign one week; once a count is at
  0 the party must play such a quest next (no offer, nothing else). Every outcome has a chance above 0, so
  "some run reaches it" and "a chance above 0" are the same question.
* `act N won` holds once act N is over and the heroes won more of its story quests than
  they lost; `act N lost` once it is over otherwise; `act N played` once it is over.
* Between quests (docs/campaign.md, "Between quests"): with `visit odds W/N` the party
  visits a city after a quest with that chance (a week, a journey, the shop's stock
  drawn), unless the campaign is over or a story quest is due; each journey (to a quest
  or a city) meets at most one travel event, which the party may answer; fame is held
  never below 0.

`analyse` enumerates every state exactly (Fractions); `simulate` walks seeded runs
with its own draws (random.Random: sample, choice, random), so the two are independent
ways to the same numbers, which tests/test_app_campaign.py compares.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import field
from fractions import Fraction
from math import comb
from typing import Callable, Iterator, Mapping

from compiler import frozen
from compiler.diagnostics import Span
from compiler.syntax import ast

KINDS = ("story", "side", "interlude", "finale", "stage")
SPINE = frozenset({"story", "interlude", "finale", "stage"})
CURRENCIES = ("gold", "xp", "fame")
# The app's difficulty settings (the app rulebook, "Appendix VI: Difficulty Settings"): the
# gold each hero starts a campaign with, and the XP each hero starts the Delve with.
DIFFICULTIES: Mapping[str, Mapping[str, int]] = {
    "normal": {"gold_per_hero": 50, "delve_xp": 1},
    "hard": {"gold_per_hero": 0, "delve_xp": 0},
}
# The Delve (the app rulebook, "The Delve"): six stages win it; Act II begins after the
# third; after each stage the heroes keep 2 of the shop items revealed (1 with two heroes),
# one more when the monster tracker was empty as they left.
DELVE_STAGES = 6
DELVE_ACT_AFTER = 3
DELVE_KEEP: Mapping[str, int] = {"2": 1, "3": 2, "4": 2}  # heroes -> items kept after a stage
DELVE_KEEP_IF_TRACKER_EMPTY = 1
# How fast peril rises: the rulebook says only that it rises gradually on normal and
# faster on hard ("Appendix VI"); the rounds between two peril steps are this project's
# own numbers (illustrative), used unless a campaign writes `peril N`.
PERIL_ROUNDS: Mapping[str, int] = {"normal": 4, "hard": 3}
VISIT, STAY = "visit", "play"  # a quest played and then a city visited (a week), or not
PLAYS = (STAY, VISIT)
OUTCOMES = ("won", "lost", "played")
UNPLAYED, WON, LOST = 0, 1, 2
DEFAULT_ODDS = Fraction(1, 2)
ENDINGS = ("won", "lost", "none")  # a finale won, a finale lost, the campaign over with no finale played
MAX_STATES = 10_000  # states `analyse` visits before it gives up (K0410): about 2 s of Fractions
MAX_WORK = 400_000  # states x (quests + condition nodes): each state reads every condition once
MAX_DEPTH = 400  # quests and acts: the walk recurses once per step of a run


@frozen
class Quest:
    id: str
    kind: str  # story | side | interlude | finale
    act: int  # index into Campaign.acts
    title: str | None  # a quest named by id carries its title; a pack quest's is its own
    in_pack: bool
    odds: Fraction  # the heroes' chance to win it
    after: ast.Unlock | None
    span: Span
    weeks: int | None = None  # "Begin in N weeks" (spine quests): weeks left once it opens
    rewards: tuple[ast.Reward, ...] = ()
    reveal: int | None = None  # a Delve stage: shop items revealed in the upgrade phase after it

    def paid(self, outcome: int, currency: str) -> int:
        """What this quest pays in `currency` on `outcome` (WON or LOST)."""
        said = "won" if outcome == WON else "lost"
        return sum(getattr(r, currency) for r in self.rewards if r.when in ("any", said))


@frozen
class Answer:
    """The party's answer to a travel event: a choice (odds None), or a test passed with
    `odds` (its `won` rewards on a pass, `lost` on a fail)."""

    id: str
    odds: Fraction | None = None
    rewards: tuple[ast.Reward, ...] = ()


@frozen
class Travel:
    """A travel event: its chance on each journey to a quest, what it pays, and the
    answers the party may give (picked uniformly: the players' choice, modelled)."""

    id: str
    odds: Fraction
    rewards: tuple[ast.Reward, ...] = ()
    answers: tuple[Answer, ...] = ()

    def paid(self, currency: str) -> int:
        return sum(getattr(r, currency) for r in self.rewards if r.when == "any")

    def outcomes(self) -> list[tuple[str, Fraction, Mapping[str, int]]]:
        """Each way the event can go once it comes, as (key, chance given the event, what
        it pays in all): "" with no answers; "ANSWER" for a choice; "ANSWER won|lost" for
        a test. The chances add up to 1."""
        base = {c: self.paid(c) for c in CURRENCIES}
        if not self.answers:
            return [("", Fraction(1), base)]
        share = Fraction(1, len(self.answers))
        out: list[tuple[str, Fraction, Mapping[str, int]]] = []
        for a in self.answers:
            results = [("", share, "any")] if a.odds is None else [(" won", share * a.odds, "won"), (" lost", share * (1 - a.odds), "lost")]
            for suffix, chance, when in results:
                pays = {c: base[c] + sum(getattr(r, c) for r in a.rewards if r.when in ("any", when)) for c in CURRENCIES}
                out.append((a.id + suffix, chance, pays))
        return out


@frozen
class Shop:
    """A city's shop: its items by the fame they wait for, and how many a visit finds."""

    city: str
    groups: tuple[tuple[int, tuple[str, ...]], ...]  # (fame, items) as written
    stock: int | None = None  # None: everything it sells that the fame allows

    def available(self, fame: int) -> list[str]:
        """The items the shop may stock at `fame`, in written order, once each."""
        out: list[str] = []
        for need, items in self.groups:
            if need <= fame:
                out.extend(i for i in items if i not in out)
        return out


@frozen
class Campaign:
    id: str
    name: str
    acts: tuple[int, ...]  # act numbers, in play order
    act_titles: tuple[str | None, ...]
    quests: tuple[Quest, ...]  # in written order
    side_offer: int | None
    source: str
    span: Span
    positions: Mapping[str, int] = field(default_factory=dict)  # quest id -> index in `quests` (the first)
    delve: bool = False  # the Delve: stages in order, a lost stage ends it lost, the last won wins it
    travel: tuple[Travel, ...] = ()  # at most one comes on each journey to a quest
    visit_odds: Fraction | None = None  # after each quest, a city visit with this chance (None: never)
    visit_spend: int = 0  # gold a visit spends
    shops: tuple[Shop, ...] = ()  # the cities in written order: a visit goes to one of them, each equally likely
    prices: Mapping[str, int] = field(default_factory=dict)  # item -> gold, where written
    act_items: tuple[tuple[str, ...], ...] = ()  # each act's shop item deck (the Delve reveals from it)

    @property
    def last_stage(self) -> int | None:
        stages = [i for i, q in enumerate(self.quests) if q.kind == "stage"]
        return stages[-1] if stages else None

    def no_travel(self) -> Fraction:
        """The chance that a journey meets no travel event."""
        return 1 - sum((t.odds for t in self.travel), Fraction(0))

    def travel_range(self, currency: str) -> tuple[int, int]:
        """The least and most a journey's travel event pays in `currency` (answers included)."""
        values = [pays[currency] for t in self.travel for _, chance, pays in t.outcomes() if chance > 0]
        if self.no_travel() > 0 or not values:
            values.append(0)
        return min(values), max(values)

    def act_number(self, quest: Quest) -> int:
        return self.acts[quest.act]

    def index(self, quest: str) -> int | None:
        if self.positions:
            return self.positions.get(quest)
        for i, q in enumerate(self.quests):
            if q.id == quest:
                return i
        return None


# (act index, each quest's outcome, ending: "" while the campaign goes on, else one of
# ENDINGS, each quest's weeks left: -1 while no count runs for it)
State = tuple[int, tuple[int, ...], str, tuple[int, ...]]
# a step of a run: ("play", quest index, WON|LOST) | ("visit", quest index, WON|LOST): the
# quest played, then a city visited | ("act", next act index, 0) | ("end", 0, 0)
Move = tuple[str, int, int]


def start(camp: Campaign) -> State:
    n = len(camp.quests)
    return _counting(camp, (0, (UNPLAYED,) * n, "", (-1,) * n))


def _counting(camp: Campaign, state: State) -> State:
    """The state with a count started for each spine quest with `weeks` that is open now."""
    if state[2]:
        return state
    spine, _ = open_quests(camp, state)
    timers = list(state[3])
    for i in spine:
        weeks = camp.quests[i].weeks
        if weeks is not None and timers[i] < 0:
            timers[i] = weeks
    return (state[0], state[1], state[2], tuple(timers))


def due(camp: Campaign, state: State, spine: list[int]) -> list[int]:
    """The open spine quests whose weeks have run out: the party must play one of them next."""
    return [i for i in spine if state[3][i] == 0]


def act_over(camp: Campaign, state: State, number: int) -> bool:
    if number not in camp.acts:
        return False
    return camp.acts.index(number) < state[0] or state[2] != ""


def act_won(camp: Campaign, state: State, number: int) -> bool:
    if not act_over(camp, state, number):
        return False
    at = camp.acts.index(number)
    won = sum(1 for q, o in zip(camp.quests, state[1]) if q.act == at and q.kind == "story" and o == WON)
    lost = sum(1 for q, o in zip(camp.quests, state[1]) if q.act == at and q.kind == "story" and o == LOST)
    return won > lost


def holds(camp: Campaign, unlock: ast.Unlock | None, state: State) -> bool:
    """Whether the condition holds in `state`; a name that is no quest of the campaign never does."""
    if unlock is None:
        return True
    op = unlock.op
    if op == "all":
        return all(holds(camp, p, state) for p in unlock.parts)
    if op == "any":
        return any(holds(camp, p, state) for p in unlock.parts)
    if op == "not":
        return not holds(camp, unlock.parts[0], state)
    if op == "act":
        assert unlock.act is not None
        if unlock.outcome == "played":
            return act_over(camp, state, unlock.act)
        won = act_won(camp, state, unlock.act)
        return won if unlock.outcome == "won" else act_over(camp, state, unlock.act) and not won
    assert unlock.quest is not None
    i = camp.index(unlock.quest.name)
    if i is None:
        return False
    o = state[1][i]
    return o != UNPLAYED if unlock.outcome == "played" else o == (WON if unlock.outcome == "won" else LOST)


def open_quests(camp: Campaign, state: State) -> tuple[list[int], list[int]]:
    """(spine, side pool): the quests of the current act not played whose condition holds."""
    spine: list[int] = []
    sides: list[int] = []
    if state[2] or state[0] >= len(camp.acts):
        return spine, sides
    for i, q in enumerate(camp.quests):
        if q.act == state[0] and state[1][i] == UNPLAYED and holds(camp, q.after, state):
            (sides if q.kind == "side" else spine).append(i)
    return spine, sides


def after_move(camp: Campaign, state: State, move: Move) -> State:
    what, i, outcome = move
    if what == "end":
        return (state[0], state[1], "none", state[3])
    if what == "act":
        return _counting(camp, (i, state[1], "", state[3]))
    outcomes = state[1][:i] + (outcome,) + state[1][i + 1:]
    kind = camp.quests[i].kind
    ends = kind == "finale" or (kind == "stage" and (outcome == LOST or i == camp.last_stage))
    ending = ("won" if outcome == WON else "lost") if ends else ""
    timers = state[3]
    if camp.quests[i].kind == "side":  # a week passes
        timers = _week(timers)
    after = _counting(camp, (state[0], outcomes, ending, timers))
    if what == VISIT:  # then a city visit: another week
        after = (after[0], after[1], after[2], _week(after[3]))
    return after


def _week(timers: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(t - 1 if t > 0 else t for t in timers)


def may_visit(camp: Campaign, state: State) -> bool:
    """Whether the party may visit a city now (right after a quest): the campaign has a
    visit policy and a city, goes on, and no story quest is due (a visit takes a week)."""
    if camp.visit_odds is None or not camp.shops or state[2]:
        return False
    spine, _ = open_quests(camp, state)
    if not spine and state[0] + 1 >= len(camp.acts):
        return False  # no quest is left: the campaign is over
    return not due(camp, state, spine)


def moves(camp: Campaign, state: State) -> list[tuple[Move, Fraction]]:
    """Every next step from `state` with its exact chance (offer draw x pick x outcome)."""
    if state[2]:
        return []
    spine, sides = open_quests(camp, state)
    if not spine:
        if state[0] + 1 < len(camp.acts):
            return [(("act", state[0] + 1, 0), Fraction(1))]
        return [(("end", 0, 0), Fraction(1))]
    k = camp.side_offer
    offers: list[tuple[tuple[int, ...], Fraction]]
    must = due(camp, state, spine)
    if must:
        spine, offers = must, [((), Fraction(1))]
    elif k is None or len(sides) <= k:
        offers = [(tuple(sides), Fraction(1))]
    else:
        each = Fraction(1, comb(len(sides), k))
        offers = [(subset, each) for subset in _subsets(sides, k)]
    picked: dict[int, Fraction] = {}
    for offered, chance in offers:
        choices = spine + list(offered)
        for i in choices:
            picked[i] = picked.get(i, Fraction(0)) + chance / len(choices)
    out: list[tuple[Move, Fraction]] = []
    for i in sorted(picked, key=lambda j: (camp.quests[j].act, j)):
        odds = camp.quests[i].odds
        out.append((("play", i, WON), picked[i] * odds))
        out.append((("play", i, LOST), picked[i] * (1 - odds)))
    visit = camp.visit_odds
    if visit is not None:
        split: list[tuple[Move, Fraction]] = []
        for m, p in out:
            if may_visit(camp, after_move(camp, state, m)):
                split += [(m, p * (1 - visit)), ((VISIT, m[1], m[2]), p * visit)]
            else:
                split.append((m, p))
        out = split
    return [(m, p) for m, p in out if p > 0]


def _subsets(items: list[int], k: int) -> Iterator[tuple[int, ...]]:
    from itertools import combinations

    return combinations(items, k)


# --------------------------------------------------------------------------- exact analysis
@frozen
class Analysis:
    """Exact chances over every run: each quest played, each ending; the state graph."""

    played: Mapping[str, Fraction]
    endings: Mapping[str, Fraction]
    states: int

    def weeks(self, camp: Campaign) -> Fraction:
        """The expected weeks a run passes: one per side quest attempted (linearity)."""
        return sum((self.played[q.id] for q in camp.quests if q.kind == "side"), Fraction(0))

    no_finale_path: tuple[str, ...] | None  # the shortest run ending without a finale, as steps
    acts_reached: frozenset[int] = frozenset()  # indices of the acts some run plays
    # act index -> currency -> (least, most) a run is paid in that act (quests and travel)
    awards: Mapping[int, Mapping[str, tuple[int, int]]] = field(default_factory=dict)
    most_fame: int = 0  # the most fame a whole run gathers
    travel_expected: Mapping[str, Fraction] = field(default_factory=dict)  # mean times per run
    travel_once: Mapping[str, Fraction] = field(default_factory=dict)  # chance a run meets it at least once
    visits: Fraction = Fraction(0)  # expected city visits per run
    visit_range: tuple[int, int] = (0, 0)  # the least and most visits a run makes
    # act index -> (least, most) fame the party holds as the act ends (never below 0)
    fame_held: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    upgrades: Fraction = Fraction(0)  # the Delve: expected upgrade phases (a stage won that is not the last)
    reveals: Fraction = Fraction(0)  # the Delve: expected shop items revealed per run
    # the state graph (networkx MultiDiGraph) and its first state, kept for the distributions below
    graph: object = field(default=None, compare=False, repr=False)
    first: State | None = field(default=None, compare=False, repr=False)

    def visits_by(self) -> dict[int, Fraction]:
        """The exact chance a run makes so many city visits (worked out when asked: the
        check does not need it)."""
        return _spread_of(self.graph, self.first, lambda m: int(m[0] == VISIT))

    def weeks_by(self, camp: Campaign) -> dict[int, Fraction]:
        """The exact chance a run passes so many weeks (side quests attempted, visits)."""
        return _spread_of(self.graph, self.first, lambda m: int(m[0] == VISIT) + int(m[0] in PLAYS and camp.quests[m[1]].kind == "side"))

    def total_weeks(self, camp: Campaign) -> Fraction:
        """The expected weeks a run passes: side quests attempted and city visits."""
        return self.weeks(camp) + self.visits


class TooLarge(Exception):
    pass


def analyse(camp: Campaign, limit: int = MAX_STATES) -> Analysis:
    """Enumerate every reachable state once (memoised), adding up exact chances.
    Raises TooLarge past `limit` states."""
    import networkx as nx

    if len(camp.quests) + len(camp.acts) > MAX_DEPTH:
        raise TooLarge()
    limit = min(limit, state_limit(camp))
    # a multigraph: a quest played with a city visit after it and without one may lead to
    # the same state (no count of weeks running), and both steps must be kept
    graph: nx.MultiDiGraph = nx.MultiDiGraph()
    memo: dict[State, dict[str, Fraction]] = {}

    def value(state: State) -> dict[str, Fraction]:
        """Expected count of each event ("quest:ID", "ending:E") from `state` to the end."""
        got = memo.get(state)
        if got is not None:
            return got
        if len(memo) >= limit:
            raise TooLarge()
        total: dict[str, Fraction] = {}
        if state[2]:
            total[f"ending:{state[2]}"] = Fraction(1)
        for move, p in moves(camp, state):
            nxt = after_move(camp, state, move)
            graph.add_edge(state, nxt, step=describe(camp, move), move=move, p=p)
            here = {f"quest:{camp.quests[move[1]].id}": Fraction(1)} if move[0] in PLAYS else {}
            if move[0] == VISIT:
                here["visit"] = Fraction(1)
            for key, v in _plus(here, value(nxt)).items():
                total[key] = total.get(key, Fraction(0)) + p * v
        memo[state] = total
        return total

    first = start(camp)
    graph.add_node(first)
    result = value(first)
    played = {q.id: result.get(f"quest:{q.id}", Fraction(0)) for q in camp.quests}
    endings = {e: result.get(f"ending:{e}", Fraction(0)) for e in ENDINGS}
    path: tuple[str, ...] | None = None
    ends = [s for s in graph.nodes if s[2] == "none"]
    if ends:
        lengths = nx.single_source_shortest_path_length(graph, first)
        target = min(ends, key=lambda s: (lengths.get(s, 1 << 30), s))
        nodes = nx.shortest_path(graph, first, target)
        path = tuple(min(d["step"] for d in graph.get_edge_data(a, b).values()) for a, b in zip(nodes, nodes[1:]))
    reached = frozenset(s[0] for s in memo if not s[2])
    order = list(reversed(list(nx.topological_sort(graph))))  # every state after those it leads to
    ranges = {c: camp.travel_range(c) for c in CURRENCIES}  # read once per step: worked out once
    awards = {at: {c: _extremes(camp, graph, order, first, c, at, ranges) for c in CURRENCIES} for at in range(len(camp.acts))}
    journeys = sum(played.values(), Fraction(0)) + result.get("visit", Fraction(0))  # to each quest and each city
    held, most_fame = _fame_held(camp, graph, list(reversed(order)), first, ranges)
    won_stages = [(q, played[q.id] * q.odds) for i, q in enumerate(camp.quests) if q.kind == "stage" and i != camp.last_stage]
    return Analysis(
        played=played, endings=endings, states=len(memo), no_finale_path=path, acts_reached=reached,
        awards=awards, most_fame=most_fame,
        travel_expected={t.id: journeys * t.odds for t in camp.travel},
        travel_once={t.id: 1 - _never(camp, graph, order, first, t.odds) for t in camp.travel},
        visits=result.get("visit", Fraction(0)), visit_range=_visit_range(graph, order, first), fame_held=held,
        upgrades=sum((w for _, w in won_stages), Fraction(0)),
        reveals=sum((w * (q.reveal or 0) for q, w in won_stages), Fraction(0)),
        graph=graph, first=first,
    )


def _spread_of(graph: object, first: State | None, weight: Callable[[Move], int]) -> dict[int, Fraction]:
    """The exact distribution of a run's total `weight` over its steps (a DAG, so each
    state's distribution of what is still to come is worked out once)."""
    import networkx as nx

    assert isinstance(graph, nx.DiGraph) and first is not None
    dist: dict[State, dict[int, Fraction]] = {}
    for s in reversed(list(nx.topological_sort(graph))):
        outs = list(graph.out_edges(s, data=True))
        if not outs:
            dist[s] = {0: Fraction(1)}
            continue
        here: dict[int, Fraction] = {}
        for _, t, d in outs:
            w = weight(d["move"])
            for n, p in dist[t].items():
                here[n + w] = here.get(n + w, Fraction(0)) + d["p"] * p
        dist[s] = here
    return dict(sorted(dist[first].items()))


def _visit_range(graph: object, order: list[State], first: State) -> tuple[int, int]:
    """The least and most city visits a run makes (shortest and longest path)."""
    import networkx as nx

    assert isinstance(graph, nx.DiGraph)
    least: dict[State, int] = {}
    most: dict[State, int] = {}
    for s in order:
        outs = [(int(d["move"][0] == VISIT), t) for _, t, d in graph.out_edges(s, data=True)]
        least[s] = min((w + least[t] for w, t in outs), default=0)
        most[s] = max((w + most[t] for w, t in outs), default=0)
    return least[first], most[first]


def _fame_held(camp: Campaign, graph: object, forward: list[State], first: State, ranges: Mapping[str, tuple[int, int]]) -> tuple[dict[int, tuple[int, int]], int]:
    """The fame the party holds, never below 0: the least and most as each act ends (a
    run that ends in an act ends it), and the most at any time. Walked forward in
    topological order: a step turns held fame x into max(0, x + paid), which grows with x,
    so the least (most) after a step comes from the least (most) before it."""
    import networkx as nx

    assert isinstance(graph, nx.DiGraph)
    low: dict[State, int] = {first: 0}
    high: dict[State, int] = {first: 0}
    ends: dict[int, tuple[int, int]] = {}
    for s in forward:
        outs = list(graph.out_edges(s, data=True))
        for _, t, d in outs:
            lo, hi = _pay(camp, s, d["move"], "fame", None, ranges)
            a, b = max(0, low[s] + lo), max(0, high[s] + hi)
            low[t] = min(low.get(t, a), a)
            high[t] = max(high.get(t, b), b)
        if not outs or any(d["move"][0] == "act" for _, _, d in outs):
            lo, hi = ends.get(s[0], (low[s], high[s]))
            ends[s[0]] = (min(lo, low[s]), max(hi, high[s]))
    return ends, max(high.values(), default=0)


def _pay(camp: Campaign, state: State, move: Move, currency: str, act: int | None, ranges: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
    """(least, most) a step pays in `currency`, counted only in act index `act` (None: all)."""
    if move[0] not in PLAYS or (act is not None and state[0] != act):
        return 0, 0
    quest = camp.quests[move[1]].paid(move[2], currency)
    low, high = ranges[currency]
    n = journeys(move)
    return quest + n * low, quest + n * high


def journeys(move: Move) -> int:
    """The journeys a step makes, each meeting at most one travel event: one to the quest
    played, and one more to the city when a visit follows."""
    return 0 if move[0] not in PLAYS else 2 if move[0] == VISIT else 1


def _extremes(camp: Campaign, graph: object, order: list[State], first: State, currency: str, act: int | None,
              ranges: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
    """The least and most a whole run is paid (in act index `act`, or in all): the shortest
    and longest path through the state graph, a DAG, weighted by what each step pays."""
    import networkx as nx

    assert isinstance(graph, nx.DiGraph)
    least: dict[State, int] = {}
    most: dict[State, int] = {}
    for s in order:
        outs = [(_pay(camp, s, d["move"], currency, act, ranges), t) for _, t, d in graph.out_edges(s, data=True)]
        least[s] = min((w[0] + least[t] for w, t in outs), default=0)
        most[s] = max((w[1] + most[t] for w, t in outs), default=0)
    return least[first], most[first]


def _never(camp: Campaign, graph: object, order: list[State], first: State, odds: Fraction) -> Fraction:
    """The exact chance that a run never meets a travel event of chance `odds` per journey."""
    import networkx as nx

    assert isinstance(graph, nx.DiGraph)
    miss = 1 - odds
    f: dict[State, Fraction] = {}
    for s in order:
        outs = list(graph.out_edges(s, data=True))
        f[s] = sum((d["p"] * miss ** journeys(d["move"]) * f[t] for _, t, d in outs), Fraction(0)) if outs else Fraction(1)
    return f[first]


def state_limit(camp: Campaign) -> int:
    """The states `analyse` may visit: MAX_STATES, fewer for a campaign whose states each
    cost more (every quest and condition node is read once per state); 0 past MAX_DEPTH."""
    if len(camp.quests) + len(camp.acts) > MAX_DEPTH:
        return 0
    size = len(camp.quests) + sum(_nodes(q.after) for q in camp.quests)
    return min(MAX_STATES, MAX_WORK // max(size, 1))


def _nodes(u: ast.Unlock | None) -> int:
    return 0 if u is None else 1 + sum(_nodes(p) for p in u.parts)


def _plus(a: Mapping[str, Fraction], b: Mapping[str, Fraction]) -> dict[str, Fraction]:
    out = dict(b)
    for k, v in a.items():
        out[k] = out.get(k, Fraction(0)) + v
    return out


def describe(camp: Campaign, move: Move) -> str:
    what, i, outcome = move
    if what in PLAYS:
        return f"{camp.quests[i].id} {'won' if outcome == WON else 'lost'}" + (", then a city visit" if what == VISIT else "")
    if what == "act":
        return f"act {camp.acts[i]} begins"
    return "no quest left"


# --------------------------------------------------------------------------- simulation
@frozen
class Simulation:
    runs: int
    seed: int
    played: Mapping[str, int]  # runs in which each quest was played
    endings: Mapping[str, int]
    quests_played: Mapping[int, int]  # how many runs played so many quests
    weeks: Mapping[int, int]  # how many runs passed so many weeks (side quests attempted and city visits)
    travel_runs: Mapping[str, int] = field(default_factory=dict)  # runs that met each travel event
    travel_total: Mapping[str, int] = field(default_factory=dict)  # times each came in all runs
    travel_squares: Mapping[str, int] = field(default_factory=dict)  # sum over runs of its count squared
    # act index -> currency -> (least, most) a simulated run was paid in that act
    awards: Mapping[int, Mapping[str, tuple[int, int]]] = field(default_factory=dict)
    answers: Mapping[str, int] = field(default_factory=dict)  # "EVENT:ANSWER[ won|lost]" -> times in all runs
    visits: Mapping[int, int] = field(default_factory=dict)  # how many runs made so many city visits
    gold_spent: int = 0  # in all runs
    city_visits: Mapping[str, int] = field(default_factory=dict)  # city -> visits in all runs
    on_sale: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # city -> item -> visits it was on sale
    fame_held: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # act index -> (least, most) as it ended
    revealed: Mapping[str, int] = field(default_factory=dict)  # the Delve: item -> times revealed
    reveals: int = 0  # the Delve: items revealed in all runs
    upgrades: int = 0  # the Delve: upgrade phases in all runs


def simulate(camp: Campaign, runs: int, seed: int) -> Simulation:
    """`runs` seeded runs, drawing as the app and the table do: the offer with
    `sample`, the party's pick with `choice`, the outcome with `random() < odds`; then,
    only where the campaign has them, a travel event (`random()`) and its answer
    (`choice`, a test's `random()`), a city visit (`random() < visit odds`, the city by
    `choice`, its stock by `sample`), a Delve stage's revealed items (`sample`). A
    campaign without one of these draws nothing for it."""
    rng = random.Random(seed)
    played: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    weeks_run: Counter[int] = Counter()
    visits_run: Counter[int] = Counter()
    met_runs: Counter[str] = Counter()
    met_total: Counter[str] = Counter()
    met_squares: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    city_visits: Counter[str] = Counter()
    on_sale: dict[str, Counter[str]] = {shop.city: Counter() for shop in camp.shops}
    revealed: Counter[str] = Counter()
    reveals = upgrades = spent = 0
    seen: dict[int, dict[str, tuple[int, int]]] = {}
    held_seen: dict[int, tuple[int, int]] = {}
    decks = [list(items) for items in camp.act_items]
    for _ in range(runs):
        state = start(camp)
        count = weeks = visits = fame = 0
        met: Counter[str] = Counter()
        paid = [dict.fromkeys(CURRENCIES, 0) for _ in camp.acts]
        while not state[2]:
            spine, sides = open_quests(camp, state)
            if not spine:
                held_seen[state[0]] = _spread(held_seen.get(state[0]), fame)
                state = after_move(camp, state, ("act", state[0] + 1, 0) if state[0] + 1 < len(camp.acts) else ("end", 0, 0))
                continue
            k = camp.side_offer
            must = due(camp, state, spine)
            if must:
                spine, offered = must, []
            else:
                offered = sides if k is None or len(sides) <= k else sorted(rng.sample(sides, k))
            i = rng.choice(spine + offered)
            event = _journey(camp, rng) if camp.travel else None
            answer = _answer(event, rng) if event is not None and event.answers else ""
            outcome = WON if rng.random() < camp.quests[i].odds else LOST
            pays = dict(next(p for key, _, p in event.outcomes() if key == answer)) if event is not None else dict.fromkeys(CURRENCIES, 0)
            for c in CURRENCIES:
                pays[c] += camp.quests[i].paid(outcome, c)
                paid[state[0]][c] += pays[c]
            fame = max(0, fame + pays["fame"])
            if event is not None:
                met[event.id] += 1
                if answer:
                    answered[f"{event.id}:{answer}"] += 1
            played[camp.quests[i].id] += 1
            count += 1
            weeks += camp.quests[i].kind == "side"
            quest = camp.quests[i]
            if quest.kind == "stage" and outcome == WON and i != camp.last_stage:  # the upgrade phase
                upgrades += 1
                reveals += quest.reveal or 0
                deck = decks[quest.act] if quest.act < len(decks) else []
                if quest.reveal and deck:
                    revealed.update(rng.sample(deck, min(quest.reveal, len(deck))))
            state = after_move(camp, state, ("play", i, outcome))
            if camp.visit_odds is not None and may_visit(camp, state) and rng.random() < camp.visit_odds:
                event = _journey(camp, rng) if camp.travel else None  # on the way to the city
                if event is not None:
                    answer = _answer(event, rng) if event.answers else ""
                    pays = dict(next(p for key, _, p in event.outcomes() if key == answer))
                    for c in CURRENCIES:
                        paid[state[0]][c] += pays[c]
                    fame = max(0, fame + pays["fame"])
                    met[event.id] += 1
                    if answer:
                        answered[f"{event.id}:{answer}"] += 1
                shop = rng.choice(camp.shops)
                stock = shop.available(fame)
                if shop.stock is not None and shop.stock < len(stock):
                    stock = rng.sample(stock, shop.stock)
                on_sale[shop.city].update(stock)
                city_visits[shop.city] += 1
                visits += 1
                weeks += 1
                spent += camp.visit_spend
                state = (state[0], state[1], state[2], _week(state[3]))
        held_seen[state[0]] = _spread(held_seen.get(state[0]), fame)
        endings[state[2]] += 1
        lengths[count] += 1
        weeks_run[weeks] += 1
        visits_run[visits] += 1
        for tid, n in met.items():
            met_runs[tid] += 1
            met_total[tid] += n
            met_squares[tid] += n * n
        for at, amounts in enumerate(paid):
            box = seen.setdefault(at, {})
            for c, v in amounts.items():
                low, high = box.get(c, (v, v))
                box[c] = (min(low, v), max(high, v))
    return Simulation(
        runs=runs,
        seed=seed,
        played={q.id: played[q.id] for q in camp.quests},
        endings={e: endings[e] for e in ENDINGS},
        quests_played=dict(sorted(lengths.items())),
        weeks=dict(sorted(weeks_run.items())),
        travel_runs={t.id: met_runs[t.id] for t in camp.travel},
        travel_total={t.id: met_total[t.id] for t in camp.travel},
        travel_squares={t.id: met_squares[t.id] for t in camp.travel},
        awards=seen,
        answers={f"{t.id}:{key}": answered[f"{t.id}:{key}"] for t in camp.travel if t.answers for key, _, _ in t.outcomes()},
        visits=dict(sorted(visits_run.items())),
        gold_spent=spent,
        city_visits={shop.city: city_visits[shop.city] for shop in camp.shops},
        on_sale={shop.city: {item: on_sale[shop.city][item] for item in shop.available(1 << 30)} for shop in camp.shops},
        fame_held=dict(sorted(held_seen.items())),
        revealed=dict(sorted(revealed.items())),
        reveals=reveals,
        upgrades=upgrades,
    )


def _spread(box: tuple[int, int] | None, value: int) -> tuple[int, int]:
    return (value, value) if box is None else (min(box[0], value), max(box[1], value))


def _answer(event: Travel, rng: random.Random) -> str:
    """The party's answer (`choice`), and for a test its result (`random() < odds`)."""
    a = rng.choice(event.answers)
    if a.odds is None:
        return a.id
    return f"{a.id} {'won' if rng.random() < a.odds else 'lost'}"


def _journey(camp: Campaign, rng: random.Random) -> Travel | None:
    """The travel event of one journey: `random()` against the events' chances in written
    order; none when it falls past them all."""
    x = rng.random()
    upto = Fraction(0)
    for t in camp.travel:
        upto += t.odds
        if x < upto:
            return t
    return None


def unlock_text(u: ast.Unlock | None) -> str:
    """The condition written back in the language's words (fully bracketed where it nests)."""
    if u is None:
        return ""
    if u.op == "quest":
        assert u.quest is not None
        return f"{u.quest.name} {u.outcome}"
    if u.op == "act":
        return f"act {u.act} {u.outcome}"
    if u.op == "not":
        inner = unlock_text(u.parts[0])
        return f"not {inner}" if u.parts[0].op in ("quest", "act", "not") else f"not ({inner})"
    word = " and " if u.op == "all" else " or "
    return word.join(unlock_text(p) if p.op in ("quest", "act", "not") or p.op == u.op else f"({unlock_text(p)})" for p in u.parts)


def unlock_quests(u: ast.Unlock | None) -> list[ast.Ref]:
    """Every quest name the condition reads, in written order."""
    if u is None:
        return []
    if u.op == "quest":
        assert u.quest is not None
        return [u.quest]
    return [r for p in u.parts for r in unlock_quests(p)]


def unlock_acts(u: ast.Unlock | None) -> list[tuple[int, Span]]:
    if u is None:
        return []
    if u.op == "act":
        assert u.act is not None
        return [(u.act, u.span)]
    return [a for p in u.parts for a in unlock_acts(p)]


@frozen
class Checked:
    """A campaign and its exact analysis (None when it was too large, K0410, or broken)."""

    campaign: Campaign
    analysis: Analysis | None
    decl: ast.AppCampaign  # as written: its texts (compiler/model/texts.py) and spans

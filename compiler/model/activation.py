"""The reference executor of activation cards: one monster group's activation, every outcome.

    activate(situation, card, group) -> Activation (a list of `Outcome`s)

Pure functions over a `Board`, the figures on it and the door state (docs/activation.md
has the semantics in full). Where the rules leave a choice to the players (a tie between
targets after the closest, two equally good end spaces, the orientation of a large
figure, the order in which the monsters of a box activate), every choice is followed, and
outcomes that leave the same board behind (places, attacks, conditions) are merged.

Two readings of the movement words exist and `Situation.rules` picks one:
- `coop`: the cooperative adventure's wording (spot = move toward the nearest space with
  line of sight; Reach engages from two spaces away; a large monster counts from its space
  closest to (away: furthest from) the target; `away` must gain distance with every space).
- `app`: the app rulebook's wording (spot = the nearest space within 3 spaces and in line
  of sight of the target; a large monster counts from any space the players choose; away
  only has to end farther).

Figures block movement of enemies (friendly figures may be passed through) and block line
of sight; no figure ends in an occupied space. Monsters never enter movement-blocking
terrain, terrain that damages on entry, or pits (a large monster may end partly on pits).
"""

from __future__ import annotations

import heapq
import itertools
import re
from dataclasses import field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from compiler import frozen
from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell
from compiler.syntax import ast
from compiler.model.cards import CONDITION_ALIASES, target_text

if TYPE_CHECKING:
    from compiler.catalogs.templates import Template
    from compiler.catalogs.terrain import TerrainRule
    from compiler.geometry.sight import SightEngine

INF = float("inf")
RULES = ("coop", "app")
MOVE_VERBS = ("engage", "spot", "toward", "away_from", "retreat")
APP_SPOT_RANGE = 3
MAX_OUTCOMES = 256
DISCARD_DOOMED = "discard doomed"
SPEED_EFFECT = re.compile(r"\+\s*(\d+)\s+speed\b", re.I)

Footprint = tuple[Cell, ...]
# whether a shrunk monster may take the step from one space to the next (`Geo.reach`)
Forward = Callable[[Cell, Cell], bool]
# a candidate place's score under `Executor.move_options`: lower is better
Score = tuple[float, ...]
# a search tree of `Geo.reach`: space -> (cost, previous space)
Tree = dict[Cell, tuple[int, Cell | None]]
# a resolved action: the new state, and whether it counts as one of the monster's actions
Resolved = list[tuple["State", bool]]
# what an outcome is told apart by (`Outcome.key`), and what it leaves behind (`_end_key`)
OutcomeKey = tuple[tuple["Step", ...], tuple[tuple[str, Footprint], ...]]
EndKey = tuple[
    tuple[tuple[str, Footprint], ...], frozenset[tuple[str, str, tuple[str, ...]]], tuple[tuple[str, frozenset[str]], ...], frozenset[str]
]


# ---------------------------------------------------------------- input values
@frozen
class Hero:
    """A hero (or a figure treated as one). `attributes` may lack some (Desmond has none of
    might, knowledge, willpower, awareness): a hero without the attribute a target orders by
    is not a candidate of that target."""

    id: str
    cells: Footprint
    attributes: Mapping[str, int] = field(default_factory=dict)
    damage: int = 0
    conditions: frozenset[str] = frozenset()
    familiar: str | None = None  # a familiar's catalog id: an attribute it lacks counts as 0 (Appendix II)
    blocks: bool = True  # False: a familiar not treated as a figure but targeted as a hero (Summoned Stone)


@frozen
class Monster:
    id: str
    group: str
    rank: str  # master | minion
    cells: Footprint  # sorted by (y, x)
    speed: int = 0
    size: tuple[int, int] = (1, 1)  # as catalogued; the figure may lie turned
    attack_type: str = "melee"  # melee | ranged
    abilities: tuple[str, ...] = ()
    surges: tuple[str, ...] = ()
    conditions: frozenset[str] = frozenset()
    health: int = 0  # the catalog's health for its act and rank (0: not known)
    damage: int = 0

    @property
    def large(self) -> bool:
        return self.size != (1, 1)

    def has(self, ability: str) -> bool:
        return any(a.lower() == ability.lower() for a in self.abilities)

    @property
    def flying(self) -> bool:
        """Flying (1st edition): it moves over obstacles and figures (docs/rules.md, "Flying, Soar and Shadowcloak")."""
        return self.has("flying")

    def soars(self, outdoor: bool) -> bool:
        """Soar applies outdoors only; every monster with Flying also has Soar."""
        return outdoor and (self.has("soar") or self.flying)


@frozen
class Situation:
    board: Board
    heroes: tuple[Hero, ...]
    monsters: tuple[Monster, ...]
    open_doors: frozenset[str] | None = None  # None: doors as at the start of the map
    tokens: Mapping[str, tuple[Cell, ...]] = field(default_factory=dict)  # search_token / objective_token -> spaces
    places: Mapping[str, tuple[Cell, ...]] = field(default_factory=dict)  # exit / entrance -> spaces
    attacked: frozenset[str] = frozenset()  # heroes already attacked in this activation
    rules: str = "coop"
    # familiars not treated as figures and not targeted: on the map, but no monster minds them
    familiars: tuple[Hero, ...] = ()
    outdoor: bool = False  # a 1st-edition outdoor encounter: Soar applies
    templates: Mapping[str, Template] = field(default_factory=dict)  # the pack's attack templates (Breath, Blast…)


def norm_cells(cells: Iterable[Cell]) -> Footprint:
    return tuple(sorted(set(cells), key=lambda c: (c[1], c[0])))


# ---------------------------------------------------------------- output values
@frozen
class Move:
    start: Footprint  # where the figure stood
    counted_from: Cell  # the space it shrank to (itself for a small figure)
    path: tuple[Cell, ...]  # cheapest route of the shrunk figure, both ends included
    end: Footprint  # where it stands after expanding
    cost: int  # movement points spent

    def to_json(self) -> dict[str, object]:
        return {"from": [list(c) for c in self.start], "counted_from": list(self.counted_from),
                "path": [list(c) for c in self.path], "to": [list(c) for c in self.end], "cost": self.cost}


@frozen
class Attack:
    target: str
    distance: int | None  # counted spaces between the two figures
    in_sight: bool
    in_range: bool  # melee: adjacent (Reach: within 2); ranged: always (the dice decide)
    also: tuple[str, ...] = ()  # further figures hit (Flail: the closest other hero; a template: all under it)
    surge_order: tuple[str, ...] = ()
    template: str | None = None  # the template the attack uses (docs/rules.md, "Attack templates")
    facing: str | None = None  # the attacker's side a laid template lies against
    covered: tuple[Cell, ...] = ()  # the template's squares
    range_needed: int | None = None  # Soar: the range the dice must roll (counted range + 4)
    swoop: bool = False  # Soar: a melee attack made swooping down (no extra range)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"target": self.target, "distance": self.distance, "in_sight": self.in_sight,
                                  "in_range": self.in_range, "also": list(self.also), "surge_order": list(self.surge_order)}
        if self.template is not None:
            out["template"] = self.template
            out["covered"] = [list(c) for c in self.covered]
            if self.facing is not None:
                out["facing"] = self.facing
        if self.range_needed is not None:
            out["range_needed"] = self.range_needed
        if self.swoop:
            out["swoop"] = True
        return out


@frozen
class Step:
    monster: str
    action: int  # index of the action in its box (0-based); -1 for a forced action
    verb: str
    text: str
    done: bool  # performed (counts as one of the monster's two actions unless `free`)
    reason: str = ""  # why it was skipped
    target: str | None = None
    move: Move | None = None
    attack: Attack | None = None
    free: bool = False  # done without spending an action (retreat spends leftover movement)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"monster": self.monster, "action": self.action, "verb": self.verb, "text": self.text,
                     "status": ("done" if self.done else "skipped")}
        if self.reason:
            out["reason"] = self.reason
        if self.target is not None:
            out["target"] = self.target
        if self.move is not None:
            out["move"] = self.move.to_json()
        if self.attack is not None:
            out["attack"] = self.attack.to_json()
        if self.free:
            out["free"] = True
        return out


@frozen
class Outcome:
    order: tuple[str, ...]  # monsters in the order they activated
    steps: tuple[Step, ...]
    positions: Mapping[str, Footprint]  # every monster of the group after the activation

    def key(self) -> OutcomeKey:
        return (tuple(self.steps), tuple(sorted(self.positions.items())))

    def to_json(self) -> dict[str, object]:
        return {"order": list(self.order), "steps": [s.to_json() for s in self.steps],
                "positions": {m: [list(c) for c in cells] for m, cells in sorted(self.positions.items())}}


@frozen
class Activation:
    card: str
    group: str
    rules: str
    effect: str | None
    outcomes: tuple[Outcome, ...]
    truncated: bool = False  # more outcomes exist than MAX_OUTCOMES

    def to_json(self) -> dict[str, object]:
        return {"card": self.card, "group": self.group, "rules": self.rules, "effect": self.effect,
                "truncated": self.truncated, "outcomes": [o.to_json() for o in self.outcomes]}


# ---------------------------------------------------------------- geometry of one situation
class Geo:
    """Graphs, distances and sight of one board and door state, cached."""

    def __init__(self, board: Board, open_doors: frozenset[str] | None):
        from compiler.geometry import graph

        self.board = board
        self.doors = graph.door_state(board, open_doors)
        self.cells = set(board.spaces)
        self.counting = graph.with_doors(graph.counting_graph(board), self.doors)
        self.moving = graph.with_doors(graph.movement_graph(board), self.doors)
        self.blocking = board.blocking_edges(self.doors)
        self._dist: dict[Footprint, dict[Cell, int]] = {}
        self._sees: dict[tuple[Footprint, Footprint, frozenset[Cell]], bool] = {}

    @cached_property
    def sight(self) -> SightEngine:
        from compiler.geometry.sight import SightEngine

        return SightEngine(self.board, open_doors=self.doors)

    def rule(self, c: Cell) -> TerrainRule:
        return self.board.rule(c)

    def monster_may_enter(self, c: Cell) -> bool:
        r = self.rule(c)
        return not r.blocks_movement and r.on_enter_damage == 0 and not r.leave_action

    def is_pit(self, c: Cell) -> bool:
        return self.rule(c).leave_action

    @cached_property
    def flying_steps(self) -> dict[Cell, list[tuple[Cell, int]]]:
        from compiler.geometry.templates import flying_graph

        return flying_graph(self.board, self.doors)

    def fly(self, start: Cell, mp: float, forward: Forward | None = None) -> Tree:
        """`reach` for a flying monster: through every figure and the obstacles it ignores
        (geometry.templates.flying_graph); where it may stop is `placements`' to say."""
        return self._cheapest(start, mp, lambda node: self.flying_steps.get(node, ()), forward)

    def distances(self, targets: Footprint) -> dict[Cell, int]:
        """Counted spaces from every space to the nearest of `targets` (unreachable: absent)."""
        got = self._dist.get(targets)
        if got is None:
            got = {c: 0 for c in targets if c in self.cells}
            frontier = list(got)
            while frontier:
                nxt = []
                for a in frontier:
                    for b in self.counting.neighbors(a):
                        if b not in got:
                            got[b] = got[a] + 1
                            nxt.append(b)
                frontier = nxt
            self._dist[targets] = got
        return got

    def dist(self, cells: Footprint, targets: Footprint) -> int | None:
        d = self.distances(targets)
        best = min((d[c] for c in cells if c in d), default=None)
        return best

    def sees(self, src: Footprint, dst: Footprint, blockers: Iterable[Cell]) -> bool:
        key = (src, dst, frozenset(blockers))
        got = self._sees.get(key)
        if got is None:
            got = self._sees[key] = self.sight.can_see_large(src, dst, blockers=key[2], open_doors=self.doors)
        return got

    def reach(self, start: Cell, mp: float, enemy: set[Cell], forward: Forward | None = None) -> Tree:
        """Dijkstra of a shrunk monster from `start`: space -> (cost, previous space), cost <= mp.

        Never into enemy-occupied spaces or terrain a monster avoids, never on out of a pit
        it entered; `forward(a, b)` may forbid a step (the cooperative `away`)."""

        def steps(node: Cell) -> Iterable[tuple[Cell, int]]:
            if node != start and self.is_pit(node):
                return ()
            return ((nxt, self.moving.edges[node, nxt]["weight"]) for nxt in self.moving.successors(node)
                    if nxt not in enemy and self.monster_may_enter(nxt))

        return self._cheapest(start, mp, steps, forward)

    @staticmethod
    def _cheapest(start: Cell, mp: float, steps: Callable[[Cell], Iterable[tuple[Cell, int]]],
                  forward: Forward | None) -> Tree:
        """Dijkstra from `start` over `steps(node)` ([(next, cost)]), costs <= mp: space ->
        (cost, previous space). Ties: fewest steps, then (y, x) order."""
        best: Tree = {}
        heap: list[tuple[int, int, tuple[int, int], Cell, Cell | None]] = [(0, 0, (start[1], start[0]), start, None)]
        while heap:
            cost, n, _, node, prev = heapq.heappop(heap)
            if node in best:
                continue
            best[node] = (cost, prev)
            for nxt, w in steps(node):
                if nxt in best or (forward is not None and not forward(node, nxt)):
                    continue
                if cost + w <= mp:
                    heapq.heappush(heap, (cost + w, n + 1, (nxt[1], nxt[0]), nxt, node))
        return best


def path_to(tree: Mapping[Cell, tuple[int, Cell | None]], end: Cell) -> tuple[Cell, ...]:
    out = [end]
    prev = tree[end][1]
    while prev is not None:
        out.append(prev)
        prev = tree[prev][1]
    return tuple(reversed(out))


# ---------------------------------------------------------------- the simulation state
@frozen
class State:
    where: Mapping[str, Footprint]  # monster id -> cells
    pools: Mapping[str, int]  # monster id -> unspent movement points
    attacked: frozenset[str]  # heroes attacked this activation
    has_attacked: frozenset[str]  # monsters that attacked this activation
    conditions: Mapping[str, frozenset[str]]
    steps: tuple[Step, ...] = ()

    def moved(self, mid: str, cells: Footprint, spent: int, pool_after: int | None = None) -> "State":
        where = dict(self.where)
        where[mid] = cells
        pools = dict(self.pools)
        pools[mid] = pool_after if pool_after is not None else max(0, pools.get(mid, 0) - spent)
        return replace(self, where=where, pools=pools)

    def log(self, step: Step) -> "State":
        return replace(self, steps=self.steps + (step,))


class Executor:
    def __init__(self, sit: Situation, card: ast.ActivationCard, group: str):
        if sit.rules not in RULES:
            raise ValueError(f"rules must be one of {RULES}")
        self.sit = sit
        self.card = card
        self.group = next((g for g in card.groups if g.group == group), None)
        self.geo = Geo(sit.board, sit.open_doors)
        self.heroes = {h.id: h for h in sit.heroes}
        self.monsters = {m.id: m for m in sit.monsters}
        effect = self.group.effect.value if self.group is not None and self.group.effect is not None else ""
        m = SPEED_EFFECT.search(effect or "")
        self.bonus_speed = int(m.group(1)) if m else 0
        self.truncated = False

    # ------------------------------------------------------------ figures
    def occupied(self, state: State, but: str | None = None) -> set[Cell]:
        cells = self.hero_cells()
        cells |= {c for m, fp in state.where.items() if m != but for c in fp}
        return cells

    def blockers(self, state: State, but: Iterable[str] = ()) -> set[Cell]:
        """Spaces whose figures block sight (all figures but the ones named)."""
        skip = set(but)
        cells = {c for h in self.sit.heroes if h.id not in skip and h.blocks for c in h.cells}
        cells |= {c for m, fp in state.where.items() if m not in skip for c in fp}
        return cells

    def hero_cells(self) -> set[Cell]:
        """The spaces of heroes and of the figures treated as heroes that block (enemies)."""
        return {c for h in self.sit.heroes if h.blocks for c in h.cells}

    def target_cells(self, state: State, tid: str) -> Footprint:
        if tid in self.heroes:
            return self.heroes[tid].cells
        if tid in state.where:
            return state.where[tid]
        kind = tid.split(":", 1)[0]
        return norm_cells(self.sit.tokens.get(kind, ()) or self.sit.places.get(kind, ()))

    # ------------------------------------------------------------ targets
    def candidates(self, state: State, mid: str, t: ast.Target, verb: str) -> list[list[str]]:
        """Tiers of candidates: the players choose within the first tier (already ordered)."""
        me = state.where[mid]
        if t.subject == "hero":
            pool = [h.id for h in self.sit.heroes]
        elif t.subject == "monster":
            pool = [m for m in state.where if m != mid]
        else:
            cells = norm_cells(self.sit.tokens.get(t.subject, ()) or self.sit.places.get(t.subject, ()))
            return [[t.subject]] if cells else []
        out = []
        for tid in pool:
            cells = self.target_cells(state, tid)
            d = self.geo.dist(me, cells)
            if d is None:
                continue  # no counted path at all: not a target
            sees = None
            ok = True
            for f in t.filters:
                if f[0] == "in_sight":
                    sees = self.geo.sees(me, cells, self.blockers(state, (mid, tid)))
                    ok = ok and sees
                elif f[0] == "within":
                    ok = ok and d <= int(f[1])
                elif f[0] == "adjacent":
                    ok = ok and d <= 1
                elif f[0] == "not_attacked":
                    ok = ok and tid not in state.attacked
            if not ok:
                continue
            if t.order in ("highest", "lowest"):
                h = self.heroes.get(tid)
                if h is not None:
                    value = h.attributes.get(t.attribute) if t.attribute is not None else None
                    if value is None and h.familiar is not None:
                        value = 0  # a familiar lacking the attribute counts as 0 (app rulebook, Appendix II)
                else:
                    value = self._monster_attr(tid, t.attribute)
                if value is None:
                    continue
                primary = -value if t.order == "highest" else value
            elif t.order == "most_damage":
                h = self.heroes.get(tid)
                primary = -(h.damage if h is not None else 0)
            elif t.order == "furthest":
                primary = -d
            else:  # closest, or no order: the closest
                primary = d
            if verb == "attack":
                reach = 2 if self.monsters[mid].has("reach") else 1
                laid = self.laid_templates(me, cells, mid)
                if laid is not None:  # Breath, Bolt: the template must cover it (rolled range and sight do not matter)
                    if not laid:
                        continue
                else:
                    sees = sees if sees is not None else self.geo.sees(me, cells, self.blockers(state, (mid, tid)))
                    if not sees or (self.monsters[mid].attack_type != "ranged" and d > reach):
                        continue
                if d > 1 and tid in self.heroes and self.shadowcloaked(cells):
                    continue  # Shadowcloak: only an adjacent attacker affects it
            out.append(((primary, d), tid))
        out.sort()
        tiers: list[list[str]] = []
        for _, grp in itertools.groupby(out, key=lambda x: x[0]):
            tiers.append(sorted(tid for _, tid in grp))
        return tiers

    def template(self, mid: str) -> tuple[Template, int | None] | None:
        from compiler.catalogs.templates import template_of

        return template_of(self.monsters[mid].abilities, self.sit.templates) if self.sit.templates else None

    def laid_templates(self, me: Footprint, cells: Footprint, mid: str) -> list[tuple[str, tuple[Cell, ...]]] | None:
        """For a monster attacking with a template laid against its side: each (facing,
        covered squares) that covers one of `cells` (laid from its first space); None for
        any other monster."""
        from compiler.geometry.templates import FACINGS, covered

        got = self.template(mid)
        if got is None or got[0].anchor != "attacker_side":
            return None
        tmpl, rank = got
        out = []
        for facing in FACINGS:
            squares = covered(self.geo.board, tmpl, me[0], facing, rank, self.geo.doors)
            if set(squares) & set(cells):
                out.append((facing, squares))
        return out

    def shadowcloaked(self, cells: Footprint) -> bool:
        from compiler.geometry.templates import shadowcloaked

        return shadowcloaked(self.geo.board, cells)

    def under(self, state: State, mid: str, tid: str, squares: Iterable[Cell]) -> tuple[str, ...]:
        """Every figure but the attacker and its target with a space among `squares`: heroes, then monsters."""
        sq = set(squares)
        heroes = sorted(h.id for h in self.sit.heroes if h.id != tid and sq & set(h.cells))
        mons = sorted(m for m, fp in state.where.items() if m not in (mid, tid) and sq & set(fp))
        return tuple(heroes + mons)

    def _monster_attr(self, tid: str, attr: str | None) -> int | None:
        m = self.monsters.get(tid)
        if m is None:
            return None
        return {"speed": m.speed}.get(attr or "")

    # ------------------------------------------------------------ placements
    def placements(
        self, state: State, mid: str, start: Cell, mp: float, forward: Forward | None = None
    ) -> tuple[dict[Footprint, tuple[int, Cell]], Tree]:
        """Every legal place to stop: footprint -> (cost, end space, search tree)."""
        from compiler.geometry import graph

        mon = self.monsters[mid]
        enemy = self.hero_cells()
        occupied = self.occupied(state, but=mid)
        tree = self.geo.fly(start, mp, forward) if mon.flying else self.geo.reach(start, mp, enemy, forward)
        out: dict[Footprint, tuple[int, Cell]] = {}
        for e, (cost, _) in tree.items():
            if e in occupied or e == start:
                continue  # staying is judged apart (turning in place is not a move)
            if mon.flying and (e in enemy or self.geo.rule(e).blocks_movement):
                continue  # a flier passes figures and obstacles but may not stop on them
            fps: list[Footprint]
            if not mon.large:
                if self.geo.is_pit(e) and e != start and not mon.flying:
                    continue
                fps = [(e,)]
            else:  # expand over the end space: geometry.graph.placements (walls between its squares included)
                fps = [norm_cells(fp) for fp in graph.placements(self.geo.board, e, mon.size, self.geo.blocking, occupied)]
            for fp in fps:
                if fp not in out or (cost, (e[1], e[0])) < (out[fp][0], (out[fp][1][1], out[fp][1][0])):
                    out[fp] = (cost, e)
        return out, tree

    def starts(self, state: State, mid: str, target: Footprint | None, away: bool) -> list[Cell]:
        """The spaces a (large) figure may count its movement from."""
        me = state.where[mid]
        if len(me) == 1 or target is None or self.sit.rules == "app":
            return list(me)
        d = self.geo.distances(target)
        key = [(-(d.get(c, INF)) if away else d.get(c, INF)) for c in me]
        best = min(key)
        return [c for c, k in zip(me, key) if k == best]

    def move_options(
        self,
        state: State,
        mid: str,
        target: Footprint | None,
        mp: float,
        score: Callable[[Footprint, int], Score | None],
        away: bool = False,
        forward_of: Callable[[Cell], Forward | None] | None = None,
    ) -> tuple[Score | None, list[Move]]:
        """The best moves under `score(footprint, cost)` (lower is better), staying included.
        Returns (best score, [Move, ...]) — moves empty when staying is among the best."""
        me = state.where[mid]
        results: dict[Footprint, tuple[Score, Move]] = {}
        for s in self.starts(state, mid, target, away):
            fwd = forward_of(s) if forward_of is not None else None
            opts, tree = self.placements(state, mid, s, mp, fwd)
            for fp, (cost, e) in opts.items():
                sc = score(fp, cost)
                if sc is None:
                    continue
                mv = Move(me, s, path_to(tree, e), fp, cost)
                prev = results.get(fp)
                if prev is None or (sc, cost) < (prev[0], prev[1].cost):
                    results[fp] = (sc, mv)
        stay = score(me, 0)
        if not results and stay is None:
            return None, []
        best = min([r[0] for r in results.values()] + ([stay] if stay is not None else []))
        if stay is not None and stay <= best:
            return best, []
        moves = sorted((r[1] for r in results.values() if r[0] == best), key=lambda m: [(c[1], c[0]) for c in m.end])
        return best, moves

    # ------------------------------------------------------------ actions
    def resolve(self, state: State, mid: str, idx: int, action: ast.Action) -> list[tuple[State, bool]]:
        """Every way to resolve one action: (new state, counts as an action)."""
        text = action_text(action)
        mon = self.monsters[mid]
        verb = action.verb

        def skip(reason: str, target: str | None = None) -> Resolved:
            return [(state.log(Step(mid, idx, verb, text, False, reason, target)), False)]

        if verb == "special":
            if "cursed" in state.conditions.get(mid, frozenset()):
                return skip("cursed: it skips every special action")
            return skip("untyped `special` action: the players resolve its text")
        if verb == "discard":
            cond = CONDITION_ALIASES.get((action.condition or "").lower(), (action.condition or "").lower())
            if cond not in state.conditions.get(mid, frozenset()):
                return skip(f"it is not {cond}")
            conds = dict(state.conditions)
            conds[mid] = conds[mid] - {cond}
            return [(replace(state, conditions=conds).log(Step(mid, idx, verb, text, True)), True)]
        if verb in MOVE_VERBS and "immobilized" in state.conditions.get(mid, frozenset()):
            return skip("immobilized: it cannot move")
        if verb == "retreat":
            return self.retreat(state, mid, idx, text)
        target = action.target
        assert target is not None, f"`{verb}` without a target"  # the grammar gives every targeted verb its target
        if verb == "attack":
            if mid in state.has_attacked:
                return skip("it has already attacked this activation")
            tiers = self.candidates(state, mid, target, "attack")
            if not tiers:
                return skip("no hero it can attack matches the target (in sight and in range)")
            out = []
            for tid in tiers[0]:
                for st in self.attack(state, mid, idx, text, tid):
                    out.append((st, True))
            return out
        # movement with a target
        tiers = self.candidates(state, mid, target, verb)
        if verb == "spot" and self.sit.rules == "coop":
            tiers = [[t for t in tier if self.spot_goals(state, mid, t)] for tier in tiers]
            tiers = [tier for tier in tiers if tier]
        if not tiers:
            return skip(f"no {subject_of(action)} matches the target")
        out = []
        for tid in tiers[0]:
            out.extend(self.move_to(state, mid, idx, verb, text, tid, mon))
        if len(out) > 1 and not any(counted for _, counted in out):
            # skipped whichever tied target the players pick: one skip, naming them all
            reasons = {st.steps[-1].reason for st, _ in out}
            if len(reasons) == 1:
                who = " or ".join(tiers[0])
                return [(state.log(Step(mid, idx, verb, text, False, f"{reasons.pop()} ({who})")), False)]
        return out

    def mp_for_move(self, state: State, mid: str) -> int:
        return state.pools.get(mid, 0) + self.monsters[mid].speed + self.bonus_speed

    def move_to(self, state: State, mid: str, idx: int, verb: str, text: str, tid: str, mon: Monster) -> Resolved:
        cells = self.target_cells(state, tid)
        me = state.where[mid]
        geo = self.geo
        mp = self.mp_for_move(state, mid)
        d0 = geo.dist(me, cells)

        def skip(reason: str) -> Resolved:
            return [(state.log(Step(mid, idx, verb, text, False, reason, tid)), False)]

        if d0 is None:
            return skip("the target cannot be reached")
        sight_blockers = self.blockers(state, (mid, tid))
        moves: list[Move] = []
        if verb in ("engage", "toward"):
            is_figure = tid in self.heroes or tid in state.where
            if verb == "engage" and d0 <= 1:
                return skip("already adjacent to the target")
            if verb == "toward" and d0 == 0:
                return skip("already in the target's space")
            reach = (self.sit.rules == "coop" and verb == "engage" and mon.has("reach") and tid in self.heroes)
            if reach:
                if d0 == 2 and geo.sees(me, cells, sight_blockers):
                    return skip("already two spaces away with line of sight (Reach)")

                def ok(fp: Footprint) -> bool:
                    return geo.dist(fp, cells) == 2 and geo.sees(fp, cells, sight_blockers)

                _, moves = self.move_options(state, mid, cells, mp, lambda fp, c: (0, c) if ok(fp) else None)
            if not moves:
                _, moves = self.move_options(state, mid, cells, mp, lambda fp, c: (geo.dist(fp, cells) or INF,
                                                                              0 if not is_figure else 0, c))
            if not moves:
                return skip("no space closer to the target can be reached")
        elif verb == "away_from":
            moves = self.away(state, mid, cells, mp)
            if not moves:
                return skip("no space farther from the target can be reached")
        elif verb == "spot":
            if self.sit.rules == "coop":
                if geo.sees(me, cells, sight_blockers):
                    return skip("already has line of sight to the target")
                moves = self.spot_coop(state, mid, cells, mp, sight_blockers)
            else:
                if d0 <= APP_SPOT_RANGE and geo.sees(me, cells, sight_blockers):
                    return skip(f"already within {APP_SPOT_RANGE} spaces and in line of sight of the target")
                moves = self.spot_app(state, mid, cells, mp, sight_blockers)
            if not moves:
                return skip("no better vantage can be reached")
        out = []
        pool = mp
        for mv in moves:
            st = state.moved(mid, mv.end, mv.cost, pool - mv.cost)
            out.append((st.log(Step(mid, idx, verb, text, True, "", tid, mv)), True))
        return out

    def away(self, state: State, mid: str, cells: Footprint, mp: float) -> list[Move]:
        geo = self.geo
        d = geo.distances(cells)

        def farther(s: Cell) -> Forward:
            return lambda a, b: d.get(b, INF) > d.get(a, INF)

        forward_of = farther if self.sit.rules == "coop" else None
        _, moves = self.move_options(state, mid, cells, mp, lambda fp, c: (-(geo.dist(fp, cells) or 0), c),
                                     away=True, forward_of=forward_of)
        return moves

    def spot_goals(self, state: State, mid: str, tid: str) -> bool:
        """Coop: some space of the map (any cost) gives the monster sight of the target."""
        cells = self.target_cells(state, tid)
        blockers = self.blockers(state, (mid, tid))
        me = state.where[mid]
        if self.geo.sees(me, cells, blockers):
            return True
        for s in self.starts(state, mid, cells, False):
            opts, _ = self.placements(state, mid, s, INF)
            if any(self.geo.sees(fp, cells, blockers) for fp in opts):
                return True
        return False

    def spot_coop(self, state: State, mid: str, cells: Footprint, mp: float, blockers: set[Cell]) -> list[Move]:
        geo = self.geo
        # the nearest spaces (by movement cost, any budget) that see the target
        far: dict[Footprint, int] = {}
        for s in self.starts(state, mid, cells, False):
            opts, _ = self.placements(state, mid, s, INF)
            for fp, (cost, _e) in opts.items():
                if geo.sees(fp, cells, blockers) and (fp not in far or cost < far[fp]):
                    far[fp] = cost
        if not far:
            return []
        near = min(far.values())
        if near <= mp:
            _, moves = self.move_options(state, mid, cells, mp,
                                         lambda fp, c: (c,) if geo.sees(fp, cells, blockers) else None)
            return moves
        goal = norm_cells(c for fp, cost in far.items() if cost == near for c in fp)
        _, moves = self.move_options(state, mid, cells, mp, lambda fp, c: (geo.dist(fp, goal) or INF, c))
        return moves

    def spot_app(self, state: State, mid: str, cells: Footprint, mp: float, blockers: set[Cell]) -> list[Move]:
        geo = self.geo

        def goal(fp: Footprint) -> bool:
            dd = geo.dist(fp, cells)
            return dd is not None and dd <= APP_SPOT_RANGE and geo.sees(fp, cells, blockers)

        best, moves = self.move_options(state, mid, cells, mp, lambda fp, c: (c,) if goal(fp) else None)
        if moves or best is not None:
            return moves
        best, moves = self.move_options(state, mid, cells, mp,
                                        lambda fp, c: (geo.dist(fp, cells) or INF, c) if geo.sees(fp, cells, blockers) else None)
        if moves or best is not None:
            return moves
        _, moves = self.move_options(state, mid, cells, mp, lambda fp, c: (geo.dist(fp, cells) or INF, c))
        return moves

    def retreat(self, state: State, mid: str, idx: int, text: str) -> Resolved:
        pool = state.pools.get(mid, 0)
        if pool <= 0:
            return [(state.log(Step(mid, idx, "retreat", text, False, "no movement points left (retreat is never required)")), False)]
        me = state.where[mid]
        found = [(self.geo.dist(me, h.cells), h.id) for h in self.sit.heroes]
        dists = [(d, hid) for d, hid in found if d is not None]
        if not dists:
            return [(state.log(Step(mid, idx, "retreat", text, False, "no hero to retreat from")), False)]
        near = min(d for d, _ in dists)
        out = []
        for d, hid in sorted(dists):
            if d != near:
                continue
            hidden, moves = self.hide(state, mid, pool) if "terrified" in state.conditions.get(mid, frozenset()) else (False, [])
            if hidden and not moves:
                out.append((state.log(Step(mid, idx, "retreat", text, False, "terrified: no place out of every enemy's sight is better than where it stands", hid)), False))
                continue
            moves = moves or self.away(state, mid, self.heroes[hid].cells, pool)
            if not moves:
                out.append((state.log(Step(mid, idx, "retreat", text, False, "it cannot get farther from the closest hero (retreat is never required)", hid)), False))
            for mv in moves:
                st = state.moved(mid, mv.end, mv.cost, 0)
                out.append((st.log(Step(mid, idx, "retreat", text, True, "", hid, mv, free=True)), False))
        return out

    def hide(self, state: State, mid: str, mp: float) -> tuple[bool, list[Move]]:
        """A terrified monster's retreat (app rulebook, Appendix IV): the places in reach out
        of line of sight of every enemy figure (heroes and figures treated as heroes), the
        farthest from the closest of them, then the cheapest; none when no such place is in
        reach (the ordinary retreat applies) or when it already stands out of sight and no
        hidden place is farther. Returns (some hidden place, staying included, was found; moves)."""
        enemies = [h for h in self.sit.heroes if h.blocks]
        if not enemies:
            return False, []
        blockers = self.blockers(state, [mid])

        def score(fp: Footprint, cost: int) -> Score | None:
            if any(self.geo.sees(fp, h.cells, blockers - set(h.cells)) for h in enemies):
                return None
            ds = [d for d in (self.geo.dist(fp, h.cells) for h in enemies) if d is not None]
            return (-(min(ds) if ds else INF), cost)

        near_cells = norm_cells(c for h in enemies for c in h.cells)
        best, moves = self.move_options(state, mid, near_cells, mp, score, away=True)
        return best is not None, moves

    def attack(self, state: State, mid: str, idx: int, text: str, tid: str) -> list[State]:
        mon = self.monsters[mid]
        me = state.where[mid]
        cells = self.heroes[tid].cells
        d = self.geo.dist(me, cells)
        sees = self.geo.sees(me, cells, self.blockers(state, (mid, tid)))
        reach = 2 if mon.has("reach") else 1
        in_range = mon.attack_type == "ranged" or (d is not None and d <= reach)
        extras: list[tuple[str, ...]] = [()]
        if mon.has("flail"):
            found = [(self.geo.dist(me, h.cells), h.id) for h in self.sit.heroes if h.id != tid]
            others = [(dd, hid) for dd, hid in found if dd is not None
                      and self.geo.sees(me, self.heroes[hid].cells, self.blockers(state, (mid, hid)))]
            if others:
                near = min(x[0] for x in others)
                extras = [(h,) for dd, h in sorted(others) if dd == near]
        out = []
        surges = surge_order(mon.surges)
        if "doomed" in state.conditions.get(mid, frozenset()):
            surges += (DISCARD_DOOMED,)  # a surge left over after every useful one discards Doomed
        for extra in extras:
            for atk in self.ability_attacks(state, mid, Attack(tid, d, sees, in_range, extra, surges)):
                hit = {tid, *(h for h in atk.also if h in self.heroes)}
                st = replace(state, attacked=state.attacked | hit, has_attacked=state.has_attacked | {mid})
                out.append(st.log(Step(mid, idx, "attack", text, True, "", tid, attack=atk)))
        return out

    def ability_attacks(self, state: State, mid: str, atk: Attack) -> list[Attack]:
        """What a template and Soar make of one attack (docs/rules.md, "Attack templates" and
        "Flying, Soar and Shadowcloak"): a laid template gives one attack per facing that
        covers the target, each hitting every figure under it; a Blast covers the spaces
        round the target; a soaring ranged attacker needs 4 more range, a melee one swoops."""
        from compiler.geometry.templates import covered, soar_range

        mon = self.monsters[mid]
        me = state.where[mid]
        cells = self.target_cells(state, atk.target)
        got = self.template(mid)
        out = [atk]
        if got is not None:
            tmpl, rank = got
            laid = self.laid_templates(me, cells, mid)
            if laid is not None:
                out = [replace(atk, in_range=True, also=self.under(state, mid, atk.target, sq), template=tmpl.id,
                               facing=facing, covered=sq) for facing, sq in laid]
            else:  # centred on the target: on a large target, its first space (the rulebook lets the players pick one)
                sq = covered(self.geo.board, tmpl, cells[0], None, rank, self.geo.doors)
                out = [replace(atk, also=self.under(state, mid, atk.target, sq), template=tmpl.id, covered=sq)]
        if mon.soars(self.sit.outdoor) and got is None:
            if mon.attack_type == "ranged" and atk.distance is not None:
                out = [replace(a, range_needed=soar_range(atk.distance)) for a in out]
            else:
                out = [replace(a, swoop=True) for a in out]
        return out

    # ------------------------------------------------------------ one monster, the group
    def forced(self, state: State, mid: str) -> list[tuple[State, bool]] | None:
        """Coop: a stunned monster first discards stun; a monster in a pit first climbs out."""
        conds = state.conditions.get(mid, frozenset())
        if "stunned" in conds:
            c = dict(state.conditions)
            c[mid] = conds - {"stunned"}
            return [(replace(state, conditions=c).log(Step(mid, -1, "discard", "discard stunned (forced first action)", True)), True)]
        me = state.where[mid]
        if all(self.geo.is_pit(c) for c in me) and not self.monsters[mid].flying:  # a flier is above the pit
            occupied = self.occupied(state, but=mid) | self.hero_cells()
            free = sorted({b for a in me for b in self.geo.moving.successors(a) if b not in occupied and b not in me
                           and self.geo.monster_may_enter(b)} if not self.monsters[mid].large else set(),
                          key=lambda c: (c[1], c[0]))
            free = [b for b in free]
            if not free:
                # the movement graph has no step out of a pit: use the counting steps
                free = sorted({b for a in me for b in self.geo.counting.neighbors(a) if b not in occupied
                               and self.geo.monster_may_enter(b)}, key=lambda c: (c[1], c[0]))
            if not free:
                return None
            exit_cells = norm_cells(self.sit.places.get("exit", ()))
            if exit_cells:
                dd = self.geo.distances(exit_cells)
                near = min(dd.get(b, INF) for b in free)
                free = [b for b in free if dd.get(b, INF) == near]
            out = []
            for b in free:
                mv = Move(me, me[0], (me[0], b), (b,), 0)
                st = state.moved(mid, (b,), 0)
                out.append((st.log(Step(mid, -1, "leave_pit", "leave the pit (forced first action)", True, "", None, mv)), True))
            return out
        return None

    def run_monster(self, state: State, mid: str, actions: tuple[ast.Action, ...]) -> list[State]:
        results: list[State] = []
        forced = self.forced(state, mid)
        if forced:
            for st, _ in forced:
                self._loop(st, mid, actions, 0, 1, 0, results)
        else:
            self._loop(state, mid, actions, 0, 0, 0, results)
        return results

    def _loop(
        self, state: State, mid: str, actions: tuple[ast.Action, ...], at: int, done: int, skipped: int, results: list[State]
    ) -> None:
        """Every way the monster's turn can go from `state`, depth first, into `results`. A
        loop over a stack, not a recursion: a box of thousands of actions the monster skips
        (a card's text is the designer's) was as deep as it was long, a RecursionError. The
        stack pops the outcomes of one action in the order `resolve` gives them, as the
        recursion visited them."""
        todo = [(state, at, done, skipped)]
        while todo:
            state, at, done, skipped = todo.pop()
            if len(results) > MAX_OUTCOMES * 4:
                self.truncated = True
                return
            i = at % len(actions) if actions else 0
            if done >= 2 and actions and actions[i].verb == "retreat" and skipped == 0:
                # retreat spends leftover movement, not an action: it follows the second action too
                for st, _ in self.resolve(state, mid, i, actions[i]):
                    results.append(self.end_of_activation(replace(st, pools={**st.pools, mid: 0}), mid))
                continue
            if done < 2 and (not actions or skipped >= len(actions)):
                idle = self.idle_discards(state, mid)
                if idle:  # it could perform no action: Bleeding or Burning is discarded instead
                    todo.extend((st, at, done + 1, skipped) for st in reversed(idle))
                    continue
            if done >= 2 or not actions or skipped >= len(actions):
                results.append(self.end_of_activation(replace(state, pools={**state.pools, mid: 0}), mid))
                continue
            after = [(st, at + 1, done + 1, 0) if counted else (st, at + 1, done, skipped + 1)
                     for st, counted in self.resolve(state, mid, i, actions[i])]
            todo.extend(reversed(after))

    def idle_discards(self, state: State, mid: str) -> list[State]:
        """App rulebook, Appendix IV: a monster that can perform no action and has one left
        discards Bleeding from itself, or Burning from itself or an adjacent monster (the one
        with the least health remaining; ties and the choice between the two conditions are
        the players'). Each way is one state; none when neither applies."""
        conds = state.conditions
        out: list[State] = []
        if "bleeding" in conds.get(mid, frozenset()):
            out.append(self._discard(state, mid, mid, "bleeding"))
        me = state.where[mid]
        burning = [o for o in sorted(state.where) if "burning" in conds.get(o, frozenset())
                   and (o == mid or self.geo.dist(me, state.where[o]) == 1)]
        if burning:
            left = {o: self.monsters[o].health - self.monsters[o].damage for o in burning}
            least = min(left.values())
            out.extend(self._discard(state, mid, o, "burning") for o in burning if left[o] == least)
        return out

    def _discard(self, state: State, mid: str, whose: str, cond: str) -> State:
        c = dict(state.conditions)
        c[whose] = c[whose] - {cond}
        text = f"discard {cond}" + ("" if whose == mid else f" from {whose}") + " (it could perform no action)"
        return replace(state, conditions=c).log(Step(mid, -1, "discard", text, True, "", None if whose == mid else whose))

    def end_of_activation(self, state: State, mid: str) -> State:
        """An immobilized monster discards Immobilized when its activation ends (Appendix IV)."""
        if "immobilized" not in state.conditions.get(mid, frozenset()):
            return state
        c = dict(state.conditions)
        c[mid] = c[mid] - {"immobilized"}
        return replace(state, conditions=c).log(Step(mid, -1, "discard", "discard immobilized (end of its activation)", True, free=True))

    def batches(self) -> list[tuple[tuple[str, ...], tuple[ast.Action, ...]]]:
        """The boxes in activation order, each with the monsters it activates."""
        group = self.group
        assert group is not None  # run() asks only when the card has the group
        ids = [m.id for m in self.sit.monsters if m.group == group.group]
        out = []
        for box in group.boxes:
            mine = tuple(i for i in ids if box.rank == "all" or self.monsters[i].rank == box.rank)
            if mine:
                out.append((mine, box.actions))
        return out

    def run(self) -> Activation:
        if self.group is None:
            return Activation(self.card.id, "", self.sit.rules, None, (), False)
        start = State(
            where={m.id: m.cells for m in self.sit.monsters},
            pools={m.id: 0 for m in self.sit.monsters},
            attacked=frozenset(self.sit.attacked),
            has_attacked=frozenset(),
            conditions={m.id: frozenset(m.conditions) for m in self.sit.monsters},
        )
        frontier: list[tuple[tuple[str, ...], State]] = [((), start)]
        for ids, actions in self.batches():
            for _ in ids:
                nxt: dict[tuple[frozenset[str], EndKey], tuple[tuple[str, ...], State]] = {}
                for done, st in frontier:
                    for mid in ids:
                        if mid in done:
                            continue
                        for s2 in self.run_monster(st, mid, actions):
                            k = (frozenset(done + (mid,)), _end_key(s2))
                            nxt.setdefault(k, (done + (mid,), s2))
                frontier = list(nxt.values())
                if len(frontier) > MAX_OUTCOMES:
                    frontier = frontier[:MAX_OUTCOMES]
                    self.truncated = True
        group_ids = [m.id for m in self.sit.monsters if m.group == self.group.group]
        outcomes = []
        seen: set[OutcomeKey] = set()
        for order, st in frontier:
            oc = Outcome(order, st.steps, {m: st.where[m] for m in group_ids})
            key = oc.key()
            if key not in seen:
                seen.add(key)
                outcomes.append(oc)
        effect = self.group.effect.value if self.group.effect is not None else None
        return Activation(self.card.id, self.group.group, self.sit.rules, effect, tuple(outcomes), self.truncated)


def _end_key(s: State) -> EndKey:
    """What an outcome leaves behind: places, attacks made, conditions. Two orders of the
    monsters (or two routes) that leave the same are one outcome (the first one is kept)."""
    attacks = frozenset((st.monster, st.attack.target, st.attack.also) for st in s.steps if st.attack is not None)
    return (tuple(sorted(s.where.items())), attacks, tuple(sorted(s.conditions.items())), s.attacked)


def _unique_states(states: list[State]) -> list[State]:
    seen: set[OutcomeKey] = set()
    out: list[State] = []
    for s in states:
        k = (s.steps, tuple(sorted(s.where.items())))
        if k not in seen:
            seen.add(k)
            out.append(s)
    return out


def _dedupe(items: Iterable[tuple[tuple[str, ...], State]]) -> list[tuple[tuple[str, ...], State]]:
    seen: set[tuple[tuple[str, ...], tuple[Step, ...], tuple[tuple[str, Footprint], ...]]] = set()
    out: list[tuple[tuple[str, ...], State]] = []
    for order, s in items:
        k = (order, s.steps, tuple(sorted(s.where.items())))
        if k not in seen:
            seen.add(k)
            out.append((order, s))
    return out


# ---------------------------------------------------------------- helpers
def subject_of(action: ast.Action) -> str:
    return action.target.subject.replace("_", " ") if action.target is not None else "target"


def action_text(action: ast.Action) -> str:
    if action.verb == "special":
        return f'special "{action.text.value if action.text is not None else ""}"'
    if action.verb == "discard":
        return f"discard {action.condition}"
    if action.target is None:
        return action.verb.replace("_", " ")
    return f"{action.verb.replace('_', ' ')} {target_text(action.target)}"


SURGE_CLASSES = ("range", "special", "pierce", "damage")


def surge_order(surges: Iterable[str]) -> tuple[str, ...]:
    """The cooperative spending priority of a monster's surge abilities: range, then special
    abilities, then pierce, then damage (highest heart bonus first); hero skills that demand
    surges come before all of them and are not known here."""

    def cls(s: str) -> tuple[int, int]:
        low = s.lower()
        if "range" in low:
            return (0, 0)
        if "pierce" in low:
            return (2, 0)
        m = re.search(r"\+\s*(\d+)\s*heart", low)
        if m or "heart" in low or "damage" in low:
            return (3, -int(m.group(1)) if m else 0)
        return (1, 0)

    return tuple(sorted(surges, key=cls))


def activate(sit: Situation, card: ast.ActivationCard, group: str) -> Activation:
    """Every outcome the rules allow for `group`'s activation on `card`."""
    return Executor(sit, card, group).run()


# ---------------------------------------------------------------- a whole card
@frozen
class GroupRun:
    """One group's part of one whole-card outcome."""

    group: str
    effect: str | None
    outcome: Outcome

    def to_json(self) -> dict[str, object]:
        return {"group": self.group, "effect": self.effect, **self.outcome.to_json()}


@frozen
class CardOutcome:
    groups: tuple[GroupRun, ...]  # in card order
    positions: Mapping[str, Footprint]  # every monster on the map afterwards

    def key(self) -> tuple[tuple[str, OutcomeKey], ...]:
        return tuple((g.group, g.outcome.key()) for g in self.groups)

    def to_json(self) -> dict[str, object]:
        return {"groups": [g.to_json() for g in self.groups],
                "positions": {m: [list(c) for c in cells] for m, cells in sorted(self.positions.items())}}


@frozen
class CardActivation:
    card: str
    rules: str
    groups: tuple[str, ...]  # the groups that activated, in card order
    absent: tuple[str, ...]  # groups of the card with no monster on the map (they do not activate)
    outcomes: tuple[CardOutcome, ...]
    truncated: bool = False

    def to_json(self) -> dict[str, object]:
        return {"card": self.card, "rules": self.rules, "groups": list(self.groups), "absent": list(self.absent),
                "truncated": self.truncated, "outcomes": [o.to_json() for o in self.outcomes]}


def activate_card(sit: Situation, card: ast.ActivationCard, only: Iterable[str] | None = None) -> CardActivation:
    """The whole card: each group on the card that has monsters on the map activates, in the
    card's order, from where the groups before it left the figures (a group's monsters
    end where that group's outcome put them; every outcome of one group is followed by
    every outcome of the next). `only` limits it to some groups (a card drawn during a hero
    turn activates only the groups an exploration card names), still in card order.
    `not attacked this activation` counts within each group's activation; the state's
    `attacked` applies to every group. At most MAX_OUTCOMES whole-card outcomes are kept."""
    wanted = set(only) if only is not None else None
    present = {m.group for m in sit.monsters}
    order = [g.group for g in card.groups if (wanted is None or g.group in wanted)]
    active = tuple(g for g in order if g in present)
    absent = tuple(g for g in order if g not in present)
    frontier: list[tuple[tuple[GroupRun, ...], Situation]] = [((), sit)]
    truncated = False
    for group in active:
        nxt: list[tuple[tuple[GroupRun, ...], Situation]] = []
        for runs, here in frontier:
            res = activate(here, card, group)
            truncated = truncated or res.truncated
            for oc in res.outcomes:
                moved = tuple(replace(m, cells=oc.positions.get(m.id, m.cells)) for m in here.monsters)
                nxt.append((runs + (GroupRun(group, res.effect, oc),), replace(here, monsters=moved)))
        if len(nxt) > MAX_OUTCOMES:
            nxt, truncated = nxt[:MAX_OUTCOMES], True
        frontier = nxt
    outcomes: list[CardOutcome] = []
    seen: set[tuple[tuple[str, OutcomeKey], ...]] = set()
    for runs, here in frontier:
        whole = CardOutcome(runs, {m.id: m.cells for m in here.monsters})
        if whole.key() not in seen:
            seen.add(whole.key())
            outcomes.append(whole)
    return CardActivation(card.id, sit.rules, active, absent, tuple(outcomes), truncated)

"""Loops that never end (`Q0322`): a `repeat LABEL { … }` block that can go round again
and again with no question asked and nothing that ever leads out (docs/language.md,
"Loops: `repeat` and `again`"; docs/rules.md, "A loop with no way out").

A *way round* is one path through the block from its first statement to an `again LABEL`:
the arms of the `if`s it takes (and the arms before them it does not), the writes it does.
A way round through an `ask` waits for the players and is never reported; one through a
`random` option or a random number may leave at any draw and is not reported either. For
each other way round the question is exact: being deterministic, it is taken again when
every condition on it keeps its value after one pass. That is decided per condition from
the writes of the pass, as a net change of each variable:

- a variable the way round does not write (or adds to and subtracts from to no net change)
  keeps its value: every condition reading only such variables, the hero count and
  components keeps its value when the way round changes no component at all (a spawn or a
  group named differently may be the same figures);
- `set X = N` leaves X at N: the comparison is evaluated at N;
- a net change of X by D ≠ 0 keeps `X > N` / `X >= N` true when D > 0 and `X < N` /
  `X <= N` true when D < 0 (it moves away from the way out); any other comparison of X (a
  change towards the way out, `==`, `!=`, X against another variable) may change: not
  reported;
- `set X = random …`, `set X = Y`, a write inside an inner `repeat`: may change anything it
  writes: not reported.

A way round whose conditions all keep their values, and which can be taken at all (each
condition may hold, by the interval fixpoint), goes round forever once taken: one `Q0322`
per loop, at its `repeat`, the `again` of the first such way round related.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping, NamedTuple

from compiler.diagnostics import Span
from compiler.model.quest import ANY, ROUND, Condition, Effect, Interval, compare_truths
from compiler.syntax import ast

ENDS = ("win", "lose", "end", "next", "next_quest")
MAX_WAYS = 4096  # partial ways through one block followed; past it the loop is not judged (nothing claimed)
_FLIP = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


class Way(NamedTuple):
    guards: tuple[tuple[Condition, bool], ...]  # each condition met on the way and the value it had
    writes: tuple[Effect | str, ...]  # variable writes in order; a name alone: written, value unknown
    touched: frozenset[str]  # components changed on the way (names)
    drawn: bool  # a random option or a random number on the way


class Runaway(NamedTuple):
    repeat: Effect
    again: Effect
    reason: str


def runaway_loops(effects: Iterable[Effect], ranges: Mapping[str, Interval], heroes: Interval,
                  dead: frozenset[Span] = frozenset(), rnd: Interval = ROUND) -> list[Runaway]:
    """The `repeat` blocks among `effects` (at any depth) that can go round forever with no
    question (the module's doc); `ranges` and `heroes` from the fixpoint, `dead` the choices
    never taken, `rnd` the round under way in the event (quest.round_of)."""
    out: list[Runaway] = []
    for f in _every(effects, dead):
        if f.kind != "repeat" or not f.args or not f.choices:
            continue
        ways: list[tuple[Way, Effect]] = []
        start = Way((), (), frozenset(), False)
        if _walk(f.choices[0].effects, [start], f.args[0], ways, dead) is None:
            continue  # too many ways to follow: nothing claimed
        for way, again in ways:
            reason = _forever(way, ranges, heroes, rnd)
            if reason is not None:
                out.append(Runaway(f, again, reason))
                break
    return out


def _every(effects: Iterable[Effect], dead: frozenset[Span]) -> Iterator[Effect]:
    for f in effects:
        yield f
        for c in f.choices:
            if c.span not in dead:
                yield from _every(c.effects, dead)


def _walk(effects: Iterable[Effect], ways: list[Way], label: str, found: list[tuple[Way, Effect]],
          dead: frozenset[Span]) -> list[Way] | None:
    """Follow `ways` through `effects`; each reaching `again label` is added to `found`;
    the ways that reach the end are returned (None: more than MAX_WAYS)."""
    for f in effects:
        if not ways:
            return ways
        k = f.kind
        if k in ENDS or k in ("ask", "shop"):  # the encounter ends, or the players are asked (a shop waits for them): not a way round
            return []
        if k == "again":
            if f.args and f.args[0] == label:
                found.extend((w, f) for w in ways)
            return []  # an outer loop's `again` leaves this block: not a way round of it
        if k == "random":
            nxt: list[Way] = []
            for c in f.choices:
                if c.span in dead:
                    continue
                got = _walk(c.effects, [w._replace(drawn=True) for w in ways], label, found, dead)
                if got is None:
                    return None
                nxt.extend(got)
            ways = nxt
        elif k == "if":
            nxt = []
            before: tuple[tuple[Condition, bool], ...] = ()
            has_else = False
            for c in f.choices:
                if c.condition is None:
                    has_else = True
                if c.span not in dead:
                    here = before + (((c.condition, True),) if c.condition is not None else ())
                    got = _walk(c.effects, [w._replace(guards=w.guards + here) for w in ways], label, found, dead)
                    if got is None:
                        return None
                    nxt.extend(got)
                if c.condition is not None:
                    before = before + ((c.condition, False),)
            if not has_else:
                nxt.extend(w._replace(guards=w.guards + before) for w in ways)
            ways = nxt
        elif k == "repeat":
            # an inner loop: its own ways round are its own question; what it writes, in any
            # number of runs, is unknown here
            inner = f.choices[0].effects if f.choices else ()
            unknown = tuple(g.args[0] for g in _every(inner, dead) if g.kind in ("set", "add", "advance") and g.args)
            comps = frozenset(a for g in _every(inner, dead) if g.kind not in ("set", "add", "advance") for a in g.args)
            inner_label = f.args[0] if f.args else ""
            mine: list[tuple[Way, Effect]] = []
            got = _walk(inner, [w._replace(writes=w.writes + unknown, touched=w.touched | comps) for w in ways],
                        label, mine, dead)
            if got is None:
                return None
            if inner_label == label:
                mine = []  # an `again` of the inner loop's label restarts the inner loop
            found.extend(mine)
            ways = got
        elif k in ("set", "add", "advance"):
            ways = [w._replace(writes=w.writes + (f,), drawn=w.drawn or f.random is not None) for w in ways]
        elif f.args and k not in ("say",):
            ways = [w._replace(touched=w.touched | frozenset(f.args)) for w in ways]
        if len(ways) > MAX_WAYS:
            return None
    return ways


class _Net(NamedTuple):
    kind: str  # delta | const | unknown
    value: int = 0


def _nets(writes: Iterable[Effect | str]) -> dict[str, _Net]:
    """What one pass does to each variable it writes."""
    out: dict[str, _Net] = {}
    for f in writes:
        if isinstance(f, str):
            out[f] = _Net("unknown")
            continue
        name = f.args[0]
        was = out.get(name, _Net("delta", 0))
        if f.kind == "set":
            out[name] = _Net("const", f.number) if f.number is not None and f.source is None and f.random is None \
                else _Net("unknown")
        else:  # add (subtract: a negative number) / advance (None: by 1)
            step = 1 if f.number is None and f.kind == "advance" else (f.number or 0)
            out[name] = was if was.kind == "unknown" else _Net(was.kind, was.value + step)
    return out


def _truths(c: Condition, ranges: Mapping[str, Interval], heroes: Interval, rnd: Interval = ROUND) -> frozenset[bool]:
    """The values `c` may take, by the fixpoint's intervals."""
    k = c.kind
    if k == "not":
        return frozenset(not t for t in _truths(c.parts[0], ranges, heroes, rnd))
    if k in ("and", "or"):
        sets = [_truths(p, ranges, heroes, rnd) for p in c.parts]
        if k == "and":
            out: set[bool] = ({True} if all(True in s for s in sets) else set()) | ({False} if any(False in s for s in sets) else set())
        else:
            out = ({True} if any(True in s for s in sets) else set()) | ({False} if all(False in s for s in sets) else set())
        return frozenset(out)
    if k == "compare" and c.left is not None and c.right is not None and c.op is not None:
        def side(o: ast.Operand) -> Interval:
            if o.kind == "number":
                return (o.value, o.value)
            if o.kind == "heroes":
                return heroes
            if o.kind == "round":
                return rnd  # no effect changes it: a way round waiting on it is taken forever (_keeps)
            return ranges.get(o.name or "", ANY)
        return compare_truths(c.op, side(c.left), side(c.right))
    if k == "heroes" and c.heroes is not None:
        lo, hi = heroes
        got = set()
        if c.heroes[0] <= (hi if hi is not None else 99) and (lo if lo is not None else 0) <= c.heroes[1]:
            got.add(True)
        if (lo is None or lo < c.heroes[0]) or (hi is None or hi > c.heroes[1]):
            got.add(False)
        return frozenset(got)
    return frozenset((True, False))


def _keeps(c: Condition, value: bool, nets: Mapping[str, _Net], touched: frozenset[str]) -> bool:
    """Does `c`, having `value` before a pass, surely have it after the pass?"""
    k = c.kind
    if k == "not":
        return _keeps(c.parts[0], not value, nets, touched)
    if k in ("and", "or"):
        if (k == "and") == value:  # all parts keep the value the whole has
            return all(_keeps(p, value, nets, touched) for p in c.parts)
        return all(_unchanged(p, nets, touched) for p in c.parts)
    if k == "on_board":
        return not touched  # any component changed on the way: it may be this one (a group, a spawn of it)
    if k == "heroes":
        return True
    if k != "compare" or c.left is None or c.right is None or c.op is None:
        return False
    if _unchanged(c, nets, touched):
        return True
    left, right, op = c.left, c.right, c.op
    if left.kind == "number" and right.kind == "variable":
        left, right, op = right, left, _MIRROR[op]
    if left.kind != "variable" or right.kind != "number":
        return False  # two variables, one changed: may change
    net = nets[left.name or ""]
    n = right.value
    if net.kind == "const":
        return compare_truths(op, (net.value, net.value), (n, n)) == frozenset((value,))
    if net.kind != "delta":
        return False
    holds = op if value else _FLIP[op]
    return (holds in (">", ">=") and net.value > 0) or (holds in ("<", "<=") and net.value < 0)


def _reads_round(c: Condition) -> bool:
    return any(o is not None and o.kind == "round" for o in (c.left, c.right)) or any(_reads_round(p) for p in c.parts)


def _unchanged(c: Condition, nets: Mapping[str, _Net], touched: frozenset[str]) -> bool:
    """Does the pass leave everything `c` reads as it was?"""
    if c.kind == "on_board":
        return not touched  # any component changed on the way: it may be this one (a group, a spawn of it)
    if any(nets.get(o.name or "", _Net("delta", 0)) != _Net("delta", 0) for o in c.variables()):
        return False
    return all(_unchanged(p, nets, touched) for p in c.parts)


def _forever(way: Way, ranges: Mapping[str, Interval], heroes: Interval, rnd: Interval = ROUND) -> str | None:
    """Why this way round, once taken, is taken forever (None: it may not be)."""
    if way.drawn:
        return None
    for c, value in way.guards:
        if value not in _truths(c, ranges, heroes, rnd):
            return None  # cannot be taken
    nets = _nets(way.writes)
    if not all(_keeps(c, value, nets, way.touched) for c, value in way.guards):
        return None
    if not way.guards:
        return "it goes round with no condition"
    names: list[str] = []
    for c, _ in way.guards:
        for o in c.variables():
            if o.name and f"`{o.name}`" not in names:
                names.append(f"`{o.name}`")
    moved = [n for n in names if nets.get(n.strip("`"), _Net("delta", 0)) != _Net("delta", 0)]
    if moved:
        return f"{', '.join(moved)} {'moves' if len(moved) == 1 else 'move'} only away from the way out"
    if any(_reads_round(c) for c, _ in way.guards):
        names.append("the round, which no effect changes while the event runs")
    if names:
        return f"nothing on the way round changes what decides it ({', '.join(names)})"
    return "nothing on the way round changes what decides it"

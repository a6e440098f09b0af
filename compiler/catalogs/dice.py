"""The dice catalog and exact dice probabilities (fractions.Fraction, never floats).

Entry point: `read_dice(entries, sink) -> dict[str, Die]`, ids sorted.

Probability helpers (all exact):
- `p_face(die, prop)`                 P(one roll of `die` shows `prop`)
- `p_any(dice, prop)`                 P(at least one die of a pool shows `prop`)
- `p_any_of(die, n, prop)`            the same for n copies of one die
- `total_distribution(dice, field)`   distribution of the summed `field` (damage, surge, range…)
- `pool_distribution(dice)`           joint distribution of a whole roll's totals (`Totals`)
- `attack_distribution(attack, defense, distance)`  damage dealt after shields, a miss
  (a miss face, or total range short of `distance`) dealing 0
- `expected(dist)`                    the mean of a distribution
- `faces_of(die)`, `face_shows(face, symbol)`  a die's faces and what one shows, read from
  a catalog entry, its data or a `Die` (the world and campaign passes)

`prop` is a face property name: one of FIELDS ("range", "damage", "surge", "shield",
"enhancement", "pierce": the face shows at least one), "miss", or "blank" (shows nothing),
or any predicate `Face -> bool`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar

from compiler.catalogs.document import Entry
from compiler.diagnostics import Sink
from compiler import frozen

FIELDS = ("range", "damage", "surge", "shield", "enhancement", "pierce")
FACE_KEYS = ("miss", *FIELDS)  # what a face of the catalog may write, in the catalog form's order


@dataclass(frozen=True, order=True)
class Face:
    range: int = 0
    damage: int = 0
    surge: int = 0
    shield: int = 0
    enhancement: int = 0
    pierce: int = 0
    miss: bool = False
    # the keys the catalog writes for this face, a 0 or `miss: false` included: the bundle
    # writes the face back as written (not compared: `{damage: 0}` is the blank face)
    written: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    @property
    def blank(self) -> bool:
        return not self.miss and not any(getattr(self, f) for f in FIELDS)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Face":
        numbers = {k: int(v) for k, v in data.items() if k in FIELDS}
        return cls(miss=bool(data.get("miss", False)), written=frozenset(k for k in data if k in FACE_KEYS), **numbers)

    def to_data(self) -> dict[str, Any]:
        """The catalog form, in a fixed key order: the keys written, and every other
        non-zero value."""
        return {k: getattr(self, k) for k in FACE_KEYS if k in self.written or getattr(self, k)}


# the optional keys of a die entry (schemas/catalogs/dice.schema.json)
DIE_OPTIONAL = ("name", "colour", "source")


@frozen
class Die:
    id: str
    kind: str  # attack | power | defense
    faces: tuple[Face, ...]
    name: str = ""  # as written, else made from the id
    colour: str = ""
    source: str = ""  # where the faces come from
    written: frozenset[str] = frozenset()  # the optional keys its entry writes (DIE_OPTIONAL)

    def p(self, prop: str | Callable[[Face], bool]) -> Fraction:
        return p_face(self, prop)


Prop = str | Callable[[Face], bool]


def predicate(prop: Prop) -> Callable[[Face], bool]:
    if callable(prop):
        return prop
    if prop == "blank":
        return lambda f: f.blank
    if prop == "miss":
        return lambda f: f.miss
    if prop in FIELDS:
        return lambda f: getattr(f, prop) > 0
    raise ValueError(f"unknown face property {prop!r}; known: blank, miss, {', '.join(FIELDS)}")


def p_face(die: Die, prop: Prop) -> Fraction:
    test = predicate(prop)
    return Fraction(sum(1 for f in die.faces if test(f)), len(die.faces))


def p_any(dice: Iterable[Die], prop: Prop) -> Fraction:
    """P(at least one die of the pool shows `prop`) = 1 - prod(P(die does not))."""
    none = Fraction(1)
    for die in dice:
        none *= 1 - p_face(die, prop)
    return 1 - none


def p_any_of(die: Die, n: int, prop: Prop) -> Fraction:
    if n < 0:
        raise ValueError("n must be >= 0")
    return 1 - (1 - p_face(die, prop)) ** n


_K = TypeVar("_K")  # what a distribution is over
_V = TypeVar("_V")  # what one face adds to it


def _convolve(dist: dict[_K, Fraction], die: Die, key: Callable[[Face], _V], add: Callable[[_K, _V], _K]) -> dict[_K, Fraction]:
    share = Fraction(1, len(die.faces))
    out: dict[_K, Fraction] = {}
    for value, p in dist.items():
        for face in die.faces:
            nxt = add(value, key(face))
            out[nxt] = out.get(nxt, Fraction(0)) + p * share
    return out


def total_distribution(dice: Sequence[Die], field: str) -> dict[int, Fraction]:
    """Distribution of the sum of `field` over one roll of the pool (a miss face counts its field as 0)."""
    if field not in FIELDS:
        raise ValueError(f"unknown face field {field!r}")
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for die in dice:
        dist = _convolve(dist, die, lambda f: getattr(f, field), lambda a, b: a + b)
    return dict(sorted(dist.items()))


def face_kind(face: Face) -> str:
    """How a chart reads one power die: `blank`, `enhancement` (a power enhancement),
    `surge`, or `other` for a face showing something else."""
    if face.blank:
        return "blank"
    if face.surge and not face.enhancement:
        return "surge"
    if face.enhancement and not face.surge:
        return "enhancement"
    return "other"


def face_kind_distribution(dice: Sequence[Die]) -> dict[tuple[tuple[str, int], ...], Fraction]:
    """For a roll read die by die on a chart (the 1st-edition chest roll): the exact
    probability of each count of face kinds, keyed by ((kind, count), …) in kind order,
    kinds with count 0 left out."""
    dist: dict[tuple[tuple[str, int], ...], Fraction] = {(): Fraction(1)}

    def add(counts: tuple[tuple[str, int], ...], kind: str) -> tuple[tuple[str, int], ...]:
        d = dict(counts)
        d[kind] = d.get(kind, 0) + 1
        return tuple(sorted(d.items()))

    for die in dice:
        dist = _convolve(dist, die, face_kind, add)
    return dict(sorted(dist.items()))


# --- one reading of die faces for the passes that read the catalog's own data (the world's
# encounter die, the campaign's black power die): a catalog entry, its data, or a Die

FACE_SYMBOLS = FIELDS + ("miss",)


def faces_of(die: Any) -> list[Any] | None:
    """The faces of a die given as a catalog entry, its data (a dict) or a `Die`; None
    when it has none."""
    data = getattr(die, "data", None)
    if isinstance(data, dict):
        return data.get("faces")
    if isinstance(die, dict):
        return die.get("faces")
    faces = getattr(die, "faces", None)
    return list(faces) if faces is not None else None


def _face_value(face: Any, key: str) -> Any:
    if isinstance(face, dict):
        return face.get(key)
    return getattr(face, key, None)


def face_shows(face: Any, symbol: str) -> bool:
    """Does this die face (a `Face` or its catalog data) show `symbol`? `blank` = a face
    with no symbol at all."""
    if symbol == "blank":
        return not any(_face_value(face, s) for s in FACE_SYMBOLS)
    return bool(_face_value(face, symbol))


class Totals(NamedTuple):
    miss: bool
    range: int
    damage: int
    surge: int
    shield: int
    enhancement: int
    pierce: int


_ZERO = Totals(False, 0, 0, 0, 0, 0, 0)


def _add(t: Totals, f: Face) -> Totals:
    return Totals(
        t.miss or f.miss,
        t.range + f.range,
        t.damage + f.damage,
        t.surge + f.surge,
        t.shield + f.shield,
        t.enhancement + f.enhancement,
        t.pierce + f.pierce,
    )


def pool_distribution(dice: Sequence[Die]) -> dict[Totals, Fraction]:
    """Joint distribution of one roll's totals; outcomes with equal totals are merged."""
    dist: dict[Totals, Fraction] = {_ZERO: Fraction(1)}
    for die in dice:
        dist = _convolve(dist, die, lambda f: f, _add)
    return dict(sorted(dist.items()))


def attack_distribution(
    attack: Sequence[Die], defense: Sequence[Die] = (), distance: int = 0
) -> dict[int, Fraction]:
    """Damage dealt by one attack roll against one defense roll, surges unspent.

    The attack misses (deals 0) if any die shows a miss face or the total range is below
    `distance` (0 for melee, which ignores range). Otherwise damage = max(0, damage - shields).
    """
    shields = total_distribution(defense, "shield") if defense else {0: Fraction(1)}
    out: dict[int, Fraction] = {}
    for totals, p in pool_distribution(attack).items():
        if totals.miss or totals.range < distance:
            out[0] = out.get(0, Fraction(0)) + p
            continue
        for s, q in shields.items():
            dealt = max(0, totals.damage - s)
            out[dealt] = out.get(dealt, Fraction(0)) + p * q
    return dict(sorted(out.items()))


def expected(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((Fraction(v) * p for v, p in dist.items()), Fraction(0))


# --- reading the catalog

_KIND_SHOWS = {"defense": ("damage", "range", "surge"), "attack": ("shield",), "power": ("shield",)}


def read_dice(entries: Mapping[str, Entry], sink: Sink) -> dict[str, Die]:
    """Check and convert every die entry (already schema-valid)."""
    dice: dict[str, Die] = {}
    for did in sorted(entries):
        entry = entries[did]
        data = entry.data if isinstance(entry.data, dict) else {}
        raw_faces = [f for f in (data.get("faces") or []) if isinstance(f, dict)]
        kind = data.get("kind", "attack")
        faces = tuple(Face.from_data(f) for f in raw_faces)
        if not faces:
            continue  # the schema already reported it
        if len(faces) != 6:
            sink.report("Y0302", entry.key_span("faces"), id=did, count=len(faces))
        for i, face in enumerate(faces):
            if face.miss and not Face(miss=True) == face:
                sink.report("Y0301", entry.span("faces", i), id=did, index=i + 1)
            wrong = [f for f in _KIND_SHOWS.get(kind, ()) if getattr(face, f)]
            if wrong:
                sink.report("Y0303", entry.span("faces", i), id=did, kind=kind, index=i + 1, what=" and ".join(wrong))
        dice[did] = Die(
            id=did,
            kind=kind,
            faces=faces,
            name=data.get("name", f"{did.replace('_', ' ').capitalize()} die"),
            colour=data.get("colour", ""),
            source=data.get("source", ""),
            written=frozenset(k for k in DIE_OPTIONAL if k in data),
        )
    return dice

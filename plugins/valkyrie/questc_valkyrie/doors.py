"""Where the app draws a door, and which tile opening that is: the one conversion of a door's
position and rotation, used by the exporter (`to_valkyrie`) and the importer
(`from_valkyrie`), each the exact inverse of the other (docs/valkyrie.md, "Doors").

The app's `Door.Draw` (Quest.cs) makes a door a bar 0.4 by 1.6 squares centred on the
origin, turns it `rotation` degrees counter-clockwise about its own centre, moves it half a
square left and half a square up, then to (xposition, yposition). Square (x, y) is centred on
(x, y) (`Tile.Draw` puts a tile's first square's middle on its position), so the bar's centre
is the top-left corner of square (x, y): in questc's frame (y down, square (c, r) covering
lattice [c, c+1] x [r, r+1]), the lattice point (x, -y). At rotation 0 (or 180) the bar is
vertical: it lies across an east/west joint, along the two unit edges above and below that
point; at 90 (or 270) it is horizontal, across a north/south joint.

The bar looks the same turned half a turn, so the rotation says one more thing for free: which
of the two tiles meeting at the joint the door is declared on. `rotation` is the direction
the door's opening faces out of its tile, as a counter-clockwise angle in the app's frame
(y up): east 0, north 90, west 180, south 270. The published quests write 0 and 90 only,
which name the tile west of, or south of, the door.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, TypeVar

Point = tuple[int, int]
Edge = tuple[Point, Point]
T = TypeVar("T")

ROTATION = {"east": 0, "north": 90, "west": 180, "south": 270}  # the opening's facing -> the door's rotation
FACING = {r: f for f, r in ROTATION.items()}
STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}  # a side -> the square beyond it


@dataclass(frozen=True)
class DoorPlace:
    """A door in questc's world frame: the lattice point at its middle and the direction its
    opening faces out of the tile it is declared on."""

    centre: Point
    facing: str

    @property
    def vertical(self) -> bool:
        """Across an east/west joint (the bar runs north-south)."""
        return self.facing in ("east", "west")

    @property
    def edges(self) -> frozenset[Edge]:
        """The two unit lattice edges the door covers (endpoints sorted, as the tiles' are)."""
        x, y = self.centre
        if self.vertical:
            return frozenset({((x, y - 1), (x, y)), ((x, y), (x, y + 1))})
        return frozenset({((x - 1, y), (x, y)), ((x, y), (x + 1, y))})


def to_valkyrie(place: DoorPlace) -> tuple[int, int, int]:
    """The door's `xposition`, `yposition` and `rotation` in the app."""
    return place.centre[0], -place.centre[1], ROTATION[place.facing]


def from_valkyrie(x: int, y: int, rotation: int) -> DoorPlace | None:
    """The door the app draws at (x, y) turned `rotation` degrees; None when the rotation is
    not a multiple of 90 (the app would draw a slanted bar across no joint)."""
    if rotation % 90:
        return None
    return DoorPlace((x, -y), FACING[rotation % 360])


def opening_place(edges: Iterable[Edge], facing: str) -> DoorPlace | None:
    """The door lying across an opening: its world unit edges (two in a line, as every opening
    of the 2nd-edition tiles is two squares wide) and the world direction it faces. None for an
    opening of another width."""
    es = sorted(edges)
    if len(es) != 2:
        return None
    shared = set(es[0]) & set(es[1])
    if len(shared) != 1:
        return None
    place = DoorPlace(shared.pop(), facing)
    return place if place.edges == frozenset(es) else None


def opening_at(place: DoorPlace, openings: Iterable[tuple[T, Iterable[Edge], str]]) -> T | None:
    """Of `(opening, its world edges, its world facing)`, the one the door lies across: the
    opening facing as the rotation says, else the other tile's opening on the same joint (a
    door whose rotation names a tile with a wall there); None when the door lies across no
    opening."""
    same = [(o, f) for o, es, f in openings if frozenset(es) == place.edges]
    return next((o for o, f in same if f == place.facing), same[0][0] if same else None)


def inner_place(to_world: Callable[[Point], Point], col: int, row: int, side: str, facing: str) -> DoorPlace | None:
    """The door `door NAME on TILE(col,row).SIDE` (a door across the tile's own edges) as the app
    draws it: across the edge on SIDE of square (col, row) and of the next square along (col + 1
    for north and south, row + 1 for east and west), `to_world` the placed tile's printed square
    -> world square, `facing` the world direction SIDE faces. Both edges are the statement's even
    where the second lies on the tile's outline (a neck one square wide): the app's bar covers
    two, and the importer reads such a bar back to the same statement (importer.inner_door)."""
    dx, dy = STEP[side]
    along = (1, 0) if side in ("north", "south") else (0, 1)
    edges = []
    for k in (0, 1):
        a = to_world((col + k * along[0], row + k * along[1]))
        b = to_world((col + k * along[0] + dx, row + k * along[1] + dy))
        edges.append(_between(a, b))
    return opening_place(edges, facing)


def _between(a: Point, b: Point) -> Edge:
    """The unit lattice edge between two orthogonally adjacent squares (endpoints sorted)."""
    if a[1] == b[1]:
        x = max(a[0], b[0])
        return ((x, a[1]), (x, a[1] + 1))
    y = max(a[1], b[1])
    return ((a[0], y), (a[0] + 1, y))

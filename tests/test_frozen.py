"""`@frozen` (compiler/__init__.py) means what `@dataclass(frozen=True)` means."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler import frozen


def both(body: dict, annotations: dict):
    """The same class declared twice: with @frozen and with @dataclass(frozen=True)."""
    made = []
    for decorate in (frozen, lambda c: dataclass(frozen=True)(c)):
        made.append(decorate(type("Point", (), {"__annotations__": dict(annotations), **body})))
    return made


values = st.one_of(st.integers(-3, 3), st.text(max_size=2), st.tuples(st.integers(0, 2)), st.none())


@given(a=values, b=values, c=values, d=values)
def test_equality_hash_and_repr_are_those_of_a_frozen_dataclass(a, b, c, d):
    body = {"y": field(default=0, compare=False), "z": field(default=None, repr=False)}
    mine, theirs = both(body, {"x": "object", "y": "object", "z": "object"})
    m1, m2 = mine(a, b, c), mine(d, b, c)
    t1, t2 = theirs(a, b, c), theirs(d, b, c)
    assert (m1 == m2) == (t1 == t2)
    assert (m1 == mine(a, d, c)) == (t1 == theirs(a, d, c))  # y is not compared
    assert hash(m1) == hash(mine(a, d, c))
    assert repr(m1) == repr(t1)  # z is not shown
    assert hash(m1) == hash(mine(a, b, c))


def test_other_classes_are_not_equal_and_the_comparison_is_left_to_them():
    (mine,) = both({}, {"x": "int"})[:1]
    other = frozen(type("Other", (), {"__annotations__": {"x": "int"}}))
    assert mine(1) != other(1)
    assert mine(1).__eq__(other(1)) is NotImplemented
    assert mine(1).__eq__((1,)) is NotImplemented


def test_no_field_and_one_field():
    empty = frozen(type("Empty", (), {}))
    assert empty() == empty() and hash(empty()) == hash(()) and repr(empty()) == "Empty()"
    mine, theirs = both({}, {"x": "int"})
    assert hash(mine(5)) == hash(theirs(5)) and mine(5) == mine(5) != mine(6)


def test_it_stays_a_frozen_dataclass():
    mine, _ = both({"y": 2}, {"x": "int", "y": "int"})
    p = mine(1)
    assert dataclasses.is_dataclass(p) and [f.name for f in dataclasses.fields(p)] == ["x", "y"]
    assert dataclasses.replace(p, y=5) == mine(1, 5) and dataclasses.asdict(p) == {"x": 1, "y": 2}
    assert mine.__match_args__ == ("x", "y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.x
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.other = 3  # nor any other attribute, as on a frozen dataclass
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.other
    assert p == mine(1) and vars(p) == {"x": 1, "y": 2}


def test_cached_properties_and_subclasses_work_as_on_a_frozen_dataclass():
    import functools

    @frozen
    class Base:
        x: int

        @functools.cached_property
        def double(self) -> int:
            return self.x * 2

    @frozen
    class Child(Base):
        y: int = 0

    c = Child(2, 3)
    assert c.double == 4 and c.double == 4 and (c.x, c.y) == (2, 3)
    assert c != Base(2) and Base(2) == Base(2) and repr(c).endswith("Child(x=2, y=3)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.y = 1
    assert dataclasses.replace(c, y=5) == Child(2, 5)


def test_pickled_and_loaded_it_is_equal():
    from compiler.diagnostics import Span
    from compiler.syntax import ast

    node = ast.TileSpace("9A", 3, 1, Span("f.quest", 2, 4))
    again = pickle.loads(pickle.dumps(node))
    assert again == node and hash(again) == hash(node) and again is not node


def test_what_the_class_body_defines_is_kept():
    @frozen
    class ByName:
        name: str
        score: int = 0

        def __eq__(self, other):
            return isinstance(other, ByName) and other.name == self.name

        def __repr__(self):
            return f"<{self.name}>"

    # defining __eq__ alone: dataclass still gives the hash of the fields, so do we
    assert ByName("a", 1) == ByName("a", 2) and repr(ByName("a")) == "<a>"
    assert hash(ByName("a", 1)) == hash(("a", 1))

    @frozen
    class Unhashable:
        x: int
        __hash__ = None  # said in the body without __eq__: kept, as dataclass keeps it

    with pytest.raises(TypeError):
        hash(Unhashable(1))

    @frozen
    class Fixed:
        x: int

        def __hash__(self):
            return 7

    assert hash(Fixed(1)) == 7


def test_a_cycle_is_shown_without_recursing():
    @frozen
    class Box:
        items: list

    box = Box([])
    box.items.append(box)
    assert repr(box).endswith("Box(items=[...])")  # the qualified name, as dataclass shows it


def test_the_compiler_declares_its_frozen_value_types_with_frozen():
    """`@dataclass(frozen=True)` and nothing else is written `@frozen` (one way to say it)."""
    from conftest import REPO

    plain = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "compiler").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip() == "@dataclass(frozen=True)"
    ]
    assert not plain, plain

"""questc: a compiler for tile-based dungeon-crawler content packs.

Here too, below every layer of the pipeline: `@frozen`, how the compiler declares its
value types (syntax nodes, catalog entries, geometry, the model).
"""

from __future__ import annotations

import operator
import reprlib
from typing import TYPE_CHECKING, Callable, TypeVar, cast, dataclass_transform

if TYPE_CHECKING:
    from dataclasses import Field
    from typing import Any, ClassVar, Protocol

    from _typeshed import DataclassInstance

    class _Frozen(Protocol):
        """What `@frozen` gives a class's instances, as its shared methods read them."""

        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
        _compared: Callable[[object], tuple[object, ...]]
        _hashed: Callable[[object], tuple[object, ...]]
        _shown: tuple[str, ...]


__version__ = "0.1.0"

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """`@dataclass(frozen=True)`, compiling only `__init__`.

    Syntax nodes, catalog entries, geometry, the model: every value of the compiler is a
    frozen dataclass. For each such class `dataclasses` writes six methods as source text
    and compiles them (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`,
    `__delattr__`); for the 160 classes a check loads that was about 45 ms, the largest part
    of what questc adds to the time its libraries take to import (docs/performance.md).

    `@frozen` has `dataclasses` compile only `__init__` (the one method whose body differs in
    kind from class to class) and gives every class the same five others, shared functions
    that read the class's fields:
    - `__eq__`: equal when of the same class with equal compared fields (NotImplemented for
      anything else); `__hash__`: the hash of the hashed fields; `__repr__`: the class name and
      each shown field's repr; a method the class body defines is left alone, as `dataclass`
      leaves it (and a body defining `__eq__` alone still gets the hash, as there);
    - `__setattr__` and `__delattr__`: a field can be set once, by `__init__`, and never
      changed or deleted after (`dataclasses.FrozenInstanceError`, as for a frozen dataclass);
      no other attribute can be set (`functools.cached_property` writes the instance's
      `__dict__` itself, as it does on a frozen dataclass).
    Creating an instance costs the same (the frozen `__init__` calls `object.__setattr__` for
    each field, this one `__setattr__`). The classes stay dataclasses (`dataclasses.fields`,
    `replace`, `asdict`, pickling, `__match_args__`); only `__dataclass_params__.frozen` says
    False, as `dataclasses` did not write their freezing. Taking the six down to one took
    about 35 ms off a check after one edit. tests/test_frozen.py holds them to the meaning of
    `dataclass(frozen=True)`.
    """
    import dataclasses  # here: `questc --version` imports this package and nothing else

    own = dict(cls.__dict__)
    cls = dataclasses.dataclass(cls, eq=False, repr=False)
    # the class is a dataclass now (the checker knows dataclass() only returns the type given)
    fields = dataclasses.fields(cast("type[DataclassInstance]", cls))
    # attributes and methods the class body does not declare, added to the class after its
    # creation: set by name (the checker sees a class as its body declares it)
    added: dict[str, object] = {
        "_compared": staticmethod(_getter([f.name for f in fields if f.compare])),
        "_hashed": staticmethod(_getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)])),
        "_shown": tuple(f.name for f in fields if f.repr),
    }
    if "__eq__" not in own:
        added["__eq__"] = _eq
    # dataclass's rule: a __hash__ the body sets is kept, unless it is the None that
    # Python puts there for a body that defines __eq__ alone
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        added["__hash__"] = _hash
    if "__repr__" not in own:
        added["__repr__"] = _repr
    added["__setattr__"] = _setattr
    added["__delattr__"] = _delattr
    for name, value in added.items():
        setattr(cls, name, value)
    return cls


def _getter(names: list[str]) -> Callable[[object], tuple[object, ...]]:
    if len(names) > 1:
        return operator.attrgetter(*names)  # a tuple of the values
    if names:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


# -> object: a bool or NotImplemented (which the checker takes for Any, except in a method
# named __eq__, and would not let a function declared to return bool return)
def _eq(self: _Frozen, other: object) -> object:
    if other.__class__ is self.__class__:
        # other's class is self's: self._compared is other._compared (a staticmethod)
        return self._compared(self) == self._compared(other)
    return NotImplemented


def _hash(self: _Frozen) -> int:
    return hash(self._hashed(self))


@reprlib.recursive_repr()
def _repr(self: _Frozen) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
    return f"{self.__class__.__qualname__}({shown})"


def _setattr(self: _Frozen, name: str, value: object) -> None:
    state = self.__dict__
    if name in state or name not in self.__dataclass_fields__:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    state[name] = value  # a field's first value, from __init__


def _delattr(self: object, name: str) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(f"cannot delete field {name!r}")

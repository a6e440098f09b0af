"""Colour names: what a door's colour may be called (M0247). The map pictures and the web
player draw CSS colour names; Pillow's table of them is read only when a name is not one
of the few a quest usually writes, so `questc check` imports no Pillow for a red door."""

from __future__ import annotations

import functools

COMMON = frozenset({"red", "yellow", "blue", "green", "white", "black", "grey", "gray", "orange", "purple", "brown"})


@functools.cache
def colour_names() -> frozenset[str]:
    """Every CSS colour name (Pillow's ImageColor table, which is CSS's list)."""
    from PIL import ImageColor

    return frozenset(ImageColor.colormap) | COMMON


def is_colour_name(name: str) -> bool:
    """Whether `name` (any case) is a colour name."""
    low = name.lower()
    return low in COMMON or low in colour_names()

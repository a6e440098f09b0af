"""Where the shipped schemas and content packs live.

In a source checkout (and an editable install) they are the top-level `schemas/` and
`content/` folders beside `compiler/`. In a wheel, setup.py copies them into the
package as `compiler/_shipped/`.
"""

from __future__ import annotations

import functools
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _locate(folder: str) -> Path:
    shipped = Path(__file__).resolve().parent / "_shipped" / folder
    return shipped if shipped.is_dir() else _ROOT / folder


@functools.cache
def schemas_dir() -> Path:
    return _locate("schemas")


@functools.cache
def content_dir() -> Path:
    return _locate("content")


def player_dir() -> Path:
    """The web player's static files (HTML, JavaScript modules, CSS): package data of
    `compiler/player/`, installed with the package (pyproject's package-data)."""
    return Path(__file__).resolve().parent / "player"

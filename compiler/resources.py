"""Where the shipped schemas and content packs live.

In a source checkout (and an editable install) they are the top-level `schemas/` and
`content/` folders beside `compiler/`. In a wheel, setup.py copies them into the
package as `compiler/_shipped/`.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from PIL.ImageFont import FreeTypeFont

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


# ---------------------------------------------------------------- trusted package data
# What the compiler and its plugins ship (schemas, the grammar, the diagnostic catalogue,
# fonts, the player's files, the content catalogs a plugin reads, a plugin's own tables)
# is part of the installed program, as trusted as its code: it is read here, in plain
# reads, and only here. Anything a user names is read by compiler/reader.py instead
# (tests/test_readers.py holds the two apart).


def packaged_text(path: Path | Traversable) -> str:
    """The text of a file shipped with questc or a plugin (a Path, or an importlib
    Traversable such as `importlib.resources.files(pkg) / name`)."""
    return path.read_text(encoding="utf-8")


def packaged_bytes(path: Path | Traversable) -> bytes:
    """The bytes of a file shipped with questc or a plugin."""
    return path.read_bytes()


def packaged_font(path: Path, size: int) -> FreeTypeFont:
    """A TrueType font shipped with questc, at `size` pixels (Pillow opens the file)."""
    from PIL import ImageFont

    return ImageFont.truetype(str(path), size)

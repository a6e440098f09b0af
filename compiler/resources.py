"""Where the shipped schemas and content packs live.

In a source checkout (and an editable install) they are the top-level `schemas/` and
`content/` folders beside `compiler/`. In a wheel they are installed as the data
packages `questc_schemas` and `questc_content` (see setup.py's package_dir mapping).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _locate(folder: str, package: str) -> Path:
    local = _ROOT / folder
    if local.is_dir():
        return local
    spec = importlib.util.find_spec(package)
    if spec and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return local  # absent: callers report a missing schema as an internal error


@functools.cache
def schemas_dir() -> Path:
    return _locate("schemas", "questc_schemas")


@functools.cache
def content_dir() -> Path:
    return _locate("content", "questc_content")

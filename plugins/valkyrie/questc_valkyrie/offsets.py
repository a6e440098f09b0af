"""Orientation offsets of Valkyrie tile side images, kept as data with their evidence.

Valkyrie places a tile by its image; the importer turns a placed side by its offset
(quarter turns clockwise, in place) so its openings meet the neighbours' openings.
`offsets.yaml` holds, per side name, the offset and the evidence it rests on: the quests
and sections in which every joint of that side has openings on both sides. A side with
no entry has no evidence yet and is read with offset 0; when a real quest shows it
needs one, the importer says so (VK0305) and the entry is added with that quest as its
evidence (docs/valkyrie.md).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any


@lru_cache(maxsize=1)
def load_table() -> dict[str, dict[str, Any]]:
    """Side name -> its entry in offsets.yaml (`offset`, `evidence`), as the YAML has it."""
    from compiler.plugins.api import load_plain, packaged_text

    text = packaged_text(resources.files("questc_valkyrie") / "offsets.yaml")
    return (load_plain(text) or {}).get("sides") or {}


def load_offsets() -> dict[str, int]:
    """Side name -> clockwise degrees the image is turned from the catalog grid."""
    return {side: int(entry.get("offset", 0)) for side, entry in load_table().items()}

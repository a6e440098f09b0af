"""The names the Valkyrie app itself knows: tile sides, token types, monsters.

`app_lists.yaml` is generated from the app's content lists (the `[Section]` names of its
D2E base-game `.ini` files; names only, no content) by

    python -m questc_valkyrie.app_lists DIR_OF_THE_APP_LISTS > app_lists.yaml

and `beyond_base` keeps, by hand and with evidence, names the app plays that its base
lists lack (a side a published quest of the app's own repository places). `check` uses
them to tell what the app rejects (a side unknown to it: it quits when drawing the tile)
from what only questc lacks (a side with no shape in questc's catalog: M0401, a warning).
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

# which list each of the app's files gives, by the start of its file name and its sections
LISTS = (("tile_sides", "TileSide"), ("token_types", "Token"), ("monsters", "Monster"))
_HEADER = re.compile(r"^\[([^\]]+)\]\s*$")


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """The committed lists: tile_sides, token_types, monsters, beyond_base."""
    from compiler.plugins.api import load_plain, packaged_text

    return load_plain(packaged_text(resources.files("questc_valkyrie") / "app_lists.yaml")) or {}


def known(kind: str) -> frozenset[str]:
    """The app's names of one kind (`tile_sides`, `token_types`, `monsters`), with those
    beyond its base lists."""
    data = load()
    return frozenset(data.get(kind) or ()) | frozenset((data.get("beyond_base") or {}).get(kind) or {})


def read_lists(folder: Path) -> dict[str, list[str]]:
    """The section names of the app's `.ini` lists in `folder`, sorted, by kind."""
    from compiler.plugins.api import Refused, read_text

    out: dict[str, set[str]] = {kind: set() for kind, _ in LISTS}
    for path in sorted(folder.glob("*.ini")):
        text = read_text(path, max_bytes=16 * 1024 * 1024)  # the app's lists are under 1 MB each
        if isinstance(text, Refused):
            raise SystemExit(f"cannot read {path}: {text.problem}")
        for line in text.lstrip("\ufeff").splitlines():
            m = _HEADER.match(line.strip())
            if m is None:
                continue
            name = m.group(1)
            for kind, prefix in LISTS:
                if name.startswith(prefix):
                    out[kind].add(name)
                    break
    return {kind: sorted(names) for kind, names in out.items()}


def generate(folder: Path, beyond_base: str) -> str:
    """The text of app_lists.yaml from the app's lists in `folder`; `beyond_base` is the
    hand-kept block, kept as it is."""
    lists = read_lists(folder)
    lines = [
        "# The Valkyrie app's own names (NPBruce/valkyrie 752d4206, Apache-2.0; names only), generated",
        "# by `python -m questc_valkyrie.app_lists DIR` from its D2E base-game lists",
        "# (d2e-base-tiles.ini, d2e-base-tokens.ini, d2e-base-monsters.ini). Do not edit the lists",
        "# by hand: tests/test_valkyrie_fidelity.py regenerates them when the app's files are present.",
    ]
    for kind, _ in LISTS:
        lines.append(f"{kind}:")
        lines += [f"  - {name}" for name in lists[kind]]
    return "\n".join(lines) + "\n" + beyond_base


def beyond_base_block(text: str) -> str:
    """The hand-kept `beyond_base:` block of an app_lists.yaml text (to the end)."""
    i = text.find("\n# beyond_base")
    return text[i + 1:] if i >= 0 else ""


if __name__ == "__main__":  # pragma: no cover - the maintainer's regeneration
    from compiler.plugins.api import packaged_text

    current = packaged_text(resources.files("questc_valkyrie") / "app_lists.yaml")
    sys.stdout.write(generate(Path(sys.argv[1]), beyond_base_block(current)))

"""The README's layout table and docs/architecture.md name only paths that exist.

Both are maps of the code for a new reader; a module renamed or deleted must take its
name out of them. Every `backticked` name there that looks like a path of the repository
(a `.py` file, or a folder written with its trailing `/`) must exist: relative to the
repository, to `compiler/`, or, for a bare file name, somewhere in the code (the docs
name `legend.py` inside a sentence about `emit/images/`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Names of outputs and of what the build makes, not of sources.
NOT_SOURCES = {"build/", ".venv/bin/", "compiler/_shipped/", "maps/"}


def _named(text: str) -> set[str]:
    names = set()
    for token in re.findall(r"`([^`\s]+)`", text):
        if any(c in token for c in "<>*{}$") or token.startswith(("DIR", "-")) or token in NOT_SOURCES:
            continue
        if token.endswith(".py") or (token.endswith("/") and re.fullmatch(r"[\w./-]+/", token)):
            names.add(token)
    return names


def _exists(name: str) -> bool:
    for base in (ROOT, ROOT / "compiler"):
        if (base / name).exists():
            return True
    bare = name.rstrip("/")
    return "/" not in bare and any(any((ROOT / top).rglob(bare)) for top in ("compiler", "plugins", "tools", "bench"))


def _layout_table(readme: str) -> str:
    return readme.split("## Layout", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("doc", ["README.md", "docs/architecture.md"])
def test_every_path_the_map_of_the_code_names_exists(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    if doc == "README.md":
        text = _layout_table(text)
    names = _named(text)
    assert len(names) >= 8, names  # the scan sees the table's names
    missing = sorted(n for n in names if not _exists(n))
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def test_the_scan_finds_a_name_that_is_gone():
    assert _named("see `compiler/resolve.py` and `emit/` and `DIR/<pack>/`") == {"compiler/resolve.py", "emit/"}
    assert not _exists("compiler/resolve.py") and _exists("emit/") and _exists("legend.py")

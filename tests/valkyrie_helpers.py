"""Helpers of the Valkyrie export tests (test_valkyrie_doors.py, test_valkyrie_app_loader.py)."""

from __future__ import annotations

from pathlib import Path

from compiler.diagnostics import Sink
from conftest import questc


def imported(src: Path, out: Path) -> Path:
    """`questc import valkyrie SRC -o OUT` (a Valkyrie folder or package), the pack folder."""
    r = questc("--plugin", "valkyrie", "import", "valkyrie", src, "-o", out)
    assert r.code == 0, r.err
    return out


def exported(pack: Path, out: Path, quest: str | None = None) -> Path:
    """The export of a pack's quest as the command writes it, its scenario folder."""
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, *(["--quest", quest] if quest else []), "-o", out)
    assert r.code == 0, r.err
    return next(out.glob("*/quest.ini")).parent


def exported_anyway(pack: Path, out: Path) -> Path:
    """The exporter run on the pack's model even when the pack does not compile (an imported
    published quest: A Fat Goblin's lieutenant has no catalog entry, so the command refuses
    it), as test_valkyrie_export.py's round trip does; its scenario folder."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths
    from compiler.syntax import ast
    from questc_valkyrie.exporter import Exporter

    model = compile_paths([str(pack)], Options(), Sink()).models[0]
    (quest,) = model.declarations(ast.Quest)
    files = Exporter(model, quest, Sink()).run()
    assert files is not None
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return next(out.glob("*/quest.ini")).parent

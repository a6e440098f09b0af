"""Helpers of the Valkyrie tests (test_valkyrie_doors.py, test_valkyrie_app_loader.py, the trial modules)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

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
    quests = model.declarations(ast.Quest)
    if len(quests) == 1:
        files = Exporter(model, quests[0], Sink()).run()
    else:  # a package of several quests (test_valkyrie_packages.py): the package's own quest, the others in its folders
        import argparse

        from questc_valkyrie.exporter import export

        (root,) = [q for q in quests if q.id.replace("_", "-") == model.pack.id]  # the importer names the pack after it
        files = export(model, argparse.Namespace(quest=root.id), Sink())
    assert files is not None
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return next(out.glob("*/quest.ini")).parent



class Trial(NamedTuple):
    pack: Path  # the imported pack
    said: str  # `questc --plugin valkyrie check` of the Valkyrie folder, its output
    out: Path  # the folder the export was written into
    imported: str  # the import's output
    checked: str  # `questc check` of the pack, its output
    exported: str  # the export's output


def trial(source: Path, tmp: Path) -> Trial:
    """A hand-written Valkyrie package through the commands a user runs (the trial modules:
    test_valkyrie_store_style.py and the others): `import` into TMP/pack, `check` of the
    folder and of the pack, both with no error, and `export` into TMP/out."""
    pack = tmp / "pack"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", source, "-o", pack)
    assert r.code == 0, r.err
    checked = questc("--plugin", "valkyrie", "check", source)
    said = checked.err + checked.out
    assert checked.code == 0 and "error[" not in said, said
    again = questc("check", pack)
    assert again.code == 0 and "error[" not in again.err + again.out, again.err + again.out
    out = tmp / "out"
    x = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert x.code == 0, x.err
    return Trial(pack, said, out, r.err + r.out, again.err + again.out, x.err)

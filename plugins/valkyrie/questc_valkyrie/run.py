"""The Valkyrie converters as the commands use them: import to a pack folder, and check a
Valkyrie quest (folder or package) by importing it in memory and compiling the result,
with every diagnostic moved back to the Valkyrie file and line it comes from."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.plugins.api import Related, Sink, Span
from questc_valkyrie.importer import Generated, Importer
from questc_valkyrie.source import QuestFiles, load_quest

if TYPE_CHECKING:
    from compiler.plugins.api import Diagnostic, Options, Tile


def is_valkyrie(path: str | Path) -> bool:
    """A `.valkyrie` package, a quest.ini, or a folder holding a quest.ini (and no pack.yaml)."""
    p = Path(path)
    if p.suffix == ".valkyrie" or p.name == "quest.ini":
        return True
    return p.is_dir() and (p / "quest.ini").is_file() and not (p / "pack.yaml").exists()


def library(sink: Sink) -> tuple[dict[str, Tile] | None, set[str], dict[str, int]]:
    """The d2e-base tiles, the monster ids (groups and lieutenants) and the orientation offsets the importer uses."""
    from compiler.plugins.api import content_dir, load_plain, packaged_text
    from questc_valkyrie.offsets import load_offsets
    from questc_valkyrie.tiles import load_library

    tiles = load_library(None, sink)
    monsters: set[str] = set()
    for catalog in ("monsters.yaml", "lieutenants.yaml"):  # a lieutenant (Splig) is a monster a spawn may place
        monsters |= set((load_plain(packaged_text(content_dir() / "d2e-base" / catalog)) or {}).get("monsters") or {})
    return tiles, monsters, load_offsets()


def import_quest(path: str | Path, sink: Sink, quest_id: str | None = None) -> tuple[QuestFiles, Generated] | None:
    files = load_quest(path, sink)
    if files is None:
        return None
    tiles, monsters, offsets = library(sink)
    if tiles is None:
        return None
    gen = Importer(files, tiles, monsters, sink, offsets, quest_id).run()
    return None if gen is None else (files, gen)


def write_pack(gen: Generated, out: str | Path, sink: Sink) -> bool:
    """The pack's files into `out` (created if missing), each written whole then renamed in."""
    from compiler.plugins.api import linked_folder, write_atomic

    root = Path(out)
    try:
        root.mkdir(parents=True, exist_ok=True)
        for rel, text in sorted(gen.files.items()):
            target = root / rel
            linked = linked_folder(root, target)
            if linked is not None:  # a link inside the output folder is never written through
                raise OSError(f"{linked} is a symbolic link inside the output folder; questc does not write through it")
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, text)  # 0666 less the umask (it was 0600); a link at the name is replaced
    except OSError as exc:
        sink.report("I0003", Span.whole_file(str(root)), path=str(root), problem=exc.strerror or str(exc))
        return False
    return True


def check_quest(path: str | Path, options: Options, sink: Sink) -> list[Diagnostic]:
    """Every questc check on a Valkyrie quest: the importer's own findings go to `sink`;
    the compiler's are returned, each moved to the Valkyrie file and line it comes from."""
    from compiler.plugins.api import compile_paths

    done = import_quest(path, sink)
    if done is None:
        return []
    files, gen = done
    with tempfile.TemporaryDirectory(prefix="questc-valkyrie-") as tmp:
        pack = Path(tmp) / gen.quest_id
        if not write_pack(gen, pack, sink):
            return []
        inner = Sink()
        compile_paths([str(pack)], options, inner)
        quest_file = str(pack / gen.quest_file)
        quest_section = files.quest.section("Quest")  # load_quest reads no quest.ini without one
        fallback = quest_section.span if quest_section is not None else Span.whole_file(files.shown("quest.ini"))
        moved = []
        for d in inner.items:
            span = _moved(d.span, pack, quest_file, gen, fallback)
            related = tuple(Related(_moved(r.span, pack, quest_file, gen, fallback), r.message) for r in d.related)
            moved.append(replace(d, span=span, related=related))
        return moved


def _moved(span: Span, pack: Path, quest_file: str, gen: Generated, fallback: Span) -> Span:
    real = os.path.realpath(span.file)
    if real == os.path.realpath(quest_file):
        return gen.origins.get(span.line, fallback)
    if real.startswith(os.path.realpath(pack) + os.sep):
        return fallback
    return span

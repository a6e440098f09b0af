"""The Valkyrie converters as the commands use them: import to a pack folder, and check a
Valkyrie quest (folder or package) by importing it in memory and compiling the result,
with every diagnostic moved back to the Valkyrie file and line it comes from."""

from __future__ import annotations

import os
import posixpath
import re
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.plugins.api import Related, Sink, Span
from questc_valkyrie.importer import Generated, Importer, plain_vars_of, quest_id_of
from questc_valkyrie.source import QuestFiles, linked_quest, load_quest
from questc_valkyrie.translations import ReadKeys, check_languages

MAX_QUESTS = 64  # quests of one package imported (each a whole import)

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


def import_quest(path: str | Path, sink: Sink, quest_id: str | None = None,
                 packs: frozenset[str] = frozenset()) -> tuple[QuestFiles, Generated] | None:
    """`_import`, never raising: an exception inside the reader or the importer is a bug of
    questc's, reported as VK0399 at the section being read when it raised (`report_failure`),
    and nothing is imported."""
    try:
        return _import(path, sink, quest_id, packs)
    except Exception as exc:  # noqa: BLE001 - an importer bug is a located diagnostic, never a crash (make fuzz finds them)
        report_failure(exc, path, sink)
        return None


def report_failure(exc: BaseException, path: str | Path, sink: Sink) -> None:
    """VK0399 for an exception inside the importer: at the innermost section (or line) a frame
    of the traceback was working on, else at the quest itself; with the exception and the
    importer's line that raised, so the report of the bug says where."""
    import traceback

    from questc_valkyrie.ini import Section, Value

    span, section = Span.whole_file(str(path)), ""
    tb = exc.__traceback__
    while tb is not None:  # outermost first: the innermost frame holding a section wins
        for value in tb.tb_frame.f_locals.values():
            if isinstance(value, Section):
                span, section = value.span, f" [{value.name}]"
            elif isinstance(value, Value):
                span = value.span
        tb = tb.tb_next
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    problem = (f"{type(exc).__name__}: {exc}".splitlines() or [type(exc).__name__])[0][:300]
    sink.report("VK0399", span, section=section, problem=problem + where)


def _import(path: str | Path, sink: Sink, quest_id: str | None = None,
            packs: frozenset[str] = frozenset()) -> tuple[QuestFiles, Generated] | None:
    """The quest at `path` as a questc pack: with the other quests of its package its events
    start (`q2/quest.ini`: docs/valkyrie.md, "Packages of several quests"), each a quest of
    the pack, linked by `next quest`. None when any of them has errors."""
    files = load_quest(path, sink)
    if files is None:
        return None
    tiles, monsters, offsets = library(sink)
    if tiles is None:
        return None
    done: list[tuple[QuestFiles, Generated]] = []
    read: dict[int, ReadKeys] = {}  # id(Generated) -> the localisation keys its importer read
    failed = False
    quests = linked_quests(files, quest_id_of(files.name) if quest_id is None else quest_id, sink)
    # `%X` is named once for the whole package: `campaign_X` in every quest when any of them
    # has a plain `X` (the app's `%X` is one variable across ChangeQuest; Q0806 otherwise)
    plain = frozenset().union(*(plain_vars_of(q) for q, _, _ in quests))
    for q, qid, links in quests:
        # a quest that places no tile (a hub or menu) is a quest with no map (VK0207)
        kept: dict[str, tuple[str | None, Span]] = dict(links)
        imp = Importer(q, tiles, monsters, sink, offsets, qid, kept, packs, plain)
        imp.text = keys = ReadKeys(imp.text)  # which keys' texts it takes (translations.py)
        gen = imp.run()
        if gen is None:
            failed = True
        else:
            done.append((q, gen))
            read[id(gen)] = keys
    if failed or not done:
        return None
    first = done[0][1]
    # the pack is the package: named after its own quest, also when that quest is a menu left out
    own = first if done[0][0] is files else Importer(files, tiles, monsters, Sink(), offsets, quests[0][1])
    merged = {"pack.yaml": own.files["pack.yaml"] if isinstance(own, Generated) else own.pack_yaml()}
    parts: dict[str, tuple[dict[int, Span], Span]] = {}
    sources: dict[str, tuple[QuestFiles, frozenset[str]]] = {}
    for q, g in done:
        merged[g.quest_file] = g.files[g.quest_file]
        sources[g.quest_file] = (q, frozenset(read[id(g)].read))
        section = q.quest.section("Quest")  # load_quest reads no quest.ini without one
        parts[g.quest_file] = (g.origins, section.span if section is not None else Span.whole_file(q.shown("quest.ini")))
    return files, replace(first, files=merged, parts=parts, sources=sources)


def linked_quests(root: QuestFiles, root_id: str, sink: Sink) -> list[tuple[QuestFiles, str, dict[str, tuple[str, Span]]]]:
    """`root` and every quest of its package that an event of one of them starts, in the
    order first named (breadth first): each with its quest id and its links (event name ->
    the quest id it starts, and where it is first named)."""
    found: dict[str, QuestFiles] = {root.folder: root}
    ids: dict[str, str] = {root.folder: root_id}
    order = [root.folder]
    links_of: dict[str, dict[str, tuple[str, Span]]] = {}
    warned = False
    k = 0
    while k < len(order):
        q = found[order[k]]
        k += 1
        links: dict[str, tuple[str, Span]] = {}
        for ini in q.data:
            for sec in ini.sections:
                for key, v in sec.values.items():
                    if not re.fullmatch(r"event\d+", key):
                        continue
                    for name in v.text.split():
                        if name in links:
                            continue
                        folder = q.link(name)
                        if folder is None:
                            continue
                        if folder not in found:
                            if len(found) >= MAX_QUESTS:
                                if not warned:
                                    warned = True
                                    sink.report("VK0206", v.span, name=name, limit=MAX_QUESTS)
                                continue
                            sub = linked_quest(q, folder, sink)
                            if sub is None:
                                continue  # its problems are reported; the event stays unknown (VK0301)
                            found[folder] = sub
                            ids[folder] = _new_id(posixpath.basename(folder), root_id, set(ids.values()))
                            order.append(folder)
                        links[name] = (ids[folder], v.value_span)
        links_of[q.folder] = links
    return [(found[f], ids[f], links_of[f]) for f in order]


def _new_id(folder: str, root_id: str, taken: set[str]) -> str:
    base = quest_id_of(folder)
    if base in taken:
        base = f"{root_id}_{base}"
    ident, n = base, 2
    while ident in taken:
        ident, n = f"{base}_{n}", n + 1
    return ident


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

    packs = next((v for d, v in options.plugin_options if d == "packs"), frozenset())
    done = import_quest(path, sink, packs=packs if isinstance(packs, frozenset) else frozenset())
    if done is None:
        return []
    files, gen = done
    check_languages(gen, sink)  # a language the import leaves out (VK0303)
    with tempfile.TemporaryDirectory(prefix="questc-valkyrie-") as tmp:
        pack = Path(tmp) / gen.quest_id
        if not write_pack(gen, pack, sink):
            return []
        inner = Sink()
        compile_paths([str(pack)], options, inner)
        quest_section = files.quest.section("Quest")  # load_quest reads no quest.ini without one
        fallback = quest_section.span if quest_section is not None else Span.whole_file(files.shown("quest.ini"))
        # each quest file of the pack (several for a package of several quests) -> its lines' Valkyrie places
        parts = {os.path.realpath(pack / rel): part for rel, part in (gen.parts or {gen.quest_file: (gen.origins, fallback)}).items()}
        moved = []
        for d in inner.items:
            span = _moved(d.span, pack, parts, fallback)
            related = tuple(Related(_moved(r.span, pack, parts, fallback), r.message) for r in d.related)
            moved.append(replace(d, span=span, related=related))
        return moved


def _moved(span: Span, pack: Path, parts: dict[str, tuple[dict[int, Span], Span]], fallback: Span) -> Span:
    real = os.path.realpath(span.file)
    if real in parts:
        origins, own = parts[real]
        return origins.get(span.line, own)
    if real.startswith(os.path.realpath(pack) + os.sep):
        return fallback
    return span

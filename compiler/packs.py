"""Pack discovery, pack.yaml, and dependency resolution by id.

Resolution order for a required id: the packs given on the command line, then the
search path (`--pack-path` folders, then QUESTC_PATH entries, then the packs shipped
with questc). A given pack wins over the same id on the search path; the same id
twice among the given packs is an error. Cycles are located diagnostics. A PATH that
does not exist but is a pack id names the pack of that id on the search path.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.catalogs.document import Document
from compiler.catalogs.schema import validate_node
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Related, Sink, Span
from compiler.diagnostics.hints import did_you_mean
from compiler.diskcache import kept
from compiler import frozen
from compiler.resources import content_dir
from compiler.memo import remembered
from compiler.sources import display_name, read_source

if TYPE_CHECKING:
    from collections.abc import Callable


@frozen
class Pack:
    id: str
    name: str
    version: str
    licence: str
    ruleset: str
    requires: tuple[str, ...]
    root: Path
    doc: Document = field(compare=False, repr=False)
    licence_notes: str = ""
    plugins: tuple[str, ...] = ()  # plugins the pack asks for (never loaded by the pack: E0105)
    origin: str = ""  # the program that plays the pack's quests ("valkyrie"); compiler/diagnostics/origins.py

    @property
    def span(self) -> Span:
        return self.doc.span(("id",))

    def requires_span(self, dep: str) -> Span:
        deps = list(self.requires)
        return self.doc.span(("requires", deps.index(dep))) if dep in deps else self.doc.span(("requires",))


def read_pack(folder: Path, sink: Sink, *, max_bytes: int) -> Pack | None:
    """Read and validate `folder/pack.yaml`."""
    manifest = folder / "pack.yaml"
    if not _has_manifest(folder):
        sink.report("P0101", Span.whole_file(display_name(folder)), path=display_name(folder))
        return None
    src = read_source(folder, manifest, sink, max_bytes=max_bytes)
    if src is None:
        return None
    # a pure function of the text: remembered, as every watch cycle reads every pack.yaml,
    # and kept between runs as the catalogs are (a check after an edit then needs neither
    # the YAML reader nor the schema validator: 40 to 70 ms of imports)
    doc = remembered("pack", src.name, src.text, _kept_manifest, sink)
    if doc is None:
        return None
    d = doc.data
    pack = Pack(
        id=d["id"],
        name=d["name"],
        version=d["version"],
        licence=d["licence"],
        ruleset=d["ruleset"],
        requires=tuple(d.get("requires", [])),
        root=folder.resolve(),
        doc=doc,
        licence_notes=d.get("licence_notes", ""),
        plugins=tuple(d.get("plugins", [])),
        origin=d.get("origin", ""),
    )
    if pack.id in pack.requires:
        sink.report("P0110", pack.requires_span(pack.id), id=pack.id)
        return None
    return pack


def _kept_manifest(text: str, name: str, sink: Sink) -> Document | None:
    return kept("pack", (name, text), lambda local: _valid_manifest(text, name, local), sink, (Document, type(None)))


def _valid_manifest(text: str, name: str, sink: Sink) -> Document | None:
    doc = load_yaml(text, name, sink)
    return doc if doc is not None and validate_node("pack.schema.json", doc, (), sink) else None


def _has_manifest(folder: Path) -> bool:
    """Whether `folder` holds something named pack.yaml. Not whether it is a regular file:
    a FIFO or a device there is a pack whose manifest `read_source` refuses (P0113), not
    a folder without one."""
    return os.path.lexists(folder / "pack.yaml")


def _exists(path: Path) -> bool:
    """Path.exists, False for a name the system refuses (too long: ENAMETOOLONG raises)."""
    try:
        return path.exists()
    except OSError:
        return False


def _folders_of_packs(path: Path, sink: Sink | None = None) -> list[Path]:
    """A pack folder itself, or the sorted sub-folders of a folder of packs. A folder that
    cannot be listed is reported when a `sink` is given (P0109)."""
    if _has_manifest(path):
        return [path]
    try:
        folder = path.is_dir()  # raises for a name too long (`pack-path` of 5,000 characters: I0001; make fuzz)
    except OSError as exc:
        if sink is not None:
            name = display_name(path)
            sink.report("P0109", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
        return []
    if folder:
        try:
            subs = sorted(path.iterdir())
        except OSError as exc:
            if sink is not None:
                name = display_name(path)
                sink.report("P0109", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
            return []
        return [p for p in subs if p.is_dir() and _has_manifest(p)]
    return []


def search_path(extra: tuple[str, ...]) -> list[Path]:
    env = [p for p in os.environ.get("QUESTC_PATH", "").split(os.pathsep) if p]
    return [Path(p) for p in (*extra, *env)] + [content_dir()]


@dataclass
class Resolution:
    targets: list[Pack]  # the packs given, in command-line order
    order: dict[str, list[Pack]]  # target id -> its dependency closure in dependency order, itself last


def discover(paths: list[str], pack_path: tuple[str, ...], sink: Sink, *, max_bytes: int) -> Resolution:
    given: dict[str, Pack] = {}
    targets: list[Pack] = []
    for raw in paths:
        path = Path(raw)
        if not _exists(path):
            found = _shipped_or_searched(raw, pack_path, max_bytes) if _PACK_ID.fullmatch(raw) else None
            if found is None:
                sink.report("P0111", Span.whole_file(raw), path=raw)
                continue
            path = found
        errors = sink.errors
        folders = _folders_of_packs(path, sink)
        if not folders and sink.errors == errors:  # (not when it could not be listed: P0109 says so)
            sink.report("P0101", Span.whole_file(display_name(path)), path=display_name(path))
            continue
        for folder in folders:
            pack = read_pack(folder, sink, max_bytes=max_bytes)
            if pack is None:
                continue
            if pack.id in given:
                first = given[pack.id]
                sink.report(
                    "P0102",
                    pack.span,
                    id=pack.id,
                    first=display_name(first.root),
                    second=display_name(pack.root),
                    related=(Related(first.span, "first given here"),),
                )
                continue
            given[pack.id] = pack
            targets.append(pack)

    available: dict[str, Pack] = dict(given)
    lazily_seen: dict[str, Path] = {}
    listed: dict[Path, list[Path]] = {}  # each folder of the search path listed once,
    declared: dict[Path, frozenset[str]] = {}  # and each manifest's `id:` lines read once

    def lookup(pack_id: str) -> Pack | None:
        if pack_id in available:
            return available[pack_id]
        for base in search_path(pack_path):
            if base not in listed:
                listed[base] = _folders_of_packs(base)
            for folder in listed[base]:
                if folder.name != pack_id:
                    if folder not in declared:
                        declared[folder] = _declared_ids(folder, max_bytes)
                    if pack_id not in declared[folder]:
                        continue
                pack = read_pack(folder, sink, max_bytes=max_bytes)
                if pack is not None and pack.id == pack_id:
                    available[pack_id] = pack
                    lazily_seen[pack_id] = folder
                    return pack
        return None

    order: dict[str, list[Pack]] = {}
    for target in targets:
        closure: list[Pack] = []
        state: dict[str, str] = {}
        ok = _visit(target, state, closure, lookup, sink)
        if ok:
            order[target.id] = closure
    return Resolution(targets, order)


# A pack id as pack.schema.json allows it: a PATH that is one and is not a folder here is
# looked up by id on the search path (`questc build d2e-quests` from anywhere).
_PACK_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _shipped_or_searched(pack_id: str, pack_path: tuple[str, ...], max_bytes: int) -> Path | None:
    """The folder of the pack `pack_id` on the search path (the same order as for a
    required id: --pack-path, QUESTC_PATH, the shipped packs), or None."""
    for base in search_path(pack_path):
        for folder in _folders_of_packs(base):
            if folder.name == pack_id or _declares(folder, pack_id, max_bytes):
                return folder
    return None


def _declares(folder: Path, pack_id: str, max_bytes: int) -> bool:
    """Cheap check whether folder/pack.yaml declares `pack_id` (folders may be named
    differently). Read as every pack file is; a manifest that cannot be read declares
    nothing here (reading the folder's pack for real reports why)."""
    return pack_id in _declared_ids(folder, max_bytes)


def _declared_ids(folder: Path, max_bytes: int) -> frozenset[str]:
    """The ids the `id:` lines at the head of folder/pack.yaml name (`_declares`)."""
    src = read_source(folder, folder / "pack.yaml", Sink(), max_bytes=max_bytes)
    if src is None:
        return frozenset()
    head = src.text[:4096]
    return frozenset(line.split(":", 1)[1].strip().strip("'\"") for line in head.split("\n") if line.startswith("id:"))


def _visit(root: Pack, state: dict[str, str], closure: list[Pack], lookup: Callable[[str], Pack | None], sink: Sink) -> bool:
    """Append `root`'s dependency closure to `closure`, each pack after the packs it
    requires; False when a required pack is missing or a cycle was reported. A loop over
    the path of packs being visited, not a recursion: a chain of `requires` is as deep as
    it is long, and a folder of a few thousand packs each requiring the next is a
    RecursionError otherwise."""
    ok = True
    state[root.id] = "visiting"
    path = [root]  # the packs being visited, each requiring the next
    todo = [iter(root.requires)]  # the requirements of each, still to visit
    while todo:
        pack = path[-1]
        dep = next(todo[-1], None)
        if dep is None:
            todo.pop()
            path.pop()
            state[pack.id] = "done"
            closure.append(pack)
            continue
        if state.get(dep) == "done":
            continue
        if state.get(dep) == "visiting":
            ids = [p.id for p in path]
            cycle = ids[ids.index(dep):] + [dep]
            sink.report("P0104", pack.requires_span(dep), cycle=" -> ".join(cycle))
            ok = False
            continue
        found = lookup(dep)
        if found is None:
            known = sorted({f.name for base in search_path(()) for f in _folders_of_packs(base)})
            guess = did_you_mean(dep, known)
            sink.report(
                "P0103",
                pack.requires_span(dep),
                id=pack.id,
                dep=dep,
                hint=f"; did you mean `{guess}`?" if guess else "",
                fix=guess,
            )
            ok = False
            continue
        state[found.id] = "visiting"
        path.append(found)
        todo.append(iter(found.requires))
    return ok

"""files ──load──▶ sources ──parse──▶ AST ──resolve──▶ model ──passes──▶ checked model ──emit──▶ outputs.

`compile_paths` runs every stage up to the checked model for each pack given (the
target pack's `translations/*.po` are read and parsed in its load stage, compiler/catalogs/translations.py); `build`
(in compiler/emit/build.py) writes the outputs. Diagnostics go to one Sink; a stage
that finds errors still returns what it could build, and later stages skip what
depends on broken parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from compiler.console import stage
from compiler.catalogs.document import Document, Entry
from compiler.catalogs.schema import catalog_kinds, catalog_schema_name, validate_node
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Related, Sink
from compiler.diagnostics.model import drop_superseded
from compiler.diagnostics.origins import played_elsewhere
from compiler.diagnostics import suppress
from compiler.diagnostics.render import accept_mark, accepted_since
from compiler.diagnostics.hints import did_you_mean
from compiler import verdicts
from compiler.diskcache import kept
from compiler.memo import Same, remembered, remembered_as
from compiler.model import Model
from compiler.options import Options
from compiler.packs import Pack, discover
from compiler.passes import run_passes
from compiler.sources import pack_files
from compiler.catalogs.translations import load_translations

if TYPE_CHECKING:
    from compiler.diagnostics import Diagnostic
    from compiler.syntax import ast

    # one pack read: its catalog documents, its quest modules, the text of each document by file name
    Loaded = tuple[list[Document], list[ast.Module], dict[str, str]]

# Catalog kinds whose value is one object rather than a mapping id -> entry.
SINGLE_OBJECT_KINDS = frozenset({"world"})


@dataclass
class Result:
    sink: Sink
    models: list[Model] = field(default_factory=list)  # one per pack given (not those answered by a kept verdict)
    roots: dict[str, str] = field(default_factory=dict)  # root folder -> id of every pack read (the configuration's per-pack lists)
    plugins: bool = False  # a plugin ran or a pack asked for one

    @property
    def model(self) -> Model | None:
        """The model of the first pack given (commands that take one PACK use this)."""
        return self.models[0] if self.models else None


def compile_paths(paths: list[str], options: Options, sink: Sink | None = None, *, keep_verdicts: bool = False) -> Result:
    """`keep_verdicts`: a pack whose folders and required packs' folders are unchanged since a
    run that kept its verdict gives that verdict's diagnostics and no model
    (compiler/verdicts.py; `questc check` only)."""
    sink = sink or Sink()
    read_from = accept_mark()  # the sources this compile reads: accepted from here on
    with stage("packs"):
        resolution = discover(list(paths), options.pack_path, sink, max_bytes=options.max_file_bytes)
    loaded: dict[str, Loaded] = {}
    load_items: dict[str, tuple[Diagnostic, ...]] = {}  # pack id -> what loading it reported (once per run in the sink)
    result = Result(sink)
    for target in resolution.targets:
        closure = resolution.order.get(target.id)
        if closure is None:
            continue
        result.roots.update((str(p.root), p.id) for p in closure)
        plugins = bool(options.plugins or any(p.plugins for p in closure))
        result.plugins |= plugins
        key = _verdict_key(closure, options) if keep_verdicts and not plugins else None
        if key is not None:
            with stage(f"kept verdict {target.id}"):
                kept = verdicts.replay(key, verdicts.one_pack)
            if kept is not None:
                # verdicts.one_pack checked its shape
                loads, items = cast("tuple[tuple[tuple[str, tuple[Diagnostic, ...]], ...], tuple[Diagnostic, ...]]", kept)
                for pack_id, reported in loads:
                    if pack_id not in load_items:
                        load_items[pack_id] = reported
                        sink.extend(reported)
                sink.extend(items)
                continue
        for pack in closure:
            if pack.id not in loaded:
                with stage(f"load {pack.id}"):
                    local = Sink()
                    loaded[pack.id] = _load_pack(pack, local, options)
                if pack.id not in load_items:
                    load_items[pack.id] = tuple(local.items)
                    sink.extend(local.items)
        mark = len(sink.items)
        with stage(f"catalogs {target.id}"):
            catalogs = _merge_catalogs(closure, loaded, sink)
        modules = tuple(loaded[target.id][1])
        with stage(f"translations {target.id}"):
            translation_files = load_translations(target.root, sink, max_bytes=options.max_file_bytes)
        model = Model(
            options=options, pack=target, packs=tuple(closure), catalogs=catalogs, modules=modules, translation_files=translation_files
        )
        if any(d.code in LOST_FILE for p in closure for d in load_items[p.id]):
            result.models.append(model)  # what a lost file declares is unknown: the passes would report every name it holds
            continue
        with stage(f"passes {target.id}"):
            model = run_passes(model, sink)
        if plugins:
            from compiler.plugins.loader import asked_for, run_plugin_passes

            with stage(f"plugins {target.id}"):
                asked_for(model, sink)
                model = run_plugin_passes(model, sink)
        result.models.append(model)
        if key is not None and _verdict_key(closure, options) == key:
            loads = tuple((p.id, load_items[p.id]) for p in closure)
            items = tuple(sink.items[mark:])
            allowing = suppress.anchors(suppress.sources_under(accepted_since(read_from), (str(p.root) for p in closure)))  # keeps their texts
            verdicts.keep(key, (loads, items), [d for _, reported in loads for d in reported] + list(items) + allowing)
    # a rulebook rule broken by a quest another program plays is a warning quoting the rule
    # (before the suppression comments, which may then silence it as any warning)
    played = {(p.root, p.origin) for closure in resolution.order.values() for p in closure if p.origin}
    if played:
        sink.replace_items(played_elsewhere(sink.items, sorted(played)))
    # `# questc: allow CODE` comments, over everything the packs compiled reported (kept verdicts too)
    suppress.apply(sink, accepted_since(read_from))
    sink.replace_items(drop_superseded(sink.items))  # one fault said by two passes at one place: the exact one
    return result


# A file whose declarations are all lost (refused by the reader, or not parsed at all): the
# pack is checked no further than its files, since every reference into the lost file would
# be one more message about the one mistake (docs/robustness.md, "One lost file, one message").
LOST_FILE = frozenset({"P0106", "P0107", "P0113", "S0105", "S0231"})


def _verdict_key(closure: list[Pack], options: Options) -> str | None:
    """What a pack's diagnostics depend on: its folder and those of the packs it requires."""
    folders = verdicts.trees([p.root for p in closure])
    return verdicts.key("pack", options, folders) if folders is not None else None


def _load_pack(pack: Pack, sink: Sink, options: Options) -> Loaded:
    """Read and parse every file of one pack: catalogs as Documents (with the text each
    was read from, by file name), quests as AST modules."""
    docs: list[Document] = []
    texts: dict[str, str] = {}
    modules: list[ast.Module | None] = []
    for src in pack_files(pack.root, sink, max_bytes=options.max_file_bytes):
        if src.path.suffix == ".yaml":
            doc = remembered("yaml", src.name, src.text, _load_yaml, sink)
            if doc is not None and doc.data is not None:
                docs.append(doc)
                texts[doc.file] = src.text
        elif options.quests:
            modules.append(remembered("quest", src.name, src.text, _parse, sink))
    return docs, [m for m in modules if m is not None], texts


def _parse(text: str, name: str, sink: Sink) -> ast.Module | None:
    from compiler.syntax import ast

    def parse(local: Sink) -> ast.Module | None:
        from compiler.syntax.parse import parse_module

        return parse_module(text, name, local)

    return kept("quest", (name, text), parse, sink, (ast.Module, type(None)))


def _load_yaml(text: str, name: str, sink: Sink) -> Document | None:
    return kept("yaml", (name, text), lambda local: load_yaml(text, name, local), sink, (Document, type(None)))


def _valid(doc: Document, text: str, kind: str, sink: Sink) -> bool:
    """Whether section `kind` of `doc` (read from `text`) passes its schema."""
    return kept("valid", (doc.file, text, kind), lambda local: validate_node(catalog_schema_name(kind), doc, (kind,), local), sink,
                bool)


def _activation_state(data: dict[object, object]) -> bool:
    """Whether a pack's YAML file is an activation state file (schemas/activation-state):
    its required keys and only its keys, `heroes` and `monsters` lists (a catalog's
    `monsters` is a mapping). A new user keeps the state beside the quest it plays on
    (new-user trial), and got an error at each key."""
    from compiler.catalogs.schema import load_schema

    keys = set(map(str, data))
    allowed = set(load_schema("activation-state.schema.json")["properties"])
    return ({"heroes", "monsters"} <= keys <= allowed and isinstance(data.get("heroes"), list)
            and isinstance(data.get("monsters"), list))


def _merge_catalogs(closure: list[Pack], loaded: dict[str, Loaded], sink: Sink) -> dict[str, dict[str, Entry]]:
    kinds = catalog_kinds()
    merged: dict[str, dict[str, Entry]] = {k: {} for k in kinds}
    for pack in closure:
        for doc in loaded[pack.id][0]:
            if not isinstance(doc.data, dict):
                sink.report("Y0004", doc.span(()), kinds=", ".join(kinds))
                continue
            if _activation_state(doc.data):  # one error for the file, not one per key
                first = next(iter(doc.data))
                sink.report("Y0005", doc.key_span((first,)), kind=first,
                            hint="; this file is a `questc activate` state (its `heroes` and `monsters`: docs/activation.md), "
                                 "not a catalog: every `*.yaml` of a pack is read as a catalog, so keep it outside the pack "
                                 "folder, or write it as JSON")
                continue
            for kind in doc.data:
                if kind not in kinds:
                    guess = did_you_mean(kind, kinds)
                    sink.report(
                        "Y0005",
                        doc.key_span((kind,)),
                        kind=kind,
                        hint=f"; did you mean `{guess}`?" if guess else f" (known: {', '.join(kinds)})",
                        fix=guess,
                    )
                    continue
                if not remembered_as(("valid", Same(doc), kind), lambda local: _valid(doc, loaded[pack.id][2][doc.file], kind, local), sink):
                    continue
                entries: dict[str, tuple[str, ...]]
                if kind in SINGLE_OBJECT_KINDS:
                    entries = {str(doc.data[kind].get("id", pack.id)): (kind,)}
                else:
                    entries = {i: (kind, i) for i in (doc.data[kind] or {})}
                for entry_id, path in entries.items():
                    previous = merged[kind].get(entry_id)
                    if previous is not None:
                        sink.report(
                            "Y0006",
                            doc.key_span(path),
                            kind=kind,
                            id=entry_id,
                            related=(Related(previous.key_span(), "first defined here"),),
                        )
                        continue
                    merged[kind][entry_id] = Entry(kind, entry_id, doc.get(path), doc, path, pack.id)
    return {k: dict(sorted(v.items())) for k, v in merged.items()}

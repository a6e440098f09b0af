"""questc check [PATH…]: parse, resolve, validate; print diagnostics; exit 0 / 1.

`--verify-sight` also checks every assembled map's line of sight with the shapely witness
(compiler/geometry/witness.py): each pair the numpy engine and the witness answer
differently is an internal error (I0006) naming the pair and both answers."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, cast

from pathlib import Path

from compiler.commands.common import add_pack_arguments, compile_args, finish

if TYPE_CHECKING:
    from compiler.diagnostics.model import Diagnostic, Sink, Span
    from compiler.geometry.assemble import AssembledMap
    from compiler.model import Model


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)
    parser.add_argument(
        "--verify-sight", action="store_true",
        help="also compute every map's line of sight with the shapely witness and report any pair it disagrees on (slow)",
    )
    parser.add_argument(
        "--fix", action="store_true",
        help="apply every fix that is an edit (the `help:` lines that say what to replace or insert) to the files, then check again",
    )
    parser.add_argument("--diff", action="store_true", help="with --fix: write nothing; print the fixes as a unified diff")
    parser.add_argument(
        "--sourced-only", action="store_true",
        help="report every illustrative fact (not from a published source) that reaches a bundle, as an error (K0301)",
    )
    from compiler.commands.convert import converters

    dests: list[str] = []
    for _, (_, imp) in sorted(converters("import").items()):
        if imp.configure_check is not None:  # an enabled plugin's check options (`--plugin valkyrie` adds --packs)
            known = {a.dest for a in parser._actions}
            imp.configure_check(parser)
            dests += [a.dest for a in parser._actions if a.dest not in known]
    parser.set_defaults(_plugin_check_dests=tuple(dests))


def run(args: argparse.Namespace) -> int:
    """Packs are compiled; a path an enabled plugin's importer claims (a Valkyrie quest with
    `--plugin valkyrie`) is checked by that importer, in memory (docs/plugins.md)."""
    from compiler.commands.convert import converters

    checkers = [(loaded, imp.name, claims, check) for _, (loaded, imp) in sorted(converters("import").items())
                if (claims := imp.claims) and (check := imp.check)]
    found = {p: next(((ld, name, check) for ld, name, claims, check in checkers if claims(str(p))), None) for p in args.paths}
    claimed = {p: c for p, c in found.items() if c is not None}
    if args.diff and not args.fix:
        sys.stderr.write("questc check: error: --diff goes with --fix\n")
        return 2
    if args.fix and not claimed and not args.verify_sight:
        return fix(args)
    if not claimed:
        if args.verify_sight:
            result = compile_args(args, images=False, sourced_only=args.sourced_only)
            for model in result.models:
                verify_sight(model, result.sink)
            return finish(result.sink, args)
        return finish(checked(args), args)
    from compiler.commands.common import options_from, settle
    from compiler.diagnostics import Sink, Span
    from compiler.plugins.loader import guard

    settle(args)
    args.paths = [p for p in args.paths if p not in claimed]
    sink = compile_args(args, images=False, sourced_only=args.sourced_only).sink if args.paths else Sink()
    options = options_from(args, images=False, sourced_only=args.sourced_only,
                           plugin_options=tuple((d, getattr(args, d)) for d in getattr(args, "_plugin_check_dests", ())))
    for path, (loaded, name, check) in claimed.items():
        # the plugin's own diagnostics are guarded; the compiler's, moved back, are trusted
        _, moved = guard(loaded, f"importer `{name}`", sink, Span.whole_file(str(path)), check, str(path), options)
        sink.items.extend(moved or ())
    return finish(sink, args)


MAX_FIX_ROUNDS = 5  # a fix may uncover another (a `}` put back, then a misspelt name inside the block)


def fix(args: argparse.Namespace) -> int:
    """`--fix`: check, apply the fixes of the files checked (compiler/diagnostics/fixes.py,
    the same edits SARIF and the language server offer), check again, up to
    MAX_FIX_ROUNDS times; then print what is left as a plain check does. `--diff` writes
    nothing and prints the changes of one round as a unified diff."""
    from compiler.commands.fmt import unified_diff
    from compiler.diagnostics import Span
    from compiler.diagnostics.fixes import apply, edit_of
    from compiler.diagnostics.model import Edit
    from compiler.diagnostics.render import accepted, visible
    from compiler.emit.files import write_atomic
    from compiler.reader import read_bytes

    for _ in range(MAX_FIX_ROUNDS):
        sink = checked(args)
        by_file: dict[str, list[Edit]] = {}
        for d in sink.sorted():
            text = accepted(d.span.file)
            e = edit_of(d, text) if text is not None else None
            if e is not None:
                by_file.setdefault(d.span.file, []).append(e)
        changed = 0
        for name, edits in sorted(by_file.items()):
            before = accepted(name)
            assert before is not None  # only files with accepted text have edits
            after, done = apply(before, edits)
            if after == before:
                continue
            if args.diff:
                sys.stdout.write(unified_diff(name, before, after))
                changed += 1
                continue
            raw = read_bytes(name, max_bytes=len(before.encode()) * 4 + 1024, links=True)
            newline = "\r\n" if isinstance(raw, bytes) and b"\r\n" in raw else "\n"
            try:
                write_atomic(Path(name), after.replace("\n", newline), follow_link=True)  # a pack file, read inside its pack
            except OSError as exc:
                sink.report("I0003", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
                return finish(sink, args)
            sys.stderr.write(f"fixed {len(done)} problem{'s' * (len(done) != 1)} in {visible(name)}\n")
            changed += 1
        if not changed or args.diff:
            break
    if args.diff:
        return 1 if changed else 0
    return finish(checked(args), args)


def checked(args: argparse.Namespace) -> Sink:
    """The diagnostics of the PATHs: the kept verdict of the whole check when nothing it
    could read (the folders given, the pack search path) has changed since a run that kept
    one; otherwise a compile, in which each pack keeps and reuses its own verdict
    (compiler/verdicts.py)."""
    from compiler import console, verdicts
    from compiler.commands.common import configure, options_from, settle
    from compiler.diagnostics.model import Sink
    from compiler.packs import search_path

    settle(args)
    options = options_from(args, images=False, sourced_only=args.sourced_only,
                           plugin_options=tuple((d, getattr(args, d)) for d in getattr(args, "_plugin_check_dests", ())))
    paths = list(args.paths)

    def key() -> str | None:
        if options.plugins:
            return None
        folders = verdicts.trees([*paths, *search_path(options.pack_path)])
        return verdicts.key("check", tuple(paths), options, folders) if folders is not None else None

    sink = Sink()
    with console.stage("kept verdict"):
        whole = key()
        kept = verdicts.replay(whole, verdicts.whole_check) if whole is not None else None
    if kept is not None:
        # verdicts.whole_check let through only (tuple of diagnostics, {folder: pack id})
        items, roots = cast("tuple[tuple[Diagnostic, ...], dict[str, str]]", kept)
        sink.extend(items)
        configure(args, sink, roots)
        return sink
    from compiler.pipeline import compile_paths

    result = compile_paths(paths, options, sink, keep_verdicts=True)
    if whole is not None and not result.plugins and key() == whole:
        verdicts.keep(whole, (tuple(sink.items), result.roots), sink.items)
    configure(args, sink, result.roots)
    return sink


def maps_of(model: Model) -> list[tuple[str, AssembledMap, Span]]:
    """(name, AssembledMap, span of its map block) for every assembled map of the pack."""
    from compiler.syntax import ast

    out: list[tuple[str, AssembledMap, Span]] = []
    maps = model.maps
    if maps is None:
        return out
    for quest in model.declarations(ast.Quest):
        for enc in quest.encounters:
            amap = maps.quests.get(quest.id, {}).get(enc.number)
            if amap is not None and enc.body.map is not None:  # a map is assembled only from a map block
                out.append((f"quest `{quest.id}` encounter {enc.number}", amap, enc.body.map.span))
    for top in model.declarations(ast.Encounter):
        amap = maps.encounters.get(top.id)
        if amap is not None and top.body.map is not None:
            out.append((f"encounter `{top.id}`", amap, top.body.map.span))
    return out


def verify_sight(model: Model, sink: Sink) -> int:
    """Compare the engine's static table of every map with the witness; report I0006 per
    disagreeing pair. Returns the number of pairs compared."""
    from compiler.geometry.sight import sight_table
    from compiler.geometry.witness import disagreements

    compared = 0
    for name, amap, span in maps_of(model):
        board = amap.board
        n = len(board.spaces)
        compared += n * (n - 1) // 2
        for d in disagreements(board, sight_table(board).matrix):
            sink.report("I0006", span, map=name, a=amap.describe(d.a), b=amap.describe(d.b),
                        engine="sight" if d.engine else "no sight", witness="sight" if d.witness else "no sight")
    return compared

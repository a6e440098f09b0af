"""questc build [PATH…] -o DIR: check, then write DIR/<pack>/bundle.json, images and manifest.json.

Nothing is written for a pack with errors (or warnings under --strict); a pack's
previous output is replaced atomically only when its new output is complete. Builds
into one folder take turns (a lock file), and a build first tidies what a killed one
left behind (compiler/emit/build.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.commands.common import add_output_arguments, add_pack_arguments, compile_args, finish

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink
    from compiler.model import Model

# Internal errors that are bugs (exit 3); the other I codes are about the output folder
# (cannot write I0003, lock not obtained I0004: exit 1) or a note (tidied I0005).
BUGS = ("I0001", "I0002")


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)
    add_output_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return build(args)[0]


def build(args: argparse.Namespace) -> tuple[int, Sink]:
    """One build: its exit code and the diagnostics it printed (`questc serve` shows
    them in the page too)."""
    from compiler.console import stage
    from compiler.diagnostics.render import exit_code
    from compiler.emit.build import outputs_of, write_packs

    result = compile_args(args, images=not args.no_images)
    sink = result.sink
    if not args.no_images:
        _report_undrawable(result.models, sink)
    packs: dict[str, dict[str, bytes] | None] = {model.pack.id: None for model in result.models}
    if exit_code(sink, args.strict) == 0:
        prepared: dict[str, dict[str, bytes] | None] = {}
        for model in result.models:
            with stage(f"emit {model.pack.id}"):
                files = outputs_of(model, sink)
            if files is None:
                break
            prepared[model.pack.id] = files
        else:  # every pack prepared in memory: only now touch the output folder
            packs = prepared
    with stage("write"):
        write_packs(Path(args.output), packs, sink)
    code = finish(sink, args)
    if any(d.code in BUGS for d in sink.items):
        return 3, sink
    return code, sink


def _report_undrawable(models: list[Model], sink: Sink) -> None:
    """G0106 for each quest or encounter name a map image would draw as `?`, located at
    the name, and each translated text a per-language map image would, located at the
    translation it comes from (before anything is written, so --strict can refuse it)."""
    from compiler.diagnostics import Span
    from compiler.emit.images.outputs import undrawable
    from compiler.emit.images.quest import assembled_maps
    from compiler.emit.images.style import missing_glyphs
    from compiler.syntax import ast

    for model in models:
        # the source language's map titles: the maps/<id>.png every build draws
        named = {("quest", d.id): d.name for d in model.declarations(ast.Quest)}
        named.update({("encounter", d.id): d.name for d in model.declarations(ast.Encounter) if d.name is not None})
        for owner in dict.fromkeys(item[5] for item in assembled_maps(model)):
            name = named.get(owner)
            missing = missing_glyphs(name.value) if name is not None else []
            if missing and name is not None:
                sink.report("G0106", name.span, chars=", ".join(f"`{c}` (U+{ord(c):04X})" for c in missing), text=name.value)
        files = {tf.lang: tf for tf in model.translation_files}
        for lang, text, missing in undrawable(model):
            tf = files.get(lang)
            entry = next((e for e in tf.entries if e.text and e.text in text and set(missing) & set(e.text)), None) if tf else None
            span = entry.span if entry is not None else (tf.span if tf else Span.whole_file(model.pack.id))
            sink.report("G0106", span, chars=", ".join(f"`{c}` (U+{ord(c):04X})" for c in missing), text=text)

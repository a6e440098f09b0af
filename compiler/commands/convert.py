"""What `questc import` and `questc export` share: the converters of the enabled plugins
(compiler/plugins), the one message when the one named is not there (E0106, exit 2),
and writing what a converter returns."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Mapping

from compiler.diagnostics import Sink, Span
from compiler.emit.files import write_atomic

USAGE = 2


def converters(kind: str) -> dict:
    """name -> (plugin, converter) of the enabled plugins; kind is "import" or "export"."""
    loader = sys.modules.get("compiler.plugins.loader")
    if loader is None:
        return {}
    return loader.importers() if kind == "import" else loader.exporters()


def unknown_converter(kind: str, argv: list[str]) -> int | None:
    """Before parsing `questc import|export SOURCE …`: a SOURCE no enabled plugin provides
    is one E0106 diagnostic naming what is there and what could be enabled, exit 2."""
    words = _positionals(argv)
    if kind not in words:
        return None
    rest = words[words.index(kind) + 1 :]
    if not rest or rest[0] in converters(kind):
        return None
    name = rest[0]
    from compiler.diagnostics.render import accept_source, print_diagnostics

    have = sorted(converters(kind))
    enabled = _enabled()
    others = [n for n in _installed() if n not in enabled]
    hint = f"; enabled plugins give {', '.join(f'`{h}`' for h in have)}" if have else "; no enabled plugin gives one"
    if others:
        hint += f" (installed, not enabled: {', '.join(others)}: enable one with --plugin NAME)"
    line = " ".join(["questc", *argv])
    accept_source("<command line>", line)
    at = line.find(f" {name}", line.find(f" {kind}") + 1) + 1
    sink = Sink()
    what = "importer" if kind == "import" else "exporter"
    sink.report("E0106", Span("<command line>", 1, at + 1, 1, at + 1 + len(name)), what=what, name=name, hint=hint)
    print_diagnostics(sink, "human")
    return USAGE


def _positionals(argv: list[str]) -> list[str]:
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--plugin", "--config"):
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out


def _enabled() -> tuple[str, ...]:
    loader = sys.modules.get("compiler.plugins.loader")
    return loader.enabled_names() if loader is not None else ()


def _installed() -> list[str]:
    from compiler.plugins.loader import installed

    return sorted(installed())


def write_files(root: Path, files: Mapping[str, bytes | str], sink: Sink) -> bool:
    """Write each relative path under `root` (created), each file through a temporary file
    renamed into place, so a reader never sees half a file. A path leaving `root` or a
    write that fails is I0003."""
    ok = True
    for rel, data in sorted(files.items()):
        target = root / rel
        try:
            if Path(rel).is_absolute() or ".." in Path(rel).parts:
                raise OSError(0, "the path leaves the output folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, data)
        except OSError as exc:
            sink.report("I0003", Span.whole_file(str(target)), path=str(target), problem=exc.strerror or str(exc))
            ok = False
    return ok



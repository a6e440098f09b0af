"""What `questc import` and `questc export` share: the converters of the enabled plugins
(compiler/plugins), the one message when the one named is not there (E0106, exit 2),
and writing what a converter returns."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Mapping, overload

from compiler.diagnostics import Sink, Span
from compiler.emit.files import linked_folder, write_atomic

if TYPE_CHECKING:
    from compiler.plugins import Exporter, Importer
    from compiler.plugins.loader import Loaded

USAGE = 2


@overload
def converters(kind: Literal["import"]) -> dict[str, tuple[Loaded, Importer]]: ...
@overload
def converters(kind: Literal["export"]) -> dict[str, tuple[Loaded, Exporter]]: ...
@overload
def converters(kind: str) -> dict[str, tuple[Loaded, Importer]] | dict[str, tuple[Loaded, Exporter]]: ...
def converters(kind: str) -> dict[str, tuple[Loaded, Importer]] | dict[str, tuple[Loaded, Exporter]]:
    """name -> (plugin, converter) of the enabled plugins; kind is "import" or "export"."""
    if sys.modules.get("compiler.plugins.loader") is None:  # not imported: none is enabled
        return {}
    from compiler.plugins import loader

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


def write_files(root: Path | None, files: Mapping[str, bytes | str], sink: Sink) -> bool:
    """Write each path (relative to `root`; as given when `root` is None), each file through
    a temporary file renamed into place, so a reader never sees half a file. Every path is
    checked and every folder made before the first file is written, so a path leaving
    `root` or a folder that cannot be made writes nothing; the first failure is one I0003
    and stops the writing."""
    def failed(target: Path, problem: str) -> bool:
        sink.report("I0003", Span.whole_file(str(target)), path=str(target), problem=problem)
        return False

    targets: dict[Path, bytes | str] = {}
    for rel, data in sorted(files.items()):
        if root is not None and (Path(rel).is_absolute() or ".." in Path(rel).parts):
            return failed(root / rel, "the path leaves the output folder")
        targets[Path(rel) if root is None else root / rel] = data
    for folder in sorted({t.parent for t in targets}):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            in_way = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
            if in_way is not None:
                return failed(in_way, "it is a file, and the output needs a folder there")
            return failed(folder, exc.strerror or str(exc))
    for target in targets:
        linked = linked_folder(root, target) if root is not None else None
        if linked is not None:  # planted in the output folder, perhaps: never written through
            return failed(linked, "it is a symbolic link inside the output folder; questc does not write through it")
    for target, data in targets.items():
        try:
            write_atomic(target, data)  # a link at the file's own name is replaced, not followed
        except OSError as exc:
            return failed(target, exc.strerror or str(exc))
    return True



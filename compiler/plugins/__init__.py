"""The plugin API: what a plugin package gives questc (docs/plugins.md).

A plugin is a Python package that registers one object under the entry-point group
`questc.plugins`; the entry point's name is the plugin's name, the one users enable:

    # the plugin's pyproject.toml
    [project.entry-points."questc.plugins"]
    house = "questc_house:plugin"

    # questc_house/__init__.py
    from compiler.plugins.api import Plugin, PluginPass
    plugin = Plugin(prefix="HR", api="1.0", codes=Path(__file__).with_name("codes.yaml"), passes=(PluginPass("tile_limit", tile_limit_pass),))

It can bring importers (`questc import NAME`), exporters (`questc export NAME`), passes
(run after the built-in ones, with their signature `(model, sink) -> model`) and whole
commands. Nothing of a plugin runs unless the user enabled it (`--plugin NAME` or
`plugins = [...]` in the configuration); a content pack can only ask for one.
`compiler/plugins/loader.py` finds, checks, enables and guards them.

This module declares the registration types; a plugin imports them, and everything else
it uses of questc, from the public API `compiler.plugins.api` (versioned; docs/plugins.md).
"""

from __future__ import annotations

import argparse
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from compiler.diagnostics import Sink
from compiler import frozen

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from compiler.diagnostics.model import Diagnostic
    from compiler.model import Model
    from compiler.options import Options

GROUP = "questc.plugins"


@frozen
class Importer:
    """`questc import NAME FILE [-o OUT] …`: files of another tool -> questc text.

    `run(args, sink)` gets the parsed arguments (`args.file`, `args.output` and whatever
    `configure(parser)` added) and returns the text to write to `-o OUT` or standard
    output, or a mapping path -> text of files to write, or None after reporting why
    (through `sink`, with the plugin's own codes).

    `questc check PATH` hands a PATH that `claims(path)` accepts to `check(path, options,
    sink)` instead of reading it as a pack: the importer converts it in memory, compiles
    the result with `options` (compiler.pipeline.compile_paths) and returns the compiler's
    diagnostics moved to the places of the original files; its own go to `sink`.
    `configure_check(parser)` adds the options that check reads to `questc check` (the
    Valkyrie plugin's `--packs`); their values reach `check` in `options.plugin_options`
    as (dest, value) pairs (API 1.1)."""

    name: str
    formats: tuple[str, ...]  # the file kinds read, e.g. ("tmj",)
    help: str
    run: Callable[[argparse.Namespace, Sink], "str | Mapping[str, str] | None"]
    configure: Callable[[argparse.ArgumentParser], None] | None = None
    claims: Callable[[str], bool] | None = None
    check: Callable[[str, Options, Sink], list[Diagnostic]] | None = None
    configure_check: Callable[[argparse.ArgumentParser], None] | None = None


@frozen
class Exporter:
    """`questc export NAME PACK -o DIR …`: the checked model -> files of another tool.

    `run(model, args, sink)` gets the checked `compiler.model.Model` of PACK (only when
    it compiled without errors) and returns relative path -> bytes (or text), written
    under DIR by the command, or None after reporting why."""

    name: str
    formats: tuple[str, ...]
    help: str
    run: Callable[[Model, argparse.Namespace, Sink], "Mapping[str, bytes | str] | None"]
    configure: Callable[[argparse.ArgumentParser], None] | None = None


@frozen
class PluginPass:
    """A check run after the built-in passes, with their signature:
    `function(model, sink) -> model`. It reads any field of the checked model and
    reports through `sink` with the plugin's own codes; the model it returns is not
    used further (emitters read only the built-in passes' results). `needs` is as for
    a built-in pass ("quest", "catalog:tiles", …); empty means every pack."""

    name: str
    function: Callable[[Model, Sink], Model]
    needs: tuple[str, ...] = ()


@frozen
class Command:
    """A whole command, `questc NAME …`: `configure(parser)` adds its options and
    `run(args)` returns the exit code."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


@frozen
class Plugin:
    """What the entry point names: a Plugin, or a callable without arguments returning one.

    `prefix` (two to four capital letters) starts every diagnostic code the plugin
    reports; `codes` are its catalogue entries (code -> {severity, message,
    explanation, example, fix}, as in compiler/diagnostics/codes/), given as a mapping
    or a YAML file (a path, or a resource of the plugin's package). Besides its own codes a plugin may report the shared
    converter codes in `SHARED_CODES`. `api` is the plugin API version it needs
    (MAJOR.MINOR, `compiler.plugins.api.API_VERSION`): the loader refuses it (E0102) when
    this questc gives another major version or an earlier minor one; empty: not checked."""

    prefix: str = ""
    codes: Mapping[str, Mapping[str, str]] | Path | str | Traversable = field(default_factory=dict)  # a Traversable: importlib.resources.files(…) / "codes.yaml"
    importers: tuple[Importer, ...] = ()
    exporters: tuple[Exporter, ...] = ()
    passes: tuple[PluginPass, ...] = ()
    commands: tuple[Command, ...] = ()
    description: str = ""
    api: str = ""


# Codes of the core catalogue any plugin may report: a file that cannot be read or
# converted (M0402), a tile side the tile library lacks and the map leaves out (M0401),
# an output that cannot be written (I0003), and the map chosen on the command line
# (--quest X0101, --encounter X0102: compiler/commands/mapquery.py).
SHARED_CODES = frozenset({"M0401", "M0402", "I0003", "X0101", "X0102"})

__all__ = ["GROUP", "Command", "Exporter", "Importer", "Plugin", "PluginPass", "SHARED_CODES"]

"""The command line only: parse arguments, call the command, print, exit.

Exit codes: 0 clean, 1 content errors (warnings too with --strict), 2 usage,
3 internal error (reported as diagnostic I0001 with a crash-report path, never a raw traceback),
141 stdout or stderr is a pipe whose reader has gone (compiler/diagnostics/stdio.py), 130 Ctrl-C.
Heavy libraries are imported by the commands, lazily, so `questc --version` starts fast.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import sys
from typing import TYPE_CHECKING, overload

from compiler import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, NoReturn, TextIO, TypeVar

    from compiler.diagnostics.model import Span
    from compiler.plugins import Command
    from compiler.plugins.loader import Loaded

    _N = TypeVar("_N")

# command name -> module under compiler/commands exposing configure(parser) and run(args) -> int
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("compiler.commands.check", "parse, resolve and validate packs; print diagnostics"),
    "build": ("compiler.commands.build", "check, then write bundles, images and manifests"),
    "watch": ("compiler.commands.watch", "rebuild on every save"),
    "view": ("compiler.commands.view", "write the web player with a pack's bundle: a folder of static files"),
    "serve": ("compiler.commands.serve", "play a pack in the browser on 127.0.0.1, rebuilt on every save"),
    "explain": ("compiler.commands.explain", "explain a diagnostic code"),
    "schema": ("compiler.commands.schema", "print the bundle JSON Schema"),
    "init": ("compiler.commands.init", "create a new pack that compiles"),
    "render": ("compiler.commands.render", "draw one quest map, optionally with sight and movement from a space"),
    "import": ("compiler.commands.import_data", "convert other tools' files into questc content (importers of enabled plugins)"),
    "export": ("compiler.commands.export", "write a checked pack in another tool's format (exporters of enabled plugins)"),
    "path": ("compiler.commands.path", "cheapest move and counted range between two spaces of a quest map"),
    "los": ("compiler.commands.los", "line of sight on a quest map: one pair with a clear segment, or the whole table"),
    "template": ("compiler.commands.template", "the squares an attack template (Breath, Bolt, Blast) covers, on a quest map or alone"),
    "activate": ("compiler.commands.activate", "resolve one monster group's activation card on a map: every outcome the rules allow"),
    "test": ("compiler.commands.test", "run the packs' activation tests (*.activation-test): expected outcomes of activation cards"),
    "layout": ("compiler.commands.layout", "deal an exploration deck for a seed and chain its encounters on a table"),
    "world": ("compiler.commands.world", "campaign world: distances, reachability and rumor places from a location"),
    "campaign": ("compiler.commands.campaign", "the 2nd-edition app campaign: its quest graph as text and picture, exact chances, seeded runs"),
    "strings": ("compiler.commands.strings", "texts for translators: extract a PO template or CSV, update translations/<lang>.po"),
    "fmt": ("compiler.commands.fmt", "rewrite .quest files in the canonical layout (--check for CI, --diff to preview)"),
    "tiles": ("compiler.commands.tiles", "the tiles of the catalogs: shape with numbered openings, piece, copies, faces (text, JSON, a PNG sheet)"),
    "monsters": ("compiler.commands.monsters", "the monsters of the catalogs: size, attack, group limits, statistics"),
    "terrain": ("compiler.commands.terrain", "the terrain of the catalogs: symbol, movement costs, what it blocks"),
    "lsp": ("compiler.commands.lsp", "the language server for editors (Language Server Protocol over stdio)"),
}


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:  # ArgumentParser's, passed on
        super().__init__(*args, **kwargs)
        # A negative coordinate is a value, not an option: `--to -3,3` as well as `-3`.
        # (argparse decides with this pattern; its own knows only plain numbers.)
        self._negative_number_matcher = re.compile(r"^-\d+(\.\d+)?(,-?\d+(\.\d+)?)*$")

    def error(self, message: str) -> NoReturn:  # usage errors exit 2 with a one-line reason
        self.print_usage(sys.stderr)
        from compiler.diagnostics.render import visible  # the message quotes the arguments given

        sys.stderr.write(f"{self.prog}: error: {visible(message)}\n")
        raise SystemExit(2)


class _TopParser(_Parser):
    """Once the arguments are parsed, a command that reads packs gets the settings no
    flag gave from the configuration file, then the defaults (commands/common.settle)."""

    # ArgumentParser's overloads: the namespace given (any object) or a new Namespace
    @overload
    def parse_known_args(self, args: Iterable[str] | None = None, namespace: None = None) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(self, args: Iterable[str] | None, namespace: _N) -> tuple[_N, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _N) -> tuple[_N, list[str]]: ...
    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> tuple[Any, list[str]]:
        ns, rest = super().parse_known_args(args, namespace)
        if getattr(ns, "_configurable", False):
            from compiler.commands.common import settle

            settle(ns)
        return ns, rest


def _conventions() -> _Parser:
    """-q and -v, on every command."""
    common = _Parser(add_help=False)  # a parent of the commands' parsers, of their class
    loud = common.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true", help="print errors only (human output; machine formats are unchanged)")
    loud.add_argument("-v", "--verbose", action="store_true", help="also print how long each stage took, on stderr")
    common.add_argument("--no-cache", action="store_true",
                        help="read and keep nothing in the cache folder (QUESTC_CACHE_DIR, else $XDG_CACHE_HOME/questc): compute everything")
    _plugin_option(common)
    return common


def _plugin_option(parser: argparse.ArgumentParser) -> None:
    # read before parsing (plugin_requests): a plugin may add commands and converters
    parser.add_argument("--plugin", action="append", default=argparse.SUPPRESS, metavar="NAME",
                        help="enable an installed plugin (repeatable; also `plugins` in the configuration; docs/plugins.md)")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line. With `only`, just that command's module is imported to configure
    its options (the others are listed for --help, unconfigured): importing every command
    module cost a fifth of a second on every run."""
    parser = _TopParser(prog="questc", description="Compile and check tile-based dungeon-crawler content packs.")
    parser.add_argument("--version", action="version", version=f"questc {__version__}")
    _plugin_option(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    common = _conventions()
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        if only is None or name == only:
            importlib.import_module(module).configure(p)
        p.set_defaults(_module=module)
    for name, (loaded, command) in _plugin_commands().items():
        help_text = f"{command.help} (plugin {loaded.name})"
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        if only is None or name == only:
            command.configure(p)
        p.set_defaults(_module="compiler.commands.plugin_command", _plugin_command=name)
    return parser


def _plugin_commands() -> dict[str, tuple[Loaded, Command]]:
    if sys.modules.get("compiler.plugins.loader") is None:  # not imported: no plugin is enabled
        return {}
    from compiler.plugins import loader

    return loader.commands()


def plugin_requests(argv: list[str]) -> list[tuple[str, Span]]:
    """The plugins to enable, each with where it was named: `--plugin NAME` anywhere on the
    command line (before `--`), then `plugins` in the configuration file (unless
    `--isolated`; `--config FILE` is honoured). Read before the arguments are parsed,
    because plugins add commands and converters. Problems with the configuration file
    itself are reported later, by the commands that read it."""
    from compiler.diagnostics.model import Sink, Span
    from compiler.diagnostics.render import accept_source

    line = " ".join(["questc", *argv])
    requests: list[tuple[str, Span]] = []
    explicit, isolated, at = None, False, len("questc ")
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value, start = None, at
        if arg in ("--plugin", "--config") and i + 1 < len(argv):
            value, start = argv[i + 1], at + len(arg) + 1
        elif arg.startswith(("--plugin=", "--config=")):
            value, start = arg.split("=", 1)[1], at + arg.index("=") + 1
        if value is not None and arg.startswith("--plugin"):
            accept_source("<command line>", line)
            requests.append((value, Span("<command line>", 1, start + 1, 1, start + 1 + max(1, len(value)))))
        elif value is not None:
            explicit = value
        isolated = isolated or arg == "--isolated"
        at += len(arg) + 1
    if not isolated:
        from compiler import config as cfg

        try:
            conf = cfg.load(explicit, False, Sink())
        except OSError:
            conf = cfg.Config()
        named = {n for n, _ in requests}
        requests += [(n, span) for n, span in conf.plugins if n not in named]
    return requests


def _enable_plugins(argv: list[str]) -> int | None:
    """Enable the plugins asked for; exit 2 with one diagnostic each when one cannot be."""
    requests = plugin_requests(argv)
    if not requests and "compiler.plugins.loader" not in sys.modules:
        return None
    from compiler.diagnostics.model import Sink
    from compiler.plugins import loader

    sink = Sink()
    if loader.enable(requests, sink, COMMANDS):
        return None
    from compiler.diagnostics.render import print_diagnostics

    print_diagnostics(sink, "human")
    return 2


def _command_named(argv: list[str]) -> str | None:
    """The first word that is not an option nor the value of a top-level option."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--plugin", "--config"):
            skip = True
            continue
        if not arg.startswith("-"):
            return arg
    return None


GC_THRESHOLD = 200_000  # allocations before a first-generation collection (Python's default: 700; mypy's)


def main(argv: list[str] | None = None) -> int:
    """Every path runs under the guard, --version and the final flush of stdout included."""
    from compiler.diagnostics import stdio

    own_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    # A compile allocates millions of small objects that live until it ends (modules, the
    # syntax trees and catalogs, kept results unpickled); with the default thresholds the
    # cycle collector walks them all again and again (15-20 % of a check). A larger first
    # generation, mypy's 200,000 and thresholds, collects far less often (none in a check
    # of content/ after one edit, where 100,000 cost one 17 ms collection); memory stays
    # bounded. Only when the command line owns the process: an in-process caller (tests,
    # benchmarks, an editor's host) keeps its own collector settings.
    if own_command_line:
        gc.set_threshold(GC_THRESHOLD, 30, 30)
    try:
        with stdio.marked():
            code = _guarded(argv)
            stdio.flush()  # buffered output fails here, inside the guard, not at interpreter exit
    except stdio.StreamFailed as failure:  # a closed pipe, a full device: no traceback
        code = stdio.ended(failure)
    if own_command_line:  # not when called with arguments (tests, benchmarks): that caller goes on
        if "compiler.plugins.loader" not in sys.modules:
            # Nothing of the run needs tearing down: every file is written and closed, the
            # output flushed above, no thread or exit handler of questc's own is left. Ending
            # here skips the interpreter's teardown of every module and object (9 ms of a
            # 0.35 s check after one edit), as mypy ends its own runs.
            _flush_quietly(sys.stdout, sys.stderr)
            os._exit(code)
        # A plugin's code may count on exit handlers: the interpreter ends the process. What
        # the run built would be walked once more by its last cycle collection (a third of a
        # one-edit check of content/, docs/performance.md); frozen objects are left out of it.
        gc.freeze()
    return code


def _flush_quietly(*streams: TextIO | None) -> None:
    for stream in streams:
        try:
            if stream is not None:  # None: started without that stream
                stream.flush()
        except (OSError, ValueError):  # gone or closed: what could be said was said
            pass


def _guarded(argv: list[str]) -> int:
    from compiler.diagnostics import stdio

    try:
        return _run(argv)
    except stdio.StreamFailed:
        raise
    except KeyboardInterrupt:
        stdio.say("interrupted\n")
        return 130
    except BaseException as exc:  # noqa: BLE001 - the last line of defence: never a raw traceback
        from compiler.diagnostics.crash import report_crash

        return report_crash(exc, argv)


def _run(argv: list[str]) -> int:
    if argv in (["--version"], ["-V"]):  # answered before any command module is imported
        print(f"questc {__version__}")
        return 0
    stopped = _enable_plugins(argv)
    if stopped is not None:
        return stopped
    named = _command_named(argv)
    if named in ("import", "export"):
        from compiler.commands.convert import unknown_converter

        stopped = unknown_converter(named, argv)
        if stopped is not None:
            return stopped
    parser = build_parser(named if named in COMMANDS or named in _plugin_commands() else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "_module", None):
        parser.print_help(sys.stderr)
        return 2
    args._argv = argv  # lets commands locate a bad argument on the command line
    if getattr(args, "_config_sink", None) is not None:  # a broken configuration: usage, exit 2
        from compiler.diagnostics.render import print_diagnostics

        print_diagnostics(args._config_sink, args.format)
        return 2
    from compiler import console
    from compiler.diagnostics.render import forget_source

    # a command line shown under a diagnostic is this one's or none (not one an earlier
    # command run in this process registered: the language server, watch, tests)
    forget_source("<command line>")
    from compiler.diagnostics.render import set_command_line

    set_command_line(argv)  # a missing PATH is shown on it (P0111), whichever command
    console.begin(verbose=args.verbose, quiet=args.quiet, machine=getattr(args, "format", "human") != "human")
    from compiler import diskcache

    try:
        with diskcache.switched(not getattr(args, "no_cache", False)):
            run: Callable[[argparse.Namespace], int] = importlib.import_module(args._module).run  # see COMMANDS
            code = run(args)
            from compiler.diagnostics.render import missing_path_shown

            return 2 if code == 1 and missing_path_shown() else code  # a missing PATH: usage, for every command
    except SystemExit as exc:
        return int(exc.code or 0)
    finally:
        console.end()


if __name__ == "__main__":
    raise SystemExit(main())

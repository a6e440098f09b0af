"""questc fmt [--check] [--diff] [PATH…]: rewrite `.quest` files in their canonical layout.

PATH is a `.quest` file, a pack or any folder (searched recursively; default `content`).
The configuration file (docs/configuration.md; `--config`, `--isolated`) gives the
diagnostics `format` and `[fmt] exclude`: globs of files a folder search passes over.
A file is rewritten — atomically, through a temporary file renamed over it — only when
its text changes. A file with syntax errors is left untouched and its diagnostics are
printed. Before anything is written the formatted text is parsed again and must give the
same AST as the original (spans aside); if it does not, that is a formatter bug: the
file is left alone and the command exits 3.

Line endings, as black and ruff treat them: the text is compared with its line endings
normalised, so CRLF endings alone never make a file "would reformat" (nor does a lone
CR); a file that is rewritten keeps CRLF when its first line ends in CRLF and gets LF
otherwise. Files are read as every pack file is (compiler/sources.py): regular files
only, at most 4 MiB; a folder that cannot be listed is reported.

Exit codes: 0 done (or, with --check, nothing to change); 1 a file has syntax errors or
cannot be read or written, or --check found files to reformat; 2 usage; 3 the safety
check failed. Status lines go to stderr, --diff output to stdout.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Literal

from compiler.config import FORMATS
from compiler.emit.files import write_atomic

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink

SUFFIX = ".quest"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", default=["content"], metavar="PATH",
                        help=".quest files, packs or folders, searched recursively (default: content)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list the files that would change and exit 1 if there are any (for CI)")
    parser.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of each change")
    parser.add_argument("--format", choices=FORMATS, default=None, help="diagnostics format (default: human, or `format` in the configuration)")
    parser.add_argument("--config", metavar="FILE", help="read this configuration file (questc.toml or pyproject.toml) instead of looking upward from here")
    parser.add_argument("--isolated", action="store_true", help="read no configuration file")
    parser.set_defaults(_configurable=True)


class UsageError(Exception):
    pass


def quest_files(paths: list[str], sink: Sink, excluded: Callable[[str], bool] = lambda path: False) -> list[Path]:
    """Every `.quest` file named by `paths`, in order, each once; UsageError for a path
    that does not exist or a file that is not a `.quest` file. A folder that cannot be
    listed is reported in `sink`. A file found in a folder is passed over when
    `excluded(path)` (the configuration's `[fmt] exclude`); a file named is always taken."""
    from compiler.sources import walk

    found: list[Path] = []
    seen: set[Path] = set()

    def add(path: Path) -> None:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            found.append(path)

    for given in paths:
        path = Path(given)
        if path.is_dir():
            for here, _, filenames in walk(path, sink):
                for name in filenames:
                    file = here / name
                    if name.endswith(SUFFIX) and not file.is_symlink() and not excluded(str(file)):
                        add(file)
        elif path.exists():  # a FIFO or a device too: reading it says why it is refused
            if path.suffix != SUFFIX:
                raise UsageError(f"{given} is not a {SUFFIX} file")
            add(path)
        else:
            raise UsageError(f"no such file or folder: {given}")
    return found


def _there(path: Path) -> bool:
    """Whether `path` exists (a dangling link counts: reading it says why it is refused);
    False for a name the system refuses (too long: ENAMETOOLONG raises)."""
    try:
        return path.exists() or path.is_symlink()
    except OSError:
        return False


def unified_diff(name: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), name, name)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


_Outcome = Literal["changed", "unchanged", "failed", "internal"]  # what became of one file


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics import Sink
    from compiler.diagnostics.render import print_diagnostics, visible
    from compiler.options import Options

    sink = Sink()
    conf = getattr(args, "_config", None)
    missing = [given for given in args.paths if not _there(Path(given))]
    if missing:  # as `questc check` says it: P0111 at the argument, exit 2 (common.missing_paths)
        from compiler.commands.common import USAGE, command_line_span

        for given in missing:
            sink.report("P0111", command_line_span(args, given), path=given)
        print_diagnostics(sink, args.format)
        return USAGE
    try:
        files = quest_files(list(args.paths), sink, conf.excluded if conf is not None and conf.fmt_exclude else (lambda p: False))
    except UsageError as exc:
        sys.stderr.write(f"questc fmt: error: {visible(str(exc))}\n")
        return 2

    write = not (args.check or args.diff)
    limit = Options().max_file_bytes
    counts: dict[_Outcome, int] = {"changed": 0, "unchanged": 0, "failed": 0, "internal": 0}
    for path in files:
        counts[_format_file(path, args, write, limit, sink)] += 1

    if sink.items:
        print_diagnostics(sink, args.format)
    verb = "reformatted" if write else "would be reformatted"
    parts = [f"{_count(counts['changed'])} {verb}", f"{_count(counts['unchanged'])} unchanged"]
    if counts["failed"]:
        parts.append(f"{_count(counts['failed'])} not formatted (errors)")
    sys.stderr.write(", ".join(parts) + "\n")
    if counts["internal"]:
        return 3
    if counts["failed"] or sink.errors or (args.check and counts["changed"]):
        return 1
    return 0


def _format_file(path: Path, args: argparse.Namespace, write: bool, limit: int, sink: Sink) -> _Outcome:
    """Format one file: read it, parse it, lay it out, make sure the layout means the same,
    then show the diff (--diff) and write it (unless --check or --diff). `failed`: the file
    cannot be read, parsed or written (diagnostics in `sink`); `internal`: a formatter bug
    (said on stderr)."""
    from compiler.diagnostics import Sink, Span
    from compiler.diagnostics.render import visible
    from compiler.sources import display_name, read_source
    from compiler.syntax.format import FormatError, format_source, strip_spans
    from compiler.syntax.parse import parse_module

    src = read_source(path.parent, path, sink, max_bytes=limit)
    if src is None:
        return "failed"
    name = display_name(path)
    parsed = Sink()
    module = parse_module(src.text, name, parsed)
    if parsed.errors:  # not formatted: the parser's diagnostics say why
        sink.extend(parsed.items)
        return "failed"
    try:
        formatted = format_source(src.text)
    except FormatError as exc:  # parse_module accepted what the formatter's parse did not: a bug
        sys.stderr.write(f"questc fmt: internal error: cannot format {visible(name)} ({exc}); the file is left as it is\n")
        return "internal"
    if formatted == src.text:
        return "unchanged"
    again = parse_module(formatted, name, Sink())
    if strip_spans(again) != strip_spans(module):
        sys.stderr.write(f"questc fmt: internal error: formatting {visible(name)} would change its meaning; "
                         "the file is left as it is (please report this)\n")
        return "internal"
    if args.diff:
        sys.stdout.write(unified_diff(name, src.text, formatted))
    if write:
        try:
            write_atomic(path, formatted.replace("\n", src.newline), follow_link=True)  # read inside the pack
        except OSError as exc:
            sink.report("I0003", Span.whole_file(name), path=name, problem=exc.strerror or str(exc))
            return "failed"
    sys.stderr.write(f"{'reformatted' if write else 'would reformat'} {visible(name)}\n")
    return "changed"


def _count(n: int) -> str:
    return f"{n} file" + ("" if n == 1 else "s")

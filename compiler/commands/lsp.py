"""questc lsp: the language server for editors, over stdio (docs/editors.md).

Standard input and output carry the Language Server Protocol and nothing else: while
the server runs, anything the compiler would print goes to stderr, where the log goes
too (`--log FILE` writes it to a file instead).
"""

from __future__ import annotations

import argparse
from typing import TextIO


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default and only transport)")
    parser.add_argument("--debounce", type=float, default=None, metavar="S",
                        help="seconds of quiet after an edit before the pack is checked again (default: 0.03)")
    parser.add_argument("--pack-path", action="append", default=[], metavar="DIR",
                        help="another folder to find required packs in (repeatable; also QUESTC_PATH)")
    parser.add_argument("--log", metavar="FILE", help="write the server's log here instead of stderr")


def run(args: argparse.Namespace) -> int:
    import logging
    import sys

    from compiler.commands.editor.server import DEBOUNCE, serve

    handler = logging.FileHandler(args.log, encoding="utf-8") if args.log else logging.StreamHandler(sys.__stderr__)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, handlers=[handler],
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # as TextIO: their `buffer` is the BinaryIO the server reads and writes
    real_stdin: TextIO | None = sys.__stdin__
    real_stdout: TextIO | None = sys.__stdout__
    if real_stdin is None or real_stdout is None:  # a descriptor closed before questc started
        return _no_stdio("standard input" if real_stdin is None else "standard output")
    stdin, stdout = real_stdin.buffer, real_stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr  # a stray print must not break the protocol's framing
    try:
        serve(stdin, stdout, args.debounce if args.debounce is not None else DEBOUNCE, tuple(args.pack_path))
    finally:
        # pygls closes standard output on `exit`; the command line's final flush must
        # then not touch it (stderr stands in)
        if not real_stdout.closed:
            sys.stdout = saved
    return 0


def _no_stdio(name: str) -> int:
    """The protocol has no way in or out: said in one line, as for a closed standard output
    elsewhere (compiler/diagnostics/stdio.py), exit 1; was an internal error (I0001)."""
    import errno
    import os

    from compiler.diagnostics import stdio

    problem = os.strerror(errno.EBADF)
    stdio.say(f"error[I0003]: cannot write {name}: {problem}\n" if name == "standard output"
              else f"error: cannot read {name}: {problem}\n")
    return 1

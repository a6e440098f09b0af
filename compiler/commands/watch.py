"""questc watch [PATH…] [-o DIR]: rebuild on every save.

Polls the files of the packs given (and of the packs they require from the same
folders) and, whenever one changes, builds again: diagnostics, then — when the packs
are clean — bundles, images and manifests written atomically, as `questc build` does.
Unchanged files are not parsed again (compiler/memo.py). Stop with Ctrl-C (exit 0).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Iterable

from compiler.commands.common import add_pack_arguments


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)
    parser.add_argument("-o", "--output", default="build", metavar="DIR", help="output folder (default: build)")
    parser.add_argument("--interval", type=float, default=0.5, metavar="SECONDS", help="how often to look for changes (default: 0.5)")
    parser.add_argument("--no-images", action="store_true", help="skip rendering map images")


def snapshot(paths: Iterable[str]) -> dict[str, tuple[int, int]]:
    """(mtime in ns, size) of every pack file below the paths: what a save changes."""
    state: dict[str, tuple[int, int]] = {}
    for raw in paths:
        root = Path(raw)
        files = [root] if root.is_file() else sorted(root.rglob("*"))
        for f in files:
            if f.suffix in (".yaml", ".quest") and f.is_file():
                st = f.stat()
                state[str(f)] = (st.st_mtime_ns, st.st_size)
    return state


def watch(args: argparse.Namespace, wait: Callable[[float], None] = time.sleep, cycles: int | None = None) -> int:
    """Build once, then again after every change; `cycles` bounds the loop (tests)."""
    from compiler.commands import build

    seen: dict[str, tuple[int, int]] | None = None
    code = 0
    done = 0
    while cycles is None or done < cycles:
        now = snapshot(args.paths)
        if now != seen:
            seen = now
            started = time.perf_counter()
            code = build.run(args)
            took = time.perf_counter() - started
            verdict = "built" if code == 0 else "not built (see above)"
            sys.stderr.write(f"[questc watch] {verdict} in {took:.2f} s; watching {len(now)} file(s)\n")
            done += 1
        else:
            wait(args.interval)
    return code


def run(args: argparse.Namespace) -> int:
    try:
        watch(args)
    except KeyboardInterrupt:
        return 0
    return 0

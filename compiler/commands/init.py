"""questc init DIR: a new pack that compiles, requiring the shipped 2nd-edition tiles."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

PACK_YAML = """\
id: {id}
name: "{name}"
version: 0.1.0
licence: CC-BY-4.0
requires: [d2e-base]
ruleset: d2e
"""

QUEST = """\
## A first quest: the heroes come in by the entrance, into tile 11A; an end cap closes 11A's far side.
quest {ident} "{name}" {{
  heroes 2..4
  map {{
    tile entrance1A at (0, 0)
    tile 11A attach west to entrance1A.north
    tile endcap1A attach north to 11A.east  # closes 11A's east opening
  }}
  start heroes on entrance1A
  token search at 11A(1,1)
  spawn zombie at 11A(2,2)
  on defeated zombie {{ win "The dead lie still." }}
  on round_end 6 {{ lose "The dead overrun the hall." }}
}}
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", metavar="DIR", help="folder to create (must not exist or be empty)")
    parser.add_argument("--id", help="pack id (default: from the folder name)")


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.render import visible  # a folder's name may hold control characters

    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():  # iterdir() on a file was I0001
        sys.stderr.write(f"questc init: {visible(str(folder))} exists and is a file, not a folder\n")
        return 2
    if folder.exists() and _not_empty(folder):
        sys.stderr.write(f"questc init: {visible(str(folder))} exists and is not empty\n")
        return 2
    pack_id = args.id or re.sub(r"[^a-z0-9]+", "-", folder.resolve().name.lower()).strip("-") or "my-pack"
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", pack_id):
        sys.stderr.write(f"questc init: `{visible(pack_id)}` is not a valid pack id (lowercase letters, digits, hyphens)\n")
        return 2
    name = pack_id.replace("-", " ").title()
    ident = re.sub(r"[^a-z0-9_]", "_", pack_id.replace("-", "_"))
    if not ident[0].isalpha():
        ident = "q_" + ident
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "pack.yaml").write_text(PACK_YAML.format(id=pack_id, name=name), encoding="utf-8")
        (folder / "first.quest").write_text(QUEST.format(ident=ident, name=name), encoding="utf-8")
    except OSError as exc:  # below a file, read-only, /proc: was I0001
        return _cannot_write(Path(exc.filename or folder), exc)
    print(f"created pack `{pack_id}` in {visible(str(folder))}; try: questc check {visible(str(folder))}")
    return 0


def _not_empty(folder: Path) -> bool:
    try:
        return any(folder.iterdir())
    except OSError:  # unreadable: not a folder to fill
        return True


def _cannot_write(path: Path, exc: OSError) -> int:
    from compiler.diagnostics import Sink, Span
    from compiler.diagnostics.render import print_diagnostics

    sink = Sink()
    sink.report("I0003", Span.whole_file(str(path)), path=str(path), problem=exc.strerror or str(exc))
    print_diagnostics(sink, "human")
    return 1

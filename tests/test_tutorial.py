"""docs/tutorial.md is run as written: every `$ questc …` line of a ```console block runs
(in one temporary folder, in order) and its output (stderr then stdout, then the exit
code when it is not 0) must be the lines under it; a ```quest PATH block is written to
PATH first. QUESTC_UPDATE_GOLDEN=1 writes the real outputs into the tutorial (read the
diff)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from conftest import REPO, questc

TUTORIAL = REPO / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```(console|quest (\S+))\n(.*?)^```\n", re.M | re.S)


def _output(argv: list[str], cwd: Path) -> str:
    r = questc(*argv[1:], cwd=cwd)
    text = r.err + r.out
    text = text.replace(str(cwd) + os.sep, "").replace(str(cwd), ".")
    return text.rstrip("\n") + (f"\n[exit {r.code}]" if r.code else "")


def _run_console(body: str, cwd: Path) -> str:
    """The block with every command's output as it really is."""
    out: list[str] = []
    for chunk in re.split(r"^(?=\$ )", body, flags=re.M):
        if not chunk.strip():
            continue
        command = chunk.split("\n", 1)[0]
        assert command.startswith("$ questc "), f"a console block runs questc only: {command!r}"
        out.append(command)
        shown = _output(shlex.split(command[2:]), cwd)
        if shown:
            out.append(shown)
    return "\n".join(out) + "\n"


def test_the_tutorial_runs_as_written(tmp_path: Path):
    text = TUTORIAL.read_text(encoding="utf-8")
    rebuilt: list[str] = []
    at = 0
    blocks = 0
    for m in BLOCK.finditer(text):
        rebuilt.append(text[at:m.start()])
        if m.group(2):  # a file the reader writes
            path = tmp_path / m.group(2)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(m.group(3), encoding="utf-8")
            rebuilt.append(m.group(0))
        else:
            rebuilt.append(f"```console\n{_run_console(m.group(3), tmp_path)}```\n")
            blocks += 1
        at = m.end()
    rebuilt.append(text[at:])
    got = "".join(rebuilt)
    if os.environ.get("QUESTC_UPDATE_GOLDEN"):
        TUTORIAL.write_text(got, encoding="utf-8")
    assert blocks >= 6
    assert got == text

"""Fresh diagnostics after one edit of a quest, as an editor gets them from `questc lsp`.

A copy of content/d2e-quests; a_fat_goblin.quest is open and edited nine times (a line
added at its end: no span moves; a line added at its top: every span below moves and
that quest's maps are assembled again).

1. In-process (compiler/commands/editor/engine.py): the editor's text put in the source overlay,
   the pack checked, diagnostics grouped by file. Baseline in the same run: the same
   check with every remembered result forgotten first (what each keystroke would cost
   without compiler/memo.py).
2. Over stdio: `questc lsp --debounce 0` in a child process, a didChange sent, the time
   until its publishDiagnostics arrives (the default debounce, 0.03 s, comes on top).
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EDITS = 9


def _edits(text: str):
    return [
        ("at the end", lambda i: text + f"\n# note {i}\n"),
        ("at the top", lambda i: f"# note {i}\n" + text),
    ]


def in_process(src: Path) -> None:
    from compiler.commands.editor.engine import Engine
    from compiler.memo import forget

    quest = src / "a_fat_goblin.quest"
    text = quest.read_text(encoding="utf-8")
    engine = Engine()
    engine.open(quest, text)
    engine.check(src)

    def timed(edit, forget_first: bool) -> list[float]:
        times = []
        for i in range(EDITS):
            engine.change(quest, edit(i))
            if forget_first:
                forget()
            t0 = time.perf_counter()
            checked = engine.check(src)
            times.append(time.perf_counter() - t0)
            assert not any(d.severity.value == "error" for ds in checked.by_file.values() for d in ds)
        return times

    print(f"{'in-process check after one edit':<34}{'median (ms)':>13}{'best (ms)':>11}{'nothing remembered (baseline, ms)':>36}")
    for name, edit in _edits(text):
        warm, cold = timed(edit, False), timed(edit, True)
        print(f"{'line added ' + name:<34}{statistics.median(warm) * 1000:>13.0f}{min(warm) * 1000:>11.0f}{statistics.median(cold) * 1000:>36.0f}")
    engine.close(quest)


def over_stdio(src: Path) -> None:
    sys.path.insert(0, str(REPO / "tests"))
    from lsp_client import Client

    quest = src / "a_fat_goblin.quest"
    text = quest.read_text(encoding="utf-8")
    client = Client("--debounce", "0")
    try:
        client.initialize(src)
        t0 = time.perf_counter()
        uri = client.open(quest)
        client.diagnostics(uri, timeout=120)
        first = time.perf_counter() - t0
        print(f"{'over stdio (questc lsp --debounce 0)':<40}{'median (ms)':>13}{'best (ms)':>11}")
        print(f"{'didOpen to first diagnostics (cold)':<40}{first * 1000:>13.0f}{first * 1000:>11.0f}")
        version = 1
        for name, edit in _edits(text):
            times = []
            for i in range(EDITS):
                version += 1
                mark = len(client.notifications)
                t0 = time.perf_counter()
                client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [{"text": edit(i)}]})
                client.diagnostics(uri, timeout=60, after=mark)
                times.append(time.perf_counter() - t0)
            print(f"{'didChange to diagnostics, line ' + name:<40}{statistics.median(times) * 1000:>13.0f}{min(times) * 1000:>11.0f}")
        client.close()
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "d2e-quests"
        shutil.copytree(REPO / "content" / "d2e-quests", src)
        in_process(src)
        print()
        over_stdio(src)


if __name__ == "__main__":
    main()

"""`end`: the quest ends, whether won or lost not said (docs/language.md, "Endings"), the
language's word for an imported ending whose side nothing tells (docs/valkyrie.md,
"Endings"). Parsed, analysed honestly (Q0330, a warning, where Q0305 / Q0306 would be a
guess), emitted in the bundle, played by play.js (tests/player/endings.test.mjs under node),
and exported to Valkyrie as an end without an end sound, read back as `end`."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from compiler.diagnostics import Sink
from compiler.options import Options
from compiler.pipeline import compile_paths
from conftest import REPO, write_pack

NODE = shutil.which("node") or shutil.which("nodejs")

QUEST = """\
quest q "Q" {{
  map {{ tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }}
  start heroes on entrance1A
  {events}
}}
"""


def compiled(tmp_path, events: str):
    pack = write_pack(tmp_path, "t", requires=("d2e-base",), files={"q.quest": QUEST.format(events=events)})
    sink = Sink()
    result = compile_paths([str(pack)], Options(images=False), sink)
    return result, [(d.code, d.severity.value, d.message) for d in sink.items]


@pytest.mark.parametrize("events, said", [
    ('on round_end 3 { win "Won." }\n  on morale_zero { end "Over." }', "can be lost only through"),
    ('on round_end 3 { lose "Lost." }\n  on morale_zero { end }', "can be won only through"),
    ('on morale_zero { end "Over." }', "can be won or lost only through"),
])
def test_an_ending_without_a_side_is_q0330_a_warning_not_q0305_or_q0306(tmp_path, events, said):
    _, found = compiled(tmp_path, events)
    assert [(c, s) for c, s, _ in found] == [("Q0330", "warning")], found
    assert said in found[0][2]


def test_with_a_win_and_a_loss_an_end_says_nothing_more(tmp_path):
    _, found = compiled(tmp_path, 'on round_end 3 { win }\n  on round_end 4 { lose }\n  on morale_zero { end }')
    assert found == []


def test_end_stops_the_event_and_is_in_the_bundle_with_its_text(tmp_path):
    from compiler.emit.bundle import bundle_of, validate_bundle

    result, found = compiled(tmp_path, 'on round_end 3 { win }\n  on round_end 4 { lose }\n'
                                       '  on morale_zero { say "Falling back."; end "Over." }')
    assert found == []
    data = bundle_of(result.models[0])
    assert validate_bundle(data, Sink(), "bundle.json")  # the schema knows `end`
    (q,) = data["quests"].values()
    (ev,) = [e for e in q["encounters"][0]["events"] if e["on"]["kind"] == "morale_zero"]
    assert [e["kind"] for e in ev["do"]] == ["say", "end"] and data["strings"][ev["do"][1]["text"]]["text"] == "Over."


@pytest.mark.skipif(NODE is None, reason="needs node (Debian's nodejs) for node --test")
def test_play_js_ends_the_quest_on_end(tmp_path):
    for f in (REPO / "compiler" / "player").glob("*.js"):
        shutil.copyfile(f, tmp_path / f.name)
    for name in ("endings.test.mjs", "helpers.mjs"):
        shutil.copyfile(REPO / "tests" / "player" / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module", "private": true}\n', encoding="utf-8")
    r = subprocess.run([NODE, "--test", str(tmp_path / "endings.test.mjs")], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0 and "# fail 0" in r.stdout and "# pass 0" not in r.stdout, r.stdout + r.stderr


def test_a_chain_whose_only_loss_is_an_end_is_no_q0803(tmp_path):
    """`next quest` chains (compiler/passes/quest_chains.py): an `end` on a chain may be the
    loss, so a chain that only loops (a hub and its quest) is not "can never be lost"
    (Q0803, an error that may be wrong)."""
    head = '  map { tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }\n  start heroes on entrance1A\n'
    two = (f'quest a "A" {{\n{head}  on round_end 2 {{ next quest b }}\n  on round_end 5 {{ win }}\n}}\n'
           f'quest b "B" {{\n{head}  on round_end 3 {{ next quest a }}\n  on morale_zero {{ end }}\n}}\n')
    pack = write_pack(tmp_path, "t", requires=("d2e-base",), files={"q.quest": two})
    sink = Sink()
    compile_paths([str(pack)], Options(images=False), sink)
    assert [(d.code, d.severity.value) for d in sink.items] == [], [d.message for d in sink.items]

"""play.js (the web player's script, no DOM) under Node's test runner: the node tests in
tests/player/*.test.mjs on small hand-made bundles (docs/bundle.md, "Spawns, tokens,
events"): conditions, rounds per encounter, questions, door states, removals, `random`
and quotas, with random draws checked against Python's. Needs `node` (Debian's nodejs);
skipped without it — the browser tests (tests/test_player_site.py) play the same
constructs in Chromium.

Debian's nodejs 18 loads a `.js` file as an ES module only beside a package.json with
"type": "module", so the player's modules and the tests are copied into one folder with
such a file (the player itself ships none: browsers do not need it)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess

import pytest

from tests.conftest import REPO

NODE = shutil.which("node") or shutil.which("nodejs")
PLAYER = REPO / "compiler" / "player"
TESTS = REPO / "tests" / "player"
SEEDS = (0, 7, 12345, 2**40 + 3)
# this module's node tests (the other *.test.mjs there belong to tests/test_player_node.py)
NODE_TESTS = ["slice1.test.mjs", "slice2.test.mjs", "branch.test.mjs", "chains.test.mjs", "loops.test.mjs", "activations.test.mjs",
              "rounds.test.mjs"]


def draws(seed: int) -> list[int]:
    """Python's random.Random(seed).randint(1, 6), five times: the player must draw the same."""
    r = random.Random(seed)
    return [r.randint(1, 6) for _ in range(5)]


def stream(seed: int, rounds: int = 6) -> list[list[int]]:
    """slice2's random test, played in Python: each round `random` of 3 options (a = k),
    `set r = random 1..6`, `random` of 2 options (the first adds 10 to a): [a, r] per round."""
    r = random.Random(seed)
    out = []
    for _ in range(rounds):
        a = r.randint(1, 3)
        roll = r.randint(1, 6)
        if r.randint(1, 2) == 1:
            a += 10
        out.append([a, roll])
    return out


def python_module() -> str:
    return (f"export const DRAWS = {json.dumps({str(s): draws(s) for s in SEEDS})};\n"
            f"export const STREAMS = {json.dumps({str(s): stream(s) for s in SEEDS})};\n")


def node_folder(tmp_path):
    """The player's modules, the node tests and their Python-made expectations in one folder."""
    for f in PLAYER.glob("*.js"):
        shutil.copyfile(f, tmp_path / f.name)
    for name in (*NODE_TESTS, "helpers.mjs", "solve.mjs"):
        shutil.copyfile(TESTS / name, tmp_path / name)
    (tmp_path / "python.mjs").write_text(python_module(), encoding="utf-8")
    (tmp_path / "package.json").write_text('{"type": "module", "private": true}\n', encoding="utf-8")
    return tmp_path


@pytest.mark.skipif(NODE is None, reason="needs node (Debian's nodejs) for node --test")
@pytest.mark.parametrize("name", NODE_TESTS)
def test_play_js_under_node(tmp_path, name):
    folder = node_folder(tmp_path)
    r = subprocess.run([NODE, "--test", str(folder / name)], capture_output=True, text=True, timeout=120, cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "# fail 0" in r.stdout and "# pass 0" not in r.stdout, r.stdout


# ---------------------------------------------------------------- every event key of the bundle is played
SCHEMAS = REPO / "schemas" / "bundle"
EVENT_DEFS = ("trigger", "event", "effect", "choice", "condition", "operand")
DOOR_STATES = ("open", "locked", "hidden")


def schema_event_keys() -> tuple[set[str], set[str]]:
    """The event part of the bundle schema: its keys as `def.key`, and the values of its enums."""
    defs = json.loads((SCHEMAS / "quests.schema.json").read_text(encoding="utf-8"))["$defs"]
    doors = json.loads((SCHEMAS / "map.schema.json").read_text(encoding="utf-8"))["properties"]["doors"]
    keys, values = set(), set()
    for name in EVENT_DEFS:
        for key, spec in defs[name]["properties"].items():
            keys.add(f"{name}.{key}")
            values |= {f"{name}.{key}={v}" for v in spec.get("enum", [])}
    door = doors["additionalProperties"]["properties"]
    assert set(DOOR_STATES) <= set(door)
    keys |= {f"door.{k}" for k in DOOR_STATES}
    return keys, values


def read_by(source: str) -> tuple[set[str], set[str]]:
    """The property names a script reads (`.name`, `["name"]`, `{ a, b } =`) and its string literals."""
    code = re.sub(r"/\*.*?\*/", "", re.sub(r"//[^\n]*", "", source), flags=re.S)
    props = set(re.findall(r"\.([A-Za-z_]\w*)", code)) | set(re.findall(r"\[\s*\"(\w+)\"\s*\]", code))
    for names in re.findall(r"\{([\w\s,]+)\}\s*(?:of|=)", code):
        props |= {n.strip() for n in names.split(",") if n.strip()}
    return props, set(re.findall(r"\"([^\"\n]+)\"", code))


def presentational() -> dict[str, str]:
    """docs/bundle.md's table of event keys a front end may ignore: `def.key` -> why."""
    text = (REPO / "docs" / "bundle.md").read_text(encoding="utf-8")
    part = text.split("### How a front end plays events", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| `(\w+\.\w+)` \| (.+?) \|$", part, flags=re.M))


def unplayed(source: str) -> list[str]:
    """Keys and enum values of the event part that `source` (play.js) never reads, less the presentational ones."""
    keys, values = schema_event_keys()
    props, strings = read_by(source)
    shown = presentational()
    out = [k for k in sorted(keys) if k.split(".", 1)[1] not in props and k not in shown]
    out += [v for v in sorted(values) if v.split("=", 1)[1] not in strings]
    return out


def test_play_js_reads_every_key_of_the_event_part_of_the_bundle():
    assert unplayed((PLAYER / "play.js").read_text(encoding="utf-8")) == []


def test_the_presentational_keys_are_in_the_schema_and_shown_by_the_page():
    keys, _ = schema_event_keys()
    shown = presentational()
    assert set(shown) == {"trigger.area", "event.can_fire"}
    assert set(shown) <= keys
    props, _ = read_by((PLAYER / "app.js").read_text(encoding="utf-8"))
    assert {k.split(".", 1)[1] for k in shown} <= props


def test_the_check_finds_a_key_or_kind_play_js_does_not_read():
    source = (PLAYER / "play.js").read_text(encoding="utf-8")
    assert "event.quota" in unplayed(source.replace(".quota", ".q_u_o_t_a"))
    assert "effect.kind=remove_spawn" in unplayed(source.replace('"remove_spawn"', '"r_s"'))
    assert "door.locked" in unplayed(source.replace(".locked", ".l_o_c_k_e_d"))

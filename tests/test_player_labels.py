"""The player draws as `questc render` does (docs/player.md, "The map and its legend"):
labels.js's terrain looks (colours, hashed colours, glyphs), monster initials, token
letters and tile-label places against the Python that render uses, on every shipped
pack's terrain, monsters and maps, under `node --test`."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from compiler.emit.images import style as S
from compiler.emit.images.legend import token_letter
from compiler.emit.images.map import DEFAULT_SCALE, _marked_cells, tile_label_spots
from compiler.emit.images.pictures import monster_initials
from compiler.emit.images.quest import quest_maps
from compiler.emit.images.terrain import look_for
from compiler.options import Options
from compiler.pipeline import compile_paths
from tests.conftest import REPO

NODE = shutil.which("node") or shutil.which("nodejs")
PACKS = ("d2e-quests", "natures-ire", "rtl-dungeons")
# ids no catalog knows, each with a rule giving one of the fallback glyphs (hashed colours)
MADE_UP = {
    "zz_swamp": {"sight": "normal"},
    "ébène": {"blocks_movement": True, "sight": "normal"},
    "crag": {"elevated": True, "sight": "normal"},
    "brazier": {"on_enter_damage": 2, "sight": "normal"},
    "cursed ground": {"defeat_end_of_turn": True, "sight": "normal"},
    "mist": {"sight": "adjacent_only"},
    "chasm": {"sight": "pit_region"},
    "": {"sight": "normal"},
}
RULE_FIELDS = ("blocks_movement", "elevated", "defeat_end_of_turn", "on_enter_damage", "sight")


def _look(look: S.TerrainLook) -> dict[str, object]:
    return {"fill": list(look.fill), "glyph": look.glyph, "ink": list(look.ink)}


def cases() -> dict[str, object]:
    terrain: dict[str, dict[str, object]] = {}
    initials: dict[str, str] = {}
    spots = []
    fnt = S.font(max(8, round(DEFAULT_SCALE * 0.34)))
    for pack in PACKS:
        model = compile_paths([str(REPO / "content" / pack)], Options(sight=False)).model
        for tid, rule in model.terrain.items():
            terrain[tid] = {"id": tid, "rule": {f: getattr(rule, f) for f in RULE_FIELDS}, "look": _look(look_for(model.terrain, tid))}
        for name in model.monsters or {}:
            initials[name] = monster_initials(name)
        for map_id, pic in sorted(quest_maps(model).items()):
            across = {t.code: 1 + (S.text_size(fnt, S.printable(t.code))[2] + 5) // DEFAULT_SCALE for t in pic.tiles}
            spots.append({
                "name": f"{pack}/{map_id}",
                "tiles": [{"code": t.code, "name": t.name or t.code, "cells": [list(c) for c in t.cells]} for t in pic.tiles],
                "spaces": [f"{x},{y}" for x, y in pic.board.spaces],
                "taken": sorted(f"{x},{y}" for x, y in _marked_cells(pic)),
                "across": across,
                "want": [[code, list(at)] for code, at in tile_label_spots(pic, DEFAULT_SCALE)],
            })
    for tid, rule in MADE_UP.items():
        flags = {"blocks_movement": bool(rule.get("blocks_movement")), "adjacent_only": rule.get("sight", "normal") != "normal",
                 "elevated": bool(rule.get("elevated")), "harmful": bool(rule.get("defeat_end_of_turn") or rule.get("on_enter_damage"))}
        terrain[tid] = {"id": tid, "rule": rule, "look": _look(S.terrain_look(tid, **flags))}
    for name in ("Cave spiders", "ogre-lord of the deep", "__", "élan vital", "splig", "a b c d", "Ærin_the-bold"):
        initials[name] = monster_initials(name)
    letters = [[k, lab, token_letter(k, lab)] for k, lab in (("search", ""), ("objective", "seed grain"), ("villager", "élodie"), ("x", ""))]
    return {"terrain": list(terrain.values()), "initials": sorted(initials.items()), "letters": letters, "spots": spots}


def test_the_cases_cover_every_kind_of_look():
    c = cases()
    glyphs = {t["look"]["glyph"] for t in c["terrain"]}
    assert {"", "waves", "cross", "pit", "lava", "hazard", "elevation", "fog", "dots"} <= glyphs
    assert any(t["id"] not in S.TERRAIN_LOOKS for t in c["terrain"] if t["id"] in {"tree", "staircase"})  # hashed colours of real terrain
    assert len(c["spots"]) >= 10


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (Debian: apt-get install nodejs; `make test` installs it)")
def test_labels_js_draws_as_render(tmp_path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases(), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([NODE, "--test", str(REPO / "tests" / "player" / "labels.test.mjs")], cwd=REPO, capture_output=True,
                          text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "QUESTC_LABEL_CASES": str(path)})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# skipped 0" in done.stdout, done.stdout[-2000:]
    assert int(done.stdout.split("# pass ")[1].split()[0]) == 8

"""Rebuilding after an edit recomputes only what the edit reaches, and the results are
exactly those of a fresh build (compiler/memo.py, compiler/emit/shared.py)."""

import json
import shutil

import pytest

import compiler.emit.maps as emit_maps
import compiler.passes.maps as maps_pass
from compiler.emit.build import outputs_of
from compiler.emit.bundle import bundle_of
from compiler.emit.shared import Shared, dumps
from compiler.memo import forget
from compiler.options import Options
from compiler.pipeline import compile_paths
from conftest import REPO

PACKS = sorted(p.parent.name for p in (REPO / "content").glob("*/pack.yaml"))


@pytest.mark.parametrize("pack", PACKS)
def test_spliced_serialisation_equals_json_dumps(pack):
    model = compile_paths([str(REPO / "content" / pack)], Options()).model
    bundle = bundle_of(model)
    plain = json.loads(json.dumps(bundle))  # no Shared parts left
    expected = (json.dumps(plain, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode()
    assert dumps(bundle) == expected


def counting(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_an_edit_of_one_quest_file_rebuilds_only_its_maps(tmp_path, monkeypatch):
    src = tmp_path / "d2e-quests"
    shutil.copytree(REPO / "content" / "d2e-quests", src)
    forget()
    first = compile_paths([str(src)], Options())
    fresh_files = outputs_of(first.model, first.sink)
    assemblies = counting(monkeypatch, maps_pass, "_encounter_map")
    emitted = counting(monkeypatch, emit_maps, "_map_json")

    same = compile_paths([str(src)], Options())
    assert outputs_of(same.model, same.sink) == fresh_files
    assert assemblies == [] and emitted == []  # nothing changed, nothing recomputed

    quest = src / "a_fat_goblin.quest"
    quest.write_text(quest.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    edited = compile_paths([str(src)], Options())
    assert not edited.sink.items
    files = outputs_of(edited.model, edited.sink)
    # a comment at the end moves no span: every map is the one remembered
    assert assemblies == [] and emitted == []
    assert files == fresh_files

    quest.write_text("# moved down a line\n" + quest.read_text(encoding="utf-8"), encoding="utf-8")
    moved = compile_paths([str(src)], Options())
    assert not moved.sink.items
    files = outputs_of(moved.model, moved.sink)
    # a_fat_goblin's two maps are assembled again (their spans moved); first_blood's is not
    assert len(assemblies) == 2
    assert {b.span.file for b, *_ in assemblies} == {moved.model.modules[0].file}
    forget()
    cold = compile_paths([str(src)], Options())
    assert outputs_of(cold.model, cold.sink) == files  # remembered results are exact


def test_maps_in_the_bundle_are_shared_between_builds():
    a = bundle_of(compile_paths([str(REPO / "content" / "d2e-quests")], Options()).model)
    b = bundle_of(compile_paths([str(REPO / "content" / "d2e-quests")], Options()).model)
    map_a = a["quests"]["first_blood"]["encounters"][0]["map"]
    assert isinstance(map_a, Shared) and map_a is b["quests"]["first_blood"]["encounters"][0]["map"]

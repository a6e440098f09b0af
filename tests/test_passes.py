"""PASSES: declared reads and writes are consistent, and passes load only what a pack needs."""

import json
import subprocess
import sys

import pytest

from compiler.model import RESULTS
from compiler.passes import DECLARED, PASSES
from conftest import REPO


def test_every_field_a_pass_reads_is_written_by_an_earlier_pass():
    written: set[str] = set()
    for p in PASSES:
        missing = set(p.reads) - written
        assert not missing, f"pass {p.name} reads {sorted(missing)} before any pass writes it"
        twice = set(p.writes) & written
        assert not twice, f"pass {p.name} writes {sorted(twice)} again"
        written |= set(p.writes)
    assert written == set(RESULTS), "every model result field has exactly one writer"


def test_each_pass_is_a_module_with_its_function_and_real_needs():
    kinds = {f.stem for f in (REPO / "schemas" / "catalogs").glob("*.schema.json")}
    for p in PASSES:
        assert callable(p.function), p.name
        for need in p.needs:
            if need.startswith("catalog:"):
                assert need.removeprefix("catalog:") in {k.split(".")[0] for k in kinds}, need
            else:
                assert need in DECLARED or need == "translations", need


HEAVY = ("numpy", "scipy", "shapely", "networkx", "PIL")


def _loaded_after_check(pack: str) -> dict:
    code = (
        "import sys, json\n"
        "from compiler.cli import main\n"
        f"code = main(['check', {pack!r}])\n"
        f"print(json.dumps({{'code': code, 'heavy': sorted(m for m in {HEAVY!r} if m in sys.modules)}}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_checking_a_catalog_only_pack_loads_no_geometry_library():
    """core-2e holds terrain and dice; d2e-base the tile catalog too: no map, no sight."""
    for pack in ("content/core-2e", "content/d2e-base"):
        seen = _loaded_after_check(pack)
        assert seen["code"] == 0
        assert seen["heavy"] == [], (pack, seen["heavy"])


def test_checking_a_pack_with_maps_does_load_them():
    # the control: the probe above would pass vacuously if nothing were ever imported
    seen = _loaded_after_check("content/d2e-quests")
    assert seen["code"] == 0
    assert "shapely" in seen["heavy"] and "networkx" in seen["heavy"]


class Poison:
    """Stands for a model field a pass did not declare: any use of it fails the test."""

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def _touched(self, *args, **kwargs):
        raise AssertionError(f"read {self.name}, which the pass does not declare")

    __getattr__ = __iter__ = __len__ = __bool__ = __getitem__ = __contains__ = __call__ = _touched


@pytest.mark.parametrize("pack", ["d2e-quests", "natures-ire", "terrinoth-1e", "core-1e", "tests/data/translated-pack"])
def test_a_pass_reads_only_the_fields_it_declares(pack):
    """The memo of run_passes keys a pass's results by what it declares (and, for catalog
    passes, by no quest file): reading anything else would let a stale result through."""
    from compiler.diagnostics import Sink
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    full = compile_paths([str(REPO / pack if "/" in pack else REPO / "content" / pack)], Options(images=False)).model
    for p in PASSES:
        if not p.applies(full):
            continue
        hidden = {f: Poison(f) for f in RESULTS if f not in p.reads}
        if all(n.startswith("catalog:") for n in p.needs):
            hidden["modules"] = Poison("modules")
            hidden["translation_files"] = Poison("translation_files")
        p.results(full.with_(**hidden), Sink())

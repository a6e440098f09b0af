"""The shipped packs: every one checks clean under --strict and builds deterministically."""

import json

import pytest

from conftest import REPO, questc

PACKS = sorted(p.parent.name for p in (REPO / "content").glob("*/pack.yaml"))


@pytest.mark.parametrize("pack", PACKS)
def test_shipped_pack_checks_clean_under_strict(pack):
    r = questc("check", REPO / "content" / pack, "--strict", "--format", "json")
    assert r.code == 0, json.dumps(r.json()["diagnostics"][:5], indent=1)


def test_build_of_all_content_is_byte_identical(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert questc("build", REPO / "content", "-o", first).code == 0
    assert questc("build", REPO / "content", "-o", second).code == 0
    files = lambda root: {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    a, b = files(first), files(second)
    assert a == b
    assert {name.split("/")[0] for name in a} - {".questc.lock"} == set(PACKS)  # builds into DIR take turns on the lock
    for pack in PACKS:
        manifest = json.loads(a[f"{pack}/manifest.json"])
        listed = set(manifest["files"])
        written = {n.split("/", 1)[1] for n in a if n.startswith(pack + "/")} - {"manifest.json"}
        assert listed == written


def test_build_does_not_depend_on_the_hash_seed(tmp_path):
    import os
    import subprocess
    import sys

    outs = []
    for seed in ("1", "4242"):
        out = tmp_path / seed
        env = {**os.environ, "PYTHONHASHSEED": seed}
        code = "import sys; from compiler.cli import main; raise SystemExit(main(sys.argv[1:]))"
        done = subprocess.run([sys.executable, "-c", code, "build", str(REPO / "content" / "d2e-quests"), "-o", str(out)],
                              env=env, cwd=REPO, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert outs[0] == outs[1]


GOLDEN = REPO / "tests" / "golden" / "builds"


def test_build_of_all_content_matches_the_recorded_manifests(tmp_path):
    """Refactors must not change a byte of output: every shipped pack's manifest (sha256 of
    each file) equals the one recorded in tests/golden/builds. A deliberate change to the
    outputs rewrites those files (`questc build content -o build` and copy the manifests)."""
    assert questc("build", REPO / "content", "-o", tmp_path).code == 0
    for pack in PACKS:
        recorded = json.loads((GOLDEN / f"{pack}.manifest.json").read_text(encoding="utf-8"))
        built = json.loads((tmp_path / pack / "manifest.json").read_text(encoding="utf-8"))
        assert built == recorded, pack

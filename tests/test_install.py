"""The source distribution and the wheel, installed outside the repository, work alone.

`python -m build` makes the sdist, then the wheel *from the sdist* (so a file missing
from the sdist is missing from the wheel too). Each is installed into a fresh virtual
environment created in a temporary folder. The third-party dependencies (numpy, scipy,
shapely…) are not downloaded again: the new environment sees the test environment's
site-packages through a `.pth` line, which Python appends *after* its own
site-packages and which does not run the test environment's own `.pth` files (so its
editable questc stays invisible). questc itself is installed from the artifact with
`--no-deps --ignore-installed`, and the test checks that the `compiler` package run is
the one inside the new environment. Building needs setuptools from the package index
(build isolation), as any user's `pip install` does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import REPO


def _run(argv, cwd, env=None, timeout=600):
    r = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{argv}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", out, REPO], cwd=out)
    sdist = next(out.glob("questc-*.tar.gz"))
    wheel = next(out.glob("questc-*.whl"))
    return {"sdist": sdist, "wheel": wheel}


def _clean_env(venv: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QUESTC_", "VIRTUAL_ENV"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    return env


@pytest.mark.parametrize("kind", ["sdist", "wheel"])
def test_installed_questc_builds_its_shipped_packs_and_checks_a_new_one(kind, dists, tmp_path):
    venv = tmp_path / "venv"
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", venv], cwd=tmp_path)
    python = venv / "bin" / "python"
    purelib = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp_path).stdout.strip())
    (purelib / "_questc_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    env = _clean_env(venv)
    _run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed", dists[kind]], cwd=tmp_path, env=env)

    work = tmp_path / "elsewhere"
    work.mkdir()
    where = _run([python, "-c", "import compiler; print(compiler.__file__)"], cwd=work, env=env).stdout.strip()
    assert Path(where).is_relative_to(venv), where
    assert not Path(where).is_relative_to(REPO)

    questc = venv / "bin" / "questc"
    r = _run([questc, "build", "d2e-quests", "-o", "out"], cwd=work, env=env)
    assert (work / "out" / "d2e-quests" / "bundle.json").is_file(), r.stderr
    assert list((work / "out" / "d2e-quests" / "maps").glob("*.png"))
    _run([questc, "los", "d2e-quests", "--quest", "first_blood", "--from", "9,9", "--to", "6,5"], cwd=work, env=env)
    _run([questc, "view", "d2e-quests", "-o", "site"], cwd=work, env=env)  # the player's files are package data
    assert {p.name for p in (work / "site").iterdir()} >= {"index.html", "app.js", "sight.js", "style.css", "bundle.json"}
    _run([questc, "init", "my-pack"], cwd=work, env=env)
    r = _run([questc, "check", "my-pack", "--format", "json"], cwd=work, env=env)
    assert '"errors": 0' in r.stdout
    r = _run([python, "-m", "compiler", "--version"], cwd=work, env=env)
    assert r.stdout.startswith("questc ")

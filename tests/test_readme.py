"""The README's example commands work as written (outputs redirected to a temp folder)."""

import re
import shlex

import pytest

from conftest import REPO, questc

README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCK = re.search(r"```sh\n(.*?)```", README.split("## Quick start", 1)[1].split("Then,", 1)[1], re.S).group(1)
COMMANDS = [line.split("#")[0].strip() for line in BLOCK.splitlines() if line.startswith("questc ")]


@pytest.mark.parametrize("line", COMMANDS)
def test_readme_command_runs(line, tmp_path):
    argv = shlex.split(line)[1:]
    argv = [str(tmp_path / a) if a in ("build", "my-pack") and i > 0 else a for i, a in enumerate(argv)]
    r = questc(*argv, cwd=REPO)
    assert r.code == 0, r.err + r.out


def test_readme_quick_start_is_the_two_make_commands():
    quick = README.split("## Quick start", 1)[1].split("Then,", 1)[0]
    assert re.findall(r"^make \w+", quick, re.M) == ["make build", "make test"]

"""Shared test helpers: tiny packs written into tmp folders, and running the CLI in-process."""

from __future__ import annotations

import io
import json
import os
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _shared_dir() -> Path:
    """The read-only reference folder beside the clone; QUESTC_SHARED_DIR overrides it
    (point it at a missing folder to run the suite as a machine without the data would)."""
    if os.environ.get("QUESTC_SHARED_DIR"):
        return Path(os.environ["QUESTC_SHARED_DIR"])
    for candidate in (REPO.parent / "shared", Path("/work/shared")):
        if (candidate / "data").is_dir():
            return candidate
    return REPO.parent / "shared"


def pytest_configure(config) -> None:
    """Kept results (compiler/diskcache.py) go to a folder of this run, never the user's
    cache: every run starts cold, and a test cannot pass on what an older build kept."""
    import tempfile

    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="questc-tests-cache-")


SHARED = _shared_dir()
HAS_SHARED = (SHARED / "data").is_dir()


# The smallest quest that compiles clean against d2e-base (two tiles, a start, a win and a loss).
QUEST = """\
quest q "Q" {
  map { tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }
  start heroes on entrance1A
  on round_end 3 { win "Won." }
  on round_end 4 { lose "Lost." }
}
"""


def write_pack(root: Path, pack_id: str = "t", *, requires=(), files: dict[str, str] | None = None, ruleset="d2e") -> Path:
    folder = root / pack_id
    folder.mkdir(parents=True, exist_ok=True)
    reqs = ", ".join(requires)
    (folder / "pack.yaml").write_text(
        f"id: {pack_id}\nname: Test {pack_id}\nversion: 1.0.0\nlicence: MIT\nruleset: {ruleset}\nrequires: [{reqs}]\n",
        encoding="utf-8",
    )
    for name, text in (files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


class Run:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)

    @property
    def codes(self) -> list[str]:
        return [d["code"] for d in self.json()["diagnostics"]]


def questc(*argv: str, cwd: Path | None = None) -> Run:
    from compiler.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    try:
        if cwd:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            code = main([str(a) for a in argv])
    finally:
        os.chdir(old)
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture
def run():
    return questc


# The web player's browser tests share one Chromium per session (tests/browser.py).
from tests.browser import browser, page, sites  # noqa: E402,F401


# Markers (pyproject.toml): a browser test is one that asks for Chromium; the slow modules
# are those whose tests take seconds each (measured with `pytest --durations`, see
# docs/performance.md); plugin tests mark themselves (`pytestmark = pytest.mark.plugins`).
BROWSER_FIXTURES = {"browser", "page", "sites"}
SLOW_MODULES = {
    "test_install", "test_watch", "test_verify_sight", "test_activation_shipped", "test_pipeline_fuzz",
    "test_hostile_parse", "test_hostile_files", "test_hostile_builds", "test_content", "test_lsp",
    "test_golden_corpus", "test_sight_properties", "test_fuzz", "test_depth_limits", "test_readers",
    "test_bounded_output", "test_player_commands", "test_verdicts", "test_incremental", "test_report_calls",
    "test_markers",
}
SLOW_TESTS = {
    "test_a_warm_run_reports_and_builds_exactly_what_a_cold_run_does",
    "test_real_quest_maps_agree_with_the_shapely_witness_on_every_pair",
    "test_first_edition_pit_agrees_with_the_reference_and_the_witness",
    "test_questc_check_strict_on_the_pack",
    "test_shipped_pack_checks_clean_under_strict",
    "test_sarif_is_valid_has_rendered_rules_and_fixes",
    "test_recombined_declarations_keep_their_meaning_and_format_idempotently",
    "test_equality_hash_and_repr_are_those_of_a_frozen_dataclass",
    "test_alias_bomb_is_rejected_not_expanded",
    "test_fifty_thousand_misspelt_rows_spend_the_suggestion_budget_once",
    "test_readme_command_runs",
    "test_bytes_do_not_depend_on_hash_seed",
}


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module is not None else ""
        if module in SLOW_MODULES or getattr(item, "originalname", item.name) in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_unsaved_text_left_behind():
    """An in-process language-server test holds editors' unsaved texts in compiler.sources;
    a test that forgets to drop them must not change what later tests read."""
    yield
    from compiler import sources

    for path in sources.overlaid():
        sources.drop_overlay(path)


@pytest.fixture
def valkyrie_codes():
    """The Valkyrie plugin's VK codes in the catalogue, as `--plugin valkyrie` puts them there
    (the Valkyrie test modules use it for every test: `pytest.mark.usefixtures`)."""
    from compiler.diagnostics import Sink, Span
    from compiler.plugins import loader

    assert loader.enable([("valkyrie", Span("<test>", 1, 1))], Sink())
    yield
    loader.reset()

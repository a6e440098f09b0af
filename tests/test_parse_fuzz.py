"""Property tests: whatever the input, parse_module returns a Module and only reports
catalogued diagnostics — never an exception, never the internal-error code."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.diagnostics import Sink
from compiler.diagnostics.catalogue import CATALOGUE
from compiler.syntax import ast
from compiler.syntax.parse import lark_parser, parse_module
from fuzzhelp import assert_one_error_per_span

CASES = Path(__file__).parent / "cases" / "syntax"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(text: str) -> Sink:
    sink = Sink()
    module = parse_module(text, "fuzz.quest", sink)
    assert isinstance(module, ast.Module)
    for d in sink.items:
        assert d.code in CATALOGUE
        assert d.code != "S0900", d.message  # an internal error is a bug
        assert d.span.line >= 1 and d.span.column >= 1
    assert_one_error_per_span(sink.items)
    return sink


def _vocabulary() -> list[str]:
    """Every keyword and punctuation of the grammar, plus sample names, numbers, strings."""
    words = sorted({t.pattern.value for t in lark_parser().terminals if t.pattern.type == "str"})
    return words + ["9A", "16A", "hall", "g", "0", "3", "-2", "2x1", '"s"', '"""t"""', "\n", ";", "# c\n", "## d\n"]


VOCAB = _vocabulary()
GOLDEN = [p.read_text(encoding="utf-8") for p in sorted(CASES.glob("*.quest"))]


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes(data: bytes):
    check(data.decode("utf-8", errors="replace"))


@SETTINGS
@given(st.text(max_size=200))
def test_random_unicode(text: str):
    check(text)


@SETTINGS
@given(st.lists(st.sampled_from(VOCAB), max_size=60))
def test_token_soup(tokens: list[str]):
    check(" ".join(tokens))


@SETTINGS
@given(st.lists(st.sampled_from(VOCAB), max_size=40), st.sampled_from(GOLDEN), st.integers(min_value=0))
def test_golden_files_with_soup_spliced_in(tokens: list[str], golden: str, at: int):
    cut = at % (len(golden) + 1)
    check(golden[:cut] + " ".join(tokens) + golden[cut:])


@SETTINGS
@given(st.sampled_from(GOLDEN), st.integers(min_value=0), st.integers(min_value=1, max_value=40))
def test_golden_files_with_a_piece_cut_out(golden: str, at: int, length: int):
    cut = at % (len(golden) + 1)
    check(golden[:cut] + golden[cut + length :])


def test_clean_golden_files_stay_clean_and_parse_is_deterministic():
    for path in sorted(CASES.glob("*.quest")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"#\s*expect:", text):
            continue
        first, second = Sink(), Sink()
        assert parse_module(text, path.name, first) == parse_module(text, path.name, second)
        assert first.items == [] and second.items == []

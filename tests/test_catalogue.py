"""The diagnostic catalogue is well-formed data: every code documented, phase-prefixed, unique."""

import re

from compiler.diagnostics.catalogue import CATALOGUE
from compiler.diagnostics.docgen import generate
from compiler.commands.explain import explain_text


def test_catalogue_loads_and_is_documented():
    assert len(CATALOGUE) >= 20
    for code, entry in CATALOGUE.items():
        assert re.fullmatch(r"[A-Z][0-9]{4}", code), code
        assert entry.message and entry.explanation, code
        assert entry.fix, f"{code} has no fix"


def test_explain_shows_what_example_fix():
    text = explain_text("p0103")
    assert text.startswith("P0103 (error)")
    assert "What" in text and "Fix" in text and "core-2f" in text


def test_docs_are_generated_from_the_catalogue():
    doc = generate()
    for code in CATALOGUE:
        assert f"### {code}" in doc


def test_every_catalogued_code_is_reported_somewhere():
    """No dead codes: each code of the catalogue appears in the compiler's source."""
    import pathlib

    from compiler.diagnostics.catalogue import CATALOGUE

    root = pathlib.Path(__file__).resolve().parents[1] / "compiler"
    source = "\n".join(p.read_text(encoding="utf-8") for p in root.rglob("*.py"))
    dead = [code for code in CATALOGUE if f'"{code}"' not in source]
    assert dead == []

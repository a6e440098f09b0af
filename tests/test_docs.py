"""Generated docs stay in step with their sources."""

from compiler.diagnostics.docgen import generate
from conftest import REPO


def test_diagnostics_md_is_generated_from_the_catalogue():
    on_disk = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert on_disk == generate(), "run `make docs` to regenerate docs/diagnostics.md"

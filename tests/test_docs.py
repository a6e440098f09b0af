"""Generated docs stay in step with their sources; docs cite only pages of this repository."""

import re
from pathlib import Path

from compiler.diagnostics.docgen import generate
from conftest import REPO


def test_diagnostics_md_is_generated_from_the_catalogue():
    on_disk = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert on_disk == generate(), "run `make docs` to regenerate docs/diagnostics.md"


# The repository stands on its own: no page or module sends the reader to a rules file
# outside it. The map rules live in docs/rules.md and are cited by section heading.
OUTSIDE = ("RULES.md", "../shared", "/work/shared")
CITATION = re.compile(r'docs/rules\.md,\s+"([^"\n]+)"')


def _own_texts() -> list[Path]:
    files = sorted((REPO / "docs").rglob("*.md")) + [REPO / "README.md"]
    files += sorted(p for p in (REPO / "compiler").rglob("*") if p.suffix in (".py", ".yaml", ".yml", ".lark"))
    return files


def _headings(markdown: str) -> set[str]:
    out, fenced = set(), False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)
        if m and not fenced:
            out.add(m.group(1))
    return out


def test_no_reference_points_outside_the_repository():
    found = []
    for path in _own_texts():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(REPO)}:{n}: {word}" for word in OUTSIDE if word in line]
    assert not found, "cite docs/rules.md (or another docs page) instead:\n" + "\n".join(found)


def test_rules_citations_name_existing_headings():
    headings = _headings((REPO / "docs" / "rules.md").read_text(encoding="utf-8"))
    for section in ("Coordinates", "Walls, openings and doors", "Adjacency and movement",
                    "Counting spaces", "Line of sight", "Placement checks"):
        assert section in headings
    cited, wrong = 0, []
    for path in _own_texts() + sorted((REPO / "tests").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in CITATION.finditer(text):
            cited += 1
            if m.group(1) not in headings:
                line = text.count("\n", 0, m.start()) + 1
                wrong.append(f"{path.relative_to(REPO)}:{line}: {m.group(1)!r}")
    assert cited > 10  # the pattern still matches the way the code and docs cite
    assert not wrong, f"no such heading in docs/rules.md (have {sorted(headings)}):\n" + "\n".join(wrong)

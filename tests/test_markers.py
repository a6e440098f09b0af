"""Core tests need no plugin: a test that imports a first-party plugin is marked `plugins`.

`pytest -m "not plugins"` (and `make test-fast` with it) must collect and run on a
machine where only questc is installed, so a module that imports `questc_tag`,
`questc_tiled` or `questc_valkyrie` at its top marks itself (`pytestmark =
pytest.mark.plugins`), and a test that imports one inside its body is decorated with
`@pytest.mark.plugins`.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PLUGINS = ("questc_tag", "questc_tiled", "questc_valkyrie")


def _imports_plugin(node: ast.AST) -> bool:
    for n in ast.walk(node):
        names = [a.name for a in n.names] if isinstance(n, ast.Import) else [n.module or ""] if isinstance(n, ast.ImportFrom) else []
        if any(name.split(".")[0] in PLUGINS for name in names):
            return True
    return False


def _marked(decorators: list[ast.expr]) -> bool:
    return any(ast.unparse(d).endswith("mark.plugins") for d in decorators)


def unmarked(tree: ast.Module) -> list[str]:
    module_marked = any(
        isinstance(s, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in s.targets) and "plugins" in ast.unparse(s.value)
        for s in tree.body
    )
    if module_marked:
        return []
    found = []
    for s in tree.body:
        if isinstance(s, (ast.Import, ast.ImportFrom)) and _imports_plugin(s):
            found.append(f"line {s.lineno}: imports a plugin at the top of the module")
        elif isinstance(s, ast.FunctionDef) and _imports_plugin(s) and not _marked(s.decorator_list):
            found.append(f"{s.name} imports a plugin")
    return found


def test_every_test_that_imports_a_plugin_is_marked():
    wrong = {p.name: w for p in sorted(TESTS.glob("test_*.py")) if (w := unmarked(ast.parse(p.read_text(encoding="utf-8"))))}
    assert not wrong, wrong


def test_the_scan_sees_an_unmarked_import():
    assert unmarked(ast.parse("from questc_valkyrie import tiles\n")) == ["line 1: imports a plugin at the top of the module"]
    assert unmarked(ast.parse("def test_x():\n    import questc_tag\n")) == ["test_x imports a plugin"]
    assert unmarked(ast.parse("@pytest.mark.plugins\ndef test_x():\n    import questc_tag\n")) == []

"""The pipeline's layers, read from the import graph: nothing imports a higher layer.

syntax -> catalogs -> geometry -> model -> passes -> emit -> commands: each module may
import its own layer and the layers before it (lazy imports inside functions count too),
so a reader knows where a line belongs from the folder it is in.
"""

import ast
from pathlib import Path

import pytest

from conftest import REPO

# module name prefix -> layer; the longest matching prefix wins
LAYERS = {
    "compiler": 0,  # the package itself, diagnostics, options, files and packs
    "compiler.syntax": 1,
    "compiler.catalogs": 2,
    "compiler.packs": 2,  # pack.yaml is read with the catalog loader
    "compiler.geometry": 3,
    "compiler.model": 4,
    "compiler.passes": 5,
    "compiler.emit": 6,
    "compiler.pipeline": 7,
    "compiler.commands": 7,
    "compiler.plugins": 7,  # the plugin API and loader: plugins are run by the commands' layer
    "compiler.cli": 7,
    "compiler.__main__": 7,
}
NAMES = {0: "base", 1: "syntax", 2: "catalogs", 3: "geometry", 4: "model", 5: "passes", 6: "emit", 7: "commands"}


def layer(module: str) -> int:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def modules():
    for path in sorted((REPO / "compiler").rglob("*.py")):
        rel = path.relative_to(REPO).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        yield ".".join(parts), path


def imports(path: Path, name: str):
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, node.lineno
            for alias in node.names:  # `from compiler.emit import bundle` imports a module
                yield f"{target}.{alias.name}", node.lineno


def test_the_layer_table_covers_every_package():
    top = {p.name for p in (REPO / "compiler").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert {f"compiler.{t}" for t in top} - {"compiler.diagnostics"} <= set(LAYERS), "give a new package its layer"


@pytest.mark.parametrize("name,path", list(modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_module_imports_a_higher_layer(name, path):
    mine = layer(name)
    wrong = []
    for target, line in imports(path, name):
        if target.split(".")[0] != "compiler" or target in ("compiler.__version__",):
            continue
        if layer(target) > mine:
            wrong.append(f"{path.relative_to(REPO)}:{line} ({NAMES[mine]}) imports {target} ({NAMES[layer(target)]})")
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- plugins: only the public API

API = "compiler.plugins.api"  # the one module of questc a plugin may import (docs/plugins.md)


def plugin_modules():
    for path in sorted(REPO.glob("plugins/*/questc_*/**/*.py")):
        rel = path.relative_to(REPO / "plugins" / path.relative_to(REPO).parts[1]).with_suffix("")  # questc_x/y.py
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        yield ".".join(parts), path


def internal_imports(source: str) -> list[str]:
    """Each `compiler` module `source` imports other than the API, as `line: module`:
    import statements (at the top or inside a function) and `importlib.import_module` /
    `__import__` of a literal name."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        targets: list[tuple[str, int]] = []
        if isinstance(node, ast.Import):
            targets = [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            targets = [(node.module or "", node.lineno)]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__"):
                targets = [(node.args[0].value, node.lineno)]
        for target, line in targets:
            if target.split(".")[0] == "compiler" and target != API:
                found.append((line, f"{line}: {target}"))
    return [text for _, text in sorted(found, key=lambda f: f[0])]


def test_the_plugin_check_finds_every_way_in():
    inside = (
        "from compiler.plugins.api import Sink, ast\n"  # the API: allowed
        "import compiler.plugins.api\n"
        "from compiler.diagnostics import Span\n"  # 3
        "import compiler.reader as reader\n"  # 4
        "from compiler import reader\n"  # 5: `compiler` itself
        "from compiler.plugins import Plugin\n"  # 6: the registration types, not through the API
        "from compiler.plugins import api\n"  # 7: the API, spelt so that a grep for it misses it
        "import json, compiler.pipeline\n"  # 8
        "def f():\n"
        "    from compiler.emit.images.map import render_map\n"  # 10: lazy imports count too
        "    import importlib\n"
        "    return importlib.import_module('compiler.passes.tiles'), __import__('compiler.model')\n"  # 12 twice
        "from questc_other.x import y\n"  # another plugin's module: not questc's
        "from .read import z\n"
    )
    assert internal_imports(inside) == [
        "3: compiler.diagnostics", "4: compiler.reader", "5: compiler", "6: compiler.plugins", "7: compiler.plugins",
        "8: compiler.pipeline", "10: compiler.emit.images.map", "12: compiler.passes.tiles", "12: compiler.model",
    ]
    assert internal_imports("from compiler.plugins.api import API_VERSION\n") == []


def test_the_first_party_plugins_are_found():
    names = {name.split(".")[0] for name, _ in plugin_modules()}
    assert {"questc_tag", "questc_tiled", "questc_valkyrie"} <= names


@pytest.mark.parametrize("name,path", list(plugin_modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_plugin_imports_only_the_plugin_api(name, path):
    wrong = internal_imports(path.read_text(encoding="utf-8"))
    assert not wrong, "\n".join(f"{path.relative_to(REPO)}:{w} (a plugin imports questc only from {API})" for w in wrong)

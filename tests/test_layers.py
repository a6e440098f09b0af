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

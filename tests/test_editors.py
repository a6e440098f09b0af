"""The editor package (editors/vscode/): its TextMate grammar knows exactly the quest
language's keywords (the quoted words of compiler/syntax/grammar.lark), and the manifest
points at files that exist and starts `questc lsp`."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO

VSCODE = REPO / "editors" / "vscode"
GRAMMAR = VSCODE / "syntaxes" / "quest.tmLanguage.json"
KEYWORD_RULES = ("declaration-keywords", "sides", "keywords")


def lark_keywords() -> set[str]:
    text = (REPO / "compiler" / "syntax" / "grammar.lark").read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    return set(re.findall(r'"([a-z_]+)"i?', code))


def grammar_keywords() -> dict[str, list[str]]:
    repo = json.loads(GRAMMAR.read_text(encoding="utf-8"))["repository"]
    out = {}
    for rule in KEYWORD_RULES:
        match = re.fullmatch(r"\\b\(\?:([a-z_|]+)\)\\b", repo[rule]["match"])
        assert match, f"{rule}: expected \\b(?:a|b|…)\\b"
        out[rule] = match.group(1).split("|")
    return out


def test_the_grammar_keywords_are_the_lark_grammar_keywords():
    found = grammar_keywords()
    every = [k for words in found.values() for k in words]
    assert len(every) == len(set(every)), "a keyword in two rules"
    assert set(every) == lark_keywords(), (
        f"missing: {sorted(lark_keywords() - set(every))}; not keywords: {sorted(set(every) - lark_keywords())}")


def test_the_language_servers_keywords_are_the_lark_grammar_keywords():
    from compiler.commands.editor.engine import keywords

    assert set(keywords()) == lark_keywords()


def test_every_pattern_compiles_and_colours_a_shipped_quest():
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    patterns = []

    def collect(node):
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    patterns.append(node[key])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(grammar)
    compiled = [re.compile(p, re.M) for p in patterns]
    assert compiled
    quest = (REPO / "content" / "d2e-quests" / "first_blood.quest").read_text(encoding="utf-8")
    tile_space = re.compile(grammar["repository"]["tile-space"]["match"])
    assert tile_space.search(quest).group(1) == "9A"


def test_the_manifest_starts_questc_lsp_and_names_existing_files():
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "quest" and language["extensions"] == [".quest"]
    assert (VSCODE / language["configuration"]).is_file()
    json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    (grammar,) = manifest["contributes"]["grammars"]
    assert (VSCODE / grammar["path"]).resolve() == GRAMMAR.resolve()
    assert json.loads(GRAMMAR.read_text(encoding="utf-8"))["scopeName"] == grammar["scopeName"]
    # the extension's source; the package runs its bundle (`npm run bundle`: dist/extension.js)
    assert manifest["main"] == "./dist/extension.js" and "./extension.js" in manifest["scripts"]["bundle"]
    main = (VSCODE / "extension.js").read_text(encoding="utf-8")
    assert '"lsp"' in main and "questc" in main


def test_the_questc_path_setting_is_a_machine_setting():
    """Issue 38: `questc.path` names the program the extension runs; a workspace's
    .vscode/settings.json must not choose it (VS Code ignores a machine setting there)."""
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    settings = manifest["contributes"]["configuration"]["properties"]
    assert settings["questc.path"]["scope"] == "machine"
    main = (VSCODE / "extension.js").read_text(encoding="utf-8")
    assert 'config.get("path", "questc")' in main  # the setting the server's command comes from


# ---------------------------------------------------------------- ready to publish (issue 35, item 9)
def test_the_manifest_has_what_a_published_package_needs():
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    assert manifest["repository"]["url"].startswith("https://") and manifest["license"] == "MIT"
    assert (VSCODE / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert (VSCODE / manifest["icon"]).is_file()
    readme = (VSCODE / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^]]*\]\(([^)]+)\)", readme)
    assert len(pictures) >= 2 and all((VSCODE / p).is_file() for p in pictures)
    # the packaging tool pinned to a version that runs on Debian's nodejs (18): vsce 2.x
    assert manifest["devDependencies"]["@vscode/vsce"] == "2.32.0"
    lock = json.loads((VSCODE / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"]["node_modules/@vscode/vsce"]["version"] == "2.32.0"
    ignored = (VSCODE / ".vscodeignore").read_text(encoding="utf-8")
    assert "node_modules/**" in ignored  # bundled: no node_modules in the package


def _expand(body: list[str]) -> str:
    """A snippet's text with every placeholder at its default (`${1:x}` -> x, `$1` -> the
    default given for 1 elsewhere, `${2|a,b|}` -> a)."""
    text = "\n".join(body)
    defaults = dict(re.findall(r"\$\{(\d+):([^}]*)\}", text))
    text = re.sub(r"\$\{(\d+):([^}]*)\}", lambda m: m.group(2), text)
    text = re.sub(r"\$\{\d+\|([^,|]*)[^}]*\}", lambda m: m.group(1), text)
    return re.sub(r"\$(\d+)", lambda m: defaults.get(m.group(1), ""), text)


def test_every_snippet_expands_to_quest_language_that_parses():
    from compiler.diagnostics import Sink
    from compiler.syntax.parse import parse_module

    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (entry,) = manifest["contributes"]["snippets"]
    snippets = json.loads((VSCODE / entry["path"]).read_text(encoding="utf-8"))
    assert {"quest", "encounter", "on start", "on round_end"} <= {s["prefix"] for s in snippets.values()}
    wrap = {"encounter": 'quest q "Q" {{\n  encounter 1 {{ map {{ tile 9A at (0, 0) }} }}\n{}\n}}',  # the next encounter
            "on ": 'quest q "Q" {{\n{}\n}}'}
    for name, snippet in snippets.items():
        text = _expand(snippet["body"])
        shell = next((w for p, w in wrap.items() if snippet["prefix"].startswith(p)), "{}")
        sink = Sink()
        parse_module(shell.format(text), "snippet.quest", sink)
        assert not sink.items, (name, [d.message for d in sink.items])


@pytest.mark.slow
def test_the_package_builds_bundled_with_no_warning(tmp_path):
    """`vsce package` on a copy of editors/vscode, with the locked tools: no warning, the
    bundle and nothing of node_modules in it. Needs npm and its registry (skipped, saying
    so, on a machine without them); `make vscode` does the same."""
    import shutil
    import subprocess

    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: `vsce package` cannot run here")
    if subprocess.run([npm, "ping"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip("the npm registry cannot be reached: the pinned tools cannot be installed")
    work = tmp_path / "vscode"
    shutil.copytree(VSCODE, work, ignore=shutil.ignore_patterns("node_modules", "dist", "*.vsix"))
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=work, check=True, capture_output=True, timeout=600)
    r = subprocess.run(["npx", "vsce", "package"], cwd=work, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning" not in (r.stdout + r.stderr).lower(), r.stdout + r.stderr
    (vsix,) = work.glob("*.vsix")
    import zipfile

    names = zipfile.ZipFile(vsix).namelist()
    assert "extension/dist/extension.js" in names and "extension/snippets/quest.json" in names
    assert not [n for n in names if "node_modules" in n] and len(names) < 20

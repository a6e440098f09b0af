"""The editor package (editors/vscode/): its TextMate grammar knows exactly the quest
language's keywords (the quoted words of compiler/syntax/grammar.lark), and the manifest
points at files that exist and starts `questc lsp`."""

from __future__ import annotations

import json
import re

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
    main = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert '"lsp"' in main and "questc" in main


def test_the_questc_path_setting_is_a_machine_setting():
    """Issue 38: `questc.path` names the program the extension runs; a workspace's
    .vscode/settings.json must not choose it (VS Code ignores a machine setting there)."""
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    settings = manifest["contributes"]["configuration"]["properties"]
    assert settings["questc.path"]["scope"] == "machine"
    main = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert 'config.get("path", "questc")' in main  # the setting the server's command comes from

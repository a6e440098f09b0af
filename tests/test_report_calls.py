"""Every `report("CODE", span, **args)` call passes exactly the arguments its message uses.

`Sink.report` fills the catalogue's message template with its keyword arguments, which
the interpreter checks only when the call runs. This test reads every call site in
compiler/ and plugins/ (with `ast`, without running anything) and holds each call's
keywords to the fields of its code's template: a missing argument would be a KeyError
the day the diagnostic fires, an extra one is a value computed and never shown. Calls
that forward a code given to them (a pass's own `report(code, …)` helper) are checked at
their callers, which pass the literal code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from compiler.diagnostics.catalogue import CATALOGUE, Entry, entry_of

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"^[A-Z]{1,4}\d{4}$")
# keywords of Sink.report (and of the passes' helpers) that are not message arguments
NOT_MESSAGE = {"related", "fix", "severity", "edit"}


def _catalogue() -> dict[str, Entry]:
    """The built-in codes and every first-party plugin's (plugins/*/*/codes.yaml)."""
    from ruamel.yaml import YAML

    entries = dict(CATALOGUE)
    for codes in sorted(ROOT.glob("plugins/*/questc_*/codes.yaml")):
        for code, raw in (YAML(typ="safe").load(codes.read_text(encoding="utf-8")) or {}).items():
            entries[code] = entry_of(code, raw)
    return entries


def _sources() -> list[Path]:
    return sorted(p for top in ("compiler", "plugins") for p in (ROOT / top).rglob("*.py") if ".egg-info" not in p.parts[-2])


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _codes(arg: ast.expr) -> list[str] | None:
    """The literal codes an argument can be (both sides of `"A" if c else "B"`), or None."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and CODE.match(arg.value):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        a, b = _codes(arg.body), _codes(arg.orelse)
        return a + b if a is not None and b is not None else None
    return None


def _forwarders(tree: ast.AST) -> set[int]:
    """Line numbers of report calls inside a function that takes the code as a parameter."""
    lines: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
            if params & {"code", "codes"}:
                lines |= {n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call)}
    return lines


def report_calls() -> list[tuple[str, int, list[str] | None, set[str], bool]]:
    """(file, line, codes or None, keywords, forwards) for every call of a `report` function."""
    out = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        forwarding = _forwarders(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func).endswith("report") and node.args:
                codes = _codes(node.args[0])
                if codes is None and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "code"):
                    continue  # report(exc, …), _report(token, …): not given a diagnostic code
                keywords = {k.arg for k in node.keywords if k.arg is not None} - NOT_MESSAGE
                splat = any(k.arg is None for k in node.keywords)
                rel = path.relative_to(ROOT).as_posix()
                out.append((rel, node.lineno, codes, keywords, splat or node.lineno in forwarding))
    return out


def _fields(entry: Entry) -> set[str]:
    return {f.split(".")[0].split("[")[0] for f in entry.fields}


def test_every_report_call_passes_exactly_the_arguments_of_its_message():
    catalogue = _catalogue()
    calls = report_calls()
    assert len(calls) > 400  # the scan sees the call sites (509 when this was written)
    wrong = []
    for file, line, codes, keywords, _ in calls:
        for code in codes or ():
            if code not in catalogue:
                wrong.append(f"{file}:{line}: {code} is in no catalogue")
                continue
            fields = _fields(catalogue[code])
            if keywords != fields:
                wrong.append(f"{file}:{line}: {code} gets {sorted(keywords - fields)} it never shows, lacks {sorted(fields - keywords)}")
    assert not wrong, "\n".join(wrong)


# Calls whose code is computed from a table rather than given: the table's codes are
# checked by the test named beside each.
FROM_TABLES = {
    "compiler/syntax/errors.py": "test_the_syntax_examples_codes_take_only_what_was_found",
}


def test_a_code_that_is_not_a_literal_is_only_forwarded():
    """A call whose code is computed must sit in a helper that was given the code (its
    callers are checked above), or take it from a table checked here; anything else
    would escape this test."""
    loose = [f"{file}:{line}" for file, line, codes, _, forwards in report_calls()
             if codes is None and not forwards and file not in FROM_TABLES]
    assert not loose, loose


def test_the_syntax_examples_codes_take_only_what_was_found():
    """compiler/syntax/errors.py reports a code of its EXAMPLES table with `found=` alone."""
    from compiler.syntax.errors import EXAMPLES

    assert EXAMPLES
    assert {code: _fields(CATALOGUE[code]) for code in EXAMPLES} == {code: {"found"} for code in EXAMPLES}


def test_the_scan_catches_a_wrong_argument(tmp_path, monkeypatch):
    """The test of the test: a planted call with an argument its message lacks is found."""
    planted = tmp_path / "compiler" / "planted.py"
    planted.parent.mkdir()
    planted.write_text('def f(sink, span):\n    sink.report("K0181", span, space="a", why="b", tile="c")\n', encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    (found,) = report_calls()
    assert found[:4] == ("compiler/planted.py", 2, ["K0181"], {"space", "why", "tile"})
    assert _fields(CATALOGUE["K0181"]) == {"space", "why"}

"""The tokens pass: the merged token kinds catalog read into `TokenKind`s, and every token
a quest file writes (`token KIND …`, `place token KIND …`, in quests, encounters and
campaign declarations) checked against it.

A kind the catalog does not hold is Q0107 at the kind's word, with the closest kind as
the did-you-mean and fix; a colour the kind's tokens do not come in is Q0108, a warning. A pack whose packs hold no tokens catalog (no edition's core
pack) has nothing to check against, so its kinds are not checked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from compiler.catalogs.tokens import TokenKind, read_tokens
from compiler.diagnostics import Sink
from compiler.diagnostics.hints import did_you_mean
from compiler.model import Model
from compiler.syntax import ast


def token_decls(node: object) -> Iterator[ast.TokenDecl]:
    """Every `TokenDecl` under an AST node, in source order (an explicit stack: the AST of a
    hostile file may be deep)."""
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.TokenDecl):
            yield n
            continue
        if isinstance(n, (tuple, list)):
            stack.extend(reversed(n))
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            stack.extend(reversed([getattr(n, f.name) for f in dataclasses.fields(n)]))


def tokens_pass(model: Model, sink: Sink) -> Model:
    kinds = read_tokens(model.catalogs.get("tokens") or {})
    if kinds:
        for module in model.modules:
            for t in token_decls(module.declarations):
                if t.kind in kinds:
                    _check_colour(t, kinds[t.kind], sink)
                    continue
                guess = did_you_mean(t.kind, kinds.keys(), names={k: v.name for k, v in kinds.items()}, sink=sink)
                hint = f"; did you mean `{guess}`?" if guess else f"; the kinds are {', '.join(f'`{k}`' for k in kinds)}"
                sink.report("Q0107", t.kind_span if t.kind_span != ast.NOWHERE else t.span, kind=t.kind, ruleset=model.pack.ruleset,
                            hint=hint, fix=guess)
    return model.with_(token_kinds=kinds)


def _check_colour(t: ast.TokenDecl, kind: TokenKind, sink: Sink) -> None:
    """Q0108 (a warning): a colour the kind's printed tokens do not come in."""
    if t.colour is None or t.colour in kind.colours:
        return
    if kind.colours:
        guess = did_you_mean(t.colour, kind.colours, sink=sink)
        looks = "come in " + ", ".join(f"`{c}`" for c in kind.colours)
        hint = f"; did you mean `{guess}`?" if guess else ""
    else:
        guess, looks, hint = None, "have one look", "; leave the colour out"
    sink.report("Q0108", t.span, kind=t.kind, colour=t.colour, looks=looks, hint=hint, fix=guess)

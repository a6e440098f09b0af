"""Numbers in quest files are bounded in one place, right after parsing (S0215).

Every number the language can mean (coordinates, rounds, health, counts, variables) is
far below MAX_NUMBER; larger ones are typos, and would lose precision in front ends that
read JSON numbers as doubles. The sides of a figure's size are left to the spawn check,
which says the block does not fit the map (Q0203), unless they are too long to read.

Digits are counted before anything is converted: Python refuses `int()` of a string of
more than 4,300 digits (the int max-str-digits limit, a guard against quadratic
conversions), so a 5,000-digit number used to escape as an internal error (S0900) that
dropped the whole file. Now it is S0215 like any other huge number.
"""

from __future__ import annotations

from lark import Token, Tree

from compiler.diagnostics import Sink
from compiler.syntax.errors import lexed_span

MAX_NUMBER = 1_000_000
_MAX_DIGITS = len(str(MAX_NUMBER))
# Longer tokens are rewritten (see _readable). Far below int()'s limit (4,300 digits, and
# never configurable below 640); far above any number a fuzzer or a typo writes (10**30),
# which therefore still reaches the later checks unchanged.
LONGEST_READ = 100


def bound_numbers(tree: Tree[Token], file: str, sink: Sink) -> None:
    """Report every number beyond ±MAX_NUMBER (and every size too long to read), and
    leave only number tokens `int()` can read (the AST builder converts them)."""
    for subtree in tree.iter_subtrees():
        children = subtree.children
        for i, child in enumerate(children):
            if not isinstance(child, Token):
                continue
            if child.type in ("INT", "NEG_INT"):
                if _value(child) is None:
                    _report(child, file, sink)
            elif child.type in ("SIZE", "FRACTION"):  # `2x2`, `2/3` (a campaign quest's odds)
                if len(child) > LONGEST_READ and any(_value(side) is None for side in child.split(_PARTS[child.type])):
                    _report(child, file, sink)
            else:
                continue
            if len(child) > LONGEST_READ:
                children[i] = _readable(child)


def _value(digits: str) -> int | None:
    """The number `digits` (an optional `-`, then digits) means, or None when it is
    beyond ±MAX_NUMBER: decided on its length first, never converting a long string."""
    negative = digits.startswith("-")
    significant = digits.lstrip("-").lstrip("0") or "0"
    if len(significant) > _MAX_DIGITS:
        return None
    value = -int(significant) if negative else int(significant)
    return value if abs(value) <= MAX_NUMBER else None


def _report(token: Token, file: str, sink: Sink) -> None:
    text = str(token)
    shown = text if len(text) <= 20 else f"{text[:8]}…({sum(c.isdigit() for c in text):,} digits)"
    sink.report("S0215", lexed_span(file, token), number=shown, limit=f"{MAX_NUMBER:,}")


def _readable(token: Token) -> Token:
    """The token with each number in it replaced by its value when in range (only leading
    zeros made it long) or else by the nearest number out of range (already reported)."""
    def one(digits: str) -> str:
        value = _value(digits)
        if value is not None:
            return str(value)
        return f"{'-' if digits.startswith('-') else ''}{MAX_NUMBER + 1}"

    sep = _PARTS.get(token.type, "x")
    return Token.new_borrow_pos(token.type, sep.join(one(p) for p in str(token).split(sep)), token)


_PARTS = {"SIZE": "x", "FRACTION": "/"}  # the numbers of a two-number token, and what joins them

"""Canonical layout of `.quest` files (`questc fmt`), built on the parser's own tokens.

`format_source(text)` re-lays a file that parses: two-space indentation by brace depth,
one statement per line, one space between tokens (none inside `9A(3,1)`, `2..4`, `3+`,
`+5`, `@mark`, `9A.north.1`), comments kept where they stand, strings and `\"\"\"` text
blocks byte for byte. It never sees the AST, so nothing the AST drops (comments, blank
lines, the author's one-line blocks) is lost; `same_meaning` checks the other direction —
the formatted text parses to the same AST, spans aside — and `questc fmt` refuses to
write a file for which it does not hold.

The tokens come from lark's contextual lexer driven by the LALR parser itself
(`parse_interactive`), so every token has the type the parser gave it: `at` the keyword
and `at` a tile name are told apart exactly as the parser tells them apart. The grammar's
separator tokens (`_SEP`: runs of new lines, `;` and comments; `_COMMA`: a comma with the
new lines and comments after it) are split into their pieces here.

The rules (docs/language.md, "Formatting"):
* a block written on one line (no new line or comment between its braces, text blocks
  aside) stays on one line as `{ a; b }` (`{ }` when empty); any other block has one
  statement per line, `{` ending its header line and `}` on a line of its own;
* `if … { … } else …`: `else` stays on the line of the `}` before it (`} else {`); when
  one arm is written on several lines, every arm that is not empty is laid out so;
* a comment on a line of its own stays on its own line, indented like the statement
  after it; a comment after code stays after it, two spaces from it;
* inside a block, blank lines are kept but runs collapse to one, none after `{` or
  before `}`; at top level, exactly one blank line follows every declaration;
* a new line after a comma is kept (it continues the statement, one level deeper);
* new lines are `\\n`, trailing spaces are dropped, the file ends with one new line.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lark.exceptions import LarkError, UnexpectedInput

from compiler.syntax.parse import DOC_COMMENT

if TYPE_CHECKING:
    from compiler.syntax.errors import Interactive

INDENT = "  "

__all__ = ["FormatError", "format_source", "same_meaning", "strip_spans"]


class FormatError(ValueError):
    """The text does not parse, so it has no canonical layout. `line`/`column` locate
    the first problem; run `parse_module` for the full, coded diagnostics."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.line, self.column = line, column


# ---------------------------------------------------------------- tokens
@dataclass
class _Tok:
    kind: str  # WORD STRING PUNCT NL SEMI COMMENT
    text: str
    type: str = ""  # the lark terminal type (ID, INT, AT, LPAR, …)
    line: int = 0
    cont: bool = False  # a new line or comment that follows a comma (continues the statement)
    style: str = ""  # for `+`: "prefix" (`health +5`), "infix" (`3 + main 1`, `6 + 2 per hero`), "postfix" (`3+`)


_PUNCT = frozenset(("{", "}", "(", ")", "@", "=", "+", ".", "..", ">=", ","))
_PIECE = re.compile(r"(?P<nl>\n)|(?P<semi>;)|(?P<comment>#[^\n]*)|(?P<comma>,)|(?P<ws>\s)")


def _lex(text: str) -> list[_Tok]:
    from compiler.syntax.parse import lark_parser

    parser: Interactive = lark_parser().parse_interactive(text)
    try:
        raw = parser.exhaust_lexer()
        parser.feed_eof(raw[-1] if raw else None)
    except UnexpectedInput as exc:
        raise FormatError(f"the text does not parse: {type(exc).__name__}", exc.line, exc.column) from None
    except LarkError as exc:
        raise FormatError(f"the text does not parse: {type(exc).__name__}") from None

    toks: list[_Tok] = []
    for t in raw:
        value = str(t)
        assert t.line is not None  # a lexed token has its position (Lark types it Optional)
        if t.type in ("_SEP", "_COMMA"):
            line = t.line
            for m in _PIECE.finditer(value):
                kind = m.lastgroup
                if kind == "nl":
                    toks.append(_Tok("NL", "\n", line=line, cont=t.type == "_COMMA"))
                    line += 1
                elif kind == "semi":
                    toks.append(_Tok("SEMI", ";", line=line))
                elif kind == "comment":
                    toks.append(_Tok("COMMENT", m.group().rstrip(" \t\r"), line=line, cont=t.type == "_COMMA"))
                elif kind == "comma":
                    toks.append(_Tok("PUNCT", ",", "COMMA", line=line))
        elif t.type in ("STRING", "TEXT_BLOCK"):
            toks.append(_Tok("STRING", value, t.type, t.line))
        elif value in _PUNCT:
            toks.append(_Tok("PUNCT", value, t.type, t.line))
        else:  # keywords, names, numbers, sizes
            toks.append(_Tok("WORD", value, t.type, t.line))
    code = [t for t in toks if t.kind in ("WORD", "STRING", "PUNCT")]
    for i, tok in enumerate(code):
        if tok.text == "+":
            before = code[i - 1] if i else None
            after = code[i + 1] if i + 1 < len(code) else None
            if before is not None and before.type == "HEALTH":
                tok.style = "prefix"
            elif after is not None and after.type == "MAIN":
                tok.style = "infix"
            elif after is not None and after.type == "INT" and i + 2 < len(code) and code[i + 2].type == "PER":
                tok.style = "infix"  # a custom monster's `health 6 + 2 per hero`
            else:
                tok.style = "postfix"
    return toks


# ---------------------------------------------------------------- structure
class _Blank(enum.Enum):
    """A blank line kept in a block (a run of them is one)."""

    BLANK = "blank"


BLANK = _Blank.BLANK


@dataclass
class _Comment:
    text: str


@dataclass
class _Break:
    """A line break after a comma: the comment on the comma's line, then own-line comments."""

    trailing: str | None = None
    comments: list[str] = field(default_factory=list)


@dataclass
class _Block:
    items: list[_Stmt | _Comment | _Blank] = field(default_factory=list)
    one_line: bool = True
    open_comment: str | None = None  # a comment right after `{`


@dataclass
class _Stmt:
    parts: list[_Tok | _Block | _Break] = field(default_factory=list)
    line: int = 0
    starts_line: bool = True  # nothing before it on its source line
    trailing: str | None = None


def _build(toks: list[_Tok], i: int, top: bool) -> tuple[_Block, int]:
    """The block starting at toks[i] (just after its `{`, or the file's start when `top`),
    and the index after its `}`."""
    block = _Block()
    stmt: _Stmt | None = None
    last: _Stmt | _Block | None = None if top else block  # what a comment on this line trails
    nl_run = 0  # new lines since the last content
    line_start = True
    while i < len(toks):
        t = toks[i]
        if t.kind == "NL":
            block.one_line = False
            nl_run += 1
            stmt, last, line_start = None, None, True
            i += 1
        elif t.kind == "SEMI":
            stmt, line_start = None, False
            i += 1
        elif t.kind == "COMMENT":
            block.one_line = False
            if isinstance(last, _Stmt):
                last.trailing = t.text
            elif isinstance(last, _Block):
                last.open_comment = t.text
            else:
                if nl_run >= 2 and block.items:
                    block.items.append(BLANK)
                block.items.append(_Comment(t.text))
                nl_run = 0
            i += 1
        elif t.kind == "PUNCT" and t.text == "}" and not top:
            return block, i + 1
        else:
            if stmt is None:
                if nl_run >= 2 and block.items:
                    block.items.append(BLANK)
                stmt = _Stmt(line=t.line, starts_line=line_start)
                block.items.append(stmt)
            nl_run, line_start = 0, False
            i += 1
            if t.kind == "PUNCT" and t.text == "{":
                sub, i = _build(toks, i, top=False)
                stmt.parts.append(sub)
                block.one_line = block.one_line and sub.one_line
                if i < len(toks) and toks[i].type == "ELSE":
                    last = stmt  # `} else …` goes on with the `if` (the grammar keeps them on one line)
                    continue
                last, stmt = stmt, None  # any other block ends its statement
                continue
            stmt.parts.append(t)
            last = stmt
            if t.text == "," and i < len(toks) and toks[i].cont:
                brk, i = _break(toks, i)
                block.one_line = False
                stmt.parts.append(brk)
    return block, i


def _break(toks: list[_Tok], i: int) -> tuple[_Break, int]:
    """The line break after a comma, from the continuation tokens at toks[i] (the comment on
    the comma's line, then own-line comments), and the index after them."""
    brk, seen_nl = _Break(), False
    while i < len(toks) and toks[i].cont:
        if toks[i].kind == "NL":
            seen_nl = True
        elif seen_nl:
            brk.comments.append(toks[i].text)
        else:
            brk.trailing = toks[i].text
        i += 1
    return brk, i


# ---------------------------------------------------------------- layout
def _gap(prev: _Tok | None, tok: _Tok, tile_paren: bool) -> str:
    if prev is None:
        return ""
    a, b = prev.text, tok.text
    if tok.kind == "PUNCT" and b in (")", ",", ".", ".."):
        return ""
    if prev.kind == "PUNCT" and a in ("(", ".", "..", "@"):
        return ""
    if tok.kind == "PUNCT" and b == "(":
        return "" if prev.type == "ID" else " "  # `9A(3,1)` but `at (3, 4)`
    if prev.kind == "PUNCT" and a == ",":
        return "" if tile_paren else " "
    if b == "+" and tok.style == "postfix":
        return ""
    if a == "+" and prev.style == "prefix":
        return ""
    return " "


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def block_body(self, block: _Block, depth: int) -> None:
        for item in block.items:
            if item is BLANK:
                self.lines.append("")
            elif isinstance(item, _Comment):
                self.lines.append(INDENT * depth + item.text)
            else:
                self.stmt(item, depth)

    def stmt(self, stmt: _Stmt, depth: int) -> None:
        line = INDENT * depth
        spacer = _Spacer()
        blocks = [p for p in stmt.parts if isinstance(p, _Block)]
        # `if … else`: one arm written on several lines lays out every arm on several lines
        expand = len(blocks) > 1 and any(not b.one_line and (b.items or b.open_comment) for b in blocks)
        for part in stmt.parts:
            if isinstance(part, _Tok):
                line += spacer.add(part)
            elif isinstance(part, _Break):
                self.lines.append(line + (f"  {part.trailing}" if part.trailing else ""))
                self.lines.extend(INDENT * (depth + 1) + c for c in part.comments)
                line, spacer.prev = INDENT * (depth + 1), None
            elif (part.one_line and not (expand and part.items)) or not (part.items or part.open_comment):
                line += " " + _inline(part)
            else:
                self.lines.append(line + " {" + (f"  {part.open_comment}" if part.open_comment else ""))
                self.block_body(part, depth + 1)
                line = INDENT * depth + "}"
        if stmt.trailing:
            line += f"  {stmt.trailing}"
        self.lines.append(line)


class _Spacer:
    """Joins tokens with the canonical gaps; a `(` right after a name opens a tile space (`9A(3,1)`)."""

    def __init__(self) -> None:
        self.prev: _Tok | None = None
        self.tile_paren = False

    def add(self, tok: _Tok) -> str:
        if tok.text == "(":
            self.tile_paren = self.prev is not None and self.prev.type == "ID"
        out = _gap(self.prev, tok, self.tile_paren) + tok.text
        if tok.text == ")":
            self.tile_paren = False
        self.prev = tok
        return out


def _inline_stmt(stmt: _Stmt) -> str:
    line = ""
    spacer = _Spacer()
    for part in stmt.parts:
        if isinstance(part, _Tok):
            line += spacer.add(part)
        else:  # only one-line blocks can be inside a one-line block
            assert isinstance(part, _Block)  # not a _Break: a one-line block has no line breaks
            line += " " + _inline(part)
    return line


def _inline(block: _Block) -> str:
    stmts = [item for item in block.items if isinstance(item, _Stmt)]
    if not stmts:
        return "{ }"
    return "{ " + "; ".join(_inline_stmt(s) for s in stmts) + " }"




def _doc_lines_above(source_lines: list[str], line: int) -> list[str]:
    """The `##` lines right above line `line` (1-based, counted by `\n` as lark counts)."""
    out: list[str] = []
    n = line - 2  # index of the line above
    while 0 <= n < len(source_lines) and DOC_COMMENT.match(source_lines[n].rstrip("\r")):
        out.append(source_lines[n].strip(" \t\r"))
        n -= 1
    return out[::-1]


def format_source(text: str) -> str:
    """The canonical layout of a `.quest` file. Raises FormatError when `text` does not
    parse (the caller reports the parser's diagnostics instead)."""
    toks = _lex(text)
    top, _ = _build(toks, 0, top=True)
    source_lines = text.split("\n")
    writer = _Writer()
    prev_kind: str | None = None  # "decl" | "comment", the previous item written
    blank = False
    for item in top.items:
        if item is BLANK:
            blank = True
            continue
        if prev_kind == "decl" or (blank and prev_kind is not None):
            writer.lines.append("")
        if isinstance(item, _Comment):
            writer.lines.append(item.text)
            prev_kind = "comment"
        else:
            if not item.starts_line and prev_kind == "decl":
                # it shared a line with the previous declaration, and with it the doc
                # comment above that line: repeat the doc so it still documents both
                writer.lines.extend(_doc_lines_above(source_lines, item.line))
            writer.stmt(item, 0)
            prev_kind = "decl"
        blank = False
    out = "\n".join(line.rstrip(" \t") for line in writer.lines)  # no line ends inside a text block
    return out + "\n" if out else ""


# ---------------------------------------------------------------- the safety check
def strip_spans(node: object) -> object:
    """`node` with every `span` set to NOWHERE (and Module.file to ""), recursively, so two
    parses of differently laid-out text compare equal when they mean the same."""
    from compiler.diagnostics import Span
    from compiler.syntax.ast import NOWHERE

    if isinstance(node, tuple):
        return tuple(strip_spans(x) for x in node)
    if isinstance(node, list):
        return [strip_spans(x) for x in node]
    if isinstance(node, dict):
        return {k: strip_spans(v) for k, v in node.items()}
    if isinstance(node, Span):
        return NOWHERE
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: strip_spans(getattr(node, f.name)) for f in dataclasses.fields(node) if f.init}
        if "file" in changes and isinstance(changes["file"], str):
            changes["file"] = ""
        return dataclasses.replace(node, **changes)
    return node


def same_meaning(before: str, after: str) -> bool:
    """Both texts parse without errors to the same AST, spans aside."""
    from compiler.diagnostics import Sink
    from compiler.syntax.parse import parse_module

    sinks = Sink(), Sink()
    a = parse_module(before, "a.quest", sinks[0])
    b = parse_module(after, "a.quest", sinks[1])
    if sinks[0].errors or sinks[1].errors:
        return False
    return strip_spans(a) == strip_spans(b)

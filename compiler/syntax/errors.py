"""Syntax errors: Lark exceptions -> located S0xxx diagnostics, and the recovery helpers.

Three layers, most specific first:
1. `EXAMPLES`: known-bad snippets mapped to a friendly code (lark's `match_examples`
   idea, precomputed once: the parser state and offending token kind of each example
   become a lookup key, so matching a real error is a dict lookup).
2. Special characters (`'` instead of `"`, an unterminated string).
3. The generic "unexpected X; expected A, B or C", with terminals named in words.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Protocol, cast

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from compiler.diagnostics import Edit, Related, Sink, Span
from compiler.diagnostics.hints import did_you_mean
from compiler import frozen

# ---------------------------------------------------------------- syntax errors by example
# code -> snippets that must fail at the spot the code describes. Each snippet is a whole
# file; tests/test_parse_errors.py checks that every one of them yields its code.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "S0120": (  # attach without `to`
        'quest q "Q" { map { tile 9A attach south 16A.north } }',
        'quest q "Q" { map { tile 9A attach south.1 16A.north } }',
        'quest q "Q" { map { tile 9A attach south north } }',
    ),
    "S0121": (  # a world position without brackets
        'quest q "Q" { map { tile 9A at 3, 4 } }',
        'quest q "Q" { map { tile 9A at 3 } }',
    ),
    "S0122": (  # a hero range written with a dash
        'quest q "Q" { heroes 2-4 }',
        'quest q "Q" { spawn g at (1,1) heroes 2-4 }',
    ),
    "S0123": (  # a door not on an opening
        'quest q "Q" { map { door hall on 16A yellow } }',
        'quest q "Q" { map { door hall on 16A } }',
    ),
    "S0124": (  # a quest without an id
        'quest "First Blood" { }',
    ),
    "S0125": (  # a quest without a display name
        "quest first_blood { }",
    ),
    "S0126": (  # spawn with a space but no `at`
        'quest q "Q" { spawn goblins 16A(3,3) }',
        'quest q "Q" { spawn goblins (3,3) }',
    ),
    "S0127": (  # a token without `at`
        'quest q "Q" { token search 16A(2,1) }',
        'quest q "Q" { token search (2,1) }',
        'quest q "Q" { token objective "cart" 9A(1,2) }',
    ),
    "S0128": (  # start heroes without `on` / `at`
        'quest q "Q" { start heroes entrance1A }',
    ),
    "S0129": (  # var without `=`
        'quest q "Q" { var count 3 }',
    ),
    "S0130": (  # round_end / round_start followed by neither a round, `if` nor `{`
        'quest q "Q" { on round_end eight { next } }',
        'quest q "Q" { on round_start eight { next } }',
    ),
    "S0131": (  # an hourglass without its count
        'exploration_card c { encounter e; overlord { hourglass "Advance doom." } }',
    ),
}


@lru_cache(maxsize=1)
def _example_keys() -> dict[tuple[int, str], str]:
    from compiler.syntax.parse import lark_parser

    parser = lark_parser()
    keys: dict[tuple[int, str], str] = {}
    for code, snippets in EXAMPLES.items():
        for snippet in snippets:
            try:
                parser.parse(snippet)
            except UnexpectedToken as exc:
                keys.setdefault(_key(exc), code)
            except UnexpectedInput:
                pass
    return keys


def _key(exc: UnexpectedToken) -> tuple[int, str]:
    ip = exc.interactive_parser
    state = ip.parser_state.position if ip is not None else exc.state
    return (state if isinstance(state, int) else -1, exc.token.type)


def example_code(exc: UnexpectedToken) -> str | None:
    return _example_keys().get(_key(exc))


# ---------------------------------------------------------------- terminals in words
NAMED = {
    "INT": "a number",
    "NEG_INT": "a number",
    "SIZE": "a size such as `2x1`",
    "STRING": 'a string `"…"`',
    "TEXT_BLOCK": 'a string `"…"`',
    "_SEP": "the end of the statement",
    "_COMMA": "`,`",
    "$END": "the end of the file",
}
# What a name (ID) means after a given keyword or punctuation.
NAME_AFTER = {
    "quest": "a quest id",
    "encounter": "an encounter id",
    "tile": "a tile code",
    "as": "a name",
    "to": "a tile name",
    "door": "a door name",
    "mark": "a mark name",
    "@": "a mark name",
    "on": "a tile or door name",
    "spawn": "a monster group",
    "token": "a token kind",
    "defeated": "a monster group",
    "group": "a monster group",
    "activate": "a monster group",
    "reveal": "a tile name",
    "open": "a door name",
    "close": "a door name",
    "searched": "a token name",
    "picked_up": "a token name",
    "variable": "a variable name",
    "var": "a variable name",
    "set": "a variable name",
    "advance": "a variable name",
    "discard": "a condition",
    "highest": "an attribute (might, knowledge, willpower, awareness, health…)",
    "lowest": "an attribute (might, knowledge, willpower, awareness, health…)",
    "exploration_card": "a card id",
    "peril_card": "a card id",
    "activation_card": "a card id",
    "card": "a card id",
    "start": "a card id",
    "monster": "a custom monster id",
    "traits": "a trait (cave, building, …)",
    "defense": "a die (grey, brown, black)",
}
SIDES = ("north", "east", "south", "west")


@lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    """Terminal name -> its literal text, for the keyword and punctuation terminals."""
    from compiler.syntax.parse import lark_parser

    return {t.name: t.pattern.value for t in lark_parser().terminals if t.pattern.type == "str"}


def describe_expected(names: set[str], previous: object) -> str:
    literals = _literals()
    words: list[str] = []
    keywords = sorted(literals[n] for n in names if n in literals)
    if set(SIDES) <= set(keywords):
        words.append("a side (`north`, `east`, `south` or `west`)")
        keywords = [k for k in keywords if k not in SIDES]
    closers = [k for k in keywords if k == "}"]
    words.extend(f"`{k}`" for k in keywords if k != "}")
    if "ID" in names:
        prev = str(previous) if isinstance(previous, Token) else ""
        words.append(NAME_AFTER.get(prev, "a name"))
    for name in sorted(names):
        if name in NAMED and NAMED[name] not in words and name != "_SEP":
            words.append(NAMED[name])
    if len(words) > 16:
        words = words[:15] + ["…"]
    words.extend(f"`{k}`" for k in closers)
    after_open = isinstance(previous, Token) and (previous.type == "_SEP" or str(previous) == "{")
    if "_SEP" in names and not after_open:  # a blank line right after `{` is not worth saying
        words.append(NAMED["_SEP"])
    if not words:
        return "nothing more here"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def describe_found(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type == "_SEP":
        value = str(token).lstrip(" \t\r")
        if value.startswith(";"):
            return "`;`"
        return "end of line"
    if token.type in ("STRING", "TEXT_BLOCK"):
        return "string"
    if token.type == "ID":
        return f"name `{token}`"
    if token.type in ("INT", "NEG_INT"):
        return f"number `{token}`"
    return f"`{token}`"


# ---------------------------------------------------------------- spans
def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def _line_cols(text: str, positions: Sequence[int]) -> list[tuple[int, int]]:
    """`_line_col` of each position, counting the text once (not once per position: a file
    of 40,000 unclosed `{` took seconds)."""
    found: dict[int, tuple[int, int]] = {}
    line, counted = 1, 0
    for pos in sorted(set(positions)):
        line += text.count("\n", counted, pos)
        counted = pos
        found[pos] = (line, pos - (text.rfind("\n", 0, pos) + 1) + 1)
    return [found[pos] for pos in positions]


def lexed_span(file: str, token: Token) -> Span:
    """The span of a token the lexer made. Lark declares a Token's positions Optional (a
    Token made by hand may have none); every token lexed from a text has all four."""
    line, column, end_line, end_column = token.line, token.column, token.end_line, token.end_column
    assert line is not None and column is not None and end_line is not None and end_column is not None
    return Span(file, line, column, end_line, end_column)


def _char_pos(exc: UnexpectedInput) -> int:
    """Where an error that is not an UnexpectedToken (a character not lexed) is in the text.
    Lark sets an int there, but declares `pos_in_stream = None` on the base class, which is
    all the checker sees."""
    return cast(int, exc.pos_in_stream)


def token_span(text: str, file: str, token: Token) -> Span:
    if token.type == "$END":
        line, col = _line_col(text, len(text))
        return Span(file, line, col)
    start = token.start_pos or 0
    if token.type == "_SEP":  # underline the `;`, `#` or the end of the line itself
        start += len(str(token)) - len(str(token).lstrip(" \t\r"))
        line, col = _line_col(text, start)
        return Span(file, line, col)
    line, col = _line_col(text, start)
    end_line, end_col = _line_col(text, start + len(str(token)))
    return Span(file, line, col, end_line, end_col)


def span_at(text: str, file: str, exc: UnexpectedInput) -> Span:
    if isinstance(exc, UnexpectedToken):
        return token_span(text, file, exc.token)
    line, col = _line_col(text, _char_pos(exc))
    return Span(file, line, col)


# ---------------------------------------------------------------- reporting
def report(exc: UnexpectedInput, text: str, file: str, sink: Sink, completed: bool = False) -> None:
    if isinstance(exc, UnexpectedCharacters):
        _report_characters(exc, text, file, sink)
        return
    assert isinstance(exc, UnexpectedToken)
    span = token_span(text, file, exc.token)
    previous = _previous(exc)
    expected = describe_expected(set(exc.accepts or exc.expected), previous)
    if exc.token.type == "$END":
        if completed:
            return  # one diagnostic at the `{` never closed: recovery.py, report_unclosed
        else:
            sink.report("S0104", span, expected=expected)
        return
    if str(exc.token) == "else" and _else_on_new_line(exc, text, file, span, sink):
        return
    if _block_after_block(exc, text, file, span, expected, sink):
        return
    code = example_code(exc)
    if code is not None:
        sink.report(code, span, found=describe_found(exc.token))
        return
    if exc.token.type in ("INT", "NEG_INT") and str(previous) == "tile":  # `tile 13`: a piece without its side
        sink.report("S0132", span, number=str(exc.token), fix=f"Write `{exc.token}A` or `{exc.token}B`, the side of the piece the map uses.")
        return
    hint, fix = "", None
    if exc.token.type == "ID":  # a misspelt keyword (`on enter X`): the expected word most like it
        literals = _literals()
        words = {literals[n] for n in set(exc.accepts or exc.expected) if n in literals and literals[n].isidentifier()}
        fix = did_you_mean(str(exc.token), words, sink=sink) if words else None
        hint = f"; did you mean `{fix}`?" if fix else ""
    sink.report("S0101", span, found=describe_found(exc.token), expected=expected, hint=hint, fix=fix)


def _else_on_new_line(exc: UnexpectedToken, text: str, file: str, span: Span, sink: Sink) -> bool:
    """S0136 for `else` at the start of a line after an `if`'s `}`: a new line ends a
    statement, so the `if` ended there and `else` begins nothing. The fix joins the lines."""
    start = exc.token.start_pos or 0
    brace = len(text[:start].rstrip(" \t\r\n")) - 1
    if brace < 0 or text[brace] != "}" or "\n" not in text[brace:start] or "IF" not in set(exc.accepts or exc.expected):
        return False  # not where an effect (an `if`) may begin: the generic message
    line, col = _line_col(text, brace)
    edit = Edit(Span(file, line, col + 1, span.line, span.column), " ")
    sink.report("S0136", span, related=(Related(Span(file, line, col, line, col + 1), "the `}` it should follow"),),
                fix="Put `else` on the line of the `}` before it: `} else {`.", edit=edit)
    return True


def _block_after_block(exc: UnexpectedToken, text: str, file: str, span: Span, expected: str, sink: Sink) -> bool:
    """S0101 with its fix for `option { … } option { … }` (or `choice`) on one line: each is a
    statement of its own, so a `;` (or a new line) goes between them. The fix puts the `;`."""
    word = str(exc.token)
    if word not in ("option", "choice"):
        return False
    start = exc.token.start_pos or 0
    brace = len(text[:start].rstrip(" \t")) - 1
    if brace < 0 or text[brace] != "}":
        return False
    line, col = _line_col(text, brace)
    edit = Edit(Span(file, line, col + 1, span.line, span.column), "; ")
    sink.report("S0101", span, found=describe_found(exc.token), expected=expected,
                hint=f"; each `{word} {{ … }}` is a statement of its own: put `;` or a new line between two of them",
                fix=f"Write `}}; {word}`.", edit=edit)
    return True


def _previous(exc: UnexpectedToken) -> object:
    ip = exc.interactive_parser
    if ip is None or not ip.parser_state.value_stack:
        return None
    return ip.parser_state.value_stack[-1]


def _report_characters(exc: UnexpectedCharacters, text: str, file: str, sink: Sink) -> None:
    pos = _char_pos(exc)
    char = text[pos] if pos < len(text) else ""
    line, col = _line_col(text, pos)
    span = Span(file, line, col)
    if char == '"':
        sink.report("S0103", span)
    elif char == "'":
        sink.report("S0107", span)
    else:
        shown = char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}" if char else "?"
        sink.report("S0102", span, char=shown)


# ---------------------------------------------------------------- recovery
_BOUNDARY = re.compile(r'"""[\s\S]*?(?:"""|\Z)|"(?:[^"\\\n]|\\[^\n])*(?:"|$)|#[^\n]*|[;\n{}]', re.M)


def _boundaries(text: str, begin: int) -> Iterator[tuple[int, str]]:
    """(position, char) of every `;`, new line, `{` and `}` outside strings and comments,
    from `begin` (which must be outside strings and comments) on, lazily."""
    for m in _BOUNDARY.finditer(text, begin):
        s = m.group()
        if len(s) == 1 and s in ";\n{}":
            yield m.start(), s


def error_pos(exc: UnexpectedInput, text: str) -> int:
    """Where the error is in `text`: the offending token, or the character not lexed."""
    if isinstance(exc, UnexpectedToken):
        return (exc.token.start_pos or 0) if exc.token.type != "$END" else len(text)
    return _char_pos(exc)


def blank_statement(text: str, exc: UnexpectedInput, begin: int = 0) -> str | None:
    """`text` with the statement holding the error replaced by spaces (new lines kept).

    The statement is looked for from `begin` on, a place outside strings and comments
    with a boundary between it and the error (recovery.py passes its checkpoint): only
    the text from there to the statement's end is scanned, so recovering from each of
    many errors does not scan the whole file again."""
    pos = error_pos(exc, text)
    if isinstance(exc, UnexpectedToken):
        token_len = len(str(exc.token)) if exc.token.type not in ("$END", "_SEP") else 0
    else:
        token_len = 1
    marks = _boundaries(text, begin)
    start = begin
    end = len(text)
    depth = 0
    for p, c in marks:
        if p < pos:
            start = p + 1
            continue
        if p == pos and c == "}" and depth == 0:
            end = p
            break
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                end = p
                break
            depth -= 1
        elif depth == 0:
            end = p
            break
    if not text[start:end].strip():
        start, end = pos, pos + token_len
        if not text[start:end].strip():
            return None
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


class Interactive(Protocol):
    """What this package uses of Lark's InteractiveParser, typed: Lark leaves `copy`,
    `accepts` and `feed_eof` unannotated (an InteractiveParser is an Interactive). The
    parser is built without a transformer (parse.lark_options): a finished parse is a tree."""

    def exhaust_lexer(self) -> list[Token]: ...

    def copy(self, deepcopy_values: bool = True) -> Interactive: ...

    def accepts(self) -> set[str]: ...

    def feed_token(self, token: Token) -> object: ...

    def feed_eof(self, last_token: Token | None = None) -> Tree[Token]: ...


def complete_at_eof(exc: UnexpectedToken) -> Tree[Token] | None:
    """Feed the `}` (and separators) a file that ends inside blocks is missing; the tree,
    or None when the file ends in the middle of a statement."""
    found: Interactive | None = exc.interactive_parser
    if found is None:
        return None
    ip = found.copy(deepcopy_values=False)  # a deep copy would drop the tokens' end positions
    literals = _literals()
    close = next((n for n, v in literals.items() if v == "}"), "RBRACE")
    for _ in range(64):
        accepts = ip.accepts()
        if "$END" in accepts:
            try:
                return ip.feed_eof(exc.token)
            except UnexpectedInput:
                return None
        if close in accepts:
            ip.feed_token(Token.new_borrow_pos(close, "}", exc.token))
        elif "_SEP" in accepts:
            ip.feed_token(Token.new_borrow_pos("_SEP", "\n", exc.token))
        else:
            return None
    return None


# ---------------------------------------------------------------- a `}` left out
@frozen
class MissingClose:
    open_at: int  # the `{` never closed
    insert_at: int | None  # where the parse puts its `}` back (None: no guess; the end of the file)
    outer: tuple[int, ...] = ()  # further `{` still open around it at the end of the file
    # the fix: `fix_text` inserted at `fix_at` (the parse's `}` goes before a trailing
    # comment, to keep every line where it is; the fix puts it on a line of its own)
    fix_at: int | None = None
    fix_text: str = "}"
    before_else: bool = False  # the `}` of an `if`'s arm, lost before the `else` that follows it


def _indent(text: str, pos: int) -> int:
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip(" \t"))


def _indent_text(text: str, pos: int) -> str:
    """The white space that starts the line holding `pos`."""
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _code_lines(text: str) -> list[tuple[int, int, int]]:
    """(start of its code, end of its code, indent) of every line holding code, outside
    strings: a line that is blank or only a comment holds none, nor does a line of a
    text block after its first."""
    lines: list[tuple[int, int, int]] = []
    line_start, comment = 0, None
    for m in _BOUNDARY.finditer(text + "\n"):
        piece = m.group()
        if piece.startswith("#"):
            comment = m.start()
        elif piece == "\n":
            end = comment if comment is not None and comment >= line_start else m.start()
            code = text[line_start:end]
            if code.strip():
                first = line_start + len(code) - len(code.lstrip(" \t\r"))
                lines.append((first, line_start + len(code.rstrip(" \t\r")), _indent(text, first)))
            line_start, comment = m.end(), None
    return lines


def _brace_pairs(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """Braces outside strings and comments matched by nesting: (open, close) pairs in the
    order they close, and the positions of the `{` still open at the end."""
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    for pos, c in _boundaries(text, 0):
        if c == "{":
            stack.append(pos)
        elif c == "}" and stack:
            pairs.append((stack.pop(), pos))
    return pairs, stack


def unclosed(text: str) -> int:
    """How many `{` (outside strings and comments) the text never closes."""
    return len(_brace_pairs(text)[1])


def innermost_unclosed(text: str) -> MissingClose | None:
    _, still_open = _brace_pairs(text)
    if not still_open:
        return None
    end = len(text.rstrip(" \t\r\n"))
    # the fix closes them all, innermost first, each on a line of its own (a few: a file
    # of 60,000 `{` gets no fix)
    fix_text = "".join("\n" + _indent_text(text, p) + "}" for p in reversed(still_open)) if len(still_open) <= 16 else ""
    return MissingClose(still_open[-1], None, tuple(reversed(still_open[:-1])), end if fix_text else None, fix_text)


def _line_end(text: str, pos: int) -> int:
    """The end of the line holding `pos` (before its new line and any `\r`)."""
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


_ELSE = re.compile(r"else\b")


def _lost_before_else(text: str, lines: list[tuple[int, int, int]]) -> MissingClose | None:
    """An `else` that begins a line after a line not ending in `}`, with a blank before it:
    the `}` of the `if`'s arm before it is missing (`} else {` lost its `}`), whatever the
    indentation says. The parse's `}` goes in place before the `else` (the rest of that one
    line moves a column); the `{` never closed is the innermost one open there. (An `else`
    after a line ending in `}` is S0136, a new line between them.)"""
    for i in range(1, len(lines)):
        start = lines[i][0]
        if not _ELSE.match(text, start) or text[lines[i - 1][1] - 1] == "}" or text[start - 1] not in " \t":
            continue
        still_open = _brace_pairs(text[:start])[1]
        if still_open:
            return MissingClose(still_open[-1], start, fix_at=start, fix_text="} ", before_else=True)
    return None


MAX_GUESSED_BRACES = 20_000  # content/'s quest files have at most 64


def guess_missing_close(text: str) -> MissingClose | None:
    """The first block whose indentation says it ends before its `}` (by nesting) does:
    that `}` belongs to an outer block, so this block lost its own.

    - An indented block (the line after the `{` indented more than the line holding it)
      ends at its last line indented more. Its `}` is missing when its `}` by nesting is
      not the first thing on the next line at the opening line's indentation: that line
      is indented less (an outer block's `}`) or is a statement.
    - A one-line block (code after the `{` on its line, the next line not indented more)
      ends with its line; its `}` is missing when its `}` by nesting is on a later line.
      So does an empty block (nothing after the `{`, the next line not indented more), in
      a file that indents anything at all.

    The parse's `}` goes at the end of the block's last line of code (`insert_at`); the
    fix's on a line of its own after it, indented as the opening line (or after the code
    of a one-line block). None when indentation tells nothing (a flush-left file), and
    in a file of more than MAX_GUESSED_BRACES `{`: no quest comes near it, and past it the
    guess is seconds of work (make fuzz, seed 4103: 250,000 `{` took 4 s, past the 10 s
    timeout on a busy machine) for a hint the plain message does without."""
    if text.count("{") > MAX_GUESSED_BRACES:
        return None
    lines = _code_lines(text)
    lost = _lost_before_else(text, lines)
    if lost is not None:
        return lost
    pairs, still_open = _brace_pairs(text)
    closes = dict(pairs)
    starts = [first for first, _, _ in lines]
    # A block around the one that lost its `}` looks as if it lost its own too (its `}` by
    # nesting is the next one out): of the blocks that look so, the innermost is the one.
    found: list[tuple[int, int, bool]] = []  # (opening, end of the block's code, whether indented)
    indented = any(indent for _, _, indent in lines)  # a flush-left file says nothing of empty blocks
    # ends[i]: the first line after line i indented no more than it (one pass with a stack,
    # so a file of many nested blocks is not walked again for each of them)
    ends = [len(lines)] * len(lines)
    stack: list[int] = []
    for i, (_, _, indent) in enumerate(lines):
        while stack and lines[stack[-1]][2] >= indent:
            ends[stack.pop()] = i
        stack.append(i)
    for open_at in sorted([*closes, *still_open]):
        close_at = closes.get(open_at, len(text))
        here = bisect.bisect_right(starts, open_at) - 1  # the line holding the `{`
        if here < 0:
            continue
        opening = lines[here][2]
        line_end = lines[here][1]
        if close_at < line_end:
            continue  # closed on its own line
        after = here + 1
        if after < len(lines) and lines[after][2] > opening:  # an indented block
            last = ends[here] - 1  # the block's last line indented more than its opening line
            if close_at < lines[last][1]:
                continue  # its `}` ends one of its indented lines
            nxt = last + 1
            if nxt == len(lines):
                continue  # open to the end of the file: closed there (innermost_unclosed)
            if lines[nxt][0] == close_at and lines[nxt][2] == opening:
                continue  # closed where indentation says
            end = lines[last][1]
            found.append((open_at, end, True))
        elif after < len(lines) and (line_end > open_at + 1 or indented):  # a one-line block (or an empty one, in an indented file)
            found.append((open_at, line_end, False))
    for i, (open_at, end, block) in enumerate(found):  # sorted by opening: the next one is the first that may lie inside
        if i + 1 == len(found) or found[i + 1][0] > end:
            if block:
                return MissingClose(open_at, end, fix_at=_line_end(text, end), fix_text="\n" + _indent_text(text, open_at) + "}")
            return MissingClose(open_at, end, fix_at=end, fix_text=" }")
    return None


MAX_UNCLOSED_NOTES = 10  # notes of S0106 for the other `{` that are never closed


def report_unclosed(miss: MissingClose, text: str, original: str, file: str, sink: Sink) -> None:
    """S0106 at the `{` (a position in `text`); the note at the end of the `original` file."""
    line, col = _line_col(text, miss.open_at)
    if any(d.span.file == file and (d.span.line, d.span.column) == (line, col) for d in sink.items):
        return  # a `{` the parser already rejected (`quest q "Q" { {`): that error is the one
    end_line, end_col = _line_col(original, len(original))
    # the other unclosed `{`, innermost first, up to MAX_UNCLOSED_NOTES: a line of 60,000
    # `{` gave 60,000 notes, 27 MB of SARIF for a 62 KB file (make fuzz)
    outer = _line_cols(text, miss.outer[:MAX_UNCLOSED_NOTES])
    notes = [Related(Span(file, *at), "this `{` is not closed either") for at in outer]
    if len(miss.outer) > len(outer):
        notes[-1] = Related(Span(file, *outer[-1]), f"this `{{` is not closed either, nor are {len(miss.outer) - len(outer):,} more before it")
    if miss.before_else and miss.insert_at is not None:
        at_line, at_col = _line_col(original, miss.insert_at)
        related = (*notes, Related(Span(file, at_line, at_col), "an `else` follows the `}` of the block before it"))
    elif miss.insert_at is not None:  # indentation says where the block ends: there, not the file's end
        at_line, at_col = _line_col(original, miss.insert_at)
        related = (*notes, Related(Span(file, at_line, at_col), "by its indentation, the block ends here"))
    else:
        related = (*notes, Related(Span(file, end_line, end_col), "the file ends here with the block still open"))
    edit = None
    if miss.fix_at is not None:
        at_line, at_col = _line_col(original, miss.fix_at)
        edit = Edit(Span(file, at_line, at_col, at_line, at_col), miss.fix_text)
    if miss.before_else and miss.insert_at is not None:
        fix = f"Add `}}` before the `else` of line {_line_col(original, miss.insert_at)[0]}: `}} else {{`."
    elif miss.insert_at is not None:
        at_line, _ = _line_col(original, miss.insert_at)
        where = "where the block's indented lines end" if miss.fix_text.startswith("\n") else "after the block's statements"
        fix = f"Add `}}` at the end of line {at_line}, {where}."
    elif miss.fix_at is not None:
        fix = "Add `}` at the end of the file." if not miss.outer else "Add the missing `}`s at the end of the file."
    else:
        fix = "Add the missing `}` where the block should end." if not miss.outer else "Add the missing `}`s where the blocks should end."
    sink.report("S0106", Span(file, line, col), related=related, fix=fix, edit=edit)

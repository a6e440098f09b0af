"""Parse with syntax-error recovery in one pass over the file.

Recovery blanks out the statement holding an error (errors.blank_statement: positions
stay put) and goes on as if the blanked text had been parsed from its start. Parsing it
again from the start made a file of 60,000 good statements and 30 errors take minutes
(the whole file parsed once per error); instead the parse resumes from a checkpoint
just before the blanked statement.

A checkpoint is taken before each token holding a statement boundary (`;`, a new line,
`{`, `}`): the parser's stacks and the end of the token before it. Resuming from one
gives exactly the tokens and states a parse from the start of the blanked text would:
the text before the checkpoint is unchanged, and every token before it ends strictly
before the blanked part, so no earlier token can be lexed differently. (Only the very
token holding the boundary can change: a `_SEP` ending at the blank grows over its new
spaces; it is lexed again.) Each error therefore costs the length of its statement, not
of the file.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterator

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_interactive_parser import InteractiveParser
from lark.parsers.lalr_parser_state import ParserState

from compiler.diagnostics import Sink, Span
from compiler import frozen
from compiler.syntax import errors

MAX_ERRORS = 25  # syntax errors reported per file before giving up

# Resuming needs the latest checkpoint before the error's statement, at most the second
# latest (the latest may be the offending token itself); a few more cost nothing.
KEPT_CHECKPOINTS = 4


@frozen
class _Checkpoint:
    after: Token | None  # the last token fed before this point (None: the start of the file)
    boundary: int  # where the token holding the boundary starts
    state_stack: list[int]  # LALR states (Lark numbers them unless built with debug=True)
    value_stack: list[Tree[Token] | Token]  # no transformer: trees and tokens
    # len(children) of each tree on the value stack. Lark builds a rule's children by
    # appending to the list of its first inlined child (`_rule`, `x*`): trees on the
    # stack grow after the checkpoint; resuming cuts them back. (Copying the trees
    # instead would copy a block's list of statements at each statement: quadratic.)
    lengths: tuple[int, ...]

    @property
    def pos(self) -> int:
        if self.after is None:
            return 0
        assert self.after.end_pos is not None  # a lexed token has its position (Lark types it Optional)
        return self.after.end_pos


def _holds_boundary(token: Token) -> bool:
    return token.type in ("_SEP", "_COMMA") and ("\n" in token or ";" in token) or token in ("{", "}")


MAX_GUESSED_BRACES = 8  # missing `}` put back where indentation says, per file


def parse_recovering(text: str, file: str, sink: Sink, parser: Lark) -> Tree[Token] | None:
    """The tree of `text` with every broken statement blanked out (each reported to
    `sink`), or None when too much is broken. `parser` is the Lark LALR parser.

    A `{` never closed is one mistake, a `}` left out, however many statements after it
    the parser would misread. Before parsing, while the file opens more blocks than it
    closes, indentation says which block lost its `}` (errors.guess_missing_close): the
    `}` is put back at the end of that block's last line and the file parsed with it, so
    the statements after it are read as the designer meant them; the one diagnostic
    (S0106) points at the `{` that is never closed, with the fix (an edit putting the `}`
    on a line of its own) and the end of the file as a note. Only the end of a line is
    changed (nothing after it on that line but a comment), so every other position stays
    put. Without a guess the parse closes the blocks at the end of the file."""
    work = text
    inserted: list[int] = []  # where `}` were put in `work` (positions in `work`)
    guessed: list[errors.MissingClose] = []  # positions in `text`
    while len(guessed) < MAX_GUESSED_BRACES and errors.unclosed(work):
        guess = errors.guess_missing_close(work)
        if guess is None or guess.insert_at is None:
            break
        guessed.append(_in_original(guess, inserted))
        at = guess.insert_at
        inserted = [p + (p >= at) for p in inserted] + [at]
        work = work[:at] + "}" + work[at:]
    local = Sink(comparisons_left=sink.comparisons_left)
    tree, unclosed = parse_once(work, file, local, parser)
    if unclosed:
        miss = errors.innermost_unclosed(work)
        if miss is not None:
            guessed.append(_in_original(miss, inserted))
    for miss in guessed:
        errors.report_unclosed(miss, text, text, file, local)
    sink.comparisons_left = local.comparisons_left
    sink.extend(local.items)
    return tree


def _in_original(miss: errors.MissingClose, inserted: list[int]) -> errors.MissingClose:
    """`miss` with its positions (in the text with `}` put back at `inserted`) moved to
    the text as written."""
    order = sorted(inserted)

    def back(pos: int) -> int:
        return pos - bisect.bisect_left(order, pos)

    def maybe(pos: int | None) -> int | None:
        return None if pos is None else back(pos)

    return errors.MissingClose(back(miss.open_at), maybe(miss.insert_at), tuple(back(p) for p in miss.outer), maybe(miss.fix_at), miss.fix_text, miss.before_else)


def parse_once(text: str, file: str, sink: Sink, parser: Lark) -> tuple[Tree[Token] | None, bool]:
    """One parse with recovery: (the tree or None, whether the file ended inside blocks
    that were closed to finish it). The unclosed block is not reported here."""
    work = text
    reported = 0
    eof_reported = False
    checkpoints: deque[_Checkpoint] = deque(maxlen=KEPT_CHECKPOINTS)
    resume: _Checkpoint | None = None
    while True:
        ip = parser.parse_interactive(work)
        if resume is not None:
            _restore(ip, resume)
        try:
            return _run(ip, checkpoints), False
        except UnexpectedInput as exc:
            if reported >= MAX_ERRORS:
                sink.report("S0105", errors.span_at(work, file, exc), limit=MAX_ERRORS)
                return None, False
            if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
                tree = errors.complete_at_eof(exc)
                first = not eof_reported  # a file cut mid-statement (S0104) is that one mistake
                if first:
                    errors.report(exc, work, file, sink, completed=tree is not None)
                    reported += 1
                    eof_reported = True
                if tree is not None:
                    return tree, first
            else:
                errors.report(exc, work, file, sink)
                reported += 1
            resume = _checkpoint_before(checkpoints, errors.error_pos(exc, work))
            blanked = errors.blank_statement(work, exc, begin=resume.pos if resume else 0)
            if blanked is None or blanked == work:
                return None, False
            work = blanked
        except LarkError as exc:  # anything else Lark may raise: located at the file start
            sink.report("S0900", Span(file, 1, 1), detail=f"{type(exc).__name__}: {exc}")
            return None, False


def _run(ip: InteractiveParser, checkpoints: deque[_Checkpoint]) -> Tree[Token]:
    """Lark's own parse loop (parse_from_state), taking checkpoints on the way."""
    state: ParserState[int] = ip.parser_state
    lexer_state = ip.lexer_thread.state
    assert lexer_state is not None  # parse_interactive(text) gives the lexer its text
    previous = lexer_state.last_token
    lex: Callable[[ParserState[int]], Iterator[Token]] = ip.lexer_thread.lex  # Lark leaves lex unannotated
    try:
        for token in lex(state):
            if _holds_boundary(token):
                values = list(state.value_stack)
                lengths = tuple(len(v.children) if isinstance(v, Tree) else 0 for v in values)
                assert token.start_pos is not None  # a lexed token has its position (Lark types it Optional)
                checkpoints.append(_Checkpoint(previous, token.start_pos, list(state.state_stack), values, lengths))
            state.feed_token(token)
            previous = token
        end = Token.new_borrow_pos("$END", "", previous) if previous else Token("$END", "", 0, 1, 1)
        tree: Tree[Token] = state.feed_token(end, True)  # the parse is over: the tree (no transformer)
        return tree
    except UnexpectedInput as exc:
        exc.interactive_parser = ip  # as Lark does: errors.py reads the state at the error
        raise


def _checkpoint_before(checkpoints: deque[_Checkpoint], pos: int) -> _Checkpoint | None:
    """The latest checkpoint whose boundary token starts before the error at `pos` (so
    the boundary that starts the broken statement is at or after it), dropping it and
    every later one (the resumed parse takes them again); None: from the start."""
    while checkpoints:
        cp = checkpoints.pop()
        if cp.boundary < pos:
            return cp
    return None


def _restore(ip: InteractiveParser, cp: _Checkpoint) -> None:
    """Put a fresh interactive parser (over the blanked text) in the checkpoint's state."""
    ip.parser_state.state_stack[:] = cp.state_stack
    ip.parser_state.value_stack[:] = cp.value_stack
    for value, length in zip(cp.value_stack, cp.lengths):
        if isinstance(value, Tree):
            del value.children[length:]
    lexer_state = ip.lexer_thread.state
    if cp.after is not None:
        end_pos, end_line, end_column = cp.after.end_pos, cp.after.end_line, cp.after.end_column
        assert lexer_state is not None  # parse_interactive(text) gives the lexer its text
        assert end_pos is not None and end_line is not None and end_column is not None  # a lexed token
        counter = lexer_state.line_ctr
        counter.char_pos = end_pos
        counter.line = end_line
        counter.column = end_column
        counter.line_start_pos = end_pos - end_column + 1
        lexer_state.last_token = cp.after

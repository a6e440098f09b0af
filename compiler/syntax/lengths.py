"""How long a player-facing text of a quest may be: names and texts are capped, each
with a located error (S0230), before they reach the bundle and the images.

A name (a quest's, an encounter's, a card's title, a token's label: the `name`,
`title` and `label` fields of the AST) is at most NAME_MAX characters; any other text
(`say`, `win`, a card's rules, flavour) at most TEXT_MAX. The longest real ones are far
shorter: in content/ a name of 21 characters and a text of 245, in the Valkyrie quests
of the reference data a quest name of 46 and a text of 705; a pack's name (pack.yaml)
is at most 73. A name of 60,000 characters made `questc build` draw a title 600,000
pixels wide (1.7 GB); longer ones crashed it. The catalogs' names and texts have the
same caps in their schemas (`maxLength`), translations in the translations pass
(T0205), and the image renderers ellipsize any text they draw as a second guard
(compiler/emit/images/style.py). docs/robustness.md, "Second pass (issue 38)".

A whole file is capped too, by its words (runs of non-blank characters): at most
WORDS_MAX, before the parser sees it (S0231). Parsing is linear but not cheap (about
80 µs a statement with error recovery): a 1 MB file of 80,000 `tile 1A` lines took
10 s of CPU (`make fuzz` seed 4106, r:22624). The longest quest file in content/ has
1,223 words; WORDS_MAX is forty times that.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Iterator

from compiler.diagnostics import Sink, Span
from compiler.syntax import ast

NAME_MAX = 200
TEXT_MAX = 10_000
WORDS_MAX = 50_000
WORD = re.compile(r"\S+")
NAME_FIELDS = ("name", "title", "label")  # what the string table's ids end in for names (model/texts.py)


def within_word_cap(text: str, file: str, sink: Sink) -> bool:
    """False, with S0231 at the first word past the cap, for a file too long to parse."""
    past = next(itertools.islice(WORD.finditer(text), WORDS_MAX, None), None)
    if past is None:
        return True
    at = past.start()
    line = text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    sink.report("S0231", Span(file, line, column, line, column + len(past.group())), limit=WORDS_MAX)
    return False


def limit_of(field: str) -> int:
    """The cap of a text held in an AST field (or ending a string id) of this name."""
    return NAME_MAX if field in NAME_FIELDS else TEXT_MAX


def check_lengths(declarations: tuple[object, ...], sink: Sink) -> None:
    """S0230 at every text of `declarations` longer than its cap."""
    for field, text in _texts(declarations, ""):
        limit = limit_of(field)
        if len(text.value) > limit:
            what = "a name" if limit == NAME_MAX else "a text"
            sink.report("S0230", text.span, what=what, length=len(text.value), limit=limit)


def _texts(declarations: tuple[object, ...], field: str) -> Iterator[tuple[str, ast.Text]]:
    """(field name, Text) for every Text below the declarations (a stack, not recursion:
    blocks nest as deep as the parser lets them)."""
    stack: list[tuple[str, object]] = [(field, d) for d in reversed(declarations)]
    while stack:
        name, node = stack.pop()
        if isinstance(node, ast.Text):
            yield name, node
        elif isinstance(node, tuple):
            stack.extend((name, item) for item in reversed(node))
        elif dataclasses.is_dataclass(node) and not isinstance(node, (type, Span)):
            for f in reversed(dataclasses.fields(node)):
                value = getattr(node, f.name)
                if isinstance(value, (ast.Text, tuple)) or (dataclasses.is_dataclass(value) and not isinstance(value, Span)):
                    stack.append((f.name, value))

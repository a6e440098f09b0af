"""Parse `.quest` text into the frozen AST of `compiler.syntax.ast`.

`parse_module(text, file, sink)` is the only entry point and the only place Lark trees
exist: the tree is converted at once into dataclasses carrying `Span`s. It never raises
on bad input — it reports coded diagnostics (S0xxx) and returns what it could build.

Error recovery (recovery.py): on a syntax error the offending *statement* (from the
previous `;`, new line, `{` or `}` to the next one at the same brace depth, so a broken
header takes its whole block with it) is blanked out with spaces — positions stay put —
and the parse resumes just before it. A file that ends inside blocks is completed with
the missing `}`.
"""

from __future__ import annotations

import bisect
import dataclasses
import inspect
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from importlib import resources
from typing import Any, TypeVar

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import VisitError
from lark.tree import Meta

from compiler.diagnostics import Diagnostic, Severity, Sink, Span
from compiler import frozen
from compiler.syntax import ast, recovery
from compiler.syntax.errors import lexed_span
from compiler.syntax.lengths import check_lengths, within_word_cap
from compiler.syntax.numbers import MAX_NUMBER, bound_numbers


# ---------------------------------------------------------------- the Lark parser (built once)
class _AlwaysLexNames:
    """Postlexer whose only job is `always_accept`: every lexer state also knows ID, so a
    word such as `atach` lexes as one name (then is reported whole) instead of as the
    keyword `at` followed by `ach`."""

    always_accept = ("ID",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


def lark_options() -> dict[str, Any]:  # Lark's keyword options: words, flags, the postlexer
    return dict(
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        postlex=_AlwaysLexNames(),
    )


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """Built tables are kept in a private per-user cache (never Lark's `cache=True`, whose
    pickle sits in the shared temp folder): see parser_cache.py."""
    from compiler.syntax import parser_cache

    from compiler.resources import packaged_text

    grammar = packaged_text(resources.files("compiler.syntax").joinpath("grammar.lark"))
    return parser_cache.load_or_build(grammar, lark_options())


# ---------------------------------------------------------------- entry point
def parse_module(text: str, file: str, sink: Sink) -> ast.Module:
    """Parse one `.quest` file. Diagnostics go to `sink`; the result holds every
    declaration that survived error recovery."""
    before = len(sink.items)
    if not within_word_cap(text, file, sink):  # S0231 (syntax/lengths.py)
        return ast.Module(file=file)
    try:
        tree = recovery.parse_recovering(text, file, sink, lark_parser())
        if tree is None:
            return ast.Module(file=file)
        bound_numbers(tree, file, sink)  # before the builder's int(), which refuses 4,301 digits
        builder = _Builder(file, sink)
        decls = builder.transform(tree)
        docs = _doc_comments(text)
        decls = tuple(
            dataclasses.replace(d, doc=docs.get(d.span.line)) if docs.get(d.span.line) else d for d in decls
        )
        check_lengths(decls, sink)  # S0230: names and texts within their caps (syntax/lengths.py)
        return ast.Module(file=file, declarations=_mark_incomplete(decls, sink.items[before:]))
    except Exception as exc:  # a bug in this module must not become a traceback for the user
        inner = exc.orig_exc if isinstance(exc, VisitError) else exc
        sink.report("S0900", Span(file, 1, 1), detail=f"{type(inner).__name__}: {inner}")
        return ast.Module(file=file)


def _mark_incomplete(decls: tuple[ast.Declaration, ...], found: list[Diagnostic]) -> tuple[ast.Declaration, ...]:
    """Each quest holding a syntax error marked `incomplete`: what recovery dropped (an
    event misspelt `on enter X`) may be what wins it, so "it can never be won" would be a
    second message about one mistake, and the first one read. So is each map block holding
    one (`tile 13 attach …` dropped: the openings it joined are not reported loose)."""
    lines = sorted({d.span.line for d in found if d.severity is Severity.ERROR and d.code.startswith("S0")})
    if not lines:
        return decls
    def holds(span: Span) -> bool:
        i = bisect.bisect_left(lines, span.line)
        return i < len(lines) and lines[i] <= span.end_line

    def marked(body: ast.EncounterBody) -> ast.EncounterBody:
        if body.map is None or not holds(body.map.span):
            return body
        return dataclasses.replace(body, map=dataclasses.replace(body.map, incomplete=True))

    out = []
    for d in decls:
        if isinstance(d, ast.Quest) and holds(d.span):
            encounters = tuple(dataclasses.replace(e, body=marked(e.body)) for e in d.encounters)
            d = dataclasses.replace(d, incomplete=True, encounters=encounters)
        elif isinstance(d, ast.Encounter) and holds(d.span):
            d = dataclasses.replace(d, body=marked(d.body))
        out.append(d)
    return tuple(out)


# ---------------------------------------------------------------- doc comments
# a `##` line; shared with the formatter. The text is group 1 with its trailing blanks
# stripped (rstrip): `(.*?)[ \t]*$` said the same in the pattern but backtracked over
# every blank for every character, quadratic in a line of 250,000 tabs (make fuzz)
DOC_COMMENT = re.compile(r"^[ \t]*##(?!#)[ ]?(.*)$")


def _doc_comments(text: str) -> dict[int, str]:
    """Map line number -> the `##` block ending on the line before it."""
    docs: dict[int, str] = {}
    block: list[str] = []
    # lines as Lark counts them: only "\n" ends a line (str.splitlines also breaks at
    # \r, \x0b, \u2028…, which would shift every later doc comment)
    for number, line in enumerate(text.split("\n"), start=1):
        m = DOC_COMMENT.match(line.removesuffix("\r"))
        if m:
            block.append(m.group(1).rstrip(" \t"))
            continue
        if block:
            docs[number] = "\n".join(block)
        block = []
    return docs


# ---------------------------------------------------------------- tree -> AST
def _text_value(token: Token) -> str:
    raw = str(token)
    if token.type == "TEXT_BLOCK":
        return inspect.cleandoc(raw[3:-3])
    return _unescape(raw[1:-1])


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


SINGLE_BODY_FIELDS = ("map", "start", "entrance", "exit", "flavor", "setup")


# What Lark hands a rule's callback: its children, untyped (tokens, trees of rules the
# builder leaves alone, and what the callbacks of the rules inside returned: AST nodes,
# strings and the small tagged tuples of options).
Children = list[Any]
# Keyword arguments of an AST node, folded from its options: values of many types.
Fields = dict[str, Any]
_Node = TypeVar("_Node")  # an AST node class
# A target option: ("filter", the filter, None, span) or ("order", its word, attribute or None, span).
TargetOption = tuple[str, ast.TargetFilter | str, str | None, Span]


@v_args(meta=True)
class _Builder(Transformer[Token, tuple[ast.Declaration, ...]]):
    """Lark tree -> AST. Each method receives (meta, children) and returns a node or a
    small ("tag", value, span) tuple for an option the enclosing rule folds in."""

    def __init__(self, file: str, sink: Sink) -> None:
        super().__init__()
        self.file = file
        self.sink = sink

    # -------------------------------------------------- helpers
    def span(self, meta: Meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, token: Token) -> Span:
        return lexed_span(self.file, token)

    def once(self, seen: dict[str, Span], key: str, span: Span, what: str) -> bool:
        """False (and S0204 reported) when `key` was already given in this statement."""
        if key in seen:
            self.sink.report("S0204", span, what=what)
            return False
        seen[key] = span
        return True

    # -------------------------------------------------- module
    def start(self, meta: Meta, children: Children) -> tuple[ast.Declaration, ...]:
        return tuple(children)

    # -------------------------------------------------- values
    def text(self, meta: Meta, children: Children) -> ast.Text:
        return ast.Text(_text_value(children[0]), self.span(meta))

    def signed(self, meta: Meta, children: Children) -> int:  # only reached if `?signed` ever keeps a tree
        return int(children[0])

    def hero_guard(self, meta: Meta, children: Children) -> ast.HeroGuard:
        low, high, written = children[0]
        span = self.span(meta)
        if not (1 <= low <= 4 and 1 <= high <= 4):
            self.sink.report("S0202", span, guard=f"heroes {written}")
        elif low > high:
            self.sink.report("S0203", span, low=low, high=high)
        return ast.HeroGuard(low, high, span)

    def guard_plus(self, meta: Meta, children: Children) -> tuple[int, int, str]:
        return (int(children[0]), 4, f"{children[0]}+")

    def guard_range(self, meta: Meta, children: Children) -> tuple[int, int, str]:
        return (int(children[0]), int(children[1]), f"{children[0]}..{children[1]}")

    def guard_exact(self, meta: Meta, children: Children) -> tuple[int, int, str]:
        return (int(children[0]), int(children[0]), str(children[0]))

    # -------------------------------------------------- spaces
    def space(self, meta: Meta, children: Children) -> ast.SpaceRef:
        space: ast.SpaceRef = children[0]
        return space

    def tile_space(self, meta: Meta, children: Children) -> ast.TileSpace:
        return ast.TileSpace(str(children[0]), int(children[1]), int(children[2]), self.span(meta))

    def world(self, meta: Meta, children: Children) -> ast.WorldSpace:
        return ast.WorldSpace(int(children[0]), int(children[1]), self.span(meta))

    def mark_ref(self, meta: Meta, children: Children) -> ast.MarkRef:
        return ast.MarkRef(str(children[0]), self.span(meta))

    def side(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def local_side(self, meta: Meta, children: Children) -> ast.OpeningRef:
        index = int(children[1]) if len(children) > 1 else 0
        return ast.OpeningRef(None, children[0], index, self.span(meta))

    def opening(self, meta: Meta, children: Children) -> ast.OpeningRef:
        index = int(children[2]) if len(children) > 2 else 0
        return ast.OpeningRef(str(children[0]), children[1], index, self.span(meta))

    # -------------------------------------------------- maps
    def tile_as(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("name", str(children[0]), self.span(meta))

    def tile_attach(self, meta: Meta, children: Children) -> tuple[str, ast.Attach, Span]:
        span = self.span(meta)
        return ("attach", ast.Attach(children[0], children[1], span), span)

    def tile_rotate(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        span = self.span(meta)
        degrees = int(children[0])
        if degrees % 90:
            self.sink.report("S0201", span, degrees=degrees)
        return ("rotate", degrees % 360, span)

    def tile_hidden(self, meta: Meta, children: Children) -> tuple[str, bool, Span]:
        return ("hidden", True, self.span(meta))

    def tile(self, meta: Meta, children: Children) -> ast.TilePlacement:
        code = str(children[0])
        fields: Fields = {}
        seen: dict[str, Span] = {}
        for key, value, span in children[1:]:
            if self.once(seen, key, span, f"`{'as' if key == 'name' else key}`"):
                fields[key] = value
        if "at" in fields and "attach" in fields:
            self.sink.report("S0205", seen["attach"], tile=code)
            del fields["attach"]
        return ast.TilePlacement(code=code, name=fields.pop("name", code), span=self.span(meta), **fields)

    def door_colour(self, meta: Meta, children: Children) -> tuple[str, str]:
        return ("colour", str(children[0]))

    def door_open(self, meta: Meta, children: Children) -> tuple[str, bool]:
        return ("open", True)

    def door_rune(self, meta: Meta, children: Children) -> tuple[str, bool]:
        return ("rune", True)

    def door_locked(self, meta: Meta, children: Children) -> tuple[str, bool]:
        return ("locked", True)

    def door_hidden(self, meta: Meta, children: Children) -> tuple[str, bool]:
        return ("hidden", True)

    def door_divides(self, meta: Meta, children: Children) -> tuple[str, str]:
        return ("divides", str(children[0]))

    def door(self, meta: Meta, children: Children) -> ast.DoorDecl:
        extra: Fields = {}
        for key, value in children[2:]:
            if key in extra:
                what = {"open": "`open`", "rune": "`rune`", "divides": "`divides`", "colour": "a colour",
                        "locked": "`locked`", "hidden": "`hidden`"}[key]
                self.sink.report("S0204", self.span(meta), what=what)
                continue
            extra[key] = value
        on = children[1]
        if isinstance(on, tuple):  # inner_edge: a door inside the tile
            square, side, span = on
            return ast.DoorDecl(str(children[0]), ast.OpeningRef(square.tile, side, -1, span), span=self.span(meta),
                                inside=square, **extra)
        return ast.DoorDecl(str(children[0]), on, span=self.span(meta), **extra)

    def inner_edge(self, meta: Meta, children: Children) -> tuple[ast.TileSpace, str, Span]:
        return (children[0], children[1], self.span(meta))

    def mark(self, meta: Meta, children: Children) -> ast.MarkDecl:
        return ast.MarkDecl(str(children[0]), children[1], self.span(meta))

    def edge(self, meta: Meta, children: Children) -> ast.EdgeDecl:
        return ast.EdgeDecl(tuple(children), self.span(meta))

    def _size(self, token: Token, span: Span) -> tuple[int, int]:
        w, h = (int(n) for n in str(token).split("x"))
        if w < 1 or h < 1:
            self.sink.report("S0213", span, size=str(token))
            return (1, 1)
        return (w, h)

    def marker(self, meta: Meta, children: Children) -> ast.MarkerDecl:
        span = self.span(meta)
        size = self._size(children[2], span) if len(children) > 2 else (1, 1)
        return ast.MarkerDecl(str(children[0]), children[1], size, span)

    def hazard_size(self, meta: Meta, children: Children) -> tuple[str, tuple[int, int], Span]:
        span = self.span(meta)
        return ("size", self._size(children[0], span), span)

    def hazard_facing(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("facing", str(children[0]), self.span(meta))

    def hazard_lane(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.SpaceRef, ...], Span]:
        return ("lane", tuple(children), self.span(meta))

    def hazard_trigger(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.SpaceRef, ...], Span]:
        return ("trigger", tuple(children), self.span(meta))

    def hazard(self, meta: Meta, children: Children) -> ast.HazardDecl:
        kind = children[0]
        kind_span = Span(self.file, kind.line, kind.column, kind.end_line, kind.end_column)
        fields: Fields = {}
        seen: dict[str, Span] = {}
        for key, value, span in children[2:]:
            if self.once(seen, key, span, f"`{key}`"):
                fields[key] = value
        return ast.HazardDecl(str(kind), children[1], span=self.span(meta), kind_span=kind_span, **fields)

    def line(self, meta: Meta, children: Children) -> ast.LineDecl:
        kind, *edges = children
        kind_span = Span(self.file, kind.line, kind.column, kind.end_line, kind.end_column)
        return ast.LineDecl(str(kind), tuple(edges), self.span(meta), kind_span)

    def line_edge(self, meta: Meta, children: Children) -> ast.LineEdge:
        return ast.LineEdge(children[0], str(children[1]), self.span(meta))

    def stairs(self, meta: Meta, children: Children) -> ast.StairsDecl:
        return ast.StairsDecl(str(children[0]), children[1], self.span(meta))

    def gateway(self, meta: Meta, children: Children) -> ast.GatewayDecl:
        return ast.GatewayDecl(str(children[0]), (children[1], children[2]), self.span(meta))

    def glyph_size(self, meta: Meta, children: Children) -> tuple[str, tuple[int, int], Span]:
        span = self.span(meta)
        return ("size", self._size(children[0], span), span)

    def glyph_active(self, meta: Meta, children: Children) -> tuple[str, bool, Span]:
        return ("active", True, self.span(meta))

    def glyph(self, meta: Meta, children: Children) -> ast.GlyphDecl:
        fields: Fields = {}
        seen: dict[str, Span] = {}
        for key, value, span in children[2:]:
            if self.once(seen, key, span, f"`{key}`"):
                fields[key] = value
        return ast.GlyphDecl(str(children[0]), children[1], span=self.span(meta), **fields)

    def portal(self, meta: Meta, children: Children) -> ast.PortalDecl:
        return ast.PortalDecl(str(children[0]), self.span(meta))

    def area(self, meta: Meta, children: Children) -> ast.AreaDecl:
        return ast.AreaDecl(str(children[0]), tuple(str(c) for c in children[1:]), self.span(meta))

    def chest(self, meta: Meta, children: Children) -> ast.ChestDecl:
        name = str(children[1]) if len(children) > 2 else None
        return ast.ChestDecl(str(children[0]), children[-1], name, self.span(meta))

    def runekey_carried(self, meta: Meta, children: Children) -> ast.RunekeyDecl:
        return ast.RunekeyDecl(str(children[0]), carrier=str(children[1]), span=self.span(meta))

    def runekey_at(self, meta: Meta, children: Children) -> ast.RunekeyDecl:
        return ast.RunekeyDecl(str(children[0]), at=children[1], span=self.span(meta))

    def map_block(self, meta: Meta, children: Children) -> ast.MapBlock:
        def pick(kind: type[_Node]) -> tuple[_Node, ...]:
            return tuple(c for c in children if isinstance(c, kind))

        return ast.MapBlock(
            tiles=pick(ast.TilePlacement),
            doors=pick(ast.DoorDecl),
            marks=pick(ast.MarkDecl),
            span=self.span(meta),
            edges=tuple(c for c in children if isinstance(c, ast.EdgeDecl)),
            markers=pick(ast.MarkerDecl),
            stairs=pick(ast.StairsDecl),
            gateways=pick(ast.GatewayDecl),
            glyphs=pick(ast.GlyphDecl),
            portals=pick(ast.PortalDecl),
            areas=pick(ast.AreaDecl),
            chests=pick(ast.ChestDecl),
            lines=pick(ast.LineDecl),
            hazards=pick(ast.HazardDecl),
        )

    # -------------------------------------------------- setup statements
    def start_on(self, meta: Meta, children: Children) -> ast.StartHeroes:
        return ast.StartHeroes(tile=str(children[0]), span=self.span(meta))

    def start_at(self, meta: Meta, children: Children) -> ast.StartHeroes:
        return ast.StartHeroes(spaces=tuple(children), span=self.span(meta))

    def var(self, meta: Meta, children: Children) -> ast.VarDecl:
        if len(children) == 1:
            return ast.VarDecl(str(children[0]), 0, self.span(meta), given=False)
        return ast.VarDecl(str(children[0]), int(children[1]), self.span(meta))

    def campaign_var(self, meta: Meta, children: Children) -> ast.VarDecl:
        return dataclasses.replace(self.var(meta, children), campaign=True)

    def hero_figure(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("hero_figure", str(children[0]), self.span(meta))

    # -------------------------------------------------- expectations
    def expect(self, meta: Meta, children: Children) -> ast.Expectation:
        expectation: ast.Expectation = children[0]
        return dataclasses.replace(expectation, span=self.span(meta))

    def x_no(self, meta: Meta, children: Children) -> tuple[str]:
        return ("no",)

    def x_doors(self, meta: Meta, children: Children) -> tuple[str, tuple[str, ...]]:
        return ("doors", tuple(str(c) for c in children))

    def x_name(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def x_what(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def compare(self, meta: Meta, children: Children) -> tuple[str, str]:
        return ("op", str(children[0]))

    def x_reachable(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def x_fires(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    @staticmethod
    def _doors(children: Children) -> tuple[str, ...]:
        return next((c[1] for c in children if isinstance(c, tuple) and c[0] == "doors"), ())

    def x_sight(self, meta: Meta, children: Children) -> ast.Expectation:
        negated = bool(children) and children[0] == ("no",)
        a, b = [c for c in children if not isinstance(c, tuple)]
        return ast.Expectation("sight", a=a, b=b, negated=negated, open_doors=self._doors(children))

    def x_measure(self, meta: Meta, children: Children) -> ast.Expectation:
        what, a, b, (_, op), value, *_ = children
        return ast.Expectation(what, a=a, b=b, op=op, value=int(value), open_doors=self._doors(children))

    def x_reach(self, meta: Meta, children: Children) -> ast.Expectation:
        word, place = children
        return ast.Expectation("reachable", place=place, negated=word == "unreachable")

    def x_event(self, meta: Meta, children: Children) -> ast.Expectation:
        number, word = children
        return ast.Expectation("event", value=int(number), negated=word == "never")

    def token_colour(self, meta: Meta, children: Children) -> tuple[str, str]:
        return ("colour", str(children[0]))

    def token_as(self, meta: Meta, children: Children) -> tuple[str, str]:
        return ("name", str(children[0]))

    def token(self, meta: Meta, children: Children) -> ast.TokenDecl:
        kind, *rest = children
        fields: Fields = {}
        for c in rest:
            if isinstance(c, ast.Text):
                fields["label"] = c
            elif isinstance(c, tuple):
                fields[c[0]] = c[1]
            else:
                fields["at"] = c
        kind_span = Span(self.file, kind.line, kind.column, kind.end_line, kind.end_column)
        return ast.TokenDecl(kind=str(kind), span=self.span(meta), kind_span=kind_span, **fields)

    def spawn_size(self, meta: Meta, children: Children) -> tuple[str, tuple[int, int], Span]:
        span = self.span(meta)
        w, h = (int(n) for n in str(children[0]).split("x"))
        if w < 1 or h < 1:
            self.sink.report("S0213", span, size=str(children[0]))
        return ("size", (w, h), span)

    def spawn_as(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("name", str(children[0]), self.span(meta))

    def spawn_unique(self, meta: Meta, children: Children) -> tuple[str, bool, Span]:
        return ("unique", True, self.span(meta))

    def spawn_health(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("extra_health", int(children[0]), self.span(meta))

    def spawn_point(self, meta: Meta, children: Children) -> ast.SpawnPoint:
        rank = str(children[0].children[0])
        heroes = children[-1] if isinstance(children[-1], ast.HeroGuard) else None
        spaces = tuple(c for c in children[1:] if not isinstance(c, ast.HeroGuard))
        return ast.SpawnPoint(rank, spaces, heroes, self.span(meta))

    def spawn_points(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.SpawnPoint, ...], Span]:
        return ("points", tuple(children), self.span(meta))

    def spawn(self, meta: Meta, children: Children) -> ast.SpawnDecl:
        group = str(children[0])
        fields: Fields = {}
        seen: dict[str, Span] = {}
        for c in children[1:]:
            if isinstance(c, ast.HeroGuard):
                c = ("heroes", c, c.span)
            key, value, span = c
            what = {"extra_health": "`health +N`", "points": "a spawn block", "name": "`as NAME`"}.get(key, f"`{key}`")
            if self.once(seen, key, span, what):
                fields[key] = value
        span = self.span(meta)
        if "at" in fields and "points" in fields:
            self.sink.report("S0207", seen["points"], group=group)
        if "extra_health" in fields and "unique" not in fields:
            self.sink.report("S0208", seen["extra_health"], group=group)
        return ast.SpawnDecl(group=group, span=span, **fields)

    def spawn_pool(self, meta: Meta, children: Children) -> ast.SpawnDecl:
        """`spawn open group traits A, B … [options]`: a group drawn from the monsters with one of the traits."""
        traits = tuple(str(c) for c in children if isinstance(c, Token))
        options = [c for c in children if not isinstance(c, Token)]
        spawn = self.spawn(meta, [Token("ID", ast.OPEN_GROUP), *options])
        return dataclasses.replace(spawn, pool=traits)

    def pick_any(self, meta: Meta, children: Children) -> tuple[str, tuple[str, ...]]:
        return ("pool", tuple(str(c) for c in children))

    def pick_all(self, meta: Meta, children: Children) -> tuple[str, tuple[str, ...]]:
        return ("needs", tuple(str(c) for c in children))

    def pick_except(self, meta: Meta, children: Children) -> tuple[str, tuple[str, ...]]:
        return ("exclude", tuple(str(c) for c in children))

    def spawn_random(self, meta: Meta, children: Children) -> ast.SpawnDecl:
        """`spawn random group [traits A, B] [with C] [except M] [options]`: a group whose monster
        is drawn at random when it is first placed (the app's `traits` / `traitpool`)."""
        parts: dict[str, tuple[str, ...]] = {}
        options = []
        for c in children:
            if isinstance(c, tuple) and len(c) == 2 and c[0] in ("pool", "needs", "exclude") and isinstance(c[1], tuple):
                parts[c[0]] = parts.get(c[0], ()) + c[1]
            else:
                options.append(c)
        spawn = self.spawn(meta, [Token("ID", ast.RANDOM_GROUP), *options])
        return dataclasses.replace(spawn, drawn=True, pool=parts.get("pool", ()), needs=parts.get("needs", ()),
                                   exclude=parts.get("exclude", ()))

    # -------------------------------------------------- custom monsters
    def cm_name(self, meta: Meta, children: Children) -> tuple[str, ast.Text, Span]:
        return ("name", children[0], self.span(meta))

    def cm_unique(self, meta: Meta, children: Children) -> tuple[str, bool, Span]:
        return ("unique", True, self.span(meta))

    def cm_plus(self, meta: Meta, children: Children) -> str:
        return "+"

    def cm_per_hero(self, meta: Meta, children: Children) -> str:
        return "per_hero"

    def cm_more(self, meta: Meta, children: Children) -> int:
        return int(children[0])

    def cm_health(self, meta: Meta, children: Children) -> tuple[str, ast.CustomHealth, Span]:
        span = self.span(meta)
        added = "+" in children
        number = next(int(c) for c in children if isinstance(c, Token))
        if "per_hero" in children:
            health = ast.CustomHealth(0, number, added, span)
        else:
            more = next((c for c in children if isinstance(c, int) and not isinstance(c, Token)), 0)
            health = ast.CustomHealth(number, more, added, span)
        return ("health", health, span)

    def cm_speed(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("speed", int(children[0]), self.span(meta))

    def _cm_names(self, key: str, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return (key, tuple((str(c), self.tspan(c)) for c in children), self.span(meta))

    def cm_attack(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("attack", meta, children)

    def cm_defense(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("defense", meta, children)

    def cm_traits(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("traits", meta, children)

    def act_ability(self, meta: Meta, children: Children) -> tuple[str, ast.Text, Span]:
        return ("ability", children[0], self.span(meta))

    def act_master(self, meta: Meta, children: Children) -> tuple[str, ast.Text, Span]:
        return ("master", children[0], self.span(meta))

    def act_minion(self, meta: Meta, children: Children) -> tuple[str, ast.Text, Span]:
        return ("minion", children[0], self.span(meta))

    def act_first(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("first", str(children[0]), self.tspan(children[0]))

    def cm_activation(self, meta: Meta, children: Children) -> tuple[str, ast.CustomActivation, Span]:
        ident, *items = children
        fields: Fields = {}
        for key, value, span in items:
            if key in fields:
                self.sink.report("S0210", span, what=f"`{key}`")
                continue
            fields[key] = value
            if key == "first":
                fields["first_span"] = span
        span = self.span(meta)
        return ("activation", ast.CustomActivation(str(ident), span=span, **fields), span)

    def custom_monster(self, meta: Meta, children: Children) -> ast.CustomMonster:
        ident, base, *items = children
        fields: Fields = {}
        seen: dict[str, Span] = {}
        dice: list[tuple[str, Span]] = []
        activations: list[ast.CustomActivation] = []
        for key, value, span in items:
            if key == "activation":
                activations.append(value)
                continue
            if key in seen:
                self.sink.report("S0210", span, what=f"`{key}`")
            else:
                seen[key] = span
                if key in ("attack", "defense"):
                    dice.extend(value)
                if key in ("attack", "defense", "traits"):
                    value = tuple(name for name, _ in value)
                fields[key] = value
        return ast.CustomMonster(str(ident), str(base), span=self.span(meta), base_span=self.tspan(base),
                                 dice_spans=tuple(dice), activations=tuple(activations), **fields)

    # -------------------------------------------------- item slots
    def it_named(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("named", meta, children)

    def it_traits(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("any_of", meta, children)

    def it_with(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("all_of", meta, children)

    def it_except(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[str, Span], ...], Span]:
        return self._cm_names("exclude", meta, children)

    def it_starting(self, meta: Meta, children: Children) -> tuple[str, bool, Span]:
        return ("starting", True, self.span(meta))

    def item_slot(self, meta: Meta, children: Children) -> ast.ItemSlot:
        """`item ID "Label"? { … }`: each statement at most once (S0210)."""
        ident, *items = children
        label = items.pop(0) if items and isinstance(items[0], ast.Text) else None
        fields: Fields = {}
        spans: list[tuple[str, Span]] = []
        for key, value, span in items:
            if key in fields:
                self.sink.report("S0210", span, what=f"`{'traits' if key == 'any_of' else 'with' if key == 'all_of' else 'except' if key == 'exclude' else key}`")
                continue
            if key != "starting":
                if key in ("named", "exclude"):
                    spans.extend(value)
                value = tuple(name for name, _ in value)
            fields[key] = value
        return ast.ItemSlot(str(ident), label, span=self.span(meta), name_spans=tuple(spans), **fields)

    # -------------------------------------------------- events
    def event(self, meta: Meta, children: Children) -> ast.EventDecl:
        trigger, *effects = children
        quota: tuple[int, Span] | None = effects.pop(0) if effects and isinstance(effects[0], tuple) else None
        condition = effects.pop(0) if effects and isinstance(effects[0], ast.Condition) else None
        if quota is None:
            return ast.EventDecl(trigger, tuple(effects), self.span(meta), condition=condition)
        return ast.EventDecl(trigger, tuple(effects), self.span(meta), condition=condition,
                             quota=quota[0], quota_span=quota[1])

    def quota(self, meta: Meta, children: Children) -> tuple[int, Span]:
        return (int(children[0]), self.span(meta))

    # -------------------------------------------------- conditions
    def condition(self, meta: Meta, children: Children) -> ast.Condition:
        cond: ast.Condition = children[0]
        return cond

    def _joined(self, kind: str, meta: Meta, children: Children) -> ast.Condition:
        parts: list[ast.Condition] = []
        for c in children:  # `a and b and c` is one `and` of three parts
            parts.extend(c.parts if c.kind == kind else (c,))
        return ast.Condition(kind, tuple(parts), span=self.span(meta))

    def c_or(self, meta: Meta, children: Children) -> ast.Condition:
        return self._joined("or", meta, children)

    def c_and(self, meta: Meta, children: Children) -> ast.Condition:
        return self._joined("and", meta, children)

    def c_not(self, meta: Meta, children: Children) -> ast.Condition:
        return ast.Condition("not", (children[0],), span=self.span(meta))

    def c_compare(self, meta: Meta, children: Children) -> ast.Condition:
        left, (_, op), right = children
        return ast.Condition("compare", op=op, left=left, right=right, span=self.span(meta))

    def c_on_board(self, meta: Meta, children: Children) -> ast.Condition:
        return ast.Condition("on_board", subject=str(children[0]), span=self.span(meta))

    def c_heroes(self, meta: Meta, children: Children) -> ast.Condition:
        guard = self.hero_guard(meta, children)
        return ast.Condition("heroes", guard=guard, span=guard.span)

    def o_variable(self, meta: Meta, children: Children) -> ast.Operand:
        return ast.Operand("variable", name=str(children[0]), span=self.span(meta))

    def o_number(self, meta: Meta, children: Children) -> ast.Operand:
        return ast.Operand("number", value=int(children[0]), span=self.span(meta))

    def o_heroes(self, meta: Meta, children: Children) -> ast.Operand:
        return ast.Operand("heroes", span=self.span(meta))

    def o_round(self, meta: Meta, children: Children) -> ast.Operand:
        return ast.Operand("round", span=self.span(meta))

    @staticmethod
    def _trigger(kind: str, shape: str = "") -> Callable[[_Builder, Meta, Children], ast.Trigger]:  # used in the class body
        def build(self: _Builder, meta: Meta, children: Children) -> ast.Trigger:
            fields: Fields = {}
            for slot, child in zip(shape.split(), children):
                fields[slot] = int(child) if slot == "number" else (child if slot == "space" else str(child))
            return ast.Trigger(kind, span=self.span(meta), **fields)

        return build

    t_start = _trigger("start")
    t_encounter_start = _trigger("encounter_start")
    t_round_end = _trigger("round_end", "number")
    t_round_start = _trigger("round_start", "number")
    t_open = _trigger("open", "subject")
    t_defeated = _trigger("defeated", "subject")
    t_searched = _trigger("searched", "subject")
    t_picked_up = _trigger("picked_up", "subject")
    t_enters_space = _trigger("enters", "space")
    t_enters_area = _trigger("enters", "subject")
    t_morale_zero = _trigger("morale_zero")
    t_hero_defeated = _trigger("hero_defeated")
    t_all_heroes_defeated = _trigger("all_heroes_defeated")
    t_variable = _trigger("variable", "subject number")
    t_doom_reaches_fate = _trigger("doom_reaches_fate")
    del _trigger

    @staticmethod
    def _effect(kind: str) -> Callable[[_Builder, Meta, Children], ast.Effect]:
        def build(self: _Builder, meta: Meta, children: Children) -> ast.Effect:
            args: list[str] = []
            number: int | None = None
            text: ast.Text | None = None
            for c in children:
                if isinstance(c, ast.Text):
                    text = c
                elif c.type in ("INT", "NEG_INT"):
                    number = int(c)
                else:
                    args.append(str(c))
            return ast.Effect(kind, tuple(args), number, text, span=self.span(meta))

        return build

    e_reveal = _effect("reveal")
    e_remove_token = _effect("remove_token")
    e_remove_tile = _effect("remove_tile")
    e_remove_door = _effect("remove_door")
    e_remove_spawn = _effect("remove_spawn")
    e_place_again = _effect("place_token")
    e_place_door = _effect("place_door")
    e_unlock = _effect("unlock")
    e_say = _effect("say")
    e_set = _effect("set")
    e_advance = _effect("advance")
    e_activate = _effect("activate")
    e_next = _effect("next")
    e_next_quest = _effect("next_quest")
    e_win = _effect("win")
    e_lose = _effect("lose")
    e_end = _effect("end")
    e_open = _effect("open")
    e_close = _effect("close")
    e_give = _effect("give")
    e_shop = _effect("shop")
    e_restock = _effect("restock")
    e_take = _effect("take")
    del _effect

    def e_spawn(self, meta: Meta, children: Children) -> ast.Effect:
        spawn = children[0]
        return ast.Effect("spawn", (spawn.group,), spawn=spawn, span=self.span(meta))

    def e_place_token(self, meta: Meta, children: Children) -> ast.Effect:
        token = children[0]
        return ast.Effect("place_token", (token.kind,), token=token, span=self.span(meta))

    def e_set_copy(self, meta: Meta, children: Children) -> ast.Effect:
        return ast.Effect("set", (str(children[0]),), source=str(children[1]), span=self.span(meta))

    def e_set_random(self, meta: Meta, children: Children) -> ast.Effect:
        var, low, high = children
        return ast.Effect("set", (str(var),), random=(int(low), int(high)), span=self.span(meta))

    def e_add(self, meta: Meta, children: Children) -> ast.Effect:
        return ast.Effect("add", (str(children[1]),), int(children[0]), span=self.span(meta))

    def e_subtract(self, meta: Meta, children: Children) -> ast.Effect:
        return ast.Effect("subtract", (str(children[1]),), int(children[0]), span=self.span(meta))

    def e_ask(self, meta: Meta, children: Children) -> ast.Effect:
        question, *choices = children
        return ast.Effect("ask", text=question, choices=tuple(choices), span=self.span(meta))

    def e_random(self, meta: Meta, children: Children) -> ast.Effect:
        return ast.Effect("random", choices=tuple(children), span=self.span(meta))

    def e_repeat(self, meta: Meta, children: Children) -> ast.Effect:
        """`repeat L { … }`: the block as the one choice (without a text or condition) of the effect."""
        label, *effects = children
        return ast.Effect("repeat", (str(label),), choices=(ast.Choice(None, tuple(effects), None, self.span(meta)),),
                          span=self.span(meta))

    def e_again(self, meta: Meta, children: Children) -> ast.Effect:
        return ast.Effect("again", (str(children[0]),), span=self.span(meta))

    def e_if(self, meta: Meta, children: Children) -> ast.Effect:
        """`if C { … } else if C2 { … } else { … }`: its arms as choices without a text, in
        order; the `else` arm is the one without a condition."""
        cond, *rest = children
        effects = [c for c in rest if isinstance(c, ast.Effect)]
        arms = [c for c in rest if isinstance(c, ast.Choice)]
        first = ast.Choice(None, tuple(effects), cond, self.span(meta))
        return ast.Effect("if", choices=(first, *arms), span=self.span(meta))

    def else_if(self, meta: Meta, children: Children) -> ast.Choice:
        cond, *effects = children
        return ast.Choice(None, tuple(effects), cond, self.span(meta))

    def else_arm(self, meta: Meta, children: Children) -> ast.Choice:
        return ast.Choice(None, tuple(children), None, self.span(meta))

    def option(self, meta: Meta, children: Children) -> ast.Choice:
        return ast.Choice(None, tuple(children), None, self.span(meta))

    def choice(self, meta: Meta, children: Children) -> ast.Choice:
        label, *effects = children
        condition = effects.pop(0) if effects and isinstance(effects[0], ast.Condition) else None
        return ast.Choice(label, tuple(effects), condition, self.span(meta))

    # -------------------------------------------------- encounters and quests
    def body(self, items: Children, span: Span) -> ast.EncounterBody:
        fields: Fields = {"tokens": [], "spawns": [], "events": [], "variables": [], "heroes_as": [], "expectations": [], "runekeys": []}
        seen: dict[str, Span] = {}
        key: str
        value: object
        sp: Span
        for item in items:
            if isinstance(item, ast.MapBlock):
                key, value, sp = "map", item, item.span
            elif isinstance(item, ast.StartHeroes):
                key, value, sp = "start", item, item.span
            elif isinstance(item, ast.TokenDecl):
                fields["tokens"].append(item)
                continue
            elif isinstance(item, ast.SpawnDecl):
                if item.at is None and not item.points:
                    self.sink.report("S0214", item.span, group=item.group)
                fields["spawns"].append(item)
                continue
            elif isinstance(item, ast.EventDecl):
                fields["events"].append(item)
                continue
            elif isinstance(item, ast.VarDecl):
                fields["variables"].append(item)
                continue
            elif isinstance(item, ast.Expectation):
                fields["expectations"].append(item)
                continue
            elif isinstance(item, ast.RunekeyDecl):
                fields["runekeys"].append(item)
                continue
            elif item[0] == "hero_figure":
                fields["heroes_as"].append(item[1])
                continue
            else:
                key, value, sp = item
            if key in seen:
                self.sink.report("S0210", sp, what=f"`{'start heroes' if key == 'start' else key}`")
                continue
            seen[key] = sp
            fields[key] = value
        kwargs: Fields = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
        return ast.EncounterBody(span=span, **kwargs)

    def inline_encounter(self, meta: Meta, children: Children) -> ast.InlineEncounter:
        number, *items = children
        span = self.span(meta)
        return ast.InlineEncounter(int(number), self.body(items, span), span, self.tspan(number))

    def encounter(self, meta: Meta, children: Children) -> ast.Encounter:
        ident, *rest = children
        name = rest.pop(0) if rest and isinstance(rest[0], ast.Text) else None
        span = self.span(meta)
        return ast.Encounter(str(ident), name, self.body(rest, span), span=span)

    def quest(self, meta: Meta, children: Children) -> ast.Quest:
        ident, name, *items = children
        span = self.span(meta)
        heroes: ast.HeroGuard | None = None
        encounters: list[ast.InlineEncounter] = []
        loose: Children = []
        decks: list[ast.DeckUse] = []
        track: ast.Track | None = None
        monsters: list[ast.CustomMonster] = []
        slots: list[ast.ItemSlot] = []
        for item in items:
            if isinstance(item, ast.CustomMonster):
                monsters.append(item)
            elif isinstance(item, ast.ItemSlot):
                slots.append(item)
            elif isinstance(item, ast.HeroGuard):
                if heroes is not None:
                    self.sink.report("S0210", item.span, what="`heroes`")
                else:
                    heroes = item
            elif isinstance(item, ast.InlineEncounter):
                encounters.append(item)
            elif isinstance(item, ast.DeckUse):
                if any(d.kind == item.kind for d in decks):
                    self.sink.report("S0210", item.span, what=f"`{item.kind}`")
                else:
                    decks.append(item)
            elif isinstance(item, ast.Track):
                if track is not None:
                    self.sink.report("S0210", item.span, what="`track`")
                else:
                    track = item
            else:
                loose.append(item)
        adventure: ast.Adventure | None = None
        if decks or track is not None:
            # a cooperative quest: its events are adventure-wide; its encounters are dealt
            events = tuple(x for x in loose if isinstance(x, ast.EventDecl))
            loose = [x for x in loose if not isinstance(x, ast.EventDecl)]
            parts = [d.span for d in decks] + ([track.span] if track is not None else []) + [e.span for e in events]
            adventure = ast.Adventure(tuple(decks), track, events, _cover(parts))
            if not loose:
                return ast.Quest(str(ident), name, heroes, tuple(encounters), span=span, adventure=adventure,
                                 monsters=tuple(monsters), items=tuple(slots))
        if encounters and loose:
            first = loose[0]
            self.sink.report("S0206", first.span if hasattr(first, "span") else first[2], quest=str(ident))
        if not encounters:
            spans = [x.span if hasattr(x, "span") else x[2] for x in loose]
            body_span = _cover(spans) if spans else span
            encounters = [ast.InlineEncounter(1, self.body(loose, body_span), body_span)]
        for expected, enc in enumerate(encounters, start=1):
            if enc.number != expected and abs(enc.number) <= MAX_NUMBER:  # beyond it: S0215, at the number
                # at the number, not the encounter: the encounter's own faults (Q0101) start there
                self.sink.report("S0212", enc.number_span if enc.number_span != ast.NOWHERE else enc.span,
                                 number=enc.number, expected=expected)
                break
        return ast.Quest(str(ident), name, heroes, tuple(encounters), span=span, adventure=adventure, monsters=tuple(monsters),
                         items=tuple(slots))

    # -------------------------------------------------- cooperative quests
    def deck_use(self, meta: Meta, children: Children) -> ast.DeckUse:
        return ast.DeckUse(str(children[0]), str(children[1]), self.span(meta))

    def track_marker(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def track_heroes(self, meta: Meta, children: Children) -> str:
        return "heroes"

    def track_top(self, meta: Meta, children: Children) -> str:
        return "top"

    def tr_spaces(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("spaces", int(children[0]), self.span(meta))

    def tr_start(self, meta: Meta, children: Children) -> tuple[str, ast.TrackStart, Span]:
        marker, at = children
        value = at if isinstance(at, str) and at in ("heroes", "top") else int(at)
        return (marker, ast.TrackStart(marker, value, self.span(meta)), self.span(meta))

    def tr_advance(self, meta: Meta, children: Children) -> tuple[str, str, int]:
        return ("advance", str(children[0]), int(children[1]) if len(children) > 1 else 1)

    def tr_draw_peril(self, meta: Meta, children: Children) -> tuple[str, None, int]:
        return ("draw_peril", None, 1)

    @staticmethod
    def _source(kind: str) -> Callable[[_Builder, Meta, Children], tuple[str, tuple[str, ...]]]:
        def build(self: _Builder, meta: Meta, children: Children) -> tuple[str, tuple[str, ...]]:
            return (kind, tuple(str(c) for c in children))

        return build

    src_fate_step = _source("fate_step")
    src_round_end = _source("round_end")
    src_hero_defeated = _source("hero_defeated")
    src_peril_drawn = _source("peril_drawn")
    src_defeated = _source("defeated")
    src_hourglass = _source("hourglass")
    del _source

    def tr_rule(self, meta: Meta, children: Children) -> tuple[str, ast.TrackRule, Span]:
        (action, marker, amount), (source, subjects) = children
        span = self.span(meta)
        return ("rule", ast.TrackRule(action, source, marker, amount, subjects, span), span)

    def track(self, meta: Meta, children: Children) -> ast.Track:
        fields: Fields = {}
        rules: list[ast.TrackRule] = []
        names = {"spaces": "`spaces`", "doom": "`doom starts`", "fate": "`fate starts`"}
        for key, value, span in children:
            if key == "rule":
                rules.append(value)
            elif key in fields:
                self.sink.report("S0210", span, what=names[key])
            else:
                fields[key] = value
        return ast.Track(rules=tuple(rules), span=self.span(meta), **fields)

    # -------------------------------------------------- exploration and peril cards
    def xc_encounter(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("encounter", str(children[0]), self.span(meta))

    def xc_start(self, meta: Meta, children: Children) -> tuple[str, tuple[str, None], Span]:
        return ("role", ("start", None), self.span(meta))

    def xc_main(self, meta: Meta, children: Children) -> tuple[str, tuple[str, int], Span]:
        return ("role", ("main", int(children[0])), self.span(meta))

    def xc_overlord(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Text | ast.Hourglass, ...], Span]:
        return ("overlord", tuple(children), self.span(meta))

    def ol_text(self, meta: Meta, children: Children) -> ast.Text:
        text: ast.Text = children[0]
        return text

    def ol_hourglass(self, meta: Meta, children: Children) -> ast.Hourglass:
        return ast.Hourglass(int(children[0]), children[1], self.span(meta))

    def _fold(self, children: Children, names: dict[str, str]) -> Fields:
        fields: Fields = {}
        seen: dict[str, Span] = {}
        for key, value, span in children:
            if key in seen:
                self.sink.report("S0210", span, what=names.get(key, f"`{key}`"))
                continue
            seen[key] = span
            fields[key] = value
        return fields

    def exploration_card(self, meta: Meta, children: Children) -> ast.ExplorationCard:
        ident, *rest = children
        fields = self._fold(rest, {"role": "`start` / `main N`"})
        role, number = fields.pop("role", ("ordinary", None))
        return ast.ExplorationCard(
            id=str(ident),
            encounter=fields.pop("encounter", None),
            role=role,
            main_number=number,
            span=self.span(meta),
            **fields,
        )

    def peril_card(self, meta: Meta, children: Children) -> ast.PerilCard:
        ident, *rest = children
        return ast.PerilCard(id=str(ident), span=self.span(meta), **self._fold(rest, {}))

    # -------------------------------------------------- activation cards
    def activation_card(self, meta: Meta, children: Children) -> ast.ActivationCard:
        ident, *groups = children
        return ast.ActivationCard(str(ident), tuple(groups), span=self.span(meta))

    def group_activation(self, meta: Meta, children: Children) -> ast.GroupActivation:
        ident, *rest = children
        effect: ast.Text | None = None
        boxes: list[ast.RankBox] = []
        for c in rest:
            if isinstance(c, ast.RankBox):
                boxes.append(c)
            elif effect is not None:
                self.sink.report("S0210", c[2], what="`effect`")
            else:
                effect = c[1]
        return ast.GroupActivation(str(ident), effect, tuple(boxes), self.span(meta))

    def box_rank(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def rank_box(self, meta: Meta, children: Children) -> ast.RankBox:
        rank, *actions = children
        return ast.RankBox(rank, tuple(actions), self.span(meta))

    @staticmethod
    def _action(verb: str) -> Callable[[_Builder, Meta, Children], ast.Action]:
        def build(self: _Builder, meta: Meta, children: Children) -> ast.Action:
            fields: Fields = {}
            for c in children:
                if isinstance(c, ast.Target):
                    fields["target"] = c
                elif isinstance(c, ast.Text):
                    fields["text"] = c
                else:
                    fields["condition"] = str(c)
            return ast.Action(verb, span=self.span(meta), **fields)

        return build

    a_engage = _action("engage")
    a_spot = _action("spot")
    a_toward = _action("toward")
    a_away_from = _action("away_from")
    a_retreat = _action("retreat")
    a_attack = _action("attack")
    a_discard = _action("discard")
    a_special = _action("special")
    del _action

    def target_pre(self, meta: Meta, children: Children) -> TargetOption:
        word = str(children[0])
        if word == "adjacent":
            return ("filter", ("adjacent",), None, self.span(meta))
        return ("order", word, None, self.span(meta))

    def subject(self, meta: Meta, children: Children) -> str:
        return "_".join(str(c) for c in children)

    def f_in_sight(self, meta: Meta, children: Children) -> TargetOption:
        return ("filter", ("in_sight",), None, self.span(meta))

    def f_within(self, meta: Meta, children: Children) -> TargetOption:
        return ("filter", ("within", int(children[0])), None, self.span(meta))

    def f_adjacent(self, meta: Meta, children: Children) -> TargetOption:
        return ("filter", ("adjacent",), None, self.span(meta))

    def f_highest(self, meta: Meta, children: Children) -> TargetOption:
        return ("order", "highest", str(children[0]), self.span(meta))

    def f_lowest(self, meta: Meta, children: Children) -> TargetOption:
        return ("order", "lowest", str(children[0]), self.span(meta))

    def f_most_damage(self, meta: Meta, children: Children) -> TargetOption:
        return ("order", "most_damage", None, self.span(meta))

    def f_not_attacked(self, meta: Meta, children: Children) -> TargetOption:
        return ("filter", ("not_attacked",), None, self.span(meta))

    def target(self, meta: Meta, children: Children) -> ast.Target:
        subject = next(c for c in children if isinstance(c, str))
        order: str | None = None
        attribute: str | None = None
        filters: list[ast.TargetFilter] = []
        for c in children:
            if isinstance(c, str):
                continue
            tag, value, attr, span = c
            if tag == "order":
                if order is not None:
                    self.sink.report("S0209", span, first=order, second=value)
                    continue
                order, attribute = value, attr
            elif value not in filters:
                filters.append(value)
        return ast.Target(subject, order, attribute, tuple(filters), self.span(meta))

    # -------------------------------------------------- decks
    def deck_kind(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def d_start(self, meta: Meta, children: Children) -> tuple[str, str, Span]:
        return ("start", str(children[0]), self.span(meta))

    def d_stack(self, meta: Meta, children: Children) -> tuple[str, ast.DeckStack, None]:
        main = int(children[1]) if len(children) > 1 else None
        return ("stack", ast.DeckStack(int(children[0]), main, self.span(meta)), None)

    def d_cards(self, meta: Meta, children: Children) -> tuple[str, tuple[str, ...], None]:
        return ("cards", tuple(str(c) for c in children), None)

    def deck(self, meta: Meta, children: Children) -> ast.Deck:
        kind, ident, *rest = children
        start: str | None = None
        stacks: list[ast.DeckStack] = []
        cards: list[str] = []
        for key, value, span in rest:
            if key == "start":
                if start is not None:
                    self.sink.report("S0210", span, what="`start`")
                else:
                    start = value
            elif key == "stack":
                stacks.append(value)
            else:
                cards.extend(value)
        return ast.Deck(kind, str(ident), start, tuple(stacks), tuple(cards), span=self.span(meta))

    # -------------------------------------------------- campaign (1st edition; docs/campaign.md)
    # Each statement is a (field, value, span) triple; `_campaign` folds them into the
    # declaration: fields in `lists` collect, every other field may be given once (S0210).
    def ref(self, token: Token) -> ast.Ref:
        return ast.Ref(str(token), self.tspan(token))

    def refs(self, children: Children) -> tuple[ast.Ref, ...]:
        return tuple(self.ref(c) for c in children)

    def _campaign(self, children: Children, lists: tuple[str, ...] = ()) -> tuple[Fields, Fields]:
        fields: Fields = {name: [] for name in lists}
        seen: dict[str, Span] = {}
        common: Fields = {}
        for key, value, span in children:
            if key in lists:
                fields[key].append(value)
                continue
            if key in seen:
                self.sink.report("S0210", span, what=f"`{CAMPAIGN_WORDS.get(key, key)}`")
                continue
            seen[key] = span
            (common if key in ("gate", "needs", "source") else fields)[key] = value
        return {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}, common

    def cp_gate(self, meta: Meta, children: Children) -> tuple[str, ast.Gate, Span]:
        low = self.ref(children[0])
        high = self.ref(children[1]) if len(children) > 1 else low
        span = self.span(meta)
        return ("gate", ast.Gate(low, high, span), span)

    def cp_needs(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("needs", self.ref(children[0]), self.span(meta))

    def cp_source(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("source", self.ref(children[0]), self.span(meta))

    def cp_at(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("at", self.ref(children[0]), self.span(meta))

    def cp_final(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("final", self.ref(children[0]), self.span(meta))

    def leader_carries(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("carries", self.ref(children[0]), self.span(meta))

    def leader_at(self, meta: Meta, children: Children) -> tuple[str, ast.SpaceRef, Span]:
        return ("at", children[0], self.span(meta))

    def cp_leader(self, meta: Meta, children: Children) -> tuple[str, ast.Leader, Span]:
        monster, *rest = children
        fields: Fields = {}
        seen: dict[str, Span] = {}
        for c in rest:
            if isinstance(c, ast.Text):
                fields["name"] = c
                continue
            key, value, span = c
            if self.once(seen, key, span, f"`{key}`"):
                fields[key] = value
        span = self.span(meta)
        return ("leader", ast.Leader(self.ref(monster), span=span, **fields), span)

    def minion_option(self, meta: Meta, children: Children) -> ast.MinionOption:
        return ast.MinionOption(int(children[0]), self.ref(children[1]), self.span(meta))

    def cp_minions(self, meta: Meta, children: Children) -> tuple[str, ast.MinionGroup, Span]:
        group: ast.Ref | None = None
        needs: ast.Ref | None = None
        options: list[ast.MinionOption] = []
        for c in children:
            if isinstance(c, ast.MinionOption):
                options.append(c)
            elif isinstance(c, tuple):
                needs = c[1]
            else:
                group = self.ref(c)
        span = self.span(meta)
        return ("minions", ast.MinionGroup(group, needs, tuple(options), span), span)

    def lv_number(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("number", int(children[0]), self.span(meta))

    def lv_no_minions(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Ref, ...], Span]:
        return ("no_minions", self.refs(children), self.span(meta))

    def lv_portal(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("portal", self.ref(children[0]), self.span(meta))

    def _level(self, meta: Meta, children: Children, card: bool) -> ast.Level:
        ident, title, *rest = children
        span = self.span(meta)
        body_items = [c for c in rest if not (isinstance(c, tuple) and isinstance(c[0], str) and c[0] in LEVEL_FIELDS)]
        own = [c for c in rest if isinstance(c, tuple) and isinstance(c[0], str) and c[0] in LEVEL_FIELDS]
        fields, common = self._campaign(own, lists=("minions", "no_minions"))
        fields["no_minions"] = tuple(r for group in fields.get("no_minions", ()) for r in group)
        body = self.body(body_items, span)
        return ast.Level(str(ident), title, card, body=body, common=ast.Common(**common), span=span, **fields)

    def dungeon_level(self, meta: Meta, children: Children) -> ast.Level:
        return self._level(meta, children, True)

    def special_level(self, meta: Meta, children: Children) -> ast.Level:
        return self._level(meta, children, False)

    def dg_levels(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Ref, ...], Span]:
        return ("levels", self.refs(children), self.span(meta))

    def dungeon(self, meta: Meta, children: Children) -> ast.Dungeon:
        ident, name, *rest = children
        fields, common = self._campaign(rest)
        return ast.Dungeon(str(ident), name, common=ast.Common(**common), span=self.span(meta), **fields)

    def rm_distance(self, meta: Meta, children: Children) -> tuple[str, tuple[int, Span], Span]:
        span = self.span(meta)
        return ("distance", (int(children[0]), span), span)

    def rm_keep(self, meta: Meta, children: Children) -> tuple[str, bool, Span]:
        return ("keep_card", True, self.span(meta))

    def rumor_card(self, meta: Meta, children: Children) -> ast.RumorCard:
        ident, title, *rest = children
        fields, common = self._campaign(rest)
        if "distance" in fields:
            fields["distance"], fields["distance_span"] = fields["distance"]
        return ast.RumorCard(str(ident), title, common=ast.Common(**common), span=self.span(meta), **fields)

    def legendary_area(self, meta: Meta, children: Children) -> ast.LegendaryArea:
        ident, name, *rest = children
        fields, common = self._campaign(rest)
        return ast.LegendaryArea(str(ident), name, common=ast.Common(**common), span=self.span(meta), **fields)

    def av_keep(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("keep", self.ref(children[0]), self.span(meta))

    def av_treachery(self, meta: Meta, children: Children) -> tuple[str, ast.TreacheryLimit, Span]:
        span = self.span(meta)
        return ("treachery", ast.TreacheryLimit(self.ref(children[0]), int(children[1]), int(children[2]), span), span)

    def avatar(self, meta: Meta, children: Children) -> ast.Avatar:
        ident, name, *rest = children
        fields, common = self._campaign(rest, lists=("treachery",))
        return ast.Avatar(str(ident), name, common=ast.Common(**common), span=self.span(meta), **fields)

    def ic_shield(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Ref, ...], Span]:
        return ("shields", self.refs(children), self.span(meta))

    def ic_ambush(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[ast.Ref, ...], Span], Span]:
        span = self.span(meta)
        return ("ambush", (self.refs(children), span), span)

    def ab_reinforce(self, meta: Meta, children: Children) -> tuple[str, ast.Ref]:
        return ("reinforce", self.ref(children[0]))

    def ab_text(self, meta: Meta, children: Children) -> tuple[str, ast.Text]:
        return ("text", children[0])

    def ic_ability(self, meta: Meta, children: Children) -> tuple[str, ast.Ability, Span]:
        (key, value), cost = children
        span = self.span(meta)
        return ("abilities", ast.Ability(int(cost), span=span, **{key: value}), span)

    def incident_card(self, meta: Meta, children: Children) -> ast.IncidentCard:
        ident, title, *rest = children
        fields, common = self._campaign(rest, lists=("minions", "abilities"))
        if "ambush" in fields:
            fields["ambush"], fields["ambush_span"] = fields["ambush"]
        return ast.IncidentCard(str(ident), title, common=ast.Common(**common), span=self.span(meta), **fields)

    def camp_watch(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.SpaceRef, ...], Span]:
        return ("watch", tuple(children), self.span(meta))

    def camp_bedrolls(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.SpaceRef, ...], Span]:
        return ("bedrolls", tuple(children), self.span(meta))

    def camp_dead_ends(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.SpaceRef, ...], Span]:
        return ("dead_ends", tuple(children), self.span(meta))

    def lc_camp(self, meta: Meta, children: Children) -> tuple[str, ast.Camp, Span]:
        tile, *rest = children
        span = self.span(meta)
        fields = self._fold(rest, {"dead_ends": "`dead_ends`"})
        return ("camp", ast.Camp(self.ref(tile), span=span, **fields), span)

    def lc_exits(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Ref, ...], Span]:
        return ("exits", self.refs(children), self.span(meta))

    def location_card(self, meta: Meta, children: Children) -> ast.LocationCard:
        ident, title, *rest = children
        span = self.span(meta)
        maps = [c for c in rest if isinstance(c, ast.MapBlock)]
        own = [c for c in rest if not isinstance(c, ast.MapBlock)]
        fields, common = self._campaign(own, lists=("exits",))
        fields["exits"] = tuple(r for group in fields.get("exits", ()) for r in group)
        body = self.body(maps, span)
        return ast.LocationCard(str(ident), title, body=body, common=ast.Common(**common), span=span, **fields)

    def plot_role(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def pl_card(self, meta: Meta, children: Children) -> tuple[str, ast.PlotCard, Span]:
        role, ident, title, *rest = children
        cost = next((int(c) for c in rest if isinstance(c, Token)), None)
        text = next((c for c in rest if isinstance(c, ast.Text)), None)
        span = self.span(meta)
        return ("cards", ast.PlotCard(role, str(ident), title, cost, text, span), span)

    def plot(self, meta: Meta, children: Children) -> ast.Plot:
        ident, name, *rest = children
        fields, common = self._campaign(rest, lists=("cards",))
        return ast.Plot(str(ident), name, common=ast.Common(**common), span=self.span(meta), **fields)

    def tc_gem(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Ref, int], Span]:
        span = self.span(meta)
        return ("gem", (self.ref(children[0]), int(children[1])), span)

    def tc_kind(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("kind", self.ref(children[0]), self.span(meta))

    def tc_threat(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("threat", int(children[0]), self.span(meta))

    def treachery_card(self, meta: Meta, children: Children) -> ast.TreacheryCard:
        ident, title, *rest = children
        fields, common = self._campaign(rest)
        if "gem" in fields:
            fields["gem"], fields["cost"] = fields["gem"]
        return ast.TreacheryCard(str(ident), title, common=ast.Common(**common), span=self.span(meta), **fields)

    def od_avatar(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("avatar", self.ref(children[0]), self.span(meta))

    def treachery_amount(self, meta: Meta, children: Children) -> ast.TreacheryAmount:
        return ast.TreacheryAmount(self.ref(children[0]), int(children[1]), self.span(meta))

    def od_held(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.TreacheryAmount, ...], Span]:
        return ("held", tuple(children), self.span(meta))

    def od_add(self, meta: Meta, children: Children) -> tuple[str, tuple[ast.Ref, ...], Span]:
        return ("add", self.refs(children), self.span(meta))

    def overlord_deck(self, meta: Meta, children: Children) -> ast.OverlordDeck:
        ident, *rest = children
        fields, common = self._campaign(rest, lists=("add",))
        fields["add"] = tuple(r for group in fields.get("add", ()) for r in group)
        return ast.OverlordDeck(str(ident), common=ast.Common(**common), span=self.span(meta), **fields)

    # -------------------------------------------------- campaign (2nd edition; docs/campaign.md)
    def u_outcome(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def u_quest(self, meta: Meta, children: Children) -> ast.Unlock:
        return ast.Unlock("quest", quest=self.ref(children[0]), outcome=children[1], span=self.span(meta))

    def u_act(self, meta: Meta, children: Children) -> ast.Unlock:
        return ast.Unlock("act", act=int(children[0]), outcome=children[1], span=self.span(meta))

    def u_all(self, meta: Meta, children: Children) -> ast.Unlock:
        return ast.Unlock("all", parts=tuple(children), span=self.span(meta))

    def u_any(self, meta: Meta, children: Children) -> ast.Unlock:
        return ast.Unlock("any", parts=tuple(children), span=self.span(meta))

    def u_neg(self, meta: Meta, children: Children) -> ast.Unlock:
        return ast.Unlock("not", parts=tuple(children), span=self.span(meta))

    def ac_kind(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def ac_odds(self, meta: Meta, children: Children) -> tuple[str, tuple[int, int], Span]:
        won, of = str(children[0]).split("/")
        return ("odds", (int(won), int(of)), self.span(meta))

    def ac_weeks(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("weeks", int(children[0]), self.span(meta))

    def ac_after(self, meta: Meta, children: Children) -> tuple[str, ast.Unlock, Span]:
        return ("after", children[0], self.span(meta))

    def ac_quest(self, meta: Meta, children: Children) -> ast.CampaignQuest:
        kind, ident, *rest = children
        title = next((c for c in rest if isinstance(c, ast.Text)), None)
        odds = next((c for c in rest if isinstance(c, tuple) and c[0] == "odds"), None)
        after = next((c[1] for c in rest if isinstance(c, tuple) and c[0] == "after"), None)
        weeks = next((c for c in rest if isinstance(c, tuple) and c[0] == "weeks"), None)
        reveal = next((c for c in rest if isinstance(c, tuple) and c[0] == "reveal"), None)
        return ast.CampaignQuest(
            kind, self.ref(ident), title, odds[1] if odds else None, odds[2] if odds else self.span(meta), after, self.span(meta),
            weeks[1] if weeks else None, weeks[2] if weeks else self.span(meta),
            tuple(c for c in rest if isinstance(c, ast.Reward)),
            reveal[1] if reveal else None, reveal[2] if reveal else self.span(meta),
        )

    def ac_reveal(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("reveal", int(children[0]), self.span(meta))

    def ac_when(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def ac_currency(self, meta: Meta, children: Children) -> str:
        return str(children[0])

    def ac_amount(self, meta: Meta, children: Children) -> tuple[str, int]:
        return (str(children[0]), int(children[1]))

    def ac_reward(self, meta: Meta, children: Children) -> ast.Reward:
        when = children[0] if isinstance(children[0], str) else "any"
        amounts: dict[str, int] = {}
        for c in children:
            if isinstance(c, tuple):
                if c[0] in amounts:
                    self.sink.report("S0210", self.span(meta), what=f"`{c[0]}`")
                amounts[c[0]] = amounts.get(c[0], 0) + c[1]
        return ast.Reward(when, span=self.span(meta), **amounts)

    def ac_item(self, meta: Meta, children: Children) -> tuple[ast.Ref, int | None]:
        return (self.ref(children[0]), int(children[1]) if len(children) > 1 else None)

    def ac_items(self, meta: Meta, children: Children) -> tuple[str, tuple[tuple[ast.Ref, int | None], ...]]:
        return ("items", tuple(children))

    def ac_act(self, meta: Meta, children: Children) -> tuple[str, ast.CampaignAct, Span]:
        number, *rest = children
        title = next((c for c in rest if isinstance(c, ast.Text)), None)
        quests = tuple(c for c in rest if isinstance(c, ast.CampaignQuest))
        listed = [item for c in rest if isinstance(c, tuple) and c[0] == "items" for item in c[1]]
        items = tuple(r for r, _ in listed)
        prices = tuple((r.name, price) for r, price in listed if price is not None)
        span = self.span(meta)
        return ("acts", ast.CampaignAct(int(number), title, quests, span, items, prices), span)

    def ac_difficulty(self, meta: Meta, children: Children) -> tuple[str, ast.Ref, Span]:
        return ("difficulty", self.ref(children[0]), self.span(meta))

    def ac_delve(self, meta: Meta, children: Children) -> tuple[str, tuple[bool, Span], Span]:
        span = self.span(meta)
        return ("delve", (True, span), span)

    def ac_fame(self, meta: Meta, children: Children) -> tuple[str, int]:
        return ("fame", int(children[0]))

    def ac_sells(self, meta: Meta, children: Children) -> ast.ShopItems:
        fame = next((c[1] for c in children if isinstance(c, tuple)), 0)
        return ast.ShopItems(tuple(self.ref(c) for c in children if not isinstance(c, tuple)), fame, self.span(meta))

    def ac_stock(self, meta: Meta, children: Children) -> tuple[str, int, Span]:
        return ("stock", int(children[0]), self.span(meta))

    def ac_city(self, meta: Meta, children: Children) -> tuple[str, ast.City, Span]:
        ident, *rest = children
        title = next((c for c in rest if isinstance(c, ast.Text)), None)
        span = self.span(meta)
        stocks = [c for c in rest if isinstance(c, tuple) and c[0] == "stock"]
        for extra in stocks[1:]:
            self.sink.report("S0210", extra[2], what="`stock`")
        stock = stocks[0] if stocks else None
        city = ast.City(str(ident), title, tuple(c for c in rest if isinstance(c, ast.ShopItems)), span,
                        stock[1] if stock else None, stock[2] if stock else span)
        return ("cities", city, span)

    def ac_spend(self, meta: Meta, children: Children) -> tuple[str, int]:
        return ("spend", int(children[0]))

    def ac_visit(self, meta: Meta, children: Children) -> tuple[str, ast.CityVisits, Span]:
        odds = next(c for c in children if isinstance(c, tuple) and c[0] == "odds")
        spend = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "spend"), 0)
        span = self.span(meta)
        return ("visit", ast.CityVisits(odds[1], odds[2], spend, span), span)

    def ac_peril(self, meta: Meta, children: Children) -> tuple[str, tuple[int, Span], Span]:
        span = self.span(meta)
        return ("peril", (int(children[0]), span), span)

    def ac_answer(self, meta: Meta, children: Children) -> ast.TravelAnswer:
        ident, *rest = children
        title = next((c for c in rest if isinstance(c, ast.Text)), None)
        odds = next((c for c in rest if isinstance(c, tuple) and c[0] == "odds"), None)
        return ast.TravelAnswer(str(ident), title, odds[1] if odds else None, odds[2] if odds else self.span(meta),
                                tuple(c for c in rest if isinstance(c, ast.Reward)), self.span(meta))

    def ac_near(self, meta: Meta, children: Children) -> tuple[str, ast.Ref]:
        return ("near", self.ref(children[0]))

    def ac_travel(self, meta: Meta, children: Children) -> tuple[str, ast.TravelEvent, Span]:
        ident, *rest = children
        title = next((c for c in rest if isinstance(c, ast.Text)), None)
        odds = next(c for c in rest if isinstance(c, tuple) and c[0] == "odds")
        near = next((c[1] for c in rest if isinstance(c, tuple) and c[0] == "near"), None)
        span = self.span(meta)
        event = ast.TravelEvent(str(ident), title, odds[1], odds[2], near, tuple(c for c in rest if isinstance(c, ast.Reward)), span,
                                tuple(c for c in rest if isinstance(c, ast.TravelAnswer)))
        return ("travel", event, span)

    def ac_side_offer(self, meta: Meta, children: Children) -> tuple[str, tuple[int, Span], Span]:
        span = self.span(meta)
        return ("side_offer", (int(children[0]), span), span)

    def app_campaign(self, meta: Meta, children: Children) -> ast.AppCampaign:
        ident, name, *rest = children
        fields, common = self._campaign(rest, lists=("acts", "cities", "travel"))
        if "side_offer" in fields:
            fields["side_offer"], fields["side_offer_span"] = fields["side_offer"]
        if "delve" in fields:
            fields["delve"], fields["delve_span"] = fields["delve"]
        if "peril" in fields:
            fields["peril"], fields["peril_span"] = fields["peril"]
        return ast.AppCampaign(str(ident), name, source=common.get("source"), span=self.span(meta), **fields)


# Grammar rules that only tag their one child with the field it fills in the enclosing
# declaration: rule -> field. Each becomes a _Builder method returning (field, child, span).
TAGGED_FIELDS = {
    "tile_at": "at",
    "entrance": "entrance",
    "exit": "exit",
    "flavor": "flavor",
    "setup": "setup",
    "spawn_at": "at",
    "xc_rules": "rules",
    "xc_after_setup": "after_setup",
    "pc_flavor": "flavor",
    "pc_effect": "effect",
    "pc_with": "with_monsters",
    "pc_without": "without_monsters",
    "ga_effect": "effect",
    # campaign
    "lv_leader_rules": "leader_rules",
    "lv_special": "special",
    "lv_description": "description",
    "rm_instructions": "instructions",
    "rm_rumor": "rumor",
    "rm_reward": "reward",
    "la_treasure": "treasure",
    "ic_non_combat": "non_combat",
    "ic_flavor": "flavor",
    "lc_rule": "rule",
    "tc_rules": "rules",
}

# Fields of a level that are the level's own (the rest is its map body: map, start, tokens).
LEVEL_FIELDS = frozenset(
    {"number", "leader", "leader_rules", "minions", "special", "description", "no_minions", "portal", "gate", "needs", "source"}
)
# How a campaign field is written, for "given twice" messages.
CAMPAIGN_WORDS = {"leader_rules": "leader_rules", "keep_card": "keep_card", "shields": "shield", "gate": "level"}


def _tagger(field: str) -> Callable[[_Builder, Meta, Children], tuple[str, Any, Span]]:
    def tag(self: _Builder, meta: Meta, children: Children) -> tuple[str, Any, Span]:  # the child as the rule has it
        return (field, children[0], self.span(meta))

    return tag


for _rule, _field in TAGGED_FIELDS.items():
    setattr(_Builder, _rule, v_args(meta=True)(_tagger(_field)))


def _cover(spans: list[Span]) -> Span:
    first = min(spans, key=lambda s: (s.line, s.column))
    last = max(spans, key=lambda s: (s.end_line, s.end_column))
    return Span(first.file, first.line, first.column, last.end_line, last.end_column)


# ---------------------------------------------------------------- names and where they stand
@frozen
class NameUse:
    """One name (an ID token) of a `.quest` file and the grammar rule it stands in.

    rule: the rule whose ID it is (`tile`, `tile_as`, `door`, `t_open`, `e_reveal`, …);
    index: its place among that rule's names (`reveal a, b`: 0 and 1);
    parent: the rule around that one (`e_spawn` for a spawn written in an event);
    options: the rules directly inside that rule (`tile_as` when a tile has `as NAME`,
    `spawn_at` / `spawn_points` for a spawn that places figures);
    scope: (declaration rule, declaration id, encounter number or None) of the top-level
    declaration the name is written in.
    The language server finds references and renames from these (compiler/commands/editor/symbols.py);
    the AST keeps statement spans only.
    """

    name: str
    rule: str
    index: int
    parent: str
    options: frozenset[str]
    scope: tuple[str, str, int | None]
    span: Span


def name_uses(text: str, file: str) -> tuple[NameUse, ...]:
    """Every name of `text` in order, after the same error recovery as `parse_module` (a
    broken statement's names are left out). Never raises: a text that cannot be read
    at all gives ()."""
    try:
        tree = recovery.parse_recovering(text, file, Sink(), lark_parser())
    except Exception:  # noqa: BLE001 - the names of a hopeless text are none
        return ()
    if tree is None:
        return ()
    out: list[NameUse] = []
    _names_in(tree, file, "start", ("", "", None), out)
    return tuple(out)


TOP_RULES = ("quest", "encounter", "exploration_card", "peril_card", "activation_card", "deck")


def _names_in(tree: Tree[Token], file: str, parent: str, scope: tuple[str, str, int | None], out: list[NameUse]) -> None:
    rule = str(tree.data)
    ids = [c for c in tree.children if isinstance(c, Token) and c.type == "ID"]
    if rule in TOP_RULES and ids:
        scope = (rule, str(ids[0]), None)
    elif rule == "inline_encounter":
        number = next((c for c in tree.children if isinstance(c, Token) and c.type == "INT"), None)
        scope = (scope[0], scope[1], int(number) if number is not None else None)
    options = frozenset(str(c.data) for c in tree.children if isinstance(c, Tree))
    for i, tok in enumerate(ids):
        out.append(NameUse(str(tok), rule, i, parent, options, scope, lexed_span(file, tok)))
    for child in tree.children:
        if isinstance(child, Tree):
            _names_in(child, file, rule, scope, out)

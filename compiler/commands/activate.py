"""questc activate PACK --quest ID [--encounter N] --card CARD [--group G…] --state FILE

Resolves one monster group's activation on one activation card with the figures of a
state file (schemas/activation-state.schema.json, docs/activation.md) and prints every
outcome the rules allow: text, or JSON with `--format json`. Without --group the whole
card runs (every group on the map, in card order); with several, those groups. Exit 0 answered; 1 the pack
has errors or the state file is wrong (located A01xx diagnostics); 2 a bad argument.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, TypedDict

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish
from compiler.diagnostics import Sink
from compiler.diagnostics.hints import did_you_mean, hint

if TYPE_CHECKING:
    from compiler.catalogs.document import Document, Path as DocPath
    from compiler.catalogs.monsters import Monster as CatalogMonster
    from compiler.diagnostics import Span
    from compiler.geometry.board import Board
    from compiler.geometry.lattice import Cell
    from compiler.model import Model
    from compiler.model.activation import Activation, CardActivation, Outcome, Situation

MAX_STATE_BYTES = 1 << 20
SCHEMA = "activation-state.schema.json"


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("--card", required=True, metavar="CARD", help="activation card id")
    parser.add_argument("--group", action="append", default=None, metavar="G",
                        help="the monster group that activates (repeatable; default: the whole card, every group in card order)")
    parser.add_argument("--state", required=True, metavar="FILE", help="figures, doors and tokens (JSON or YAML)")
    parser.add_argument("--rules", choices=("coop", "app"), default=None,
                        help="reading of the movement words (default: the state file's, else coop for a cooperative pack)")


# ---------------------------------------------------------------- the state file
class Defaults(TypedDict, total=False):
    """What the chosen map gives a state file that does not say (encounter_defaults)."""

    tokens: dict[str, list[Cell]]  # search_token / objective_token -> spaces
    places: dict[str, tuple[Cell, ...]]  # exit / entrance -> spaces


def _cell(doc: _View, path: DocPath) -> tuple[int, int]:
    v = doc.get(path)
    return int(v[0]), int(v[1])


def read_state(text: str, file: str, board: Board, monsters: Mapping[str, CatalogMonster], sink: Sink, *,
               label: str = "the map", defaults: Defaults | None = None) -> Situation | None:
    """The state file as a `Situation` (rules "" when the file does not say), or None after located diagnostics.

    `monsters`: the pack's monster catalog (id -> catalogs.monsters.Monster)."""
    from compiler.catalogs.yamlload import load_yaml
    from compiler.diagnostics.render import accept_source

    accept_source(file, text)
    doc = load_yaml(text, file, sink)
    if doc is None:
        return None
    return read_state_at(doc, (), board, monsters, sink, label=label, defaults=defaults)


class _View:
    """A node of a Document seen as a document of its own (paths relative to `base`)."""

    def __init__(self, doc: Document, base: DocPath) -> None:
        self.doc, self.base = doc, tuple(base)
        self.data = doc.get(self.base)

    def get(self, path: Iterable[Any], default: Any = None) -> Any:
        return self.doc.get(self.base + tuple(path), default)

    def span(self, path: Iterable[Any] = ()) -> Span:
        return self.doc.span(self.base + tuple(path))

    def key_span(self, path: Iterable[Any]) -> Span:
        return self.doc.key_span(self.base + tuple(path))


def read_state_at(whole: Document, base: DocPath, board: Board, monsters: Mapping[str, CatalogMonster], sink: Sink, *,
                  label: str = "the map", defaults: Defaults | None = None) -> Situation | None:
    """`read_state` of the state at `base` in a loaded Document (an activation test holds
    its state inline): diagnostics located in that document."""
    from compiler.catalogs.monsters import parse_size
    from compiler.catalogs.schema import validate_node
    from compiler.model import activation as act
    from compiler.model.cards import CONDITION_ALIASES, CONDITIONS, HERO_ATTRIBUTES

    if not validate_node(SCHEMA, whole, tuple(base), sink):
        return None
    doc = _View(whole, base)
    data = doc.data
    defaults = defaults or {}
    cells = set(board.spaces)
    xs, ys = [c[0] for c in board.spaces] or [0], [c[1] for c in board.spaces] or [0]
    ok = True
    taken: dict[tuple[int, int], tuple[str, Span]] = {}

    def place(name: str, fp: Iterable[Cell], path: DocPath) -> bool:
        nonlocal ok
        good = True
        for c in fp:
            if c not in cells:
                inside = min(xs) <= c[0] <= max(xs) and min(ys) <= c[1] <= max(ys)
                where = "no square there" if inside else f"the map spans x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}"
                sink.report("A0102", doc.span(path), figure=name, x=c[0], y=c[1], map=label, hint=where)
                good = False
            elif board.rule(c).blocks_movement:
                sink.report("A0103", doc.span(path), figure=name, x=c[0], y=c[1], terrain=board.rule(c).id)
                good = False
            elif c in taken:
                from compiler.diagnostics import Related

                other, span = taken[c]
                sink.report("A0104", doc.span(path), figure=name, other=other, x=c[0], y=c[1],
                            related=(Related(span, f"`{other}` is placed here"),))
                good = False
        if good:
            for c in fp:
                taken[c] = (name, doc.span(path))
        ok = ok and good
        return good

    def conditions(path: DocPath) -> frozenset[str]:
        nonlocal ok
        out: set[str] = set()
        for i, raw in enumerate(doc.get(path, []) or []):
            name = CONDITION_ALIASES.get(raw.lower(), raw.lower())
            if name not in CONDITIONS:
                sink.report("A0106", doc.span(path + (i,)), what="condition", name=raw,
                            known=", ".join(CONDITIONS), hint=hint(raw, CONDITIONS), fix=did_you_mean(raw, CONDITIONS))
                ok = False
            out.add(name)
        return frozenset(out)

    heroes: list[act.Hero] = []
    seen_ids: dict[str, object] = {}
    for i, h in enumerate(data.get("heroes", [])):
        path = ("heroes", i)
        hid = h["id"]
        if hid in seen_ids:
            sink.report("A0105", doc.span(path + ("id",)), id=hid)
            ok = False
        seen_ids[hid] = path
        attrs: dict[str, int] = {}
        for k, v in (h.get("attributes") or {}).items():
            if k not in HERO_ATTRIBUTES:
                sink.report("A0106", doc.key_span(path + ("attributes", k)), what="hero attribute", name=k,
                            known=", ".join(HERO_ATTRIBUTES), hint=hint(k, HERO_ATTRIBUTES), fix=did_you_mean(k, HERO_ATTRIBUTES))
                ok = False
                continue
            attrs[k] = int(v)
        at = _cell(doc, path + ("at",))
        place(hid, (at,), path + ("at",))
        heroes.append(act.Hero(hid, (at,), attrs, int(h.get("damage", 0)), conditions(path + ("conditions",))))
    mons: list[act.Monster] = []
    counters: dict[str, int] = {}
    act_name = data.get("act", "act1")
    for i, m in enumerate(data.get("monsters", [])):
        path = ("monsters", i)
        group = m["group"]
        cat = monsters.get(group)
        if cat is None:
            sink.report("A0101", doc.span(path + ("group",)), group=group, hint=hint(group, monsters),
                        fix=did_you_mean(group, monsters))
            ok = False
            continue
        counters[group] = counters.get(group, 0) + 1
        mid = m.get("id") or f"{group}{counters[group]}"
        if mid in seen_ids:
            sink.report("A0105", doc.span(path + ("id",) if "id" in m else path), id=mid)
            ok = False
        seen_ids[mid] = path
        size = cat.size
        if "size" in m:
            chosen = parse_size(m["size"])
            if chosen is None or chosen not in cat.footprints():
                shown = " or ".join(f"{w}x{h}" for w, h in cat.footprints())
                sink.report("A0107", doc.span(path + ("size",)), figure=mid, size=m["size"], group=group, allowed=shown)
                ok = False
                continue
            size = chosen
        at = _cell(doc, path + ("at",))
        fp = act.norm_cells((at[0] + dx, at[1] + dy) for dx in range(size[0]) for dy in range(size[1]))
        place(mid, fp, path + ("at",))
        stats = cat.stats(act_name, m["rank"])
        if stats is None:
            sink.report("A0108", doc.span(path + ("rank",)), group=group, rank=m["rank"], act=act_name)
            ok = False
            continue
        mons.append(act.Monster(mid, group, m["rank"], fp, stats.speed, cat.size, cat.attack_type,
                                tuple(stats.abilities), tuple(stats.surges), conditions(path + ("conditions",))))
    door_ids = {d.id for d in board.doors}
    open_doors = None
    if "open_doors" in data:
        for i, d in enumerate(data["open_doors"]):
            if d not in door_ids:
                sink.report("A0109", doc.span(("open_doors", i)), door=d, map=label,
                            have=", ".join(sorted(door_ids)) or "none")
                ok = False
        open_doors = frozenset(data["open_doors"])
    hero_ids = {h.id for h in heroes}
    for i, a in enumerate(data.get("attacked", [])):
        if a not in hero_ids:
            sink.report("A0110", doc.span(("attacked", i)), id=a, hint=hint(a, hero_ids), fix=did_you_mean(a, hero_ids))
            ok = False
    tokens: dict[str, list[Cell]] = dict(defaults.get("tokens", {}))
    if "tokens" in data:
        tokens = {}
        for i, t in enumerate(data["tokens"]):
            at = _cell(doc, ("tokens", i, "at"))
            if at not in cells:
                sink.report("A0102", doc.span(("tokens", i, "at")), figure=f"{t['kind']} token", x=at[0], y=at[1],
                            map=label, hint="no square there")
                ok = False
            tokens.setdefault(f"{t['kind']}_token", []).append(at)
    places: dict[str, tuple[Cell, ...]] = dict(defaults.get("places", {}))
    for kind in ("exit", "entrance"):
        if kind in data:
            pts: list[Cell] = []
            for i in range(len(data[kind])):
                at = _cell(doc, (kind, i))
                if at not in cells:
                    sink.report("A0102", doc.span((kind, i)), figure=kind, x=at[0], y=at[1], map=label, hint="no square there")
                    ok = False
                pts.append(at)
            places[kind] = tuple(pts)
    if not ok:
        return None
    return act.Situation(board, tuple(heroes), tuple(mons), open_doors,
                         {k: tuple(v) for k, v in tokens.items()}, places,
                         frozenset(data.get("attacked", [])), data.get("rules", ""))


def encounter_defaults(model: Model, quest: str, number: int | None) -> Defaults:
    """Tokens, exit and entrance of the chosen map, for a state file that does not give them."""
    from compiler.geometry.lattice import cell_edges

    out: Defaults = {"tokens": {}, "places": {}}
    enc = None
    if number is None and model.encounters is not None:
        enc = model.encounters.get(quest)
    elif model.quests is not None and quest in model.quests:
        enc = next((e for e in model.quests[quest].encounters if e.number == number), None)
    if enc is not None:
        spaces = enc.map.board.spaces
        for t in enc.tokens:
            if t.when == "setup" and t.kind in ("search", "unique_search", "objective"):
                kind = "objective_token" if t.kind == "objective" else "search_token"
                out["tokens"].setdefault(kind, []).append(spaces[t.space])
    links = (model.encounter_links or {}).get(quest) if number is None else None
    if links is not None:
        for kind in ("entrance", "exit"):
            port = getattr(links, kind)
            if port is None:
                continue
            try:
                pt = links.by_name(port.tile)
            except StopIteration:
                continue
            edges = pt.opening_edges(port.opening)
            out["places"][kind] = tuple(c for c in pt.cells if set(cell_edges(c)) & set(edges))
    return out


def cooperative(model: Model) -> bool:
    return bool(model.adventures)


# ---------------------------------------------------------------- output
def step_lines(o: Outcome, indent: str = "  ") -> list[str]:
    lines: list[str] = []
    for s in o.steps:
        head = f"{indent}{s.monster}: {s.text}"
        if not s.done:
            lines.append(f"{head} -- skipped: {s.reason}")
            continue
        if s.move is not None:
            path = " ".join(f"({x},{y})" for x, y in s.move.path)
            to = " ".join(f"({x},{y})" for x, y in s.move.end)
            tgt = f" [{s.target}]" if s.target else ""
            lines.append(f"{head}{tgt} -- moves {s.move.cost}: {path}; stands on {to}")
        elif s.attack is not None:
            a = s.attack
            extra = f", also {', '.join(a.also)}" if a.also else ""
            lines.append(f"{head} -- attacks {a.target} ({a.distance} space(s), "
                         f"{'in sight' if a.in_sight else 'NOT in sight'}, {'in range' if a.in_range else 'out of range'}{extra})")
        else:
            lines.append(f"{head} -- done")
    return lines


def text_of(result: Activation) -> str:
    lines = [f"card `{result.card}`, group `{result.group}` ({result.rules} rules)"]
    if result.effect:
        lines.append(f"effect: {result.effect}")
    n = len(result.outcomes)
    lines.append(f"{n} outcome{'s' if n != 1 else ''}" + (" (more exist: truncated)" if result.truncated else ""))
    for k, o in enumerate(result.outcomes, 1):
        lines.append(f"\noutcome {k}: order {', '.join(o.order)}")
        lines += step_lines(o)
    return "\n".join(lines) + "\n"


def card_text_of(result: CardActivation) -> str:
    lines = [f"card `{result.card}` ({result.rules} rules): groups {', '.join(result.groups) or 'none on the map'}"]
    if result.absent:
        lines.append(f"not on the map: {', '.join(result.absent)}")
    n = len(result.outcomes)
    lines.append(f"{n} outcome{'s' if n != 1 else ''}" + (" (more exist: truncated)" if result.truncated else ""))
    for k, o in enumerate(result.outcomes, 1):
        lines.append(f"\noutcome {k}:")
        for g in o.groups:
            lines.append(f"  group {g.group}: order {', '.join(g.outcome.order)}" + (f" (effect: {g.effect})" if g.effect else ""))
            lines += step_lines(g.outcome, "    ")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from compiler.model import activation as act

    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if choice is None:
        return mapquery.usage_error(sink, args)
    cards = model.cards.activation if model.cards is not None else {}
    card = cards.get(args.card)
    if card is None:
        sink.report("A0111", mapquery.arg_span(args, args.card), card=args.card, pack=model.pack.id,
                    hint=hint(args.card, cards), fix=did_you_mean(args.card, cards))
        return mapquery.usage_error(sink, args)
    groups = [g.group for g in card.groups]
    for group in args.group or ():
        if group not in groups:
            sink.report("A0112", mapquery.arg_span(args, f"--group {group}", group), card=args.card, group=group,
                        have=", ".join(groups), fix=did_you_mean(group, groups))
    if sink.errors:
        return mapquery.usage_error(sink, args)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    path = Path(args.state)
    from compiler import reader

    # The guarded reader: a regular file (a FIFO answers at once), at most
    # MAX_STATE_BYTES of UTF-8. A refusal is located at the bad byte when there is one,
    # else on the argument. (Nesting is the YAML loader's to bound: Y0010.)
    got = reader.read_text(path, max_bytes=MAX_STATE_BYTES)
    if isinstance(got, reader.Refused):
        at = got.span(str(path)) if got.why == "utf8" else mapquery.arg_span(args, args.state)
        from compiler.diagnostics.render import forget_source

        forget_source(str(path))
        sink.report("A0100", at, file=args.state, reason=got.problem)
        return finish(sink, args)
    text = got
    sit = read_state(text, str(path), choice.amap.board, model.monsters or {}, sink, label=choice.label,
                     defaults=encounter_defaults(model, choice.quest, choice.number))
    if sit is None:
        return finish(sink, args)
    from dataclasses import replace

    from compiler.diagnostics.render import visible_lines  # ids and effect texts are source text

    rules = args.rules or sit.rules or ("coop" if cooperative(model) else "app")
    if opened is not None:
        sit = replace(sit, open_doors=(sit.open_doors or frozenset()) | opened)
    sit = replace(sit, rules=rules)
    if args.group is not None and len(set(args.group)) == 1:
        one = act.activate(sit, card, args.group[0])
        sys.stdout.write(json.dumps(one.to_json(), sort_keys=True) + "\n" if args.format == "json" else visible_lines(text_of(one)))
    else:
        whole = act.activate_card(sit, card, args.group)
        sys.stdout.write(json.dumps(whole.to_json(), sort_keys=True) + "\n" if args.format == "json" else visible_lines(card_text_of(whole)))
    return mapquery.answered(sink)


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
from typing import TYPE_CHECKING

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish
from compiler.commands.state import pack_familiars, cooperative, encounter_defaults, read_state
from compiler.diagnostics.hints import did_you_mean, hint

if TYPE_CHECKING:
    from compiler.diagnostics import Sink
    from compiler.model import Model
    from compiler.model.activation import Activation, CardActivation, Outcome, Situation
    from compiler.syntax import ast

# A state file is a board at one moment: a few heroes, the monsters on one map, a few
# tokens (a few KB). Reading it costs about 0.1 ms an entry (YAML with spans, the schema):
# 1 MiB of 18,000 heroes took 4 to 9 s, 64 KiB takes well under a second. docs/robustness.md
MAX_STATE_BYTES = 64 << 10


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("--card", required=True, metavar="CARD", help="activation card id")
    parser.add_argument("--group", action="append", default=None, metavar="G",
                        help="the monster group that activates (repeatable; default: the whole card, every group in card order)")
    parser.add_argument("--state", required=True, metavar="FILE", help="figures, doors and tokens (JSON or YAML)")
    parser.add_argument("--rules", choices=("coop", "app"), default=None,
                        help="reading of the movement words (default: the state file's, else coop for a cooperative pack)")


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
            if a.template is not None:  # docs/rules.md, "Attack templates"
                extra += f", {a.template}" + (f" to the {a.facing}" if a.facing else "") + f" covering {len(a.covered)} space(s)"
            if a.range_needed is not None:  # Soar
                extra += f", soaring: needs range {a.range_needed}"
            if a.swoop:
                extra += ", swooping"
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
    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if choice is None:
        return mapquery.usage_error(sink, args)
    card = _card(args, model, sink)
    if card is None or sink.errors:
        return mapquery.usage_error(sink, args)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    sit = _state(args, model, choice, sink)
    if sit is None:
        return finish(sink, args)
    _answer(args, model, card, sit, opened)
    return mapquery.answered(sink)


def _card(args: argparse.Namespace, model: Model, sink: Sink) -> ast.ActivationCard | None:
    """The activation card --card names (None after A0111); each --group must be a group of
    it (A0112)."""
    cards = model.cards.activation if model.cards is not None else {}
    card = cards.get(args.card)
    if card is None:
        sink.report("A0111", mapquery.arg_span(args, args.card), card=args.card, pack=model.pack.id,
                    hint=hint(args.card, cards), fix=did_you_mean(args.card, cards))
        return None
    groups = [g.group for g in card.groups]
    for group in args.group or ():
        if group not in groups:
            sink.report("A0112", mapquery.arg_span(args, f"--group {group}", group), card=args.card, group=group,
                        have=", ".join(groups), fix=did_you_mean(group, groups))
    return card


def _state(args: argparse.Namespace, model: Model, choice: mapquery.MapChoice, sink: Sink) -> Situation | None:
    """The --state file, read on the chosen map, or None after located diagnostics."""
    from compiler import reader

    path = Path(args.state)
    # The guarded reader: a regular file (a FIFO answers at once), at most
    # MAX_STATE_BYTES of UTF-8. A refusal is located at the bad byte when there is one,
    # else on the argument. (Nesting is the YAML loader's to bound: Y0010.)
    got = reader.read_text(path, max_bytes=MAX_STATE_BYTES)
    if isinstance(got, reader.Refused):
        at = got.span(str(path)) if got.why == "utf8" else mapquery.arg_span(args, args.state)
        from compiler.diagnostics.render import forget_source

        forget_source(str(path))
        sink.report("A0100", at, file=args.state, reason=got.problem)
        return None
    return read_state(got, str(path), choice.amap.board, model.monsters or {}, sink, label=choice.label,
                      defaults=encounter_defaults(model, choice.quest, choice.number), familiars=pack_familiars(model))


def _answer(args: argparse.Namespace, model: Model, card: ast.ActivationCard, sit: Situation,
            opened: frozenset[str] | None) -> None:
    """Activate one group (one --group) or the card, under the rules and doors asked, and print every outcome."""
    from dataclasses import replace

    from compiler.diagnostics.render import visible_lines  # ids and effect texts are source text
    from compiler.model import activation as act

    rules = args.rules or sit.rules or ("coop" if cooperative(model) else "app")
    if opened is not None:
        sit = replace(sit, open_doors=(sit.open_doors or frozenset()) | opened)
    sit = replace(sit, rules=rules, templates=model.templates or {})  # Breath, Blast…: docs/rules.md, "Attack templates"
    if args.group is not None and len(set(args.group)) == 1:
        one = act.activate(sit, card, args.group[0])
        sys.stdout.write(json.dumps(one.to_json(), sort_keys=True) + "\n" if args.format == "json" else visible_lines(text_of(one)))
    else:
        whole = act.activate_card(sit, card, args.group)
        sys.stdout.write(json.dumps(whole.to_json(), sort_keys=True) + "\n" if args.format == "json" else visible_lines(card_text_of(whole)))

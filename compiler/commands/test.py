"""questc test [PACK…]: run the `*.activation-test` files of the packs (docs/activation.md).

An activation test names a map (quest or top-level encounter), an activation card, the
figures (a `questc activate` state, inline), and what the designer expects: claims about
monsters that must hold in every outcome (`every`), in at least one (`some`), in none
(`none`), and the exact number of outcomes. Each test runs the whole card (or `groups`)
through the reference executor (compiler/model/activation.py `activate_card`). A claim
that does not hold is A0201, located on the claim; a name the pack or state lacks is
A0202. Prints one line per test; exit 0 when every test passes, 1 otherwise (or when
the pack has errors), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from compiler.commands.common import add_pack_arguments, compile_args, finish
from compiler.diagnostics import Sink

if TYPE_CHECKING:
    from compiler.catalogs.document import Document, Path as DocPath
    from compiler.commands.mapquery import MapChoice
    from compiler.emit.shared import JSONObject
    from compiler.geometry.lattice import Cell
    from compiler.model import Model
    from compiler.model.activation import CardActivation, CardOutcome, Situation
    from compiler.syntax import ast

SUFFIX = ".activation-test"
SCHEMA = "activation-test.schema.json"
# An .activation-test file: at most 128 KiB (P0107) and 200 tests (the schema's maxItems).
# Each test is read, checked and run (about 1.5 ms): 18,000 tests took 30 s. A designer's
# file holds a few dozen. docs/robustness.md
MAX_TEST_BYTES = 128 << 10
MAX_TEST_NODES = MAX_TEST_BYTES  # YAML nodes: as for state files (commands/state.py MAX_STATE_NODES)


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)


def test_files(root: Path, sink: Sink) -> list[Path]:
    from compiler.sources import walk

    found: list[Path] = []
    for here, _dirnames, filenames in walk(root, sink):
        found += [here / f for f in filenames if f.endswith(SUFFIX)]
    return sorted(found)


class Done(TypedDict):
    """What one monster did in one outcome, as a claim reads it."""

    ends_on: frozenset[Cell]
    attacks: list[str]
    moves: bool


def did(o: CardOutcome, mid: str) -> Done:
    """What monster `mid` did in a whole-card outcome: its end, its attack targets, whether it moved."""
    steps = [s for g in o.groups for s in g.outcome.steps if s.monster == mid and s.done]
    targets = [t for s in steps if s.attack is not None for t in (s.attack.target, *s.attack.also)]
    moved = any(s.move is not None and len(s.move.path) > 1 for s in steps)
    return {"ends_on": frozenset(o.positions.get(mid, ())), "attacks": targets, "moves": moved}


def holds(claim: JSONObject, done: Done) -> bool:
    if "ends_on" in claim and frozenset(tuple(c) for c in claim["ends_on"]) != done["ends_on"]:
        return False
    if "attacks" in claim:
        if claim["attacks"] == "nobody" and done["attacks"]:
            return False
        if claim["attacks"] != "nobody" and claim["attacks"] not in done["attacks"]:
            return False
    if "moves" in claim and bool(claim["moves"]) != done["moves"]:
        return False
    return True


def words(done: Done) -> str:
    end = " ".join(f"({x},{y})" for x, y in sorted(done["ends_on"], key=lambda c: (c[1], c[0])))
    hit = ", ".join(done["attacks"]) or "nobody"
    return f"ends on {end}, attacks {hit}, {'moves' if done['moves'] else 'does not move'}"


def claim_words(claim: JSONObject) -> str:
    parts = []
    if "ends_on" in claim:
        parts.append("ends on " + " ".join(f"({x},{y})" for x, y in claim["ends_on"]))
    if "attacks" in claim:
        parts.append(f"attacks {claim['attacks']}")
    if "moves" in claim:
        parts.append("moves" if claim["moves"] else "does not move")
    return f"`{claim['monster']}` " + ", ".join(parts)


def run_test(model: Model, doc: Document, i: int, sink: Sink) -> bool | None:
    """One test of a file: True passed, False failed, None could not run (reported)."""
    from compiler.commands.state import pack_familiars, encounter_defaults, read_state_at
    from compiler.model import activation as act

    path = ("tests", i)
    t = doc.get(path)
    choice = _map_of(model, doc, path, sink)
    if choice is None:
        return None
    card = _card_of(model, doc, path, sink)
    if card is None:
        return None
    ok = _names_known(t, card, choice, doc, path, sink)
    sit = read_state_at(doc, path + ("state",), choice.amap.board, model.monsters or {}, sink, label=choice.label,
                        defaults=encounter_defaults(model, choice.quest, choice.number), familiars=pack_familiars(model))
    if sit is None or not ok:
        return None
    sit = _as_asked(t, sit, model, choice)
    if not _claims_known(t, sit, doc, path, sink):
        return None
    result = act.activate_card(sit, card, t.get("groups"))
    return _judge(t, result, doc, path, sink)


def _map_of(model: Model, doc: Document, path: DocPath, sink: Sink) -> MapChoice | None:
    """The map the test names (a quest's encounter or a top-level encounter), or None after A0202."""
    from compiler.commands.mapquery import MapChoice
    from compiler.diagnostics.hints import hint

    t = doc.get(path)
    quests = model.maps.quests if model.maps is not None else {}
    encounters = model.maps.encounters if model.maps is not None else {}
    qid, number = t["quest"], t.get("encounter")
    if qid in quests and (number or min(quests[qid], default=1)) in quests[qid]:
        number = number or min(quests[qid])
        return MapChoice(qid, number, quests[qid][number], len(quests[qid]) == 1)
    if qid in encounters and number in (None, 1):
        return MapChoice(qid, None, encounters[qid], True)
    known = sorted(set(quests) | set(encounters))
    sink.report("A0202", doc.span(path + ("quest",)), test=t["name"], what="map", name=qid + (f" encounter {number}" if number else ""),
                where=f"pack `{model.pack.id}`", hint=hint(qid, known))
    return None


def _card_of(model: Model, doc: Document, path: DocPath, sink: Sink) -> ast.ActivationCard | None:
    """The activation card the test names, or None after A0202."""
    from compiler.diagnostics.hints import hint

    t = doc.get(path)
    cards = model.cards.activation if model.cards is not None else {}
    card = cards.get(t["card"])
    if card is None:
        sink.report("A0202", doc.span(path + ("card",)), test=t["name"], what="activation card", name=t["card"],
                    where=f"pack `{model.pack.id}`", hint=hint(t["card"], cards))
    return card


def _names_known(t: JSONObject, card: ast.ActivationCard, choice: MapChoice, doc: Document, path: DocPath,
                 sink: Sink) -> bool:
    """Whether each of the test's `groups` is on the card and each door it opens is on the map (A0202 for each not)."""
    from compiler.diagnostics.hints import hint

    name = t["name"]
    on_card = [g.group for g in card.groups]
    ok = True
    for k, g in enumerate(t.get("groups") or ()):
        if g not in on_card:
            sink.report("A0202", doc.span(path + ("groups", k)), test=name, what="group", name=g,
                        where=f"card `{card.id}`", hint=hint(g, on_card))
            ok = False
    doors = {d.id for d in choice.amap.board.doors}
    for k, d in enumerate(t.get("open") or ()):
        if d not in doors:
            sink.report("A0202", doc.span(path + ("open", k)), test=name, what="door", name=d, where=choice.label,
                        hint=hint(d, doors))
            ok = False
    return ok


def _as_asked(t: JSONObject, sit: Situation, model: Model, choice: MapChoice) -> Situation:
    """The state under the test's rules (else the state's, else the pack's default) with the doors it opens."""
    from dataclasses import replace

    from compiler.commands.state import cooperative

    rules = t.get("rules") or sit.rules or ("coop" if cooperative(model) else "app")
    opened = frozenset(t.get("open") or ())
    if opened:
        start = sit.open_doors if sit.open_doors is not None else frozenset(d.id for d in choice.amap.board.doors if d.open)
        sit = replace(sit, open_doors=start | opened)
    return replace(sit, rules=rules, templates=model.templates or {})


def _claims_known(t: JSONObject, sit: Situation, doc: Document, path: DocPath, sink: Sink) -> bool:
    """Whether every claim names a monster of the state (A0202 for each that does not)."""
    from compiler.diagnostics.hints import hint

    ids = {m.id for m in sit.monsters}
    ok = True
    for kind in ("every", "some", "none"):
        for k, claim in enumerate(t["expect"].get(kind) or ()):
            if claim["monster"] not in ids:
                sink.report("A0202", doc.span(path + ("expect", kind, k, "monster")), test=t["name"], what="monster",
                            name=claim["monster"], where="the test's state", hint=hint(claim["monster"], ids))
                ok = False
    return ok


def _judge(t: JSONObject, result: CardActivation, doc: Document, path: DocPath, sink: Sink) -> bool:
    """Whether the outcomes are what the test expects; A0201 on each claim that does not hold."""
    expect = t["expect"]
    outcomes = result.outcomes
    passed = True

    def fail(where: tuple[str | int, ...], failure: str) -> None:
        nonlocal passed
        passed = False
        sink.report("A0201", doc.span(path + where), test=t["name"], failure=failure)

    if "outcomes" in expect and expect["outcomes"] != len(outcomes):
        fail(("expect", "outcomes"), f"expected {expect['outcomes']} outcome(s), the rules allow {len(outcomes)}"
             + (" (truncated)" if result.truncated else ""))
    for k, claim in enumerate(expect.get("every") or ()):
        bad = next(((n, o) for n, o in enumerate(outcomes, 1) if not holds(claim, did(o, claim["monster"]))), None)
        if bad is not None:
            fail(("expect", "every", k), f"expected {claim_words(claim)} in every outcome; in outcome {bad[0]} it "
                 + words(did(bad[1], claim["monster"])))
    for k, claim in enumerate(expect.get("some") or ()):
        if not any(holds(claim, did(o, claim["monster"])) for o in outcomes):
            seen = sorted({words(did(o, claim["monster"])) for o in outcomes})
            fail(("expect", "some", k), f"expected {claim_words(claim)} in some outcome; in the {len(outcomes)} outcome(s) it "
                 + ("; or ".join(seen[:3]) if seen else "has none"))
    for k, claim in enumerate(expect.get("none") or ()):
        hit = next((n for n, o in enumerate(outcomes, 1) if holds(claim, did(o, claim["monster"]))), None)
        if hit is not None:
            fail(("expect", "none", k), f"expected no outcome where {claim_words(claim)}; outcome {hit} is one")
    return passed


def run(args: argparse.Namespace) -> int:
    from compiler.catalogs.schema import validate_node
    from compiler.catalogs.yamlload import load_yaml
    from compiler.diagnostics.render import exit_code, print_diagnostics
    from compiler.sources import read_source

    result = compile_args(args, images=False, sight=False)
    sink = result.sink
    if sink.errors or not result.models:
        return finish(sink, args)
    lines: list[str] = []
    passed = failed = 0
    tests = Sink()
    for model in result.models:
        root = Path(model.pack.root)
        for path in test_files(root, tests):
            src = read_source(root, path, tests, max_bytes=min(model.options.max_file_bytes, MAX_TEST_BYTES))
            if src is None:
                failed += 1
                continue
            doc = load_yaml(src.text, src.name, tests, max_nodes=MAX_TEST_NODES)
            if doc is None or not validate_node(SCHEMA, doc, (), tests):
                failed += 1
                lines.append(f"ERROR {src.name}")
                continue
            for i, t in enumerate(doc.data["tests"]):
                got = run_test(model, doc, i, tests)
                if got:
                    passed += 1
                    lines.append(f"ok    {src.name}: {t['name']}")
                else:
                    failed += 1
                    lines.append(f"{'FAIL ' if got is False else 'ERROR'} {src.name}: {t['name']}")
    sink.items.extend(tests.items)
    if args.format in ("json", "sarif"):
        print_diagnostics(sink, args.format)
    else:
        from compiler.diagnostics.render import visible  # file and test names are source text

        sys.stdout.write("\n".join([visible(line) for line in lines] + [f"{passed} passed, {failed} failed"]) + "\n")
        if sink.items:
            print_diagnostics(sink, args.format, stream=sys.stderr)
    return 1 if failed else exit_code(sink, args.strict)

"""Benchmark: the event analysis (issue 31) on the largest shipped quest and a generated one.

The event analysis (compiler/model/quest.py `fixpoint`: what can fire, with each
variable's range of values, conditions evaluated over those ranges, choices and random
options counted) runs once per encounter in the quests pass. Measured:

1. the largest shipped quest (by events): every encounter's analysis;
2. a generated quest of 20 variables and 200 events: every-round events that add to a
   variable while a condition caps it, events whose conditions compare two variables,
   choices and random options that set them, `if … else if … else` effects whose arms
   write variables, door and token events;
3. the baseline in the same run: the same generated quest with every condition and
   choice taken out (what the analysis did before conditions existed; an `if` effect
   becomes its first arm's effects), so the cost of conditions and ranges is visible;
4. the whole quests pass (resolve and analyse) on the generated quest, for scale.

Run: .venv/bin/python -m bench.events
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from bench import best_of
from compiler.diagnostics import Sink
from compiler.model.quest import fixpoint
from compiler.options import Options
from compiler.pipeline import compile_paths, run_passes
from compiler.syntax.parse import parse_module

ROOT = Path(__file__).resolve().parents[1]
MAP = """  map {
    tile entrance1A at (0, 6)
    tile 9A attach west to entrance1A.north
    tile 8A attach east to 9A.north hidden
    door hall on 9A.north; edge 9A.east, 8A.north
  }
  start heroes on entrance1A
  token search as chest at 9A(1, 1)
  spawn zombie at 9A(2, 2)
  on open hall { reveal 8A }
"""


def generated(variables: int = 20, events: int = 200, seed: int = 31) -> str:
    rnd = random.Random(seed)
    names = [f"v{i:02d}" for i in range(variables)]
    lines = ['quest gen "Generated" {', "  heroes 2..4", MAP.rstrip("\n")]
    lines += [f"  var {n} = {rnd.randint(0, 3)}" for n in names]
    for k in range(events):
        a, b = rnd.sample(names, 2)
        kind = k % 6
        if kind == 0:
            lines.append(f"  on round_end if {a} < {rnd.randint(2, 9)} {{ add 1 to {a} }}")
        elif kind == 1:  # a variable trigger on the first half sets one of the second: no automatic cycle
            watched, written = rnd.choice(names[: variables // 2]), rnd.choice(names[variables // 2:])
            lines.append(f"  on variable {watched} >= {rnd.randint(1, 6)} if {b} <= {watched} or heroes 4 "
                         f"{{ set {written} = {watched} }}")
        elif kind == 2:
            lines.append(f'  on round_start {rnd.randint(1, 12)} {{ ask "Go on?" {{ choice "Yes" {{ add 2 to {a} }}; '
                         f'choice "No" if {b} > 1 {{ subtract 1 from {b} }} }} }}')
        elif kind == 3:
            lines.append(f"  on round_end {rnd.randint(1, 12)} {{ random {{ option {{ set {a} = random 1..6 }}; "
                         f"option {{ set {b} = 0 }} }} }}")
        elif kind == 4:
            lines.append(f'  on searched chest if not ({a} == {b}) {{ say "Found." }}')
        else:  # `if … else if … else` inside the event: arms that write what later conditions read
            lines.append(f"  on round_end {rnd.randint(1, 12)} {{ if {a} > {rnd.randint(0, 5)} {{ add 1 to {a} }} "
                         f"else if {b} == {rnd.randint(0, 5)} {{ set {b} = {a} }} else {{ subtract 1 from {b} }} }}")
    lines += ['  on round_end 20 { lose "Too late." }', '  on defeated zombie { win "Done." }', "}"]
    return "\n".join(lines) + "\n"


def without_conditions(text: str) -> str:
    """The same quest as before conditions: no `if`, each `ask` or `random` its first branch,
    each `if … else` effect its first arm's effects."""
    text = re.sub(r"\{ if [^{]*\{ ([^}]*) \}[^\n]*\} \}$", r"{ \1 }", text, flags=re.M)
    text = re.sub(r" if [^{]*\{", " {", text)
    text = re.sub(r'ask "[^"]*" \{ choice "[^"]*" \{ ([^}]*) \};[^\n]*\} \}', r"\1 }", text)
    text = re.sub(r"random \{ option \{ ([^}]*) \};[^\n]*\} \}", r"\1 }", text)
    return text.replace("random 1..6", "1")


def _encounters(text: str, base):
    sink = Sink()
    model = run_passes(base.unchecked(modules=(parse_module(text, "gen.quest", sink),)), sink)
    errors = [d for d in sink.items if d.severity.value == "error"]
    assert not errors, errors[:3]
    (quest,) = model.quests.values()
    return quest.encounters, model, sink


def main() -> None:
    base = compile_paths([str(ROOT / "content" / "d2e-base")], Options(sight=False)).model
    shipped = compile_paths([str(ROOT / "content")], Options(sight=False)).models
    quests = [q for model in shipped for q in (model.quests or {}).values()]
    largest = max(quests, key=lambda q: sum(len(e.events) for e in q.encounters))
    n_events = sum(len(e.events) for e in largest.encounters)
    t_largest = best_of(lambda: [fixpoint(e, i == 0) for i, e in enumerate(largest.encounters)], repeat=20)
    print(f"largest shipped quest `{largest.id}` ({len(largest.encounters)} encounters, {n_events} events): "
          f"analysis {t_largest * 1000:.2f} ms")

    text = generated()
    plain = without_conditions(text)
    encounters, _, _ = _encounters(text, base)
    plain_encounters, _, _ = _encounters(plain, base)
    (enc,) = encounters
    (plain_enc,) = plain_encounters
    t_gen = best_of(lambda: fixpoint(enc, True), repeat=10)
    t_plain = best_of(lambda: fixpoint(plain_enc, True), repeat=10)
    t_pass = best_of(lambda: _encounters(text, base), repeat=3)
    print(f"generated quest (20 variables, {len(enc.events)} events): analysis {t_gen * 1000:.1f} ms; "
          f"baseline without conditions, choices or random {t_plain * 1000:.1f} ms ({t_gen / t_plain:.1f}x); "
          f"whole quests pass with parsing {t_pass * 1000:.0f} ms")


if __name__ == "__main__":
    main()

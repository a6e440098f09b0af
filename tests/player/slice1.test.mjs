// play.js, slice 1 of the event language: conditions, rounds per encounter, ask, seeded
// `set … random` against Python's draws, repeating spawns (docs/bundle.md, "Spawns, tokens, events").
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game, describeCondition, usesRandom } from "./play.js";
import { num, v, cmp, say, bundle, said } from "./helpers.mjs";
import { DRAWS } from "./python.mjs";

test("conditions: compare, and/or/not, heroes, on_board of each kind", () => {
  const spawn = { id: "z", group: "zombie", tile: "A", when: "setup", figures: { "2": [{ rank: "minion", spaces: [0], size: [1, 1] }], "3": [] } };
  const tok = { id: "t", kind: "search", space: 0, tile: "A", when: "setup" };
  const g = new Game(bundle([{ events: [], variables: { a: 2 }, spawns: [spawn], tokens: [tok] }]), "q", { heroes: 2 });
  const ops = { "==": [false, true, false], "!=": [true, false, true], "<": [true, false, false], "<=": [true, true, false], ">": [false, false, true], ">=": [false, true, true] };
  for (const [op, want] of Object.entries(ops)) assert.deepEqual([1, 2, 3].map((n) => g.holds(cmp(num(n), op, v("a")))), want, op);
  assert.equal(g.holds(cmp({ kind: "heroes" }, "==", v("a"))), true);
  assert.equal(g.holds(cmp(v("never_set"), "==", num(0))), true);
  assert.equal(g.holds({ kind: "heroes", low: 3, high: 4 }), false);
  assert.equal(g.holds({ kind: "heroes", low: 2, high: 2 }), true);
  const on = (what, name) => ({ kind: "on_board", what, name });
  assert.deepEqual([on("tile", "A"), on("tile", "H"), on("token", "t"), on("spawn", "z"), on("spawn", "zombie"), on("door", "d")].map((c) => g.holds(c)),
    [true, false, true, true, true, true]);
  const T = cmp(num(1), "<", num(2)), F = cmp(num(2), "<", num(1));
  assert.deepEqual([[T, F], [T, T]].map((parts) => g.holds({ kind: "and", parts })), [false, true]);
  assert.deepEqual([[F, F], [F, T]].map((parts) => g.holds({ kind: "or", parts })), [false, true]);
  assert.equal(g.holds({ kind: "not", parts: [F] }), true);
  g.search("t"); g.openDoor("d"); g.defeat("z");
  assert.deepEqual([on("token", "t"), on("spawn", "z"), on("door", "d")].map((c) => g.holds(c)), [false, false, false]);
  assert.equal(describeCondition({ kind: "or", parts: [{ kind: "and", parts: [T, { kind: "not", parts: [on("spawn", "z")] }] }, { kind: "heroes", low: 3, high: 4 }] }),
    "(1 < 2 and not on_board z) or heroes 3+");
});

test("a failed condition does not use the event up", () => {
  const g = new Game(bundle([{ variables: { a: 0 }, events: [{ on: { kind: "open", door: "d" }, if: cmp(v("a"), ">=", num(1)), do: [say("open")] }] }]), "q");
  g.openDoor("d"); g.closeDoor("d");
  assert.deepEqual(said(g), []);
  g.setVariable("a", 1);
  g.openDoor("d"); g.closeDoor("d"); g.openDoor("d");
  assert.deepEqual(said(g), ["open"]);  // once: then it is used up
});

test("rounds: every-round and numbered events, counted per encounter", () => {
  const events = (tag) => [
    { on: { kind: "round_start" }, do: [say(`${tag} start`)] },
    { on: { kind: "round_end", round: 2 }, do: [say(`${tag} end 2`)] },
    { on: { kind: "round_end" }, if: cmp(v("n"), "<", num(2)), do: [{ kind: "add", variable: "n", by: 1 }] },
  ];
  const g = new Game(bundle([
    { variables: { n: 0 }, events: [...events("one"), { on: { kind: "round_end", round: 3 }, do: [{ kind: "next" }, say("after next")] }] },
    { variables: { n: 0 }, events: events("two") },
  ]), "q");
  assert.deepEqual(said(g), ["one start"]);
  g.endRound(); g.endRound();
  assert.deepEqual(said(g), ["one start", "one start", "one end 2", "one start"]);
  assert.equal(g.variables.n, 2);
  g.endRound();  // round 3 ends: next (after the event's other effects); no round 4 of encounter 1
  assert.equal(g.encounterIndex, 1);
  assert.equal(g.round, 1);
  assert.deepEqual(said(g).slice(4), ["after next", "two start"]);
  g.endRound(); g.endRound();
  assert.deepEqual(said(g).slice(6), ["two start", "two end 2", "two start"]);
  assert.equal(g.counts.get("enc1:1"), 3);
});

test("ask: offered choices, waiting, nested asks, then the rest of the event and queue", () => {
  const ask = (text, choices) => ({ kind: "ask", text, choices });
  const g = new Game(bundle([{ variables: { gold: 1 }, events: [
    { on: { kind: "morale_zero" }, do: [
      ask("q1", [
        { text: "rich", if: cmp(v("gold"), ">", num(5)), do: [say("never")] },
        { text: "deeper", do: [ask("q2", [{ text: "x", do: [{ kind: "add", variable: "gold", by: -1 }] }, { text: "y", do: [say("y")] }])] },
        { text: "home", do: [say("home")] },
      ]),
      ask("nobody", [{ text: "none", if: { kind: "heroes", low: 4, high: 4 }, do: [say("never")] }]),
      say("after"),
    ] },
    { on: { kind: "morale_zero" }, do: [say("second event")] },
  ] }]), "q", { heroes: 2 });
  g.moraleZero();
  assert.deepEqual(g.asking.choices.map((c) => [c.index, c.text]), [[1, "deeper"], [2, "home"]]);
  g.endRound(); g.setVariable("gold", 9); g.answer(0);  // play waits; a choice not offered is no answer
  assert.equal(g.round, 1); assert.equal(g.variables.gold, 1);
  g.answer(1);
  assert.equal(g.asking.text, "q2");
  g.answer(0);
  assert.equal(g.asking, null);
  assert.equal(g.variables.gold, 0);
  assert.deepEqual(said(g), ["after", "second event"]);
  assert.deepEqual(g.log.filter((l) => l.kind === "choice").map((l) => l.text), ["→ deeper", "→ x"]);
});

test("a win inside a choice ends the quest at once", () => {
  const g = new Game(bundle([{ events: [{ on: { kind: "start" }, do: [
    { kind: "ask", text: "q", choices: [{ text: "w", do: [{ kind: "win", text: "won" }] }, { text: "l", do: [{ kind: "lose" }] }] }, say("too late")] }] }]), "q");
  assert.equal(g.asking.text, "q");  // asked at the very start
  g.answer(0);
  assert.equal(g.outcome.result, "win");
  assert.deepEqual(said(g), []);
});

test("set: a number, a variable, random draws as Python's randint for the seed", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [{ kind: "set", variable: "b", from: "a" }, { kind: "set", variable: "c", value: -4 },
    ...[0, 1, 2, 3, 4].map((k) => ({ kind: "set", variable: `r${k}`, random: [1, 6] }))] }];
  for (const [seed, want] of Object.entries(DRAWS)) {
    const b = bundle([{ variables: { a: 5 }, events }]);
    assert.equal(usesRandom(b.quests.q, b), true);
    const g = new Game(b, "q", { seed: Number(seed) });
    g.moraleZero();
    assert.deepEqual([g.variables.b, g.variables.c], [5, -4]);
    assert.deepEqual([0, 1, 2, 3, 4].map((k) => g.variables[`r${k}`]), want, `seed ${seed}`);
  }
});

test("a repeating spawn places again only the figures not on the map", () => {
  const figs = [{ rank: "master", spaces: [0], size: [1, 1] }, { rank: "minion", spaces: [0], size: [1, 1] }];
  const spawn = { id: "r", group: "zombie", tile: "A", when: "event", figures: { "2": figs } };
  const g = new Game(bundle([{ spawns: [spawn], events: [{ on: { kind: "round_end" }, do: [{ kind: "spawn", spawn: "r" }] }] }]), "q");
  g.endRound(); g.endRound();
  assert.equal(g.figures.length, 2);
  g.defeat("r");
  assert.equal(g.figures.length, 0);
  g.endRound();
  assert.equal(g.figures.length, 2);
  assert.equal(g.defeatedSpawns.has("r"), false);
});

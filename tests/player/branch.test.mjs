// play.js: the `if` effect inside an event (docs/bundle.md, "Events"): the arms are tested
// in order when the effect runs, after the effects before it; the first whose `if` holds
// runs (an arm without `if` is the `else`); none holding, nothing; then the event goes on.
// Every expected value is worked out by hand from those rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game, usesRandom } from "./play.js";
import { num, v, cmp, say, on, bundle, said } from "./helpers.mjs";

const chain = (arms) => ({ kind: "if", arms });

test("if: the first arm that holds runs, then the rest of the event", () => {
  const events = [{ on: { kind: "round_end" }, do: [
    { kind: "add", variable: "n", by: 1 },
    chain([
      { if: cmp(v("n"), "==", num(1)), do: [say("one")] },
      { if: cmp(v("n"), "<=", num(2)), do: [say("two or less")] },
      { do: [say("many")] },
    ]),
    say("after"),
  ] }];
  const g = new Game(bundle([{ variables: { n: 0 }, events }]), "q");
  g.endRound();  // n = 1: the first arm (the second holds too, but comes later)
  assert.deepEqual(said(g), ["one", "after"]);
  g.endRound();  // n = 2
  g.endRound();  // n = 3: the else
  assert.deepEqual(said(g), ["one", "after", "two or less", "after", "many", "after"]);
});

test("if without else: nothing when no arm holds; conditions read the board as the effect runs", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [
    chain([{ if: on("token", "key"), do: [say("key here")] }]),
    { kind: "remove_token", token: "key" },
    chain([{ if: on("token", "key"), do: [say("still here")] }, { if: { kind: "not", parts: [on("token", "key")] }, do: [say("gone")] }]),
    chain([{ if: { kind: "heroes", low: 4, high: 4 }, do: [say("four")] }]),
  ] }];
  const tokens = [{ id: "key", kind: "search", space: 0, tile: "A", when: "setup" }];
  const g = new Game(bundle([{ tokens, events }]), "q", { heroes: 3 });
  g.moraleZero();
  assert.deepEqual(said(g), ["key here", "gone"]);
});

test("if: an arm may ask, win or go on to the next encounter; a random inside an arm counts", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [
    chain([
      { if: cmp(v("x"), ">", num(0)), do: [{ kind: "ask", text: "q", choices: [{ text: "a", do: [say("a")] }, { text: "b", do: [{ kind: "win" }] }] }] },
      { do: [{ kind: "lose" }] },
    ]),
    say("after"),
  ] }];
  const g = new Game(bundle([{ variables: { x: 1 }, events }]), "q");
  g.moraleZero();
  assert.equal(g.asking.text, "q");
  g.answer(1);
  assert.equal(g.outcome.result, "win");
  assert.deepEqual(said(g), []);  // nothing after a win
  const lost = new Game(bundle([{ variables: { x: 0 }, events }]), "q");
  lost.moraleZero();
  assert.equal(lost.outcome.result, "lose");
  const two = bundle([
    { events: [{ on: { kind: "morale_zero" }, do: [chain([{ if: cmp(num(1), "==", num(1)), do: [{ kind: "next" }] }]), say("leaving")] }] },
    { events: [{ on: { kind: "encounter_start" }, do: [say("second")] }] },
  ]);
  const n = new Game(two, "q");
  n.moraleZero();
  assert.deepEqual(said(n), ["leaving", "second"]);
  const rnd = bundle([{ variables: { r: 0 }, events: [{ on: { kind: "start" }, do: [chain([{ do: [{ kind: "set", variable: "r", random: [1, 6] }] }])] }] }]);
  assert.equal(usesRandom(rnd.quests.q, rnd), true);
});

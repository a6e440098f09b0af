// play.js: `repeat` and `again` (docs/bundle.md, "Events"): the block runs, and runs again
// from its start each time an `again` of its label is reached (nothing after that `again`
// runs); an `again` of an outer label leaves the inner loop too; the event goes on after the
// `repeat` once its block ends without one. Every expected value is worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game } from "./play.js";
import { num, v, cmp, say, bundle, said } from "./helpers.mjs";

const again = (label) => ({ kind: "again", label });
const repeat = (label, body) => ({ kind: "repeat", label, do: body });
const when = (c, body) => ({ kind: "if", arms: [{ if: c, do: body }] });

test("repeat: again restarts the block, skipping what follows it; the event goes on after the loop", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [
    repeat("l", [
      { kind: "add", variable: "n", by: 1 },
      say("run"),
      when(cmp(v("n"), "<", num(3)), [again("l"), say("never")]),
      say("last"),
    ]),
    say("after"),
  ] }];
  const g = new Game(bundle([{ variables: { n: 0 }, events }]), "q");
  g.moraleZero();
  assert.deepEqual(said(g), ["run", "run", "run", "last", "after"]);
  assert.equal(g.variables.n, 3);
});

test("repeat: a menu asked again after each answer until the player stops", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [
    repeat("menu", [{ kind: "ask", text: "where", choices: [
      { text: "road", do: [{ kind: "add", variable: "steps", by: 1 }, again("menu")] },
      { text: "stop", do: [say("stopped")] },
    ] }]),
    when(cmp(v("steps"), ">=", num(2)), [{ kind: "win" }]),
    { kind: "lose" },
  ] }];
  const g = new Game(bundle([{ variables: { steps: 0 }, events }]), "q");
  g.moraleZero();
  g.answer(0);
  assert.equal(g.asking.text, "where");  // asked again
  g.answer(0);
  g.answer(1);
  assert.deepEqual(said(g), ["stopped"]);
  assert.equal(g.outcome.result, "win");
  const lost = new Game(bundle([{ variables: { steps: 0 }, events }]), "q");
  lost.moraleZero();
  lost.answer(1);
  assert.equal(lost.outcome.result, "lose");
});

test("repeat: an again of the outer label leaves the inner loop and restarts the outer one", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [
    repeat("outer", [
      { kind: "add", variable: "o", by: 1 },
      repeat("inner", [
        { kind: "add", variable: "i", by: 1 },
        when(cmp(v("i"), "<", num(2)), [again("inner")]),
        when(cmp(v("o"), "<", num(2)), [{ kind: "set", variable: "i", value: 0 }, again("outer")]),
        say("inner done"),
      ]),
      say("outer done"),
    ]),
  ] }];
  const g = new Game(bundle([{ variables: { o: 0, i: 0 }, events }]), "q");
  g.moraleZero();
  // o=1: i=1 again inner, i=2, o<2: i=0, again outer; o=2: i=1 again inner, i=2: done
  assert.deepEqual(said(g), ["inner done", "outer done"]);
  assert.deepEqual([g.variables.o, g.variables.i], [2, 2]);
});

test("repeat: a block that goes round without a question or a bound is stopped, not hung", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [repeat("spin", [{ kind: "add", variable: "n", by: 1 }, again("spin")]), say("after")] }];
  const g = new Game(bundle([{ variables: { n: 0 }, events }]), "q");
  g.moraleZero();
  assert.equal(g.variables.n, 10000);
  assert.deepEqual(said(g), ["after"]);
});

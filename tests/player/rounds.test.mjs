// play.js, the round operand: `round` in a condition is the round under way, from 1 in each
// encounter; during round N's end (its events, and a question they ask) it is N, and round
// N + 1 begins with its `round_start` (docs/language.md, "Conditions"; docs/bundle.md,
// "Conditions"; the app's #round: RoundController.EndRound, CheckNewRound). Expected values
// worked out by hand from those rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game, describeCondition } from "./play.js";
import { bundle, cmp, num, say, said } from "./helpers.mjs";

const round = { kind: "round" };

test("a round_end event with `if round >= 2` fires at the end of round 2, not of round 1", () => {
  const g = new Game(bundle([{ events: [
    { on: { kind: "round_end" }, if: cmp(round, ">=", num(2)), do: [say("late")] },
    { on: { kind: "round_end" }, do: [{ kind: "if", arms: [{ if: cmp(round, "==", num(1)), do: [say("end of 1")] }, { do: [say("end of a later round")] }] }] },
    { on: { kind: "round_start" }, if: cmp(round, "==", num(2)), do: [say("start of 2")] },
  ] }]), "q", { heroes: 2 });
  assert.equal(g.round, 1);
  g.endRound();
  assert.deepEqual(said(g), ["end of 1", "start of 2"]);
  assert.equal(g.round, 2);
  g.endRound();
  assert.deepEqual(said(g), ["end of 1", "start of 2", "late", "end of a later round"]);
  assert.equal(g.round, 3);
});

test("a question asked at round 1's end does not see round 2; round 2 begins once it is answered", () => {
  const g = new Game(bundle([{ events: [
    { on: { kind: "round_end", round: 1 }, do: [{ kind: "ask", text: "q", choices: [
      { text: "a", if: cmp(round, "==", num(1)), do: [{ kind: "if", arms: [{ if: cmp(round, "==", num(1)), do: [say("still round 1")] }] }] },
      { text: "b", if: cmp(round, ">=", num(2)), do: [say("never offered")] },
      { text: "c", do: [say("c")] }] }] },
    { on: { kind: "round_start", round: 2 }, if: cmp(round, "==", num(2)), do: [say("round 2 begins")] },
  ] }]), "q", { heroes: 2 });
  g.endRound();
  assert.deepEqual(g.asking.choices.map((c) => c.index), [0, 2]);  // `round >= 2` is not offered
  assert.equal(g.round, 1);  // the round ending is still under way while the question waits
  g.answer(0);
  assert.deepEqual(said(g), ["still round 1", "round 2 begins"]);
  assert.equal(g.round, 2);
});

test("the round counts from 1 again in the next encounter, and a quest ended at round N's end stays at N", () => {
  const g = new Game(bundle([
    { events: [{ on: { kind: "round_end", round: 2 }, do: [{ kind: "next" }] }] },
    { events: [
      { on: { kind: "encounter_start" }, if: cmp(round, "==", num(1)), do: [say("encounter 2, round 1")] },
      { on: { kind: "round_end" }, if: cmp(round, "==", num(1)), do: [{ kind: "win" }] },
    ] },
  ]), "q", { heroes: 2 });
  g.endRound();
  g.endRound();
  assert.deepEqual(said(g), ["encounter 2, round 1"]);
  assert.equal(g.round, 1);
  g.endRound();
  assert.equal(g.outcome.result, "win");
  assert.equal(g.round, 1);
});

test("the script writes the operand back as `round`", () => {
  assert.equal(describeCondition({ kind: "and", parts: [cmp({ kind: "variable", name: "hours" }, ">=", num(6)), cmp(round, ">=", num(6))] }),
    "hours >= 6 and round >= 6");
  assert.equal(describeCondition(cmp({ kind: "heroes" }, "<", num(3))), "heroes < 3");
});

// play.js, `end`: the quest ends at once, as after `win` and `lose`, with no side said
// (docs/language.md, "Endings"; docs/bundle.md). Expected values worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game } from "./play.js";
import { describeEffect } from "./labels.js";
import { SMALL_MAP, say, said } from "./helpers.mjs";

const bundle = (ending) => ({
  strings: { "n.q": { text: "Q" }, "t.end": { text: "The raid is over." } },
  quests: { q: { name: "n.q", heroes: [2, 4], encounters: [{
    number: 1, reachable: true, start: [0, 1], tokens: [], spawns: [], variables: {}, map: SMALL_MAP,
    events: [{ index: 1, can_fire: true, on: { kind: "round_end", round: 1 }, do: [say("before"), ending, say("never said")] }],
  }] } },
});

test("end: the quest ends with its text, neither won nor lost, and nothing after it happens", () => {
  const g = new Game(bundle({ kind: "end", text: "t.end" }), "q", { heroes: 2 });
  g.endRound();
  assert.deepEqual(g.outcome, { result: "end", text: "The raid is over." });
  assert.deepEqual(said(g), ["before"]);
  assert.equal(g.log.at(-1).kind, "end");
});

test("end without a text says the quest ends; labels write it as the language does", () => {
  const g = new Game(bundle({ kind: "end" }), "q", { heroes: 2 });
  g.endRound();
  assert.equal(g.outcome.result, "end");
  assert.equal(g.log.at(-1).text, "The quest ends.");
  assert.equal(describeEffect({ kind: "end", text: "t.end" }, (id) => ({ "t.end": "The raid is over." })[id]), "end “The raid is over.”");
});

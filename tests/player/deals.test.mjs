// deal.js on the shared vectors: every shipped deck dealt for every seed exactly as
// `questc layout --seed N` (Python's random.Random(N)) deals it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deal } from "../../compiler/player/deal.js";
import { load } from "./vectors.mjs";

test("deals.json: every deck, every seed, the order questc layout deals", () => {
  const decks = load("deals.json");
  assert.ok(decks.length >= 3, `${decks.length} decks`);
  let orders = 0;
  for (const d of decks) {
    for (const [seed, want] of d.orders) {
      assert.deepEqual(deal(d.deck, seed), want, `${d.name} seed ${seed}`);
      orders++;
    }
  }
  assert.ok(orders >= 3 * 60);
});

// tracks.js by hand, and on the vectors tests/test_effects.py writes from the Python engine
// (compiler/model/effects.py) when it runs this file with QUESTC_TRACK_VECTORS set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { knockOut, lootStart, moraleStart, placeLoot, raisePayout } from "../../compiler/player/tracks.js";

const loot = { limit: { 2: 6, 3: 8, 4: 10 }, payout: [1, 2, 3, 4] };

test("a merriod (4 tokens), a master, then another merriod: 2 tokens ignored, 2 cards paid", () => {
  let s = lootStart();
  let r = placeLoot(loot, 2, s, 4);
  assert.deepEqual(r, { state: { tokens: 4, payout: 1 }, paid: null });
  s = raisePayout(loot, r.state, 1);
  r = placeLoot(loot, 2, s, 4);
  assert.deepEqual(r, { state: { tokens: 0, payout: 1 }, paid: 2 });
  assert.equal(raisePayout(loot, { tokens: 0, payout: 4 }, 1).payout, 4);
});

test("morale starts at the hero count and a knock-out at 0 loses", () => {
  const morale = { start: "heroes" };
  let m = moraleStart(morale, 2);
  assert.equal(m, 2);
  m = knockOut(morale, m).morale;
  m = knockOut(morale, m).morale;
  assert.deepEqual(knockOut(morale, m), { morale: 0, lost: true });
});

test("the Python engine's answers", { skip: !process.env.QUESTC_TRACK_VECTORS }, () => {
  const v = JSON.parse(readFileSync(process.env.QUESTC_TRACK_VECTORS, "utf8"));
  for (const c of v.cases) {
    let s = lootStart();
    const paid = [];
    for (const [op, by] of c.ops) {
      if (op === "loot") {
        const r = placeLoot(v.track, c.heroes, s, by);
        s = r.state;
        paid.push(r.paid);
      } else s = raisePayout(v.track, s, by);
    }
    assert.deepEqual({ state: s, paid }, c.expected, JSON.stringify(c.ops));
  }
});

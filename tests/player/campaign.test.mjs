// campaign.js walks a campaign as compiler/model/app_campaign.py does: seeded runs
// recorded by Python (tests/test_app_campaign.py writes campaign_runs.json beside this
// file with the bundles they ran on) are replayed step by step, and at every step the
// open quests, the due ones, the ending and the weeks must be the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CampaignWalk } from "./campaign.js";

const runs = JSON.parse(readFileSync(new URL("./campaign_runs.json", import.meta.url), "utf-8"));

for (const [name, { bundle, campaign, walks }] of Object.entries(runs)) {
  test(`${name}: ${walks.length} seeded runs replayed with the same choices at every step`, () => {
    for (const walk of walks) {
      const w = new CampaignWalk(bundle, campaign);
      for (const step of walk.steps) {
        assert.deepEqual(w.choices(), { spine: step.spine, sides: step.sides, due: step.due });
        w.record(step.play, step.outcome);
      }
      assert.equal(w.ending, walk.ending);
      assert.equal(w.weeks, walk.weeks);
      assert.deepEqual(w.choices(), { spine: [], sides: [], due: [] });
    }
  });
}

test("a quest that is not open cannot be recorded; the offer draws side_offer of the open side quests", () => {
  const { bundle, campaign } = runs.goblin_road;
  const w = new CampaignWalk(bundle, campaign);
  assert.throws(() => w.record("a_fat_goblin", "won"), /not open/);
  w.record("first_blood", "lost");
  assert.deepEqual(w.choices().sides, ["hollow_farm", "lost_cart"]);
  assert.deepEqual(w.offer(() => 0.99), ["lost_cart"]);
  assert.deepEqual(w.offer(() => 0), ["hollow_farm"]);
  w.record("lost_cart", "won"); // a week passes: A Fat Goblin (weeks 1) is due
  assert.deepEqual(w.choices().due, ["a_fat_goblin"]);
  assert.deepEqual(w.offer(), []);
  assert.throws(() => w.record("hollow_farm", "won"), /not open/);
});

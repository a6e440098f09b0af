// campaign_panel.js: the session the page drives (tests/test_player_campaign.py drives it
// in Chromium). The offer draws with Python's random.random() for the seed; an outcome
// says what it unlocked; the totals add up what the recorded outcomes paid.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PythonRandom } from "../../compiler/player/deal.js";
import { CampaignSession, campaignHtml, pyRandom } from "../../compiler/player/campaign_panel.js";

const bundle = {
  app_campaigns: {
    t: {
      name: "T", source: "illustrative", side_offer: 1,
      acts: [{ number: 1, quests: ["a", "s1", "s2", "s3", "f"] }],
      quests: {
        a: { kind: "story", act: 1, title: "A", rewards: [{ when: "any", xp: 1 }, { when: "won", gold: 25, fame: 1 }] },
        s1: { kind: "side", act: 1, title: "S1", after: { quest: "a", outcome: "played" }, rewards: [{ when: "won", gold: 10 }] },
        s2: { kind: "side", act: 1, title: "S2", after: { quest: "a", outcome: "played" } },
        s3: { kind: "side", act: 1, title: "S3", after: { quest: "a", outcome: "played" } },
        f: { kind: "finale", act: 1, title: "F", after: { quest: "a", outcome: "won" } },
      },
    },
  },
};

test("pyRandom is Python's random.random() for the same seed", () => {
  const want = { 0: [0.8444218515250481, 0.7579544029403025, 0.420571580830845], 1: [0.13436424411240122, 0.8474337369372327, 0.763774618976614] };
  for (const [seed, values] of Object.entries(want)) {
    const rng = new PythonRandom(Number(seed));
    assert.deepEqual(values.map(() => pyRandom(rng)), values);
  }
});

test("a session: what is open, what an outcome unlocks, the offer, the totals, the ending", () => {
  const s = new CampaignSession(bundle, "t", 0);
  assert.deepEqual(s.open(), ["a"]);
  s.record("a", "won");
  assert.deepEqual(s.unlocked, ["f", "s1", "s2", "s3"]);
  // the first draw after the seed is random() 0.844…: the third of three side quests
  assert.deepEqual(s.offered, ["s3"]);
  assert.deepEqual(s.open(), ["s3", "f"]);
  assert.deepEqual(s.totals(), { gold: 25, xp: 1, fame: 1 });
  assert.throws(() => s.record("b", "won"), /not open/);
  s.record("f", "lost");
  assert.equal(s.walk.ending, "lost");
  assert.deepEqual(s.open(), []);
  assert.deepEqual(s.history.map((h) => [h.quest, h.outcome]), [["a", "won"], ["f", "lost"]]);
  const html = campaignHtml(s, (x) => x, () => false);
  assert.match(html, /data-ending="lost"/);
  assert.match(html, /lost the campaign/);
  assert.doesNotMatch(html, /campaign-open/);
});

test("another seed offers another side quest", () => {
  const s = new CampaignSession(bundle, "t", 1);
  s.record("a", "won"); // random() 0.134…: the first of three
  assert.deepEqual(s.offered, ["s1"]);
  s.record("s1", "won");
  assert.deepEqual(s.totals(), { gold: 35, xp: 1, fame: 1 });
  const t = new CampaignSession(bundle, "t", 1);
  t.record("a", "lost"); // no spine quest left and no finale open: the campaign ends without one
  assert.equal(t.walk.ending, "none");
  assert.deepEqual(t.offered, []);
  assert.deepEqual(t.totals(), { gold: 0, xp: 1, fame: 0 });
});

test("a journey draws its travel event with Python's random() against the exact odds; fame opens the shops", () => {
  const withTravel = structuredClone(bundle);
  const t = withTravel.app_campaigns.t;
  t.travel = [
    { id: "storm", odds: { exact: "1/3", value: 0.333333 }, rewards: [{ when: "any", xp: 1 }] },
    { id: "bandits", odds: { exact: "1/4", value: 0.25 }, rewards: [{ when: "any", gold: 10, fame: 1 }] },
  ];
  t.cities = { hold: { name: "The Hold", sells: [{ items: ["rope"], fame: 0 }, { items: ["plate"], fame: 2 }] } };
  const s = new CampaignSession(withTravel, "t", 0); // nothing to draw for the first offer (no side quest open)
  // Python: random.Random(0).random() gives 0.844, 0.758, 0.421: none, none (past 7/12), bandits (1/3 <= x < 7/12)
  assert.deepEqual([s.journey(), s.journey(), s.journey()], [null, null, "bandits"]);
  const r = new CampaignSession(withTravel, "t", 1);
  assert.deepEqual(r.shops(), [{ id: "hold", name: "The Hold", items: ["rope"] }]);
  r.record("a", "won"); // random() 0.134: the storm on the way
  assert.equal(r.history[0].travel, "storm");
  assert.deepEqual(r.totals(), { gold: 25, xp: 2, fame: 1 });
  const html = campaignHtml(r, (x) => x, () => false);
  assert.match(html, /On the way: storm/);
  assert.match(html, /Difficulty|The Hold sells/);
});

test("travel answers drawn as Python draws them, fame never below 0, stock, prices and peril shown", () => {
  const b = structuredClone(bundle);
  const t = b.app_campaigns.t;
  t.quests.a.rewards = [{ when: "lost", fame: -2 }, { when: "won", fame: 1 }];
  t.travel = [{
    id: "ferry", title: "Ferry", odds: { exact: "1/1", value: 1 }, rewards: [{ when: "any", fame: -1 }],
    answers: [{ id: "pay", title: "Pay", rewards: [{ when: "any", gold: 5 }] },
      { id: "swim", title: "Swim", odds: { exact: "1/2", value: 0.5 }, rewards: [{ when: "won", fame: 2 }, { when: "lost", xp: 1 }] }],
  }];
  t.cities = { hold: { name: "The Hold", stock: 2, sells: [{ items: ["rope", "lamp", "axe"], fame: 0 }] } };
  t.prices = { rope: 10 };
  t.difficulty = { setting: "hard", gold_per_hero: 0, delve_xp: 0, peril_rounds: 3, peril_illustrative: true };
  // Python: r = random.Random(0); r.random() 0.844 (the journey: below 1, the ferry),
  // r.choice(["pay", "swim"]) "swim", r.random() 0.0405 (below 1/2: passed)
  const s = new CampaignSession(b, "t", 0);
  s.record("a", "lost");
  assert.equal(s.history[0].travel, "ferry");
  assert.equal(s.history[0].answer, "swim won");
  // a lost: fame -2, the ferry -1, the swim passed +2: -1 in the step, held 0 (never below)
  assert.deepEqual(s.totals(), { gold: 0, xp: 0, fame: 0 });
  const html = campaignHtml(s, (id) => id, () => false);
  assert.match(html, /data-answer="swim won"/);
  assert.match(html, /On the way: Ferry \(Swim: passed\)/);
  assert.match(html, /data-stock="2"/);
  assert.match(html, /rope \(10 gold\), lamp, axe/);
  assert.match(html, /peril rises every <span data-peril="3">3<\/span> rounds \(illustrative\)/);
});

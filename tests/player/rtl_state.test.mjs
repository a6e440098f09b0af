// rtl_state.js: the page's view of a 1st-edition campaign state (tests/test_rtl_state.py runs
// this under node; tests/test_player_rtl_state.py drives it in Chromium). The weeks are the
// compiler's; the view steps through them and shows each number where a test can read it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StateView, stateHtml, stateIds } from "../../compiler/player/rtl_state.js";

const week = (n, over = {}) => ({
  week: n, level: "copper", ended: null, treasury: 1000 + n, party_at: n === 1 ? "town" : "den",
  conquest: { heroes: n, overlord: 2 * n, combined: 3 * n },
  xp: { each_hero: n, hero_spent: n === 1 ? {} : { all: 1, ann: 1 }, overlord: 2 * n, overlord_spent: 0 },
  lieutenants: { lt: "town" }, sieges: n === 1 ? {} : { town: 2 }, razed: n === 3 ? ["town"] : [],
  items: { scroll: n === 1 ? "town" : "party" }, upgrades: n === 1 ? [] : ["boat"], ...over,
});

const bundle = {
  worlds: { w: { locations: { town: { name: "Town", kind: "city", defense: 3 }, den: { name: "Den", kind: "dungeon" } } } },
  campaign: {
    state: {
      s: {
        world: "w", lieutenants: { lt: { name: "Sir Lt" } }, hero_sheets: { ann: { name: "Ann" } }, party_upgrades: { boat: { name: "The Boat" } },
        quest_items: { scroll: { name: "A Scroll" } },
        record: [{ note: "first", events: [{ do: "move", to: "den" }] }, { events: [] }, { events: [{ do: "raze", city: "town" }] }],
        weeks: [week(1), week(2), week(3, { heroes: { ann: { dice: { melee: { black: 2, silver: 1 } }, skills: ["Mighty"] } },
          dungeon: { at: "den", fortified: ["lt"], power_cards: ["Doom"], threat: 15, reinforcement: "facedown", levels: 2 } })],
      },
      t: { world: "w", weeks: [], record: [] },
    },
  },
};

test("the states of the bundle, sorted; an unknown one is refused", () => {
  assert.deepEqual(stateIds(bundle), ["s", "t"]);
  assert.deepEqual(stateIds({}), []);
  assert.throws(() => new StateView(bundle, "nope"));
});

test("the view starts at the last week and steps within the record", () => {
  const v = new StateView(bundle, "s");
  assert.equal(v.week.week, 3);
  v.next();
  assert.equal(v.week.week, 3); // past the end: stays
  v.previous();
  assert.equal(v.week.week, 2);
  v.first().previous();
  assert.equal(v.week.week, 1);
  assert.equal(v.record.note, "first");
  v.go(99);
  assert.equal(v.week.week, 3);
  v.go("2");
  assert.equal(v.week.week, 2);
  v.last();
  assert.equal(v.index, 2);
});

test("places, names, sieges with their defense and the XP left", () => {
  const v = new StateView(bundle, "s").go(2);
  assert.equal(v.place("town"), "Town");
  assert.equal(v.place("party"), "the party");
  assert.equal(v.place("lt"), "Sir Lt");
  assert.equal(v.upgrade("boat"), "The Boat");
  assert.deepEqual(v.sieges(), [{ city: "town", tokens: 2, defense: 3 }]);
  assert.deepEqual(v.xpLeft(), { heroes: { ann: 0 }, overlord: 4 });
  assert.deepEqual(v.go(1).xpLeft(), { heroes: { "every hero": 1 }, overlord: 2 });
});

test("the HTML carries every number of the week", () => {
  const html = stateHtml(new StateView(bundle, "s").go(2));
  for (const part of ['data-week="2"', 'data-total="heroes">2<', 'data-total="overlord">4<', 'data-total="combined">6<',
    'data-total="coins">1002<', 'data-party="den"', 'data-lieutenant="lt" data-at="town"', 'data-siege="town" data-tokens="2"', "Town 2/3",
    'data-upgrade="boat">The Boat<', 'data-item="scroll" data-with="party"', 'data-left="ann">0<', 'value="2"', 'max="3"']) {
    assert.ok(html.includes(part), part);
  }
  const third = stateHtml(new StateView(bundle, "s"));
  for (const part of ['data-razed="town"', 'data-hero="ann" data-skills="1">Ann:', "melee 2 black, 1 silver", 'data-dungeon="den" data-reinforcement="facedown" data-threat="15"',
    "fortified by Sir Lt", 'data-do="raze"']) {
    assert.ok(third.includes(part), part);
  }
  const empty = stateHtml(new StateView(bundle, "t"));
  assert.ok(empty.includes('data-week="0"') && empty.includes("disabled"));
  assert.ok(!stateHtml(new StateView(bundle, "s").go(1)).includes("data-hero="));
});

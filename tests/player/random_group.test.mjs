// Node test of play.js's random groups (`spawn random group …`, docs/bundle.md, "Random
// groups"), run by tests/test_monster_pools.py with the picks Python's random.Random(seed)
// makes (python_picks.mjs, written by that test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game } from "./play.js";
import { bundle } from "./helpers.mjs";
import { PICKS } from "./python_picks.mjs";

const POOL = ["goblin", "ogre", "spider"];

function game(seed) {
  const map = {
    tiles: [{ name: "A" }], doors: {}, walls: [],
    spaces: [0, 1, 2, 3, 4, 5, 6, 7].map((x) => ({ tile: "A", x, y: 0, terrain: "plain" })),
    counting: [[1], [0, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5, 7], [6]],
  };
  const listed = (space) => ({ "2": [{ rank: "master", spaces: [space], size: [1, 1], space }] });
  const spawns = [
    { id: "r1", group: "random_group", pool: POOL, traits: ["cave"], pick: "random", with: [], tile: "A", when: "setup", figures: listed(2) },
    { id: "r2", group: "random_group", pool: POOL, traits: ["cave"], pick: "random", with: [], tile: "A", when: "event", figures: listed(6) },
  ];
  const events = [
    { on: { kind: "round_end", round: 1 }, do: [{ kind: "spawn", spawn: "r2" }] },
    { on: { kind: "round_end", round: 2 }, do: [{ kind: "remove_spawn", spawn: "r1" }] },
    { on: { kind: "round_end", round: 3 }, do: [{ kind: "spawn", spawn: "r1" }] },
  ];
  const b = bundle([{ map, spawns, events }]);
  b.monsters = {
    goblin: { size: "1x1", group_limits: { "2": { masters: 1, minions: 1 } } },
    ogre: { size: "1x1", group_limits: { "2": { masters: 1, minions: 0 } } },
    spider: { size: "1x1", group_limits: { "2": { masters: 1, minions: 1 } } },
  };
  b.terrain = { plain: { blocks_movement: false } };
  return new Game(b, "q", { heroes: 2, seed });
}

for (const [seed, [first, second]] of Object.entries(PICKS)) {
  test(`seed ${seed}: the app draws each random group once, a monster no other spawn drew, and keeps it`, () => {
    const g = game(Number(seed));
    const groupOf = (id) => [...new Set(g.figures.filter((f) => f.spawn === id).map((f) => f.group))];
    assert.deepEqual(groupOf("r1"), [first]);  // drawn when placed at the start, its own group placed
    g.chooseOpenGroup("r1", POOL.find((m) => m !== first));  // the players do not choose a random group
    assert.deepEqual(groupOf("r1"), [first]);
    g.endRound();
    assert.deepEqual(groupOf("r2"), [second]);  // drawn among the monsters r1 did not get
    assert.notEqual(first, second);
    g.endRound();
    assert.deepEqual(groupOf("r1"), []);  // taken off the map
    g.endRound();
    assert.deepEqual(groupOf("r1"), [first]);  // placed again: the same monster, kept for the quest
    assert.deepEqual(g.log.filter((l) => l.kind === "random-group").map((l) => [l.spawn, l.monster]), [["r1", first], ["r2", second]]);
  });
}

test("a unique random group is one figure, its master", () => {
  const g = game(0);
  g.encounter.spawns[1].unique = true;
  g.endRound();
  assert.deepEqual(g.figures.filter((f) => f.spawn === "r2").map((f) => f.rank), ["master"]);
});

// play.js: a custom monster's turns in words (docs/bundle.md, "Custom monsters": the quest's
// `monsters[id].activations`). Expected values worked out by hand from the rules written there:
// one activation drawn per round and kept until the round ends, `first` obeyed, a monster
// based on a custom monster with activations uses those, a plain monster has none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game } from "./play.js";
import { bundle } from "./helpers.mjs";

function game(seed, activations) {
  const spawns = [
    { id: "m", group: "messenger", when: "setup", unique: false, tile: "A", figures: { "2": [] } },
    { id: "c", group: "courier", when: "setup", unique: false, tile: "A", figures: { "2": [] } },
    { id: "g", group: "goblin_archer", when: "setup", unique: false, tile: "A", figures: { "2": [] } },
  ];
  const b = bundle([{ spawns, events: [] }]);
  b.quests.q.monsters = {
    messenger: { base: "goblin_archer", unique: false, lieutenant: false, activations },
    courier: { base: "messenger", unique: false, lieutenant: false },
  };
  return new Game(b, "q", { heroes: 2, seed });
}

const RUN = { id: "run", ability: "s.ability", master: "s.master", minion: "s.minion", first: "master" };
const HIT = { id: "hit", minion: "s.hit" };

test("one activation per round, kept until the round ends; `first` is obeyed", () => {
  const g = game(1, [RUN]);
  assert.deepEqual(g.activationsOf("m").map((a) => a.id), ["run"]);
  g.monsterTurn("m");
  assert.deepEqual(g.turns.get("m"), { ...RUN, first: "master" });
  g.monsterTurn("m");  // a second click in the same round draws nothing new
  assert.equal(g.log.filter((l) => l.kind === "turn").length, 1);
  g.endRound();
  assert.equal(g.turns.has("m"), false);
});

test("without `first`, who goes first is drawn; every activation can be drawn", () => {
  const seen = new Set();
  const firsts = new Set();
  for (let seed = 0; seed < 40; seed++) {
    const g = game(seed, [RUN, HIT]);
    g.monsterTurn("m");
    const t = g.turns.get("m");
    seen.add(t.id);
    if (t.id === "hit") firsts.add(t.first);
    else assert.equal(t.first, "master");
  }
  assert.deepEqual([...seen].sort(), ["hit", "run"]);
  assert.deepEqual([...firsts].sort(), ["master", "minion"]);
});

test("a custom monster based on one with activations uses them; a catalog monster has none", () => {
  const g = game(3, [HIT]);
  assert.deepEqual(g.activationsOf("c").map((a) => a.id), ["hit"]);
  assert.deepEqual(g.activationsOf("g"), []);
  g.monsterTurn("g");
  assert.equal(g.turns.has("g"), false);
});

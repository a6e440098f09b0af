// play.js, slice 2 of the event language: doors with states (locked, hidden, unlock,
// place / remove door, alternatives sharing a place), remove tile / token / spawn and
// placing again, `random { option … }` drawn from the seeded stream, quotas
// (docs/bundle.md, "Spawns, tokens, events"). Every expected value is worked out by hand
// from the rules written there, or (random draws) by Python's random.Random(seed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game, usesRandom } from "./play.js";
import { Geometry } from "./sight.js";
import { Moves } from "./moves.js";
import { num, v, cmp, say, on, bundle, said } from "./helpers.mjs";
import { STREAMS } from "./python.mjs";

const PLAIN = { plain: { blocks_sight: false, blocks_movement: false, sight: "normal", enter_cost: 1, leave_cost: 0, leave_action: false } };
const EDGE = [[1, 0], [1, 1]];  // between space 0 (0,0) and space 1 (1,0)

/** Two spaces side by side, tile A and tile B; on the edge between them a locked door `bar`
 *  and a hidden door `door` (alternatives on one place), and elsewhere a plain door `gate`. */
function doorMap() {
  return {
    tiles: [{ name: "A" }, { name: "B" }],
    spaces: [{ tile: "A", x: 0, y: 0, terrain: "plain" }, { tile: "B", x: 1, y: 0, terrain: "plain" }],
    walls: [], links: [],
    adjacency: [[1, 1], [0, 1]], counting: [[1], [0]],
    doors: {
      bar: { edges: [EDGE], open: false, colour: null, steps: [[0, 1], [1, 0]], locked: true },
      door: { edges: [EDGE], open: false, colour: null, steps: [[0, 1], [1, 0]], hidden: true },
      gate: { edges: [], open: true, colour: null, steps: [] },
    },
  };
}

/** Whether space 0 sees and reaches space 1 with the doors as the game has them. */
function through(g) {
  const geo = new Geometry(g.map, PLAIN);
  const state = { openDoors: g.passableDoors, blockers: [], hidden: g.hiddenSpaces };
  return { sees: geo.state(state).canSee(0, 1), reaches: new Moves(geo, state).reach(0, 5).has(1) };
}

test("doors: locked, hidden, unlock, the open effect, place and remove, alternatives on one place", () => {
  const events = [
    { on: { kind: "searched", token: "key" }, do: [{ kind: "remove_door", door: "bar" }, { kind: "place_door", door: "door" }, say("swapped")] },
    { on: { kind: "open", door: "door" }, do: [say("door opened")] },
    { on: { kind: "morale_zero" }, do: [{ kind: "place_door", door: "bar" }, { kind: "open", door: "bar" }, { kind: "remove_door", door: "door" }] },
    { on: { kind: "open", door: "bar" }, do: [say("bar opened")] },
    { on: { kind: "round_end", round: 1 }, do: [{ kind: "unlock", door: "bar" }, { kind: "close", door: "bar" }, { kind: "open", door: "door" }] },
    { on: { kind: "round_end", round: 2 }, do: [{ kind: "remove_door", door: "gate" }, { kind: "place_door", door: "gate" }] },
  ];
  const tokens = [{ id: "key", kind: "search", space: 0, tile: "A", when: "setup" }];
  const g = new Game(bundle([{ map: doorMap(), tokens, events }]), "q");
  // at the start: bar on the board, closed and locked; door off the board; gate open
  assert.deepEqual(["bar", "door", "gate"].map((d) => g.doorState(d)), ["locked", "off", "open"]);
  assert.deepEqual(["bar", "door", "gate"].map((d) => g.holds(on("door", d))), [true, false, false]);
  assert.deepEqual(g.passableDoors.sort(), ["door", "gate"]);
  assert.deepEqual(through(g), { sees: false, reaches: false });  // the locked bar shuts the place
  g.openDoor("bar"); g.openDoor("door");  // heroes cannot open a locked door nor one off the board
  assert.deepEqual(["bar", "door"].map((d) => g.doorState(d)), ["locked", "off"]);
  assert.deepEqual(said(g), []);
  g.search("key");  // one event swaps them: the bar off, the ordinary door on, closed
  assert.deepEqual(["bar", "door"].map((d) => g.doorState(d)), ["off", "closed"]);
  assert.deepEqual(through(g), { sees: false, reaches: false });  // the closed door shuts it now
  g.openDoor("door");
  assert.equal(g.doorState("door"), "open");
  assert.deepEqual(through(g), { sees: true, reaches: true });
  assert.deepEqual(said(g), ["swapped", "door opened"]);
  // place_door puts a removed door back closed and still locked; the open effect opens it
  // all the same (its trigger fires); remove_door takes the open door off
  g.moraleZero();
  assert.deepEqual(["bar", "door"].map((d) => g.doorState(d)), ["open", "off"]);
  assert.deepEqual(said(g), ["swapped", "door opened", "bar opened"]);
  assert.equal(g.locked.has("bar"), true);
  // unlock; close effect; the open effect does nothing to a door off the board
  g.endRound();
  assert.deepEqual(["bar", "door"].map((d) => g.doorState(d)), ["closed", "off"]);
  assert.deepEqual(said(g), ["swapped", "door opened", "bar opened"]);
  g.openDoor("bar");  // unlocked now: heroes may open it; its event was used up
  assert.equal(g.doorState("bar"), "open");
  g.closeDoor("bar");
  // a door removed and placed again is closed, whatever it was before
  g.endRound();
  assert.equal(g.doorState("gate"), "closed");
  g.openDoor("gate");
  assert.equal(g.doorState("gate"), "open");
});

test("a door hidden at the start lets figures and sight through its place", () => {
  const map = doorMap();
  delete map.doors.bar;
  const g = new Game(bundle([{ map, events: [{ on: { kind: "morale_zero" }, do: [{ kind: "place_door", door: "door" }] }] }]), "q");
  assert.deepEqual(through(g), { sees: true, reaches: true });
  g.moraleZero();
  assert.deepEqual(through(g), { sees: false, reaches: false });
});

const minion = (space) => ({ rank: "minion", spaces: [space], size: [1, 1], space });

test("remove tile: the tokens and figures on it leave with it; reveal puts the tile back alone", () => {
  const tokens = [{ id: "t", kind: "search", space: 2, tile: "H", when: "setup" }, { id: "u", kind: "search", space: 1, tile: "A", when: "setup" }];
  const spawns = [
    { id: "z", group: "zombie", tile: "H", when: "setup", figures: { "2": [minion(2)] } },
    { id: "y", group: "zombie", tile: "A", when: "setup", figures: { "2": [minion(1)] } },
  ];
  const events = [
    { on: { kind: "morale_zero" }, do: [{ kind: "reveal", tiles: ["H"] }] },
    { on: { kind: "round_end", round: 1 }, do: [{ kind: "remove_tile", tile: "H" }] },
    { on: { kind: "round_end", round: 2 }, do: [{ kind: "reveal", tiles: ["H"] }, { kind: "place_token", token: "t" }] },
    { on: { kind: "round_end", round: 3 }, do: [{ kind: "spawn", spawn: "z" }] },
    { on: { kind: "defeated", group: "zombie" }, do: [say("zombies defeated")] },
  ];
  const g = new Game(bundle([{ tokens, spawns, events }]), "q");
  assert.deepEqual([...g.tokens.keys()], ["u"]);
  assert.deepEqual(g.hiddenSpaces, [2]);
  g.moraleZero();  // H revealed: its setup token and spawn come
  assert.deepEqual([...g.tokens.keys()].sort(), ["t", "u"]);
  assert.deepEqual(g.figures.map((f) => f.spawn).sort(), ["y", "z"]);
  g.endRound();  // H removed with t and z, which is not defeated
  assert.deepEqual(g.hiddenSpaces, [2]);
  assert.deepEqual([...g.tokens.keys()], ["u"]);
  assert.deepEqual(g.figures.map((f) => f.spawn), ["y"]);
  assert.deepEqual([g.holds(on("tile", "H")), g.holds(on("token", "t")), g.holds(on("spawn", "z")), g.holds(on("spawn", "zombie"))], [false, false, false, true]);
  assert.equal(g.placed.has("z"), false);
  g.defeat("y");  // every zombie spawn still placed is defeated (z was removed, not placed any more)
  assert.deepEqual(said(g), ["zombies defeated"]);
  g.endRound();  // H back, bare; t placed again on its own space
  assert.deepEqual(g.hiddenSpaces, []);
  assert.deepEqual(g.figures, []);
  assert.deepEqual([...g.tokens.keys()].sort(), ["t", "u"]);
  assert.equal(g.tokens.get("t").space, 2);
  g.endRound();  // z spawned again
  assert.deepEqual(g.figures.map((f) => [f.spawn, f.spaces]), [["z", [2]]]);
});

test("remove spawn: by id or by group, no defeated trigger; spawn places it again", () => {
  const spawns = [
    { id: "a", group: "goblin", tile: "A", when: "setup", figures: { "2": [minion(0), minion(1)] } },
    { id: "b", group: "goblin", tile: "A", when: "event", figures: { "2": [minion(1)] } },
    { id: "boss", group: "ettin", tile: "A", when: "setup", figures: { "2": [{ rank: "master", spaces: [0, 1], size: [2, 1], space: 0 }] } },
  ];
  const events = [
    { on: { kind: "round_end", round: 1 }, do: [{ kind: "remove_spawn", spawn: "boss" }, { kind: "spawn", spawn: "b" }] },
    { on: { kind: "round_end", round: 2 }, do: [{ kind: "remove_spawn", spawn: "goblin" }] },
    { on: { kind: "round_end", round: 3 }, do: [{ kind: "spawn", spawn: "boss" }, { kind: "spawn", spawn: "a" }] },
    { on: { kind: "defeated", group: "boss" }, do: [say("boss defeated")] },
    { on: { kind: "defeated", group: "goblin" }, do: [say("goblins defeated")] },
  ];
  const g = new Game(bundle([{ spawns, events }]), "q");
  assert.equal(g.figures.length, 3);
  g.endRound();
  assert.deepEqual(g.figures.map((f) => f.key), ["a#0", "a#1", "b#0"]);
  assert.deepEqual([g.holds(on("spawn", "boss")), g.holds(on("spawn", "ettin"))], [false, false]);
  g.endRound();
  assert.deepEqual(g.figures, []);
  assert.deepEqual(said(g), []);  // removed, not defeated
  assert.deepEqual([...g.placed].sort(), []);
  g.endRound();
  assert.deepEqual(g.figures.map((f) => f.key), ["boss#0", "a#0", "a#1"]);
  g.defeat("a");  // b is not on the map (removed): a alone is every placed goblin spawn
  g.defeat("boss");
  assert.deepEqual(said(g), ["goblins defeated", "boss defeated"]);
});

test("random: one option, each drawn from the seeded stream shared with set … random", () => {
  const setA = (k) => [{ kind: "set", variable: "a", value: k }];
  const events = [{ on: { kind: "round_end" }, do: [
    { kind: "random", options: [setA(1), setA(2), setA(3)] },
    { kind: "set", variable: "r", random: [1, 6] },
    { kind: "random", options: [[{ kind: "add", variable: "a", by: 10 }], []] },
  ] }];
  for (const [seed, rounds] of Object.entries(STREAMS)) {
    const b = bundle([{ variables: { a: 0, r: 0 }, events }]);
    assert.equal(usesRandom(b.quests.q, b), true);
    const g = new Game(b, "q", { seed: Number(seed) });
    const got = [];
    for (let k = 0; k < rounds.length; k++) { g.endRound(); got.push([g.variables.a, g.variables.r]); }
    assert.deepEqual(got, rounds, `seed ${seed}`);
    assert.deepEqual(g.log.filter((l) => l.kind === "random").length, 2 * rounds.length);
  }
  const plain = bundle([{ events: [{ on: { kind: "start" }, do: [say("x")] }] }]);
  assert.equal(usesRandom(plain.quests.q, plain), false);
});

test("random: an option may ask; the rest of the event waits for the answer", () => {
  const events = [{ on: { kind: "morale_zero" }, do: [
    { kind: "random", options: [[{ kind: "ask", text: "q", choices: [{ text: "x", do: [say("x")] }, { text: "y", do: [{ kind: "lose" }] }] }]] },
    say("after"),
  ] }];
  const g = new Game(bundle([{ events }]), "q");
  g.moraleZero();
  assert.equal(g.asking.text, "q");
  assert.deepEqual(said(g), []);
  g.answer(0);
  assert.deepEqual(said(g), ["x", "after"]);
});

test("quotas: every occurrence counts, the event fires from the N-th on where its if holds, once", () => {
  const events = [
    { on: { kind: "morale_zero" }, quota: 3, if: cmp(v("a"), ">=", num(1)), do: [say("third or later, a >= 1")] },
    { on: { kind: "morale_zero" }, quota: 2, do: [say("second")] },
    { on: { kind: "enters", spaces: [1] }, quota: 2, do: [say("entered twice")] },
  ];
  const g = new Game(bundle([{ variables: { a: 0 }, events }]), "q");
  g.moraleZero();
  assert.deepEqual(said(g), []);
  g.moraleZero();
  assert.deepEqual(said(g), ["second"]);
  g.moraleZero();  // the third occurrence, but a is 0: waits
  assert.deepEqual(said(g), ["second"]);
  g.setVariable("a", 1);
  g.moraleZero();  // the fourth: fires
  g.moraleZero();
  assert.deepEqual(said(g), ["second", "third or later, a >= 1"]);
  assert.deepEqual([g.occurrences.get("enc0:1"), g.occurrences.get("enc0:2")], [4, 2]);  // used up: no longer counted
  g.moveHero("hero1", 0); g.moveHero("hero1", 1);
  assert.deepEqual(said(g).length, 2);
  g.moveHero("hero1", 0); g.moveHero("hero1", 1);
  assert.deepEqual(said(g).slice(2), ["entered twice"]);
});

test("heroes: hero_defeated each time one falls (a quota counts them), all_heroes_defeated when none stands", () => {
  const events = [
    { on: { kind: "hero_defeated" }, quota: 2, do: [say("second fall")] },
    { on: { kind: "all_heroes_defeated" }, do: [{ kind: "lose", text: "all down" }] },
  ];
  const g = new Game(bundle([{ events }]), "q", { heroes: 3 });
  assert.deepEqual(g.heroIds, ["hero1", "hero2", "hero3"]);
  g.heroDefeated("hero1");
  g.heroDefeated("hero1");  // already down: nothing happens
  assert.deepEqual(said(g), []);
  g.heroDefeated("hero2");
  assert.deepEqual(said(g), ["second fall"]);
  g.heroStandsUp("hero1");
  g.heroDefeated("hero3");  // hero1 stands again: not all down
  assert.equal(g.outcome, null);
  g.heroDefeated("hero1");
  assert.equal(g.outcome.result, "lose");
  assert.equal(g.occurrences.get("enc0:1"), 2);
});

test("solve.mjs finds the shortest play through a locked door to a win, and none to a loss that cannot come", async () => {
  const { solve } = await import("./solve.mjs");
  const tokens = [{ id: "key", kind: "search", space: 0, tile: "A", when: "setup" }];
  const events = [
    { on: { kind: "searched", token: "key" }, do: [{ kind: "unlock", door: "bar" }] },
    { on: { kind: "open", door: "bar" }, do: [{ kind: "win" }] },
  ];
  const b = bundle([{ map: doorMap(), tokens, events }]);
  assert.deepEqual(solve(b, "q", "win"), ["search:key", "open:bar"]);
  assert.equal(solve(b, "q", "lose", { maxStates: 200 }), null);
});

test("open groups: the players choose a monster of the pool; its own figures go on the listed spaces, then the nearest free ones", () => {
  // a row of six spaces 0..5 (x = index); a wall between 3 and 4: `counting` has no step there
  const map = {
    tiles: [{ name: "A" }], doors: {}, walls: [],
    spaces: [0, 1, 2, 3, 4, 5].map((x) => ({ tile: "A", x, y: 0, terrain: "plain" })),
    counting: [[1], [0, 2], [1, 3], [2], [5], [4]],
  };
  const monsters = {
    goblin: { size: "1x1", group_limits: { "2": { masters: 1, minions: 2 } } },
    ogre: { size: "1x2", group_limits: { "2": { masters: 1, minions: 0 } } },
  };
  const listed = (space) => ({ "2": [{ rank: "master", spaces: [space], size: [1, 1], space }] });
  const spawns = [
    { id: "g", group: "open_group", pool: ["goblin", "ogre"], traits: ["cave"], tile: "A", when: "setup", figures: listed(1) },
    { id: "o", group: "open_group", pool: ["goblin", "ogre"], traits: ["cave"], tile: "A", when: "event", figures: listed(4) },
  ];
  const events = [
    { on: { kind: "round_end", round: 1 }, do: [{ kind: "spawn", spawn: "o" }] },
    { on: { kind: "defeated", group: "g" }, do: [say("g defeated")] },
  ];
  const b = bundle([{ map, spawns, events }]);
  b.quests.q.encounters[0].start = [0];
  b.monsters = monsters;
  b.terrain = { plain: { blocks_movement: false } };
  const g = new Game(b, "q", { heroes: 2 });
  assert.deepEqual(g.figures.map((f) => [f.key, f.group, f.spaces]), [["g#0", "open_group", [1]]]);  // listed, until chosen
  g.chooseOpenGroup("g", "dragon");  // not in the pool: nothing
  g.chooseOpenGroup("g", "goblin");
  // master on the listed space 1; minions: 0 holds hero1, then 2, then 3 (range steps from 1)
  assert.deepEqual(g.figures.map((f) => [f.key, f.group, f.rank, f.spaces]),
    [["g#0", "goblin", "master", [1]], ["g#1", "goblin", "minion", [2]], ["g#2", "goblin", "minion", [3]]]);
  g.chooseOpenGroup("g", "ogre");  // chosen once
  assert.equal(g.figures.filter((f) => f.group === "goblin").length, 3);
  g.chooseOpenGroup("o", "ogre");  // chosen before it is placed
  assert.equal(g.figures.some((f) => f.spawn === "o"), false);
  g.endRound();  // placed as an ogre: 1x2 does not fit a row, turned it lies on 4 and 5
  assert.deepEqual(g.figures.filter((f) => f.spawn === "o").map((f) => [f.group, f.spaces, f.size]), [["ogre", [4, 5], [2, 1]]]);
  g.defeat("g");
  assert.deepEqual(said(g), ["g defeated"]);
});

// labels.js against questc render's Python (cases written by tests/test_player_labels.py into
// the file QUESTC_LABEL_CASES names), and by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  terrainLook, sha256, monsterInitials, tokenLetter, linkPairs, linkLines, boundaryEdges, tileLabelSpots, describeEffect, describeEffects,
} from "../../compiler/player/labels.js";

const CASES = process.env.QUESTC_LABEL_CASES ? JSON.parse(readFileSync(process.env.QUESTC_LABEL_CASES, "utf-8")) : null;

test("sha256 as every other implementation", () => {
  const hexOf = (b) => Array.from(b, (v) => v.toString(16).padStart(2, "0")).join("");
  assert.equal(hexOf(sha256(new TextEncoder().encode(""))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(hexOf(sha256(new TextEncoder().encode("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const long = new TextEncoder().encode("a".repeat(1000));  // several blocks
  assert.equal(hexOf(sha256(long)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
});

test("terrain looks are render's: table, hashed colours, glyphs from behaviour", { skip: !CASES && "run by tests/test_player_labels.py" }, () => {
  assert.ok(CASES.terrain.length >= 20);
  for (const c of CASES.terrain) assert.deepEqual(terrainLook(c.id, c.rule), c.look, c.id);
});

test("monster initials and token letters are render's", { skip: !CASES && "run by tests/test_player_labels.py" }, () => {
  assert.ok(CASES.initials.length >= 15);
  for (const [name, want] of CASES.initials) assert.equal(monsterInitials(name), want, name);
  for (const [kind, label, want] of CASES.letters) assert.equal(tokenLetter(kind, label), want, `${kind} ${label}`);
});

test("tile labels go where render puts them", { skip: !CASES && "run by tests/test_player_labels.py" }, () => {
  assert.ok(CASES.spots.length >= 10);
  for (const c of CASES.spots) {
    const got = tileLabelSpots(c.tiles, new Set(c.spaces), new Set(c.taken), (code) => c.across[code]);
    assert.deepEqual(got.map((s) => [s.code, s.at]), c.want, c.name);
  }
});

test("by hand: initials, letters, links once, the portal's outline", () => {
  assert.equal(monsterInitials("goblin_archers"), "GA");
  assert.equal(monsterInitials("Cave spiders"), "CS");
  assert.equal(monsterInitials("a-b c_d e"), "ABC");
  assert.equal(monsterInitials("__"), "?");
  assert.equal(tokenLetter("objective", "seed grain"), "S");
  assert.equal(tokenLetter("search", ""), "S");
  assert.deepEqual(linkPairs([[3, 9, "stairs"], [9, 3, "stairs"], [1, 2, "gateway"], [2, 1, "gateway"]]), [[3, 9, "stairs"], [1, 2, "gateway"]]);
  const edges = boundaryEdges([[0, 0], [1, 0]]);  // a 2 x 1 piece: 6 unit edges round it, none between
  assert.equal(edges.length, 6);
  assert.ok(!edges.some(([[x1, y1], [x2, y2]]) => x1 === 1 && x2 === 1 && y1 === 0 && y2 === 1));
});

test("by hand: a tile label moves off markers, and off the tile when every square holds one", () => {
  const tiles = [{ code: "1A", name: "1A", cells: [[0, 0], [1, 0], [0, 1], [1, 1]] }, { code: "2A", name: "2A", cells: [[2, 0]] }];
  const spaces = new Set(["0,0", "1,0", "0,1", "1,1", "2,0"]);
  const one = () => 1, two = () => 2;
  assert.deepEqual(tileLabelSpots(tiles, spaces, new Set(), one).map((s) => s.at), [[0, 0], [2, 0]]);
  assert.deepEqual(tileLabelSpots(tiles, spaces, new Set(["0,0"]), one)[0].at, [1, 0]);
  assert.deepEqual(tileLabelSpots(tiles, spaces, new Set(["1,0"]), two)[0].at, [0, 1]);  // a two-square label: the row below
  assert.deepEqual(tileLabelSpots(tiles, spaces, new Set(["2,0"]), one)[1].at, [2, -1]);  // above the tile, off the map
});

test("event texts: what each effect says, with its text", () => {
  const strings = { t1: "The doors slam.", t2: "Which way?", c1: "Left", c2: "Right", w: "Victory!" };
  const text = (id) => strings[id] ?? id;
  assert.equal(describeEffect({ kind: "say", text: "t1" }, text), "say “The doors slam.”");
  assert.equal(describeEffect({ kind: "win", text: "w" }, text), "win “Victory!”");
  assert.equal(describeEffect({ kind: "lose" }, text), "lose");
  assert.equal(describeEffect({ kind: "spawn", spawn: "warden" }, text), "spawn warden");
  assert.equal(describeEffect({ kind: "reveal", tiles: ["9A", "10A"] }, text), "reveal 9A, 10A");
  assert.equal(describeEffect({ kind: "add", variable: "risings", by: -2 }, text), "subtract 2 from risings");
  assert.equal(describeEffect({ kind: "set", variable: "x", random: [1, 6] }, text), "set x = random 1..6");
  assert.equal(describeEffect({ kind: "remove_door", door: "bar" }, text), "remove door bar");
  assert.equal(describeEffect({ kind: "ask", text: "t2", choices: [{ text: "c1", do: [{ kind: "say", text: "t1" }] }, { text: "c2", do: [] }] }, text),
    "ask “Which way?”: “Left” → say “The doors slam.” | “Right” → nothing");
  assert.equal(describeEffects([{ kind: "open", door: "d" }, { kind: "next" }], text), "open d; next");
  const freed = { kind: "compare", left: { kind: "variable", name: "freed" }, op: "==", right: { kind: "number", value: 1 } };
  assert.equal(describeEffect({ kind: "if", arms: [{ if: freed, do: [{ kind: "say", text: "t1" }] },
    { if: { kind: "heroes", low: 3, high: 4 }, do: [] }, { do: [{ kind: "lose" }] }] }, text),
  "if freed == 1 { say “The doors slam.” } else if heroes 3+ { } else { lose }");
  assert.equal(describeEffect({ kind: "if", arms: [{ if: freed, do: [{ kind: "next" }] }] }, text), "if freed == 1 { next }");
});

test("by hand: a gateway is one line between its ends' middles, a staircase one line", () => {
  const map = {
    links: [[26, 70, "gateway"], [26, 82, "gateway"], [32, 70, "gateway"], [32, 82, "gateway"], [70, 26, "gateway"], [70, 32, "gateway"],
      [82, 26, "gateway"], [82, 32, "gateway"], [5, 1, "stairs"], [1, 5, "stairs"]],
    features: { gateways: [{ a: [26, 32], b: [70, 82], colour: "blue" }], stairs: [{ a: 5, b: 1 }] },
  };
  assert.deepEqual(linkLines(map), [{ kind: "gateway", a: [26, 32], b: [70, 82] }, { kind: "stairs", a: [1], b: [5] }]);
  assert.deepEqual(linkLines({ links: [[0, 4, "link"], [4, 0, "link"]] }), [{ kind: "link", a: [0], b: [4] }]);
});

// hazards.js by hand (tests/test_hazards.py runs this file, and compares the shipped
// dungeon's marks with the Python engine's lanes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { hazardMarks } from "../../compiler/player/hazards.js";

// a 4 x 3 board: space i is (i % 4, floor(i / 4))
const map = { spaces: Array.from({ length: 12 }, (_, i) => ({ x: i % 4, y: Math.floor(i / 4) })) };

test("a boulder's lane runs from its square through each swept square, arrow at the end", () => {
  const m = hazardMarks(map, { kind: "boulder", reach: "lane", spaces: [3], facing: "west", lane: [2, 1, 0], stop: "wall", struck: [0, 1, 2, 3] });
  assert.deepEqual(m.path, [[3.5, 0.5], [2.5, 0.5], [1.5, 0.5], [0.5, 0.5]]);
  assert.deepEqual(m.dots, [[2.5, 0.5], [1.5, 0.5], [0.5, 0.5]]);
  assert.deepEqual(m.arrow[0], [0.5, 0.5]);
  assert.ok(m.arrow[1][0] > 0.5 && m.arrow[2][0] > 0.5);  // the head's back is east of its tip: it points west
});

test("a wide crushing wall's centre moves as many steps as the lane has rows of its width", () => {
  const m = hazardMarks(map, { kind: "crushing_wall", reach: "lane", spaces: [1, 2], facing: "south", lane: [5, 6, 9, 10], stop: "wall", struck: [1, 2, 5, 6, 9, 10] });
  assert.deepEqual(m.path, [[2, 0.5], [2, 2.5]]);
  assert.equal(m.dots.length, 4);
});

test("a trap outlines what it strikes and marks a trigger only when it is elsewhere", () => {
  const own = hazardMarks(map, { kind: "dart_field", reach: "area", spaces: [5, 6], trigger: [5, 6], struck: [5, 6] });
  assert.deepEqual(own.outlines, [[1, 1], [2, 1]]);
  assert.deepEqual(own.triggers, []);
  const other = hazardMarks(map, { kind: "spike_trap", reach: "area", spaces: [5, 6], trigger: [4], struck: [5, 6] });
  assert.deepEqual(other.triggers, [[0, 1]]);
  assert.deepEqual(other.path, []);
});

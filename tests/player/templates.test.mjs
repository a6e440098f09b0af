// templates.js on the shared vectors (templates.json): every template laid on random maps
// of both editions, at every facing or rank, doors as at the start or toggled, covers the
// spaces `questc template … --quest` gives (geometry.templates.covered).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Geometry } from "../../compiler/player/sight.js";
import { FACINGS, covered, facingOf, nextFacing, shape, turn } from "../../compiler/player/templates.js";
import { load } from "./vectors.mjs";

test("templates.json: covered squares as questc template", () => {
  let compared = 0, cut = 0, empty = 0;
  const kinds = new Set();
  for (const c of load("templates.json")) {
    const geo = new Geometry(c.map, c.terrain);
    for (const lay of c.lays) {
      const t = c.templates[lay.template];
      const got = covered(geo, t, lay.at, { facing: lay.facing, rank: lay.rank, openDoors: lay.open_doors });
      assert.deepEqual(got, lay.covered, `${c.name}: ${lay.template} at ${lay.at} ${lay.facing ?? ""}${lay.rank ?? ""} doors ${lay.open_doors}`);
      compared++;
      kinds.add(lay.template);
      if (!lay.covered.length) empty++;
      if (t.anchor === "attacker_side" && lay.covered.length < t.squares.length) cut++;
    }
  }
  assert.ok(compared >= 4500, `${compared} lays compared`);
  assert.ok(cut >= 500, `${cut} attacker_side lays cut short by walls, doors or the map's edge`);
  assert.ok(empty >= 50, `${empty} lays covering nothing`);
  assert.deepEqual([...kinds].sort(), ["blast", "blast_2e", "blast_blind", "blast_open", "bolt", "breath", "hook", "ring3"]);
});

test("facings turn clockwise, y growing down", () => {
  assert.deepEqual(FACINGS.map((f) => turn([0, -1], f)), [[0, -1], [1, 0], [0, 1], [-1, 0]]);
  assert.deepEqual(turn([1, -2], "east"), [2, 1]);
  assert.equal(facingOf(" E "), "east");
  assert.equal(facingOf("South"), "south");
  assert.equal(facingOf("up"), null);
  assert.equal(nextFacing("west"), "north");
  assert.deepEqual(shape({ squares: [[0, -1], [0, -2]] }, 5, 5, "south"), [[5, 6], [5, 7]]);
});

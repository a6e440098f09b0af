// moves.js on the shared vectors: movement costs (figures never entered), counted ranges
// and cheapest routes as `questc path`; large figures' moves as `questc path --size`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Geometry } from "../../compiler/player/sight.js";
import { Moves } from "../../compiler/player/moves.js";
import { FILES, load, at } from "./vectors.mjs";

for (const file of FILES) {
  const cases = load(file);
  test(`${file}: costs, ranges and routes as the engine`, () => {
    let rows = 0, routes = 0;
    for (const c of cases) {
      const geo = new Geometry(c.map, c.terrain);
      c.states.forEach((state, k) => {
        if (!state.rows) return;
        const m = new Moves(geo, { openDoors: state.open_doors, blockers: state.blockers });
        const free = new Moves(geo, { openDoors: state.open_doors });
        state.rows.forEach((a, r) => {
          assert.deepEqual(Array.from(m.costs(a)), state.costs[r], `${c.name} state ${k}: costs from ${a}`);
          assert.deepEqual(Array.from(m.ranges(a)), state.ranges[r], `${c.name} state ${k}: ranges from ${a}`);
          rows++;
        });
        for (const want of state.routes || []) {
          const got = free.route(want.from, want.to);
          if (want.cost === null) assert.equal(got.route, null, `${c.name}: ${want.from} -> ${want.to}`);
          else {
            assert.deepEqual([got.cost, got.steps, got.route], [want.cost, want.steps, want.route], `${c.name}: ${want.from} -> ${want.to}`);
            routes++;
          }
        }
      });
    }
    assert.ok(rows >= cases.length * 3, `${rows} rows`);
    assert.ok(routes >= cases.length, `${routes} routes`);
  });

  test(`${file}: large figures move as questc path --size`, () => {
    let moves = 0;
    for (const c of cases) {
      const geo = new Geometry(c.map, c.terrain);
      const m = new Moves(geo, { large: true });
      for (const f of c.large) {
        const costs = m.largeCosts(f.base, f.size);
        for (const want of f.moves) {
          const got = m.largeMove(f.base, f.size, want.goal);
          const label = `${c.name}: ${f.size.join("x")} on ${f.base} to ${want.goal}`;
          if (want.cost === null) {
            assert.equal(got.cost, null, label);
            assert.equal(costs[want.goal], -1, label);
            continue;
          }
          assert.deepEqual(
            [got.cost, got.steps, got.countedFrom, got.route, got.placements],
            [want.cost, want.steps, want.counted_from, want.route, want.placements], label);
          assert.equal(costs[want.goal], want.cost, label);
          moves++;
        }
      }
    }
    assert.ok(moves >= cases.length, `${moves} moves`);
  });
}

test("a link adds a step only where none is: stairs side by side cost the step, not more", () => {
  const c = load("issue33.json").find((x) => x.name.endsWith(":stairs.e1"));
  const geo = new Geometry(c.map, c.terrain);
  const m = new Moves(geo);
  const a = at(c, 3, 2), b = at(c, 4, 2);
  assert.equal(m.move[a].filter(([j]) => j === b).length, 1);
  assert.equal(m.costs(a)[b], 1);
});

test("large figures: other figures are never entered nor covered", () => {
  const c = load("issue33.json").find((x) => x.name.endsWith(":pit.e1"));
  const geo = new Geometry(c.map, c.terrain);
  const base = [at(c, 0, 0), at(c, 1, 0), at(c, 0, 1), at(c, 1, 1)];
  const free = new Moves(geo, { large: true });
  const goal = at(c, 3, 0);
  assert.equal(free.largeMove(base, [2, 2], goal).cost, 1);
  const other = at(c, 2, 0); // a figure right of the base, in the way of every base covering (3,0) from one step
  const busy = new Moves(geo, { large: true, blockers: [other] });
  for (const fp of busy.placements(goal, [2, 2])) assert.ok(!fp.includes(other));
  assert.ok(busy.largeMove(base, [2, 2], goal).cost > 1);
  assert.ok(!busy.largeReach(base, [2, 2], 10).has(other));
});

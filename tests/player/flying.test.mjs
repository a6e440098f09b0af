// moves.js flying routes on the shared vectors (flying.json): every route as
// `questc path --flying` gives it (geometry.templates.flying_move), and what a flier
// pays never more than a walker; sight.js's Soar and Shadowcloak helpers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Geometry, SOAR_RANGE, shadowcloakAllows, soarRange } from "../../compiler/player/sight.js";
import { Moves } from "../../compiler/player/moves.js";
import { load } from "./vectors.mjs";

test("flying.json: routes as questc path --flying", () => {
  let routed = 0, refused = 0, cheaper = 0;
  for (const c of load("flying.json")) {
    const geo = new Geometry(c.map, c.terrain);
    const over = new Set(c.over);
    const m = new Moves(geo, { blockers: c.blockers });
    const walk = new Moves(geo);
    for (const want of c.routes) {
      const got = m.flyingRoute(want.from, want.to, over);
      const label = `${c.name}: ${want.from} -> ${want.to}`;
      if (want.cost === null) {
        assert.equal(got.route, null, label);
        assert.equal(m.flyingCosts(want.from, over)[want.to], -1, label);
        refused++;
        continue;
      }
      assert.deepEqual([got.cost, got.steps, got.route], [want.cost, want.steps, want.route], label);
      assert.equal(m.flyingCosts(want.from, over)[want.to], want.cost, label);
      const w = walk.costs(want.from)[want.to];
      if (w >= 0 && !c.blockers.includes(want.to)) {
        assert.ok(got.cost <= w, `${label}: flying ${got.cost} > walking ${w}`);
        if (got.cost < w) cheaper++;
      }
      routed++;
    }
  }
  assert.ok(routed >= 200 && refused >= 10, `${routed} routes, ${refused} refused`);
  assert.ok(cheaper >= 5, `${cheaper} routes cheaper flying`);
});

test("Soar adds four to the range outdoors; Shadowcloak lets only adjacent attackers in", () => {
  assert.equal(SOAR_RANGE, 4);
  assert.equal(soarRange(5), 9);
  assert.equal(soarRange(5, false), 5);
  assert.equal(soarRange(null), null);
  assert.ok(shadowcloakAllows(1) && shadowcloakAllows(0));
  assert.ok(!shadowcloakAllows(2) && !shadowcloakAllows(null));
});

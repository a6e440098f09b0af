// sight.js on the shared vectors: every pair of every map in every state is what the
// Python engine (`questc los`) says; a large figure sees what `questc los --size` says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Geometry, canSeeLarge, seenFromLarge, staticSees } from "../../compiler/player/sight.js";
import { FILES, load, row, at } from "./vectors.mjs";

function mismatches(c, view, state) {
  const n = c.map.spaces.length;
  const bad = [];
  for (let i = 0; i < n; i++) {
    const want = row(state.sight[i], n);
    for (let j = 0; j < n; j++) {
      if ((view.canSee(i, j) ? 1 : 0) !== want[j]) bad.push([i, j, want[j]]);
    }
  }
  return bad;
}

for (const file of FILES) {
  const cases = load(file);
  test(`${file}: every pair in every state as the engine`, () => {
    let pairs = 0;
    for (const c of cases) {
      const geo = new Geometry(c.map, c.terrain);
      c.states.forEach((state, k) => {
        const view = geo.state({ openDoors: state.open_doors, blockers: state.blockers, hidden: state.hidden });
        const bad = mismatches(c, view, state);
        const where = (p) => `(${geo.xs[p[0]]},${geo.ys[p[0]]})->(${geo.xs[p[1]]},${geo.ys[p[1]]}) engine ${p[2]}`;
        assert.equal(bad.length, 0, `${c.name} state ${k}: ${bad.length} pairs differ, e.g. ${bad.slice(0, 3).map(where).join("; ")}`);
        pairs += c.map.spaces.length ** 2;
      });
    }
    assert.ok(pairs > 1000);
  });

  test(`${file}: large figures see as the engine`, () => {
    let figures = 0;
    for (const c of cases) {
      const geo = new Geometry(c.map, c.terrain);
      for (const f of c.large) {
        const n = geo.n;
        const want = row(f.sees, n);
        const got = seenFromLarge(geo, f.base, { blockers: f.others });
        assert.deepEqual(Array.from(got), Array.from(want), `${c.name}: ${f.size.join("x")} on ${f.base}`);
        for (let j = 0; j < n; j += 7) assert.equal(canSeeLarge(geo, f.base, [j], { blockers: f.others }), want[j] === 1);
        figures++;
      }
    }
    assert.ok(figures >= Math.min(cases.length, 2));
  });
}

test("shipped maps: the start state is the bundle's own static table", () => {
  let maps = 0;
  for (const c of load("shipped.json")) {
    const geo = new Geometry(c.map, c.terrain);
    const view = geo.state();
    const n = geo.n;
    const map = { sight: c.static_sight };
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(view.canSee(i, j), staticSees(map, i, j), `${c.name}: ${i} ${j}`);
    maps++;
  }
  assert.ok(maps >= 20, `${maps} shipped maps`);
});

test("every edition's maps are there: 40 random maps each, 1st-edition pits, fog and stairs side by side", () => {
  for (const [file, kind] of [["random-2e.json", "adjacent_only"], ["random-1e.json", "pit_region"]]) {
    const cases = load(file);
    assert.ok(cases.length >= 40, file);
    const withKind = cases.filter((c) => c.map.spaces.some((s) => c.terrain[s.terrain].sight === kind));
    assert.ok(withKind.length >= 20, `${file}: ${withKind.length} maps with ${kind}`);
    const sideBySide = cases.filter((c) => c.map.links.some(([i, j, k]) => k === "stairs"
      && Math.abs(c.map.spaces[i].x - c.map.spaces[j].x) + Math.abs(c.map.spaces[i].y - c.map.spaces[j].y) === 1));
    assert.ok(sideBySide.length >= 15, `${file}: ${sideBySide.length} maps with neighbouring stairs`);
  }
  const shipped = load("shipped.json");
  assert.ok(shipped.some((c) => c.edition === "1e" && c.map.spaces.some((s) => c.terrain[s.terrain].sight === "pit_region")));
});

test("issue 33: a figure in the pit at (3,2) of room3D does not see (7,5), nor is seen from it", () => {
  const c = load("issue33.json").find((x) => x.name.endsWith(":pit.e1"));
  const geo = new Geometry(c.map, c.terrain);
  const view = geo.state();
  const pit = at(c, 3, 2), far = at(c, 7, 5);
  assert.equal(c.terrain[c.map.spaces[pit].terrain].sight, "pit_region");
  assert.equal(view.canSee(pit, far), false);
  assert.equal(view.canSee(far, pit), false);
  assert.equal(view.canSee(pit, at(c, 4, 3)), true); // next to the pit
  assert.equal(view.canSee(at(c, 0, 0), far), true); // across the pit, from outside it
});

test("issue 33: stairs side by side at (3,2) and (4,2) are a link; with a figure on (3,2), (2,2) sees (4,2)", () => {
  const c = load("issue33.json").find((x) => x.name.endsWith(":stairs.e1"));
  const a = at(c, 3, 2), b = at(c, 4, 2), from = at(c, 2, 2);
  assert.ok(c.map.links.some(([i, j, k]) => i === a && j === b && k === "stairs"));
  const geo = new Geometry(c.map, c.terrain);
  assert.equal(geo.state({ blockers: [a] }).canSee(from, b), true);
  // without the link the figure would hide it
  const cut = { ...c.map, links: [] };
  assert.equal(new Geometry(cut, c.terrain).state({ blockers: [a] }).canSee(from, b), false);
});

test("a hidden door is off the board at the start: its place lets sight through, as Door.open_at_start", () => {
  let checked = 0;
  for (const c of load("random-2e.json").slice(0, 10)) {
    const ids = Object.keys(c.map.doors).filter((d) => !c.map.doors[d].open);
    if (!ids.length) continue;
    const d = ids[0];
    const hiddenMap = { ...c.map, doors: { ...c.map.doors, [d]: { ...c.map.doors[d], hidden: true } } };
    const start = Object.keys(c.map.doors).filter((k) => c.map.doors[k].open);
    const geo = new Geometry(c.map, c.terrain);
    const want = geo.state({ openDoors: [...start, d] }).pairs();
    assert.deepEqual(new Geometry(hiddenMap, c.terrain).state().pairs(), want, c.name);
    checked++;
  }
  assert.ok(checked >= 5);
});

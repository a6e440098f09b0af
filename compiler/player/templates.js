// templates.js: what a 1st-edition attack template covers on a questc bundle map
// (docs/rules.md, "Attack templates"; the same answers as compiler/geometry/templates.py
// and `questc template NAME PACK --at X,Y --facing D --rank N --quest Q`).
//
// Feed it a sight.js Geometry and one entry of the bundle's `templates` catalog:
//
//   import { covered } from "./templates.js";
//   covered(geo, bundle.templates.breath, at, { facing: "east" });     // space indices
//   covered(geo, bundle.templates.blast, target, { rank: 2, openDoors: ["hall"] });
//
// A template laid against a side of the attacker (`anchor: "attacker_side"`: Breath,
// Bolt) covers its squares (`squares`, offsets for the north side) turned clockwise to
// the facing, where they are spaces reached from the attacker's space through the
// template's own squares without crossing a wall or closed door (terrain does not stop
// it). A template centred on the target (`anchor: "target"`: Blast) covers every space
// within its radius (`radius`, or the ability's rank when `by_rank`) of the target,
// counted as range is (8-neighbour steps, walls and closed doors stop them, and with
// `stops_terrain` movement-blocking terrain too), and with `needs_sight` only those that
// see the target, figures ignored. The answer is sorted by (y, x) as the Python one.
// `hidden` (spaces of a tile not yet revealed, as the page has them) are no spaces: the
// template neither covers nor passes them, as the engine on the map without them.

export const FACINGS = ["north", "east", "south", "west"];
const LETTERS = { n: "north", e: "east", s: "south", w: "west" };

/** "E", "east", " East " -> "east"; anything else -> null. */
export function facingOf(text) {
  const low = String(text).trim().toLowerCase();
  return FACINGS.includes(low) ? low : LETTERS[low] || null;
}

/** The facing one quarter turn clockwise from `facing`. */
export function nextFacing(facing) {
  return FACINGS[(FACINGS.indexOf(facing) + 1) % 4];
}

/** An offset given for the north side, turned clockwise to `facing` (y grows down). */
export function turn([dx, dy], facing) {
  for (let k = 0; k < FACINGS.indexOf(facing); k++) [dx, dy] = [0 - dy, dx]; // 0 - 0 is 0, not -0
  return [dx, dy];
}

/** The template's squares as [x, y] laid against `facing` of a figure on (x, y). */
export function shape(template, x, y, facing) {
  return template.squares.map((o) => { const [dx, dy] = turn(o, facing); return [x + dx, y + dy]; });
}

/** The radius of a `target` template for an ability's rank (default 1). */
export function radiusFor(template, rank = null) {
  if (template.by_rank) return rank === null || rank === undefined ? 1 : rank;
  return template.radius || 0;
}

/** The spaces (indices) the template covers, sorted by (y, x). `at` is the attacker's
 *  space for an attacker_side template (facing: default north), the target's for a
 *  target one (rank). openDoors: ids open now (null: the start state). */
export function covered(geo, template, at, { facing = "north", rank = null, openDoors = null, hidden = [] } = {}) {
  if (at < 0 || at >= geo.n || hidden.includes(at)) return [];
  const st = geo.state({ openDoors, hidden });
  let got;
  if (template.anchor === "attacker_side") {
    const squares = new Set();
    for (const [x, y] of shape(template, geo.xs[at], geo.ys[at], facing || "north")) {
      const i = geo.index(x, y);
      if (i >= 0 && st.inPlay[i]) squares.add(i);
    }
    const seen = new Set([at]);
    const todo = [at];
    while (todo.length) {
      const a = todo.pop();
      for (const b of squares) if (!seen.has(b) && st.adjacent(a, b)) { seen.add(b); todo.push(b); }
    }
    got = [...squares].filter((i) => seen.has(i));
  } else {
    const radius = radiusFor(template, rank);
    const passable = (i) => !(template.stops_terrain && geo.blocksMovement[i]);
    const dist = new Map([[at, 0]]);
    let frontier = passable(at) ? [at] : [];
    while (frontier.length) {
      const next = [];
      for (const a of frontier) {
        if (dist.get(a) >= radius) continue;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const b = geo.index(geo.xs[a] + dx, geo.ys[a] + dy);
            if (b < 0 || b === a || !st.inPlay[b] || dist.has(b) || !passable(b) || !st.adjacent(a, b)) continue;
            dist.set(b, dist.get(a) + 1);
            next.push(b);
          }
        }
      }
      frontier = next;
    }
    got = [...dist.keys()];
    if (template.needs_sight) got = got.filter((c) => c === at || st.canSee(at, c));
  }
  return got.sort((a, b) => geo.ys[a] - geo.ys[b] || geo.xs[a] - geo.xs[b]);
}

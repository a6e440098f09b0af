// sight.js: line of sight on a questc bundle map, for any web front end.
//
// Feed it one encounter's `map` and the bundle's `terrain` catalog; ask it, for a state
// (doors open or closed, figures standing on spaces, hidden tiles not yet revealed),
// which spaces a space sees. The rules are those of docs/bundle.md, "Line of sight" (the
// same as the Python engine, compiler/geometry/sight.py, and `questc los`): a space sees
// itself, its neighbours that walls do not separate, the far end of a staircase (every
// `stairs` entry of `map.links`) and its neighbours, and any space to which some
// corner-to-corner segment is clear. Spaces of `sight: "adjacent_only"` terrain (the
// 2nd-edition pit, fog) see only their neighbours; a 1st-edition pit (`sight:
// "pit_region"`) sees only its own spaces and those next to them, both ways. Large
// figures: canSeeLarge, seenFromLarge. Exact integer arithmetic throughout: no floating
// point decides a crossing.
//
//   import { Geometry } from "./sight.js";
//   const geo = new Geometry(bundle.quests.first_blood.encounters[0].map, bundle.terrain);
//   const view = geo.state({ openDoors: ["hall"], blockers: [12, 40], hidden: [] });
//   view.canSee(3, 17);       // true / false
//   view.seenFrom(3);         // Uint8Array(N): 1 where space 3 sees the space
//
// `state()` takes space indices (`blockers`: spaces holding a sight-blocking figure;
// `hidden`: spaces not in play, e.g. those of a hidden tile; `openDoors`: door ids open
// now; omitted, every door is in the start state the bundle gives).

// the eight directions round a lattice point, counter-clockwise from north-east:
// quadrants at even indices, the rays between them at odd ones
export const AROUND = ["NE", "N", "NW", "W", "SW", "S", "SE", "E"];
const RAY_N = 1 << 1, RAY_W = 1 << 3, RAY_S = 1 << 5, RAY_E = 1 << 7;

// ARC[u * 8 + v]: the bits of the directions met going counter-clockwise from u to v, both included
const ARC = new Uint8Array(64);
for (let u = 0; u < 8; u++) {
  for (let v = 0; v < 8; v++) {
    let m = 0;
    for (let k = 0; k <= (v - u + 8) % 8; k++) m |= 1 << ((u + k) % 8);
    ARC[u * 8 + v] = m;
  }
}

function direction(dx, dy) {
  const sx = Math.sign(dx), sy = Math.sign(dy);
  if (sy < 0) return sx > 0 ? 0 : sx < 0 ? 2 : 1;
  if (sy > 0) return sx > 0 ? 6 : sx < 0 ? 4 : 5;
  return sx > 0 ? 7 : 3;
}

// which quadrant of lattice point (px, py) the space (cx, cy) is
function quadrant(cx, cy, px, py) {
  const east = cx === px, south = cy === py;
  return south ? (east ? 6 : 4) : (east ? 0 : 2);
}

export class Geometry {
  /** map: a bundle map (spaces, walls, doors, links); terrain: the bundle's terrain catalog. */
  constructor(map, terrain) {
    this.map = map;
    const spaces = map.spaces;
    const n = (this.n = spaces.length);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const s of spaces) {
      x0 = Math.min(x0, s.x); y0 = Math.min(y0, s.y);
      x1 = Math.max(x1, s.x); y1 = Math.max(y1, s.y);
    }
    if (!n) { x0 = y0 = 0; x1 = y1 = -1; }
    // cells and lattice points on one padded grid: a ring of non-spaces round the map
    this.ox = x0 - 1; this.oy = y0 - 1;
    this.w = x1 - x0 + 4; this.h = y1 - y0 + 4; // points run one further than cells
    const size = this.w * this.h;
    this.xs = new Int32Array(n); this.ys = new Int32Array(n);
    this.spaceAt = new Int32Array(size).fill(-1);
    this.terrainBlocks = new Uint8Array(n);
    this.adjacentOnly = new Uint8Array(n);
    this.pitRegion = new Uint8Array(n);
    this.defeatEndOfTurn = new Uint8Array(n);
    this.enterCost = new Int32Array(n);
    this.leaveCost = new Int32Array(n);
    this.blocksMovement = new Uint8Array(n);
    this.leaveAction = new Uint8Array(n);
    spaces.forEach((s, i) => {
      this.xs[i] = s.x; this.ys[i] = s.y;
      this.spaceAt[this.at(s.x, s.y)] = i;
      const rule = terrain[s.terrain];
      if (!rule) throw new Error(`space ${i} has terrain "${s.terrain}", which the bundle's terrain catalog lacks`);
      this.terrainBlocks[i] = rule.blocks_sight ? 1 : 0;
      this.adjacentOnly[i] = rule.sight === "adjacent_only" ? 1 : 0;
      this.pitRegion[i] = rule.sight === "pit_region" ? 1 : 0;
      this.defeatEndOfTurn[i] = rule.defeat_end_of_turn ? 1 : 0;
      this.enterCost[i] = rule.enter_cost;
      this.leaveCost[i] = rule.leave_cost;
      this.blocksMovement[i] = rule.blocks_movement ? 1 : 0;
      this.leaveAction[i] = rule.leave_action ? 1 : 0;
    });
    // walls: vertical edge (x, y)-(x, y+1) is vWall[at(x, y)], horizontal (x, y)-(x+1, y) hWall[at(x, y)]
    this.vWall = new Uint8Array(size);
    this.hWall = new Uint8Array(size);
    for (const e of map.walls) this._mark(e, this.vWall, this.hWall, 1);
    this.doorIds = Object.keys(map.doors || {}).sort();
    // a hidden door is off the board at the start: its place lets sight and figures through
    this.doorStart = new Set(this.doorIds.filter((d) => map.doors[d].open || map.doors[d].hidden));
    this.stairs = Array.from({ length: n }, () => []);
    for (const [i, j, kind] of map.links || []) {
      if (kind !== "stairs") continue;
      if (!this.stairs[i].includes(j)) this.stairs[i].push(j);
      if (!this.stairs[j].includes(i)) this.stairs[j].push(i);
    }
  }

  at(x, y) { return (x - this.ox) + (y - this.oy) * this.w; }

  _mark(edge, v, h, value) {
    const [[ax, ay], [bx, by]] = edge;
    if (ax === bx) v[this.at(ax, Math.min(ay, by))] = value;
    else h[this.at(Math.min(ax, bx), ay)] = value;
  }

  /** The space index at world (x, y), or -1. */
  index(x, y) {
    if (x < this.ox || y < this.oy || x >= this.ox + this.w || y >= this.oy + this.h) return -1;
    return this.spaceAt[this.at(x, y)];
  }

  /** A sight state: { openDoors: ids open now (default: the start state), blockers: space
   *  indices holding a figure, hidden: space indices not in play }. */
  state({ openDoors = null, blockers = [], hidden = [] } = {}) {
    return new SightState(this, openDoors === null ? this.doorStart : new Set(openDoors), new Set(blockers), new Set(hidden));
  }
}

export class SightState {
  constructor(geo, openDoors, blockers, hidden) {
    this.geo = geo;
    this.openDoors = openDoors;
    const size = geo.w * geo.h;
    const n = geo.n;
    this.inPlay = new Uint8Array(n).fill(1);
    for (const i of hidden) this.inPlay[i] = 0;
    // blocked[cell]: a non-space, a space out of play, sight-blocking terrain or a figure
    const blocked = (this.blocked = new Uint8Array(size).fill(1));
    for (let i = 0; i < n; i++) {
      if (this.inPlay[i]) blocked[geo.at(geo.xs[i], geo.ys[i])] = geo.terrainBlocks[i] || blockers.has(i) ? 1 : 0;
    }
    this.vWall = geo.vWall.slice();
    this.hWall = geo.hWall.slice();
    for (const id of geo.doorIds) {
      if (!openDoors.has(id)) for (const e of geo.map.doors[id].edges) geo._mark(e, this.vWall, this.hWall, 1);
    }
    // the boundary between a space in play and anything else is a wall
    const isSpace = (x, y) => { const i = geo.index(x, y); return i >= 0 && this.inPlay[i] === 1; };
    for (let i = 0; i < n; i++) {
      if (!this.inPlay[i]) continue;
      const x = geo.xs[i], y = geo.ys[i];
      if (!isSpace(x, y - 1)) this.hWall[geo.at(x, y)] = 1;
      if (!isSpace(x, y + 1)) this.hWall[geo.at(x, y + 1)] = 1;
      if (!isSpace(x - 1, y)) this.vWall[geo.at(x, y)] = 1;
      if (!isSpace(x + 1, y)) this.vWall[geo.at(x + 1, y)] = 1;
    }
    // wall rays at every lattice point, as AROUND bits
    const rays = (this.rays = new Uint8Array(size));
    for (let y = geo.oy + 1; y < geo.oy + geo.h; y++) {
      for (let x = geo.ox + 1; x < geo.ox + geo.w; x++) {
        const p = geo.at(x, y);
        rays[p] = (this.vWall[geo.at(x, y - 1)] ? RAY_N : 0) | (this.hWall[geo.at(x - 1, y)] ? RAY_W : 0)
          | (this.vWall[p] ? RAY_S : 0) | (this.hWall[p] ? RAY_E : 0);
      }
    }
    this._pits();
  }

  // 1st-edition pits (terrain `sight: "pit_region"`, docs/bundle.md, "Line of sight",
  // clause 6): a pit is a group of pit spaces in play joined through edges that no wall
  // or closed door crosses; pitOf[i] is the pit of space i (-1: none), and
  // pitSees[k][j] = 1 when j is a space of pit k or adjacent (clause 2) to one of them.
  _pits() {
    const g = this.geo, n = g.n;
    this.pitOf = new Int32Array(n).fill(-1);
    this.pitSees = [];
    for (let s = 0; s < n; s++) {
      if (!g.pitRegion[s] || !this.inPlay[s] || this.pitOf[s] >= 0) continue;
      const k = this.pitSees.length;
      const members = [s];
      this.pitOf[s] = k;
      for (let h = 0; h < members.length; h++) {
        const i = members[h];
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const j = g.index(g.xs[i] + dx, g.ys[i] + dy);
          if (j >= 0 && g.pitRegion[j] && this.inPlay[j] && this.pitOf[j] < 0 && this.adjacent(i, j)) {
            this.pitOf[j] = k;
            members.push(j);
          }
        }
      }
      const sees = new Uint8Array(n);
      for (const i of members) {
        sees[i] = 1;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const j = g.index(g.xs[i] + dx, g.ys[i] + dy);
            if (j >= 0 && j !== i && this.inPlay[j] && this.adjacent(i, j)) sees[j] = 1;
          }
        }
      }
      this.pitSees.push(sees);
    }
  }

  /** Whether the 1st-edition pit rule lets spaces i and j see each other at all (it binds both). */
  pitPermits(i, j) {
    const a = this.pitOf[i], b = this.pitOf[j];
    return (a < 0 || this.pitSees[a][j] === 1) && (b < 0 || this.pitSees[b][i] === 1);
  }

  sameSector(p, u, v) {
    const m = this.rays[p];
    if ((m >> u) & 1 || (m >> v) & 1) return false;
    return !(m & ARC[u * 8 + v]) || !(m & ARC[v * 8 + u]);
  }

  /** Neighbours that walls and closed doors do not separate (the corner rule for diagonals). */
  adjacent(i, j) {
    const g = this.geo;
    const ax = g.xs[i], ay = g.ys[i], bx = g.xs[j], by = g.ys[j];
    const dx = bx - ax, dy = by - ay;
    if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1) return false;
    if (dy === 0) return !this.vWall[g.at(Math.max(ax, bx), ay)];
    if (dx === 0) return !this.hWall[g.at(ax, Math.max(ay, by))];
    const px = Math.max(ax, bx), py = Math.max(ay, by);
    return this.sameSector(g.at(px, py), quadrant(ax, ay, px, py), quadrant(bx, by, px, py));
  }

  _stairs(i, j) {
    const g = this.geo;
    for (const [x, y] of [[i, j], [j, i]]) {
      for (const e of g.stairs[x]) {
        if (!this.inPlay[e]) continue;
        if (e === y || this.adjacent(y, e)) return true;
      }
    }
    return false;
  }

  // is the segment from corner (px, py) of cell a to corner (qx, qy) of cell b clear?
  _clear(px, py, qx, qy, a, b) {
    const g = this.geo;
    const ax = g.xs[a], ay = g.ys[a], bx = g.xs[b], by = g.ys[b];
    const ca = g.at(ax, ay), cb = g.at(bx, by);
    const P = g.at(px, py), Q = g.at(qx, qy);
    if (P === Q) return this.sameSector(P, quadrant(ax, ay, px, py), quadrant(bx, by, px, py));
    const dx = qx - px, dy = qy - py;
    const out = direction(dx, dy), back = direction(-dx, -dy);
    if (!this.sameSector(P, out, quadrant(ax, ay, px, py))) return false;
    if (!this.sameSector(Q, back, quadrant(bx, by, qx, qy))) return false;
    const blocked = this.blocked;
    const blocks = (c) => c !== ca && c !== cb && blocked[c] === 1;
    if (dy === 0) { // along a horizontal grid line
      const lo = Math.min(px, qx), hi = Math.max(px, qx);
      for (let x = lo; x < hi; x++) {
        const c = g.at(x, py);
        if (this.hWall[c] || blocks(g.at(x, py - 1)) || blocks(c)) return false;
        if (x > lo && !this.sameSector(c, back, out)) return false;
      }
      return true;
    }
    if (dx === 0) {
      const lo = Math.min(py, qy), hi = Math.max(py, qy);
      for (let y = lo; y < hi; y++) {
        const c = g.at(px, y);
        if (this.vWall[c] || blocks(g.at(px - 1, y)) || blocks(c)) return false;
        if (y > lo && !this.sameSector(c, back, out)) return false;
      }
      return true;
    }
    // diagonal: in time units of 1 / (|dx| |dy|), x = k crossings at i |dy|, y = k at j |dx|
    const sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    const ux = Math.abs(dx), uy = Math.abs(dy);
    const end = ux * uy;
    let i = 1, j = 1, prev = 0;
    for (;;) {
      const ti = i < ux ? i * uy : end, tj = j < uy ? j * ux : end;
      const t = Math.min(ti, tj);
      // the cell passed through between prev and t (its midpoint, doubled to stay whole)
      const mid = prev + t;
      const cx = Math.floor((2 * uy * px + sx * mid) / (2 * uy));
      const cy = Math.floor((2 * ux * py + sy * mid) / (2 * ux));
      if (blocks(g.at(cx, cy))) return false;
      if (t === end) return true;
      if (ti === tj) { // a lattice point
        if (!this.sameSector(g.at(px + sx * i, py + sy * j), back, out)) return false;
        i++; j++;
      } else if (ti < tj) { // through a vertical edge
        const x = px + sx * i;
        const y = Math.floor((ux * py + sy * i * uy) / ux);
        if (this.vWall[g.at(x, y)]) return false;
        i++;
      } else { // through a horizontal edge
        const y = py + sy * j;
        const x = Math.floor((uy * px + sx * j * ux) / uy);
        if (this.hWall[g.at(x, y)]) return false;
        j++;
      }
      prev = t;
    }
  }

  _segment(a, b) {
    const g = this.geo;
    const ax = g.xs[a], ay = g.ys[a], bx = g.xs[b], by = g.ys[b];
    for (let k = 0; k < 4; k++) {
      const px = ax + (k & 1), py = ay + (k >> 1);
      for (let m = 0; m < 4; m++) {
        if (this._clear(px, py, bx + (m & 1), by + (m >> 1), a, b)) return true;
      }
    }
    return false;
  }

  /** Does a figure in space i see space j? */
  canSee(i, j) {
    if (i === j) return this.inPlay[i] === 1;
    if (!this.inPlay[i] || !this.inPlay[j]) return false;
    const g = this.geo;
    if (!this.pitPermits(i, j)) return false;
    if (g.adjacentOnly[i] || g.adjacentOnly[j]) return this.adjacent(i, j);
    return this.adjacent(i, j) || this._stairs(i, j) || this._segment(i, j);
  }

  /** Every space space i sees: Uint8Array(N), 1 = seen. */
  seenFrom(i) {
    const out = new Uint8Array(this.geo.n);
    for (let j = 0; j < this.geo.n; j++) out[j] = this.canSee(i, j) ? 1 : 0;
    return out;
  }

  /** The whole table as an array of [i, j] pairs, i < j, that see each other. */
  pairs() {
    const out = [];
    for (let i = 0; i < this.geo.n; i++) for (let j = i + 1; j < this.geo.n; j++) if (this.canSee(i, j)) out.push([i, j]);
    return out;
  }
}

/** Sight for large figures (docs/bundle.md, "Line of sight", clause 7): from any space of
 *  `from` to any space of `to`; the spaces of both figures never block it. The options
 *  are Geometry.state()'s. As SightEngine.can_see_large and `questc los --size`. */
export function canSeeLarge(geo, from, to, { openDoors = null, blockers = [], hidden = [] } = {}) {
  const own = new Set([...from, ...to]);
  const view = geo.state({ openDoors, blockers: [...blockers].filter((c) => !own.has(c)), hidden });
  return from.some((i) => to.some((j) => view.canSee(i, j)));
}

/** What a large figure on the spaces `from` sees: Uint8Array(N), 1 where some space of
 *  its base sees the space (its own spaces never block; a target's space never blocks
 *  the sight to itself), i.e. canSeeLarge(geo, from, [j]) for every j. */
export function seenFromLarge(geo, from, { openDoors = null, blockers = [], hidden = [] } = {}) {
  const own = new Set(from);
  const view = geo.state({ openDoors, blockers: [...blockers].filter((c) => !own.has(c)), hidden });
  const out = new Uint8Array(geo.n);
  for (const i of from) {
    for (let j = 0; j < geo.n; j++) if (!out[j] && view.canSee(i, j)) out[j] = 1;
  }
  return out;
}

/** Decode the bundle's static sight table (`map.sight`): does i see j with doors in their start state and no figures? */
// Soar (1st edition, outdoors; docs/rules.md, "Flying, Soar and Shadowcloak"): the range
// of an attack to or from a soaring figure is this much more (`questc los --soar`).
export const SOAR_RANGE = 4;

/** The range an attack across `steps` counted spaces needs when one of the figures soars. */
export function soarRange(steps, outdoor = true) {
  return steps === null || steps < 0 ? null : outdoor ? steps + SOAR_RANGE : steps;
}

/** Shadowcloak: only an adjacent attacker (counted range 1) affects the figure. */
export function shadowcloakAllows(steps) {
  return steps !== null && steps >= 0 && steps <= 1;
}

export function staticSees(map, i, j) {
  const row = atob(map.sight[i]);
  return ((row.charCodeAt(j >> 3) >> (j & 7)) & 1) === 1;
}

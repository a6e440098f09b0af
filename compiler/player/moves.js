// moves.js: movement cost and counted range on a questc bundle map (docs/bundle.md, "One map").
//
// Movement: Dijkstra over `map.adjacency` (step to j at cost c) plus `map.links` (cost =
// entry cost of the space entered + leave cost of the space left), without the `steps`
// of every closed door and the `corner_steps` none of whose ways is open (a step across a
// line, such as elevation, costs what `adjacency` says: the line's cost is in it). Range:
// breadth-first over `map.counting`, every step 1, without the same closed steps; links
// never count. Spaces out of play (a hidden tile) are
// neither entered nor left. Figures: a space holding one (`blockers`) is never entered
// by a move; counting range ignores figures. Large figures: `large: true`, then
// largeMove / largeCosts / largeReach / placements (as `questc path --size`). Flying
// (1st edition): flyingRoute / flyingCosts (as `questc path --flying`; docs/rules.md,
// "Flying, Soar and Shadowcloak"), given the terrain ids a flier passes over.

import { Geometry } from "./sight.js";

const MOVE_LINKS = new Set(["stairs", "end_cap", "gateway"]);

function hasStep(row, j) {
  for (let k = 0; k < row.length; k += 2) if (row[k] === j) return true;
  return false;
}

export class Moves {
  /** geo: a sight.js Geometry; openDoors: ids open now (null: the start state);
   *  blockers: spaces a move may not enter; hidden: spaces out of play. */
  constructor(geo, { openDoors = null, blockers = [], hidden = [], large = false } = {}) {
    const map = geo.map;
    const n = geo.n;
    const open = openDoors === null ? geo.doorStart : new Set(openDoors);
    this.geo = geo;
    this.large = large;
    this.openDoors = open;
    this.hiddenList = hidden;
    // walls and closed doors, for the bases of large figures
    this.vWall = geo.vWall.slice();
    this.hWall = geo.hWall.slice();
    for (const id of geo.doorIds) if (!open.has(id)) for (const e of map.doors[id].edges) geo._mark(e, this.vWall, this.hWall, 1);
    const shut = new Set();
    for (const id of geo.doorIds) {
      if (!open.has(id)) for (const [i, j] of map.doors[id].steps) shut.add(i * n + j);
    }
    // a diagonal step with a door on each way round its corner: shut unless one way is open
    for (const [i, j, ways] of map.corner_steps || []) {
      if (!ways.some((ids) => ids.every((id) => open.has(id)))) shut.add(i * n + j);
    }
    const out = new Uint8Array(n).fill(1);
    for (const i of hidden) out[i] = 0;
    this.n = n;
    this.inPlay = out;
    this.blocked = new Uint8Array(n);
    for (const i of blockers) this.blocked[i] = 1;
    // what a step across a line (elevation) adds: already in `adjacency`, needed here for
    // the steps built from `counting` (a large figure leaving a pit)
    const crossing = (this.crossing = new Map());
    for (const line of map.lines || []) {
      for (const [i, j] of line.steps) crossing.set(i * n + j, (crossing.get(i * n + j) || 0) + line.cross_cost);
    }
    this.move = Array.from({ length: n }, () => []); // [j, cost] pairs
    this.count = Array.from({ length: n }, () => []);
    for (let i = 0; i < n; i++) {
      if (!out[i]) continue;
      const row = map.adjacency[i];
      for (let k = 0; k < row.length; k += 2) {
        const j = row[k];
        if (out[j] && !shut.has(i * n + j)) this.move[i].push([j, row[k + 1]]);
      }
      if (large && geo.leaveAction[i]) {
        // a pit does not hold a large figure: its steps out are the counting steps
        for (const j of map.counting[i]) {
          if (out[j] && !shut.has(i * n + j)) this.move[i].push([j, geo.enterCost[j] + geo.leaveCost[i] + (crossing.get(i * n + j) || 0)]);
        }
      }
      for (const j of map.counting[i]) if (out[j] && !shut.has(i * n + j)) this.count[i].push(j);
    }
    // a link adds a step unless one is there already (doors apply to that step), its far
    // end blocks movement, or its near end is left only by an action (a large figure,
    // shrunk, is not held: docs/maps.md, "Large figures")
    for (const [i, j, kind] of map.links || []) {
      if (!MOVE_LINKS.has(kind) || !out[i] || !out[j] || geo.blocksMovement[j]) continue;
      if (geo.leaveAction[i] && !large) continue;
      if (hasStep(map.adjacency[i], j) || this.move[i].some(([k]) => k === j)) continue;
      this.move[i].push([j, geo.enterCost[j] + geo.leaveCost[i]]);
    }
    for (const row of this.move) row.sort((a, b) => a[0] - b[0]);
  }

  /** Counted range from space a to every space (-1: not reachable). */
  ranges(a) {
    const dist = new Int32Array(this.n).fill(-1);
    if (!this.inPlay[a]) return dist;
    dist[a] = 0;
    const queue = [a];
    for (let h = 0; h < queue.length; h++) {
      const u = queue[h];
      for (const v of this.count[u]) if (dist[v] < 0) { dist[v] = dist[u] + 1; queue.push(v); }
    }
    return dist;
  }

  /** Cheapest movement cost from a to every space (-1: not reachable); figures block entry. */
  costs(a) {
    return this._cheapest(a, this.move, (v) => !(this.blocked[v] && v !== a), () => true);
  }

  /** Dijkstra from a over `graph` (per space, its [to, cost] steps): the cheapest cost to
   *  every space the figure may end on (-1 elsewhere). `enters(v)`: may a step go into v;
   *  `ends(u)`: may the figure stop on u. */
  _cheapest(a, graph, enters, ends) {
    const dist = new Float64Array(this.n).fill(Infinity);
    const done = new Uint8Array(this.n);
    const out = new Int32Array(this.n).fill(-1);
    if (!this.inPlay[a]) return out;
    dist[a] = 0;
    const heap = new Heap((x, y) => x[0] - y[0]);
    heap.push([0, a]);
    while (heap.size) {
      const [d, u] = heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      if (ends(u)) out[u] = d;
      for (const [v, c] of graph[u]) {
        if (enters(v) && d + c < dist[v]) { dist[v] = d + c; heap.push([d + c, v]); }
      }
    }
    return out;
  }

  /** Spaces reachable from a with at most `points` movement points (a Set of indices). */
  reach(a, points) {
    const c = this.costs(a);
    const s = new Set();
    c.forEach((v, j) => { if (v >= 0 && v <= points) s.add(j); });
    return s;
  }

  /** Spaces within `spaces` counted spaces of a (a Set of indices). */
  within(a, spaces) {
    const r = this.ranges(a);
    const s = new Set();
    r.forEach((v, j) => { if (v >= 0 && v <= spaces) s.add(j); });
    return s;
  }

  /** The cheapest route a -> b: {cost, steps, route: [indices]} or {cost: null, steps, route: null}.
   *  Ties: fewest steps, then the route whose spaces, in order, come first by index (as `questc path`). */
  route(a, b) {
    if (!this.inPlay[b]) return this._noRoute(a, b);
    return this._cheapestRoute(a, b, this.move, (v) => !(this.blocked[v] && v !== b));
  }

  _noRoute(a, b) {
    const r = this.ranges(a)[b];
    return { cost: null, steps: r >= 0 ? r : null, route: null };
  }

  /** The cheapest route a -> b over `graph`, tie-broken by compareRoutes; `enters(v)`: may
   *  a step go into v. */
  _cheapestRoute(a, b, graph, enters) {
    if (!this.inPlay[a]) return this._noRoute(a, b);
    const heap = new Heap(compareRoutes);
    const done = new Uint8Array(this.n);
    heap.push({ cost: 0, path: [a] });
    while (heap.size) {
      const cur = heap.pop();
      const u = cur.path[cur.path.length - 1];
      if (done[u]) continue;
      done[u] = 1;
      if (u === b) {
        const r = this.ranges(a)[b];
        return { cost: cur.cost, steps: r >= 0 ? r : cur.path.length - 1, route: cur.path };
      }
      for (const [v, c] of graph[u]) if (!done[v] && enters(v)) heap.push({ cost: cur.cost + c, path: [...cur.path, v] });
    }
    return this._noRoute(a, b);
  }

  // ------------------------------------------------------------------ flying
  // A flying figure steps to any 8-neighbour the walls and closed doors allow (the corner
  // rule: SightState.adjacent), through figures; terrain in `over` (the catalog's
  // obstacles) costs it one point to enter and nothing to leave and never stops it; other
  // terrain costs what it costs anyone, and terrain blocking movement that is not in
  // `over` is never entered. It may not end on a figure (`blockers`) or on terrain that
  // blocks movement. Links (stairs, gateways) as for any figure.

  _flyingSteps(over) {
    const key = [...over].sort().join("\n");
    this._flying = this._flying || new Map();
    if (!this._flying.has(key)) this._flying.set(key, this._buildFlyingSteps(over));
    return this._flying.get(key);
  }

  _buildFlyingSteps(over) {
    const g = this.geo, n = this.n;
    const st = g.state({ openDoors: [...this.openDoors], hidden: this.hiddenList });
    const terrainOf = (i) => g.map.spaces[i].terrain;
    const flies = (i) => over.has(terrainOf(i));
    const steps = Array.from({ length: n }, () => []);
    const enter = (j) => (flies(j) ? 1 : g.enterCost[j]);
    const leave = (i) => (flies(i) ? 0 : g.leaveCost[i]);
    for (let i = 0; i < n; i++) {
      if (!this.inPlay[i]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const j = g.index(g.xs[i] + dx, g.ys[i] + dy);
          if (j < 0 || j === i || !this.inPlay[j] || !st.adjacent(i, j)) continue;
          if (g.blocksMovement[j] && !flies(j)) continue;
          steps[i].push([j, enter(j) + leave(i) + (this.crossing.get(i * n + j) || 0)]);
        }
      }
    }
    for (const [i, j, kind] of g.map.links || []) {
      if (!MOVE_LINKS.has(kind) || !this.inPlay[i] || !this.inPlay[j] || (g.blocksMovement[j] && !flies(j))) continue;
      if (steps[i].some(([k]) => k === j)) continue;
      steps[i].push([j, enter(j) + leave(i)]);
    }
    for (const row of steps) row.sort((a, b) => a[0] - b[0]);
    return steps;
  }

  /** May a flier end on space j? */
  flierMayEnd(j, from = -1) {
    return this.inPlay[j] === 1 && !this.geo.blocksMovement[j] && !(this.blocked[j] && j !== from);
  }

  /** Cheapest flying cost from a to every space it may end on (-1: not reachable or no end there). */
  flyingCosts(a, over) {
    return this._cheapest(a, this._flyingSteps(over), () => true, (u) => this.flierMayEnd(u, a));
  }

  /** The flier's cheapest route a -> b, tie-broken as `route` ({cost: null, route: null}
   *  when it cannot end on b). */
  flyingRoute(a, b, over) {
    if (!this.flierMayEnd(b, a)) return this._noRoute(a, b);
    return this._cheapestRoute(a, b, this._flyingSteps(over), () => true);
  }

  // ------------------------------------------------------------------ large figures
  // A large figure (docs/maps.md, "Large figures"; `questc path --size`) shrinks to one
  // space of its base, moves as a small figure that pits do not hold (build the Moves
  // with `large: true`, and without the figure's own spaces among the `blockers`), and
  // expands over the space it stopped on, lying W x H or H x W. Other figures: the
  // shrunk figure never enters their spaces and a base never covers one.

  /** Does a base lie on these spaces: all in play, none blocking movement or holding a
   *  figure, no wall or closed door between two of them? */
  baseFits(cells) {
    const g = this.geo;
    const set = new Set(cells);
    for (const c of cells) if (c < 0 || !this.inPlay[c] || g.blocksMovement[c] || this.blocked[c]) return false;
    for (const c of cells) {
      const x = g.xs[c], y = g.ys[c];
      if (set.has(g.index(x + 1, y)) && this.vWall[g.at(x + 1, y)]) return false;
      if (set.has(g.index(x, y + 1)) && this.hWall[g.at(x, y + 1)]) return false;
    }
    return true;
  }

  /** The spaces of a W x H base with its top-left on space `topLeft` (ascending), or null
   *  when a square of it is no space. */
  baseAt(topLeft, [w, h]) {
    const g = this.geo;
    const out = [];
    for (let dy = 0; dy < h; dy++) {
      for (let dx = 0; dx < w; dx++) {
        const c = g.index(g.xs[topLeft] + dx, g.ys[topLeft] + dy);
        if (c < 0) return null;
        out.push(c);
      }
    }
    return out;
  }

  /** Every way a large figure that stopped on space e may expand: bases W x H or H x W
   *  that include e, fit, and lie neither wholly on pits nor wholly on terrain that
   *  defeats at the end of a turn; ascending lists, in ascending order, no repeats. */
  placements(e, [w, h]) {
    const g = this.geo;
    const seen = new Set();
    const out = [];
    const shapes = w === h ? [[w, h]] : [[w, h], [h, w]];
    for (const [sw, sh] of shapes) {
      for (let dy = 0; dy < sh; dy++) {
        for (let dx = 0; dx < sw; dx++) {
          const tl = g.index(g.xs[e] - dx, g.ys[e] - dy);
          const fp = tl < 0 ? null : this.baseAt(tl, [sw, sh]);
          if (!fp || !this.baseFits(fp)) continue;
          if (fp.every((c) => g.leaveAction[c]) || fp.every((c) => g.defeatEndOfTurn[c])) continue;
          const key = fp.join(",");
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(fp);
        }
      }
    }
    return out.sort(compareLists);
  }

  /** Every space reachable from a: Map j -> {cost, path}, ties as `route`. */
  tree(a) {
    const out = new Map();
    if (!this.inPlay[a]) return out;
    const heap = new Heap(compareRoutes);
    heap.push({ cost: 0, path: [a] });
    while (heap.size) {
      const cur = heap.pop();
      const u = cur.path[cur.path.length - 1];
      if (out.has(u)) continue;
      out.set(u, cur);
      for (const [v, c] of this.move[u]) {
        if (!out.has(v) && !this.blocked[v]) heap.push({ cost: cur.cost + c, path: [...cur.path, v] });
      }
    }
    return out;
  }

  /** The cheapest move of a large figure on `base` (space indices) of `size` [W, H] that
   *  ends with its base covering `goal`, as `questc path --size`: {cost, steps,
   *  countedFrom, route, placements}; cost, countedFrom and route null (placements
   *  empty) when none can be reached. */
  largeMove(base, size, goal) {
    const order = [...base].sort((x, y) => x - y);
    let steps = null;
    for (const c of order) {
      const r = this.ranges(c)[goal];
      if (r >= 0 && (steps === null || r < steps)) steps = r;
    }
    if (order.includes(goal)) return { cost: 0, steps: 0, countedFrom: goal, route: [goal], placements: [order] };
    const ends = this._ends(goal, size);
    let best = null;
    for (const start of order) {
      const tree = this.tree(start);
      for (const [e, fps] of ends) {
        const t = tree.get(e);
        if (!t || e === start) continue; // turning in place is not a move
        const key = [t.cost, t.path.length, e];
        if (best === null || compareLists(key, best.key) < 0) best = { key, start, path: t.path, fps };
      }
    }
    if (best === null) return { cost: null, steps, countedFrom: null, route: null, placements: [] };
    return { cost: best.key[0], steps, countedFrom: best.start, route: best.path, placements: best.fps };
  }

  // end spaces from which a base covering `goal` may be placed: Map e -> placements
  _ends(goal, [w, h]) {
    const g = this.geo;
    const span = Math.max(w, h) - 1;
    const ends = new Map();
    for (let dy = -span; dy <= span; dy++) {
      for (let dx = -span; dx <= span; dx++) {
        const e = g.index(g.xs[goal] + dx, g.ys[goal] + dy);
        if (e < 0) continue;
        const fps = this.placements(e, [w, h]).filter((fp) => fp.includes(goal));
        if (fps.length) ends.set(e, fps);
      }
    }
    return ends;
  }

  /** For every space, the fewest movement points after which a large figure on `base`
   *  may have its base cover it (0 on its own spaces; -1: never): Int32Array(N). */
  largeCosts(base, size) {
    const n = this.n;
    const best = new Float64Array(n).fill(Infinity);
    for (const c of base) best[c] = 0;
    const fpsAt = new Map();
    for (const start of base) {
      for (const [e, t] of this.tree(start)) {
        if (e === start) continue;
        if (!fpsAt.has(e)) fpsAt.set(e, this.placements(e, size));
        for (const fp of fpsAt.get(e)) for (const c of fp) if (t.cost < best[c]) best[c] = t.cost;
      }
    }
    return Int32Array.from(best, (v) => (v === Infinity ? -1 : v));
  }

  /** The spaces a large figure on `base` may cover after at most `points` movement points (a Set). */
  largeReach(base, size, points) {
    const s = new Set();
    this.largeCosts(base, size).forEach((v, j) => { if (v >= 0 && v <= points) s.add(j); });
    return s;
  }
}

function compareLists(x, y) {
  for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k] - y[k];
  return x.length - y.length;
}

function compareRoutes(x, y) {
  if (x.cost !== y.cost) return x.cost - y.cost;
  if (x.path.length !== y.path.length) return x.path.length - y.path.length;
  return compareLists(x.path, y.path);
}

class Heap {
  constructor(cmp) { this.cmp = cmp; this.items = []; }
  get size() { return this.items.length; }
  push(x) {
    const a = this.items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.cmp(a[i], a[p]) >= 0) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop() {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.cmp(a[l], a[m]) < 0) m = l;
        if (r < a.length && this.cmp(a[r], a[m]) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

export { Geometry };

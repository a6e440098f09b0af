// moves.js: movement cost and counted range on a questc bundle map (docs/bundle.md, "One map").
//
// Movement: Dijkstra over `map.adjacency` (step to j at cost c) plus `map.links` (cost =
// entry cost of the space entered + leave cost of the space left), without the `steps`
// of every closed door and the `corner_steps` none of whose ways is open. Range:
// breadth-first over `map.counting`, every step 1, without the same closed steps; links
// never count. Spaces out of play (a hidden tile) are
// neither entered nor left. Figures: a space holding one (`blockers`) is never entered
// by a move; counting range ignores figures.

import { Geometry } from "./sight.js";

export class Moves {
  /** geo: a sight.js Geometry; openDoors: ids open now (null: the start state);
   *  blockers: spaces a move may not enter; hidden: spaces out of play. */
  constructor(geo, { openDoors = null, blockers = [], hidden = [] } = {}) {
    const map = geo.map;
    const n = geo.n;
    const open = openDoors === null ? geo.doorStart : new Set(openDoors);
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
    this.move = Array.from({ length: n }, () => []); // [j, cost] pairs
    this.count = Array.from({ length: n }, () => []);
    for (let i = 0; i < n; i++) {
      if (!out[i]) continue;
      const row = map.adjacency[i];
      for (let k = 0; k < row.length; k += 2) {
        const j = row[k];
        if (out[j] && !shut.has(i * n + j)) this.move[i].push([j, row[k + 1]]);
      }
      for (const j of map.counting[i]) if (out[j] && !shut.has(i * n + j)) this.count[i].push(j);
    }
    for (const [i, j] of map.links || []) {
      if (out[i] && out[j] && !this.move[i].some(([k]) => k === j)) {
        this.move[i].push([j, geo.enterCost[j] + geo.leaveCost[i]]);
      }
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
      out[u] = d;
      for (const [v, c] of this.move[u]) {
        if (this.blocked[v] && v !== a) continue;
        if (d + c < dist[v]) { dist[v] = d + c; heap.push([d + c, v]); }
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
    const r = this.ranges(a)[b];
    const steps = r >= 0 ? r : null;
    if (!this.inPlay[a] || !this.inPlay[b]) return { cost: null, steps, route: null };
    const cmp = (x, y) => {
      if (x.cost !== y.cost) return x.cost - y.cost;
      if (x.path.length !== y.path.length) return x.path.length - y.path.length;
      for (let k = 0; k < x.path.length; k++) if (x.path[k] !== y.path[k]) return x.path[k] - y.path[k];
      return 0;
    };
    const heap = new Heap(cmp);
    const done = new Uint8Array(this.n);
    heap.push({ cost: 0, path: [a] });
    while (heap.size) {
      const cur = heap.pop();
      const u = cur.path[cur.path.length - 1];
      if (done[u]) continue;
      done[u] = 1;
      if (u === b) return { cost: cur.cost, steps: steps === null ? cur.path.length - 1 : steps, route: cur.path };
      for (const [v, c] of this.move[u]) {
        if (!done[v] && !(this.blocked[v] && v !== b)) heap.push({ cost: cur.cost + c, path: [...cur.path, v] });
      }
    }
    return { cost: null, steps, route: null };
  }
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

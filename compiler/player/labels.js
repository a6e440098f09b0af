// labels.js: what the player writes and how it colours things, as `questc render` does
// (compiler/emit/images: style.py, terrain.py, pictures.py, legend.py, map.py). Pure
// functions, no DOM: node --test checks them against the Python (tests/test_player_labels.py).

// ------------------------------------------------------------------ terrain looks (style.py)
/** Terrain id -> [fill, glyph, ink] as style.py's TERRAIN_LOOKS. */
const LOOKS = {
  plain: [[238, 229, 208], "", [40, 40, 40]],
  water: [[120, 175, 225], "waves", [40, 90, 160]],
  pit: [[95, 85, 80], "pit", [30, 25, 22]],
  lava: [[225, 95, 40], "lava", [120, 30, 10]],
  obstacle: [[125, 118, 108], "cross", [45, 40, 35]],
  block: [[125, 118, 108], "cross", [45, 40, 35]],
  rubble: [[150, 138, 120], "dots", [70, 60, 50]],
  hazard: [[235, 200, 80], "hazard", [140, 60, 0]],
  elevation: [[175, 205, 125], "elevation", [60, 100, 30]],
  elevated: [[175, 205, 125], "elevation", [60, 100, 30]],
  table: [[190, 150, 105], "elevation", [90, 55, 20]],
  mud: [[160, 125, 85], "dots", [90, 65, 35]],
  fog: [[205, 205, 220], "fog", [120, 120, 150]],
  sludge: [[120, 150, 90], "dots", [60, 80, 40]],
};

/** How a terrain is drawn: {fill, glyph, ink} (RGB arrays), as `terrain.look_for`: the
 *  table's look, else a colour from a hash of the id with a glyph from the rule's behaviour. */
export function terrainLook(id, rule = {}) {
  const known = LOOKS[id];
  if (known) return { fill: known[0], glyph: known[1], ink: known[2] };
  const glyph = rule.blocks_movement ? "cross"
    : rule.elevated ? "elevation"
      : rule.defeat_end_of_turn || rule.on_enter_damage ? "hazard"
        : (rule.sight || "normal") !== "normal" ? "fog" : "";
  return { fill: fallbackColour(id), glyph, ink: [40, 40, 40] };
}

export const hex = (rgb) => "#" + rgb.map((v) => v.toString(16).padStart(2, "0")).join("");

/** style.fallback_colour: hue from the first two bytes of the id's SHA-256, lightness 0.68,
 *  saturation 0.45 (Python's colorsys and round, which rounds halves to even). */
export function fallbackColour(key) {
  const digest = sha256(new TextEncoder().encode(key));
  const hue = ((digest[0] << 8) | digest[1]) / 65536.0;
  return hlsToRgb(hue, 0.68, 0.45).map((v) => roundHalfEven(v * 255));
}

function roundHalfEven(x) {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** colorsys.hls_to_rgb, operation for operation. */
export function hlsToRgb(h, l, s) {
  if (s === 0.0) return [l, l, l];
  const m2 = l <= 0.5 ? l * (1.0 + s) : l + s - (l * s);
  const m1 = 2.0 * l - m2;
  const v = (hue) => {
    hue = pyMod1(hue);
    if (hue < 1.0 / 6.0) return m1 + (m2 - m1) * hue * 6.0;
    if (hue < 0.5) return m2;
    if (hue < 2.0 / 3.0) return m1 + (m2 - m1) * (2.0 / 3.0 - hue) * 6.0;
    return m1;
  };
  return [v(h + 1.0 / 3.0), v(h), v(h - 1.0 / 3.0)];
}

function pyMod1(x) {  // Python's x % 1.0 (the sign of the divisor)
  const m = x % 1.0;
  return m !== 0 && m < 0 ? m + 1.0 : m;
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

/** SHA-256 of bytes (a Uint8Array), synchronously (crypto.subtle is asynchronous and missing
 *  outside secure pages). */
export function sha256(bytes) {
  const n = bytes.length;
  const blocks = Math.ceil((n + 9) / 64);
  const m = new Uint8Array(blocks * 64);
  m.set(bytes);
  m[n] = 0x80;
  const bits = n * 8;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(m.length - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, k) => (x >>> k) | (x << (32 - k));
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(b * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, bb, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = bb; bb = a; a = (t1 + t2) >>> 0;
    }
    [a, bb, c, d, e, f, g, hh].forEach((v, i) => { h[i] = (h[i] + v) >>> 0; });
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  h.forEach((v, i) => ov.setUint32(i * 4, v));
  return out;
}

// ------------------------------------------------------------------ colours of markers (style.py)
export const COLOURS = {
  wall: [22, 22, 22], tileLabel: [70, 30, 100], link: [130, 60, 170], glyph: [40, 110, 200], portal: [120, 20, 160],
  door: [150, 90, 40], master: [190, 30, 30], minion: [245, 245, 245], heroStart: [0, 150, 80],
};
export const CHEST = { copper: [184, 115, 51], silver: [170, 170, 180], gold: [222, 180, 30] };
export const TOKEN = { search: [230, 190, 40], objective: [200, 60, 160], villager: [80, 160, 220] };

// ------------------------------------------------------------------ words on the map
/** pictures.monster_initials: `goblin_archers` -> "GA", `ettin` -> "E" (at most 3 letters). */
export function monsterInitials(name) {
  const words = String(name).split(/[\s_-]+/).filter((w) => w);
  return [...words.map((w) => [...w][0].toUpperCase()).join("")].slice(0, 3).join("") || "?";
}

/** legend.token_letter: a token's label's first letter, else its kind's. */
export function tokenLetter(kind, label) {
  const first = [...(label || kind)][0] || "";
  return first.toUpperCase();
}

/** A link's letter at both ends (map.py: the kind's first letter). */
export const linkLetter = (kind) => String(kind).slice(0, 1).toUpperCase();

/** Each link once (the bundle lists both ways): [i, j, kind] with i < j. */
export function linkPairs(links) {
  const seen = new Set();
  const out = [];
  for (const [i, j, kind] of links || []) {
    const [a, b] = i < j ? [i, j] : [j, i];
    const key = `${a},${b},${kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([a, b, kind]);
  }
  return out;
}

/** The lines render draws for a map's links, each {kind, a: [spaces], b: [spaces]}: a
 *  gateway (1st edition) once between its two ends' middles, however many spaces each end
 *  has; a staircase and any other link once, whichever way the bundle lists it. */
export function linkLines(map) {
  const features = map.features || {};
  const out = [];
  const covered = new Set();
  for (const gw of features.gateways || []) {
    out.push({ kind: "gateway", a: gw.a, b: gw.b });
    for (const i of gw.a) for (const j of gw.b) { covered.add(`${i},${j},gateway`); covered.add(`${j},${i},gateway`); }
  }
  for (const [i, j, kind] of linkPairs(map.links)) if (!covered.has(`${i},${j},${kind}`)) out.push({ kind, a: [i], b: [j] });
  return out;
}

/** Unit edges [[x1, y1], [x2, y2]] with a square of `cells` ([x, y]) on exactly one side
 *  (map.boundary_edges: the portal's outline). */
export function boundaryEdges(cells) {
  const count = new Map();
  for (const [x, y] of cells) {
    for (const e of [[[x, y], [x + 1, y]], [[x, y + 1], [x + 1, y + 1]], [[x, y], [x, y + 1]], [[x + 1, y], [x + 1, y + 1]]]) {
      const key = JSON.stringify(e);
      count.set(key, (count.get(key) || 0) + 1);
    }
  }
  return [...count].filter(([, n]) => n === 1).map(([k]) => JSON.parse(k)).sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
}

/** Where each tile's code goes (map.tile_label_spots): the first square of the tile in
 *  reading order holding no marker with the `across(code)` squares the label runs over in
 *  its row free and on the tile too; else its first square without a marker; else the
 *  nearest square above (or below) it that is no space of the map; else its first square.
 *  `tiles`: [{code, cells: [[x, y]…]}]; `spaces`: every map square as "x,y"; `taken`:
 *  squares holding a marker as "x,y". Returns [{code, name, at: [x, y]}]. */
export function tileLabelSpots(tiles, spaces, taken, across) {
  const out = [];
  for (const tile of tiles) {
    if (!tile.cells.length) continue;
    const cells = new Set(tile.cells.map(([x, y]) => `${x},${y}`));
    const order = [...tile.cells].sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    const n = across(tile.code);
    const free = (x, y) => cells.has(`${x},${y}`) && !taken.has(`${x},${y}`);
    let spot = order.find(([x, y]) => Array.from({ length: n }, (_, i) => i).every((i) => free(x + i, y)))
      || order.find(([x, y]) => !taken.has(`${x},${y}`));
    if (!spot) {
      const outside = [...order.map(([x, y]) => [x, y - 1]), ...[...order].reverse().map(([x, y]) => [x, y + 1])];
      spot = outside.find(([x, y]) => !cells.has(`${x},${y}`) && !spaces.has(`${x},${y}`) && !taken.has(`${x},${y}`)) || order[0];
    }
    out.push({ code: tile.code, name: tile.name, at: spot });
  }
  return out;
}

// ------------------------------------------------------------------ events in words
import { describeCondition } from "./play.js";

/** One effect as the quest language says it, with its text (`text(id)`: the string, in
 *  the chosen language): `say "…"`, `spawn warden`, `win "…"`, `ask "…" (2 choices)`. */
export function describeEffect(e, text) {
  const quoted = (id) => (id ? ` “${text(id)}”` : "");
  switch (e.kind) {
    case "say": return `say${quoted(e.text)}`;
    case "win": case "lose": case "end": return `${e.kind}${quoted(e.text)}`;
    case "ask": return `ask${quoted(e.text)}: ${(e.choices || []).map((c) => `“${text(c.text)}” → ${describeEffects(c.do, text) || "nothing"}`).join(" | ")}`;
    case "random": return `random: ${(e.options || []).map((o) => describeEffects(o, text) || "nothing").join(" | ")}`;
    case "repeat": return `repeat ${e.label} { ${describeEffects(e.do || [], text)} }`.replace("{  }", "{ }");
    case "again": return `again ${e.label}`;
    case "if": return (e.arms || []).map((a, k) => `${a.if ? `${k ? "else if" : "if"} ${describeCondition(a.if)}` : "else"} { ${describeEffects(a.do, text)} }`.replace("{  }", "{ }")).join(" ");
    case "reveal": return `reveal ${(e.tiles || []).join(", ")}`;
    case "spawn": case "remove_spawn": return `${e.kind.replace("_", " ")} ${e.spawn}`;
    case "place_token": case "remove_token": return `${e.kind.replace("_", " ")} ${e.token}`;
    case "remove_tile": return `remove tile ${e.tile}`;
    case "open": case "close": case "unlock": return `${e.kind} ${e.door}`;
    case "place_door": case "remove_door": return `${e.kind.replace("_", " ")} ${e.door}`;
    case "activate": return `activate ${e.group}`;
    case "next_quest": return `next quest ${e.quest}`;
    case "give": return `give ${e.item}`;
    case "shop": return `shop ${(e.items || []).join(", ")}`;
    case "restock": return "restock";
    case "take": return `take ${e.item}`;
    case "set":
      return `set ${e.variable} = ${e.from !== undefined ? e.from : e.random ? `random ${e.random[0]}..${e.random[1]}` : e.value}`;
    case "add": case "advance": return e.by < 0 ? `subtract ${-e.by} from ${e.variable}` : `add ${e.by} to ${e.variable}`;
    default: return e.kind;
  }
}

export const describeEffects = (list, text) => (list || []).map((e) => describeEffect(e, text)).join("; ");

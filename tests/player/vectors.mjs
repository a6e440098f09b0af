// The shared test vectors (tests/player_vectors.py writes them from the Python engine):
// loading and decoding for the node tests beside this file.
import { readFileSync } from "node:fs";

export const FILES = ["shipped.json", "issue33.json", "random-2e.json", "random-1e.json"];

export function load(name) {
  return JSON.parse(readFileSync(new URL(`./vectors/${name}`, import.meta.url), "utf8"));
}

/** One row of the bundle's bitset encoding: Uint8Array(n), 1 where the bit is set. */
export function row(b64, n) {
  const bytes = Buffer.from(b64, "base64");
  const out = new Uint8Array(n);
  for (let j = 0; j < n; j++) out[j] = (bytes[j >> 3] >> (j & 7)) & 1;
  return out;
}

/** The space index at world (x, y) of a vector's map. */
export function at(c, x, y) {
  return c.map.spaces.findIndex((s) => s.x === x && s.y === y);
}

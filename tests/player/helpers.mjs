// Helpers of the node tests of play.js (run by tests/test_player_play.py, which copies the
// player's modules beside these files with a package.json of "type": "module").

export const num = (value) => ({ kind: "number", value });
export const v = (name) => ({ kind: "variable", name });
export const cmp = (left, op, right) => ({ kind: "compare", left, op, right });
export const say = (text) => ({ kind: "say", text });
export const on = (what, name) => ({ kind: "on_board", what, name });

/** Tile A (spaces 0, 1) and hidden tile H (space 2) in a row; door `d` (no edges). */
export const SMALL_MAP = {
  tiles: [{ name: "A" }, { name: "H", hidden: true }], doors: { d: { open: false, edges: [], steps: [] } },
  spaces: [{ tile: "A", x: 0, y: 0 }, { tile: "A", x: 1, y: 0 }, { tile: "H", x: 2, y: 0 }], walls: [],
};

/** A bundle with one quest `q` of the given encounters (each: {events, variables?, spawns?,
 *  tokens?, map?}; the map is SMALL_MAP unless given). */
export function bundle(encounters, heroes = [2, 4]) {
  const enc = (e, k) => ({
    number: k + 1, reachable: true, start: [0], tokens: [], spawns: [], variables: {}, map: SMALL_MAP, ...e,
    events: e.events.map((ev, i) => ({ index: i + 1, can_fire: true, ...ev })),
  });
  return { strings: {}, quests: { q: { name: "Q", heroes, encounters: encounters.map(enc) } } };
}

export const said = (g) => g.log.filter((l) => l.kind === "say").map((l) => l.text);

// Hazards on the web player's map (docs/maps.md, "Hazards"; docs/player.md): what
// `questc render` draws of each entry of a map's `features.hazards` (compiler/emit/images/map.py,
// _draw_hazards), in square units: a lane as a line from the hazard's centre through the
// squares it sweeps, with an arrowhead and a dot on each swept square; a trap's struck squares
// outlined, and its trigger squares when they are other squares. Pure: app.js draws the marks.

export const HAZARD = [225, 90, 0];
const STEP = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };

const centreOf = (map, i) => [map.spaces[i].x + 0.5, map.spaces[i].y + 0.5];
const mean = (points) => [points.reduce((t, p) => t + p[0], 0) / points.length, points.reduce((t, p) => t + p[1], 0) / points.length];

/** The marks of one hazard: {path, arrow, dots, outlines, triggers}; points are [x, y] in
 *  squares (a square's corner for outlines and triggers, centres for the rest). */
export function hazardMarks(map, hazard) {
  const own = hazard.spaces.map((i) => centreOf(map, i));
  const start = mean(own);
  const corner = (i) => [map.spaces[i].x, map.spaces[i].y];
  if (hazard.reach === "lane") {
    const dots = (hazard.lane || []).map((i) => centreOf(map, i));
    if (!dots.length) return { path: [], arrow: [], dots, outlines: [], triggers: [] };
    let path;
    if (own.length === 1) path = [start, ...dots];
    else if (!STEP[hazard.facing]) path = [start, dots[dots.length - 1]];
    else {
      // a wide hazard: its centre moved as many whole steps as the lane holds rows of its width
      const [dx, dy] = STEP[hazard.facing];
      const across = new Set(hazard.spaces.map((i) => (dx ? map.spaces[i].y : map.spaces[i].x))).size;
      const steps = Math.floor(dots.length / across);
      path = [start, [start[0] + dx * steps, start[1] + dy * steps]];
    }
    return { path, arrow: arrowhead(path[path.length - 2], path[path.length - 1], 0.3), dots, outlines: [], triggers: [] };
  }
  const same = (hazard.trigger || []).length === hazard.spaces.length && hazard.trigger.every((t, k) => t === hazard.spaces[k]);
  return { path: [], arrow: [], dots: [], outlines: (hazard.struck || hazard.spaces).map(corner), triggers: same ? [] : (hazard.trigger || []).map(corner) };
}

/** A filled triangle at `b` pointing away from `a`, `size` squares long. */
export function arrowhead(a, b, size) {
  const angle = Math.atan2(b[1] - a[1], b[0] - a[0]);
  const back = (turn) => [b[0] - size * Math.cos(angle + turn), b[1] - size * Math.sin(angle + turn)];
  return [b, back(-0.5), back(0.5)];
}

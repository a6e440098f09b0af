// The oracle comparison's JavaScript side (tests/player_oracle.py): reads cases (a map, its
// terrain catalog, states) as JSON from the file named first, loads the sight.js named
// second (so an older copy can be measured too), and prints, per case and state, the
// pairs i < j that see each other.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [casesFile, sightFile] = process.argv.slice(2);
const { Geometry } = await import(pathToFileURL(resolve(sightFile)).href);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const out = cases.map((c) => {
  const geo = new Geometry(c.map, c.terrain);
  return c.states.map((s) => geo.state({ openDoors: s.open_doors, blockers: s.blockers, hidden: s.hidden || [] }).pairs());
});
process.stdout.write(JSON.stringify(out));

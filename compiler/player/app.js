// app.js: the questc web player's page. Loads bundle.json (beside this file), checks it,
// draws the map from its geometry and plays the quest (docs/player.md).

import { Geometry, seenFromLarge } from "./sight.js";
import { Moves } from "./moves.js";
import { Game, usesRandom, describeCondition } from "./play.js";
import { readBundle, BundleError } from "./validate.js";
import {
  terrainLook, hex, fallbackColour, COLOURS, CHEST, TOKEN, monsterInitials, tokenLetter, linkLetter, linkLines, boundaryEdges,
  tileLabelSpots, describeEffects,
} from "./labels.js";
import { hazardMarks } from "./hazards.js";
import { covered as templateCovers, nextFacing } from "./templates.js";
import { CampaignSession, campaignHtml } from "./campaign_panel.js";
import { StateView, stateHtml, stateIds } from "./rtl_state.js";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);


const ui = {
  bundle: null, game: null, geo: null, a: null, b: null,
  mode: "points", amount: 5, figuresBlock: true, view: null, version: null,
  template: "", facing: "north", rank: 1, templateSquares: null, templateHits: null,
};
window.questc = ui; // for tests and the curious: the bundle, the game, the geometry, the selection

// ------------------------------------------------------------------ loading
async function fetchText(name) {
  const r = await fetch(name, { cache: "no-store" });
  if (!r.ok) throw new BundleError(`Cannot load ${name}: the server answered ${r.status} ${r.statusText}.`);
  return r.text();
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  $("main").hidden = true;
  document.body.dataset.state = "error";
}

async function start() {
  if (location.protocol === "file:") return;  // index.html's own script says how to open the page
  try {
    // under `questc serve`: the version first, so a rebuild during loading still reloads the page
    if (document.body.dataset.serve) {
      ui.status = await fetchStatus();
      ui.version = ui.status ? versionOf(ui.status) : null;
    }
    const [text, schemaText] = await Promise.all([fetchText("bundle.json"), fetchText("bundle.schema.json").catch(() => null)]);
    let schema = null;
    try { schema = schemaText ? JSON.parse(schemaText) : null; } catch { schema = null; }
    ui.bundle = readBundle(text, schema);
  } catch (e) {
    showError(e instanceof BundleError ? e.message : `The bundle cannot be read: ${e.message}`);
    if (document.body.dataset.serve) showBuildErrors(ui.status);
    pollVersion(); // under `questc serve`, the next good build brings the page back
    return;
  }
  setupControls();
  setupRtlState();
  const quests = [...Object.keys(ui.bundle.quests || {}), ...Object.keys(ui.bundle.encounters || {})];
  if (!quests.length && stateIds(ui.bundle).length) {
    // a pack of catalogs with a 1st-edition campaign state: the state is all there is to show
    $("board").style.display = "none";
    $("template-row").hidden = true;
    document.body.dataset.state = "ready";
    return;
  }
  if (!quests.length) {
    showError(`Pack "${ui.bundle.pack.id}" has no quests to play (it holds catalogs only).`);
    return;
  }
  const wanted = new URLSearchParams(location.search).get("quest");
  if (wanted && [...$("quest").options].some((o) => o.value === wanted)) $("quest").value = wanted;
  newGame();
  setupCampaign();
  document.body.dataset.state = "ready";
  if (document.body.dataset.serve) showBuildErrors(ui.status);
  pollVersion();
}

// ------------------------------------------------------------------ under `questc serve`
// status.json: the bundle's version and the last build's outcome (compiler/commands/serve.py)
async function fetchStatus() {
  try { return JSON.parse(await fetchText("status.json")); } catch { return null; }  // the server is away for a moment
}

const versionOf = (status) => JSON.stringify(status.version ?? null);

/** The page reloads itself when a rebuild changed the bundle; a build that failed shows its
 *  diagnostics over the page (the last good bundle stays in play) until a good one. */
async function pollVersion() {
  if (!document.body.dataset.serve) return;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const status = await fetchStatus();
    if (!status) continue;
    showBuildErrors(status);
    if (status.ok !== false && versionOf(status) !== ui.version && status.version !== null) { location.reload(); return; }
  }
}

/** The overlay of a failed build: each diagnostic as file:line:column, code and message. */
function showBuildErrors(status) {
  const box = $("build-errors");
  const failed = Boolean(status && status.ok === false);
  box.hidden = !failed;
  document.body.dataset.build = !status || status.ok === null ? "building" : failed ? "failed" : "ok";
  if (!failed) { box.innerHTML = ""; return; }
  const key = JSON.stringify([status.build, status.diagnostics]);
  if (box.dataset.key === key) { box.hidden = box.dataset.dismissed === key; return; }  // the same failure: left as it is
  box.dataset.key = key;
  const n = status.summary || {};
  const said = `${n.errors || 0} error(s)${n.warnings ? `, ${n.warnings} warning(s)` : ""}`;
  box.innerHTML = `<button id="build-errors-hide" data-testid="build-errors-hide" title="hide until the next build">Hide</button>`
    + `<h2>The last save does not build (${esc(said)})</h2>`
    + `<p>${ui.bundle ? "The page still plays the last good build; it" : "The page"} reloads by itself once the pack builds again.</p>`
    + "<ol>" + status.diagnostics.map((d) => `<li class="${esc(d.severity)}" data-code="${esc(d.code)}" data-file="${esc(d.file)}" data-line="${d.line}">`
      + `<span class="where">${esc(d.file)}:${d.line}:${d.column}</span> <b>${esc(d.severity)}[${esc(d.code)}]</b> ${esc(d.message)}`
      + (d.fix ? ` <span class="fix">(${d.fix.includes(" ") ? "" : "fix: "}${esc(d.fix)})</span>` : "") + "</li>").join("")
    + (status.more ? `<li>… and ${status.more} more (in the terminal)</li>` : "") + "</ol>";
  $("build-errors-hide").onclick = () => { box.dataset.dismissed = key; box.hidden = true; };
}

// ------------------------------------------------------------------ controls
function setupControls() {
  const b = ui.bundle;
  $("title").textContent = `${b.pack.name || b.pack.id} ${b.pack.version || ""}`;
  const quest = $("quest");
  // quests, then each top-level encounter (those exploration decks deal) on its own
  quest.innerHTML = Object.keys(b.quests || {}).map((q) => `<option value="${esc(q)}">${esc(text(b.quests[q].name))}</option>`).join("")
    + Object.keys(b.encounters || {}).map((e) => `<option value="enc:${esc(e)}">Encounter: ${esc(text(b.encounters[e].name))}</option>`).join("");
  const langs = ["", ...Object.keys(b.translations || {})];
  $("lang").innerHTML = langs.map((l) => `<option value="${esc(l)}">${l ? esc(l) : "default"}</option>`).join("");
  quest.onchange = () => newGame();
  $("heroes").onchange = () => newGame();
  $("seed").onchange = () => newGame();
  $("restart").onclick = () => newGame();
  $("lang").onchange = () => { ui.game.lang = $("lang").value || null; draw(); };
  $("mode").onchange = () => { ui.mode = $("mode").value; draw(); };
  $("amount").oninput = () => { ui.amount = Math.max(0, Number($("amount").value) || 0); draw(); };
  $("figures-block").onchange = () => { ui.figuresBlock = $("figures-block").checked; draw(); };
  // attack templates (1st edition; docs/player.md, "Attack templates"): laid on the selected space
  const templates = b.templates || {};
  $("template-row").hidden = !Object.keys(templates).length;
  $("template").innerHTML = `<option value="">none</option>` + Object.entries(templates)
    .map(([id, t]) => `<option value="${esc(id)}">${esc(t.name)}${t.illustrative ? " (illustrative)" : ""}</option>`).join("");
  const templateControls = () => {
    const t = templates[ui.template];
    $("template-facing").hidden = !t || t.anchor !== "attacker_side";
    $("template-rank-row").hidden = !t || !t.by_rank;
    $("template-facing").textContent = ui.facing;
  };
  $("template").onchange = () => { ui.template = $("template").value; templateControls(); draw(); };
  $("template-facing").onclick = () => { ui.facing = nextFacing(ui.facing); templateControls(); draw(); };
  $("template-rank").oninput = () => { ui.rank = Math.min(9, Math.max(0, Math.floor(Number($("template-rank").value) || 0))); draw(); };
  templateControls();
  $("zoom-in").onclick = () => zoom(0.8);
  $("zoom-out").onclick = () => zoom(1.25);
  $("zoom-fit").onclick = () => { ui.view = null; draw(); };
  const svg = $("map");
  svg.addEventListener("wheel", (e) => { e.preventDefault(); zoom(e.deltaY > 0 ? 1.15 : 0.87, worldAt(e)); }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, view: [...ui.view], moved: false }; });
  svg.addEventListener("pointermove", (e) => {
    hover(e);
    if (!drag || !(e.buttons & 1)) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) < 4 && !drag.moved) return;
    drag.moved = true;
    const scale = ui.view[2] / svg.clientWidth;
    ui.view = [drag.view[0] - dx * scale, drag.view[1] - dy * scale, drag.view[2], drag.view[3]];
    svg.setAttribute("viewBox", ui.view.join(" "));
  });
  svg.addEventListener("pointerup", (e) => {
    const moved = drag && drag.moved;
    drag = null;
    if (!moved) click(e);
  });
  svg.addEventListener("pointerleave", () => { $("hover").textContent = "\u00a0"; });
}

function text(id) { return ui.game ? ui.game.text(id) : (ui.bundle.strings[id] ? ui.bundle.strings[id].text : id); }

function newGame() {
  const b = ui.bundle;
  const qid = $("quest").value;
  const q = qid.startsWith("enc:") ? encounterQuest(qid.slice(4)) : b.quests[qid];
  const [low, high] = q.heroes;
  const heroes = $("heroes");
  const want = Number(heroes.value) || low;
  heroes.innerHTML = [2, 3, 4].filter((n) => n >= low && n <= high).map((n) => `<option value="${n}">${n}</option>`).join("");
  heroes.value = String(Math.min(high, Math.max(low, want)));
  $("seed-row").hidden = !q.adventure && !usesRandom(q, b);  // the seed deals the decks and draws `random` numbers
  ui.game = new Game(b, qid, { quest: q, heroes: Number(heroes.value), lang: $("lang").value || null, seed: Number($("seed").value) || 0 });
  ui.a = ui.b = null;
  ui.view = null;
  ui.encounter = null;
  draw();
}

/** A top-level encounter played alone, as a one-encounter quest. */
function encounterQuest(id) {
  const enc = ui.bundle.encounters[id];
  return { name: enc.name, heroes: [2, 4], encounters: [{ number: 1, reachable: true, ...enc }] };
}

// ------------------------------------------------------------------ geometry of the current state
function currentGeometry() {
  const g = ui.game;
  if (ui.encounter !== g.encounter) {
    ui.encounter = g.encounter;
    ui.geo = new Geometry(g.map, ui.bundle.terrain);
    ui.a = ui.b = null;
    ui.view = null;
  }
  return ui.geo;
}

/** Spaces holding figures that block (minus the figure standing on `origin`, which never blocks itself). */
function blockers(origin) {
  if (!ui.figuresBlock) return [];
  const g = ui.game;
  const own = new Set([origin]);
  for (const f of g.figures) if (f.spaces.includes(origin)) f.spaces.forEach((s) => own.add(s));
  return [...g.figureSpaces].filter((s) => !own.has(s));
}

/** What the page highlights for a selected space: {seen: Set, reach: Set}. */
function questions(origin) {
  const g = ui.game;
  const geo = currentGeometry();
  const hidden = g.hiddenSpaces;
  const block = blockers(origin);
  const view = geo.state({ openDoors: g.passableDoors, blockers: block, hidden });  // open, or off the board
  // a large figure (docs/bundle.md, "Large figures"): its whole base sees, and it moves as `questc path --size`
  const large = g.figures.find((f) => f.spaces.length > 1 && f.spaces.includes(origin));
  const row = large ? seenFromLarge(geo, large.spaces, { openDoors: g.passableDoors, blockers: block, hidden }) : view.seenFrom(origin);
  const seen = new Set();
  row.forEach((v, j) => { if (v) seen.add(j); });
  const moves = new Moves(geo, { openDoors: g.passableDoors, blockers: block, hidden, large: Boolean(large) });
  const reach = large && ui.mode === "points" ? moves.largeReach(large.spaces, large.size, ui.amount)
    : ui.mode === "points" ? moves.reach(origin, ui.amount)
    : ui.mode === "flying" ? flyingReach(moves, origin, ui.amount) : moves.within(origin, ui.amount);
  return { seen, reach, moves, view, large: large || null };
}

/** Where a flying figure on `origin` may end with `amount` movement points (as `questc path
 *  --flying`; docs/rules.md, "Flying, Soar and Shadowcloak"): over the terrain the bundle
 *  calls an obstacle, through figures, never ending on one. A large figure flies as a small one. */
function flyingReach(moves, origin, amount) {
  const over = new Set(Object.entries(ui.bundle.terrain).filter(([, t]) => t.kind === "obstacle").map(([id]) => id));
  const s = new Set();
  moves.flyingCosts(origin, over).forEach((v, j) => { if (v >= 0 && v <= amount) s.add(j); });
  return s;
}
ui.questions = questions;

// ------------------------------------------------------------------ drawing
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function line(edge, attrs, parent) {
  const [[x1, y1], [x2, y2]] = edge;
  return el("line", { x1, y1, x2, y2, ...attrs }, parent);
}

function fit(map) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const s of map.spaces) { x0 = Math.min(x0, s.x); y0 = Math.min(y0, s.y); x1 = Math.max(x1, s.x + 1); y1 = Math.max(y1, s.y + 1); }
  return [x0 - 0.5, y0 - 0.5, x1 - x0 + 1, y1 - y0 + 1];
}

function zoom(factor, at = null) {
  const [x, y, w, h] = ui.view;
  const cx = at ? at[0] : x + w / 2, cy = at ? at[1] : y + h / 2;
  ui.view = [cx - (cx - x) * factor, cy - (cy - y) * factor, w * factor, h * factor];
  $("map").setAttribute("viewBox", ui.view.join(" "));
}

function worldAt(e) {
  const svg = $("map");
  const pt = svg.createSVGPoint();
  pt.x = e.clientX; pt.y = e.clientY;
  const w = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [w.x, w.y];
}

function spaceLabel(i) {
  const s = ui.game.map.spaces[i];
  return `${s.tile}(${s.col},${s.row}) = (${s.x}, ${s.y})`;
}

function hover(e) {
  if (!ui.geo) return;
  const [wx, wy] = worldAt(e);
  const i = ui.geo.index(Math.floor(wx), Math.floor(wy));
  $("hover").textContent = i >= 0 && !ui.game.hiddenSpaces.includes(i) ? spaceLabel(i) : "\u00a0";
}

function click(e) {
  const target = e.target.closest("[data-door]");
  if (target) {
    const id = target.dataset.door;
    if (ui.game.doorState(id) === "open") ui.game.closeDoor(id); else ui.game.openDoor(id);  // a locked door stays shut
    draw();
    return;
  }
  const [wx, wy] = worldAt(e);
  const i = ui.geo.index(Math.floor(wx), Math.floor(wy));
  selectSpace(i);
}

/** Select a space as a player clicking it: the first click picks A, the second B, the next starts again. */
function selectSpace(i) {
  if (i < 0 || ui.game.hiddenSpaces.includes(i)) { ui.a = ui.b = null; }
  else if (ui.a === null || ui.b !== null) { ui.a = i; ui.b = null; }
  else if (i === ui.a) { ui.a = null; }
  else { ui.b = i; }
  draw();
}
ui.selectSpace = selectSpace;

// ------------------------------------------------------------------ what the map draws, as `questc render` (labels.js)
/** The legend: one entry per kind of thing drawn (data-legend keys on the map's elements),
 *  each with a swatch drawn by the same function as the map. */
class Legend {
  constructor() { this.entries = new Map(); }
  add(key, label, swatch, title = "") { if (!this.entries.has(key)) this.entries.set(key, { label, swatch, title }); }
  /** Into `box`: the entries in the order first drawn, then the question overlays (always
   *  listed, so the legend does not change with the selection). */
  render(box) {
    box.innerHTML = "";
    const keys = QUESTION_KEYS.filter(([key]) => key !== "template" || (ui.bundle && ui.bundle.templates));  // 1st-edition packs only
    const all = [...this.entries, ...keys.map(([key, label, swatch]) => [key, { label, swatch, title: "" }])];
    for (const [key, { label, swatch, title }] of all) {
      const item = document.createElement("span");
      item.className = "legend-entry";
      item.dataset.key = key;
      if (title) item.title = title;
      const svg = el("svg", { viewBox: "-0.1 -0.1 1.2 1.2", class: "swatch", width: 18, height: 18 });
      swatch(svg);
      item.appendChild(svg);
      const said = document.createElement("span");
      said.className = "legend-label";
      said.textContent = label;
      item.appendChild(said);
      box.appendChild(item);
    }
  }
}

const QUESTION_KEYS = [
  ["seen", "seen from the selected space", (p) => el("rect", { x: 0, y: 0, width: 1, height: 1, class: "space seen" }, p)],
  ["reach", "reached within the toolbar's amount", (p) => el("rect", { x: 0.04, y: 0.04, width: 0.92, height: 0.92, class: "reach" }, p)],
  ["selected-a", "first space clicked", (p) => el("rect", { x: 0, y: 0, width: 1, height: 1, class: "selected a" }, p)],
  ["selected-b", "second space clicked", (p) => el("rect", { x: 0, y: 0, width: 1, height: 1, class: "selected b" }, p)],
  ["route", "cheapest route", (p) => el("polyline", { points: "0,0.5 1,0.5", class: "route" }, p)],
  ["template", "covered by the attack template", (p) => el("rect", { x: 0.12, y: 0.12, width: 0.76, height: 0.76, class: "template" }, p)],
];

/** A terrain's glyph in the middle half of square (x, y), as terrain.draw_glyph. */
function terrainGlyph(parent, x, y, look) {
  const g = el("g", { class: `terrain-glyph ${look.glyph}`, stroke: hex(look.ink), fill: "none" }, parent);
  const ink = hex(look.ink);
  const m = 0.25;
  switch (look.glyph) {
    case "waves":
      for (const k of [0.38, 0.62]) {
        const pts = [];
        for (let i = 0; i <= 20; i++) { const t = i / 20; pts.push(`${x + m + t * 0.5},${y + k + Math.sin(t * 8) * 0.06}`); }
        el("polyline", { points: pts.join(" ") }, g);
      }
      break;
    case "cross":
      line([[x + m, y + m], [x + 1 - m, y + 1 - m]], { "stroke-width": 0.1 }, g);
      line([[x + 1 - m, y + m], [x + m, y + 1 - m]], { "stroke-width": 0.1 }, g);
      break;
    case "pit": el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.25, fill: ink, stroke: "none" }, g); break;
    case "lava":
      el("polygon", { points: `${x + 0.5},${y + m} ${x + 1 - m},${y + 1 - m} ${x + m},${y + 1 - m}` }, g);
      el("circle", { cx: x + 0.5, cy: y + 0.57, r: 0.06, fill: ink, stroke: "none" }, g);
      break;
    case "hazard":
      el("polygon", { points: `${x + 0.5},${y + m} ${x + 1 - m},${y + 1 - m} ${x + m},${y + 1 - m}` }, g);
      line([[x + 0.5, y + m + 0.125], [x + 0.5, y + 1 - m - 0.17]], {}, g);
      break;
    case "elevation": el("polygon", { points: `${x + m},${y + 1 - m} ${x + 0.5},${y + m} ${x + 1 - m},${y + 1 - m}`, fill: ink, stroke: "none" }, g); break;
    case "fog": for (const k of [0.35, 0.5, 0.65]) line([[x + m, y + k], [x + 1 - m, y + k]], {}, g); break;
    case "dots": for (const [fx, fy] of [[0.35, 0.35], [0.65, 0.45], [0.45, 0.65]]) el("circle", { cx: x + fx, cy: y + fy, r: 0.06, fill: ink, stroke: "none" }, g); break;
    default: break;
  }
  return g;
}

/** A token as render draws it: a diamond in its kind's (or own) colour with its letter. */
function token(parent, x, y, kind, colour, label) {
  const g = el("g", { class: `token ${kind}` }, parent);
  const r = 0.36;
  el("polygon", { points: `${x + 0.5},${y + 0.5 - r} ${x + 0.5 + r},${y + 0.5} ${x + 0.5},${y + 0.5 + r} ${x + 0.5 - r},${y + 0.5}`,
    class: "token-shape", fill: colour || hex(TOKEN[kind] || fallbackColour(kind)) }, g);
  el("text", { x: x + 0.5, y: y + 0.61, class: "token-text" }, g).textContent = tokenLetter(kind, label);
  return g;
}

/** A rune key lying on the map: a ring in the key's colour with a K (render draws none). */
function runeKey(parent, x, y, colour) {
  const g = el("g", { class: "runekey" }, parent);
  el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.3, stroke: colour, class: "runekey-ring" }, g);
  el("text", { x: x + 0.5, y: y + 0.61, class: "runekey-text", fill: colour }, g).textContent = "K";
  return g;
}

/** A monster figure as render draws it: a disc on one space, a rounded box over a larger
 *  base; masters red, minions white; its initials (labels.monsterInitials). */
function figure(parent, x0, y0, x1, y1, rank, group) {
  const g = el("g", { class: `figure ${rank}` }, parent);
  const m = 0.14;
  if (x1 - x0 === 1 && y1 - y0 === 1) el("circle", { cx: x0 + 0.5, cy: y0 + 0.5, r: 0.5 - m, class: "figure-shape" }, g);
  else el("rect", { x: x0 + m, y: y0 + m, width: x1 - x0 - 2 * m, height: y1 - y0 - 2 * m, rx: 0.33, class: "figure-shape" }, g);
  if (group) el("text", { x: (x0 + x1) / 2, y: (y0 + y1) / 2 + 0.11, class: "figure-text" }, g).textContent = monsterInitials(group);
  return g;
}

/** A monster group as the panel and the legend name it: a custom monster's name, else its id. */
function monsterName(group) {
  const custom = ui.game.quest.monsters && ui.game.quest.monsters[group];
  return custom && custom.name ? `${text(custom.name)} (${group})` : group;
}

/** 1st-edition features as render draws them: links (stairs S, …) dashed between their ends
 *  with the kind's letter at each, the portal outlined, glyphs as rings (filled while
 *  active), chests as boxes in their tier's colour. */
function drawFeatures(parent, map, features, legend, hidden) {
  const inPlay = (spaces) => spaces.every((i) => !hidden.has(i));  // what stands on a hidden tile shows once it is revealed
  const at = (ends) => [ends.reduce((t, i) => t + map.spaces[i].x + 0.5, 0) / ends.length, ends.reduce((t, i) => t + map.spaces[i].y + 0.5, 0) / ends.length];
  for (const { kind, a, b } of linkLines(map)) {
    if (!inPlay([...a, ...b])) continue;
    const key = `link:${kind}`;
    const g = el("g", { class: `link ${kind}`, "data-legend": key, "data-link": `${a.join("+")}-${b.join("+")}` }, parent);
    line([at(a), at(b)], { class: "link-line" }, g);
    for (const [x, y] of [at(a), at(b)]) el("text", { x, y: y + 0.13, class: "link-text" }, g).textContent = linkLetter(kind);
    el("title", {}, g).textContent = `${kind}: ${a.map(spaceLabel).join(", ")} and ${b.map(spaceLabel).join(", ")}`;
    legend.add(key, `${kind} (${linkLetter(kind)})`, (p) => { line([[0, 0.9], [1, 0.9]], { class: "link-line" }, p); el("text", { x: 0.5, y: 0.63, class: "link-text" }, p).textContent = linkLetter(kind); });
  }
  if (features.portal && features.portal.spaces && features.portal.spaces.length) {
    const g = el("g", { class: "portal", "data-legend": "portal" }, parent);
    for (const e of boundaryEdges(features.portal.spaces.map((i) => [map.spaces[i].x, map.spaces[i].y]))) line(e, { class: "portal-edge" }, g);
    legend.add("portal", "portal", (p) => el("rect", { x: 0.1, y: 0.1, width: 0.8, height: 0.8, class: "portal-edge", fill: "none" }, p));
  }
  for (const gl of features.glyphs || []) {
    if (!inPlay(gl.spaces)) continue;
    const cells = gl.spaces.map((i) => map.spaces[i]);
    const x0 = Math.min(...cells.map((c) => c.x)), y0 = Math.min(...cells.map((c) => c.y));
    const x1 = Math.max(...cells.map((c) => c.x)) + 1, y1 = Math.max(...cells.map((c) => c.y)) + 1;
    const key = gl.active ? "glyph-active" : "glyph";
    const c = glyph(parent, x0, y0, x1, y1, gl.active);
    c.setAttribute("data-legend", key);
    c.setAttribute("data-glyph", gl.name);
    el("title", {}, c).textContent = `glyph ${gl.name}${gl.active ? " (active)" : ""}`;
    legend.add(key, gl.active ? "glyph (active)" : "glyph", (p) => glyph(p, 0, 0, 1, 1, gl.active));
  }
  for (const ch of features.chests || []) {
    if (!inPlay([ch.space])) continue;
    const s = map.spaces[ch.space];
    const key = `chest:${ch.tier}`;
    const r = chest(parent, s.x, s.y, ch.tier);
    r.setAttribute("data-legend", key);
    el("title", {}, r).textContent = `${ch.tier} chest ${ch.name}`;
    legend.add(key, `${ch.tier} chest`, (p) => chest(p, 0, 0, ch.tier));
  }
  for (const hz of features.hazards || []) drawHazard(parent, map, hz, legend, inPlay);
}

/** A hazard's lane or area (hazards.js), as render draws it. */
function drawHazard(parent, map, hz, legend, inPlay) {
  if (!inPlay(hz.spaces)) return;
  const m = hazardMarks(map, hz);
  const key = `hazard:${hz.reach}`;
  const g = el("g", { class: `hazard ${hz.reach}`, "data-legend": key, "data-hazard": hz.kind }, parent);
  if (m.path.length > 1) {
    el("polyline", { points: m.path.map((p) => p.join(",")).join(" "), class: "hazard-lane" }, g);
    el("polygon", { points: m.arrow.map((p) => p.join(",")).join(" "), class: "hazard-mark" }, g);
  }
  for (const [x, y] of m.dots) el("circle", { cx: x, cy: y, r: 0.1, class: "hazard-mark" }, g);
  for (const [x, y] of m.outlines) el("rect", { x: x + 0.08, y: y + 0.08, width: 0.84, height: 0.84, class: "hazard-area" }, g);
  for (const [x, y] of m.triggers) el("rect", { x: x + 0.38, y: y + 0.38, width: 0.24, height: 0.24, class: "hazard-mark" }, g);
  const reach = hz.reach === "lane" ? `lane of ${hz.lane.length} square(s) ${hz.facing || "as written"}` : `strikes ${hz.struck.length} square(s)`;
  el("title", {}, g).textContent = `${hz.kind.replace(/_/g, " ")}: ${reach}`;
  legend.add(key, hz.reach === "lane" ? "hazard lane" : "trap area", (p) => (hz.reach === "lane"
    ? el("polyline", { points: "0.1,0.5 0.9,0.5", class: "hazard-lane" }, p)
    : el("rect", { x: 0.1, y: 0.1, width: 0.8, height: 0.8, class: "hazard-area" }, p)));
}

function glyph(parent, x0, y0, x1, y1, active) {
  const m = 0.17;
  return el("ellipse", { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, rx: (x1 - x0) / 2 - m, ry: (y1 - y0) / 2 - m, class: `glyph${active ? " active" : ""}` }, parent);
}

function chest(parent, x, y, tier) {
  const m = 0.2;
  return el("rect", { x: x + m, y: y + m * 1.5, width: 1 - 2 * m, height: 1 - 2.5 * m, class: "chest", fill: hex(CHEST[tier] || COLOURS.door) }, parent);
}

/** Each tile's printed code, as render places it: never over a marker (labels.tileLabelSpots). */
function tileLabels(parent, map, hidden, legend) {
  const taken = new Set();
  const mark = (i) => taken.add(`${map.spaces[i].x},${map.spaces[i].y}`);
  const g = ui.game;
  g.encounter.start.forEach((i) => { if (!hidden.has(i)) mark(i); });
  for (const t of g.tokens.values()) mark(t.space);
  for (const f of g.figures) f.spaces.forEach(mark);
  for (const h of g.heroFigures) mark(h.space);
  const spaces = new Set(map.spaces.map((s) => `${s.x},${s.y}`));
  const byTile = new Map(map.tiles.map((t) => [t.name, { code: t.code, name: t.name, cells: [] }]));
  for (const s of map.spaces) if (byTile.has(s.tile)) byTile.get(s.tile).cells.push([s.x, s.y]);
  const across = (code) => 1 + Math.floor((code.length * LABEL_CHAR + 0.12) / 1);
  for (const { code, name, at } of tileLabelSpots([...byTile.values()], spaces, taken, across)) {
    const [x, y] = at;
    const lg = el("g", { class: "tile-label", "data-tile": name, "data-legend": "tile-label" }, parent);
    const box = el("rect", { x: x + 0.06, y: y + 0.06, width: code.length * LABEL_CHAR + 0.08, height: 0.3, class: "tile-label-box" }, lg);
    const label = el("text", { x: x + 0.1, y: y + 0.3, class: "tile-label-text" }, lg);
    label.textContent = code;
    const width = label.getComputedTextLength ? label.getComputedTextLength() : 0;  // 0 while the map is not laid out
    if (width > 0) box.setAttribute("width", width + 0.08);
    if (name !== code) el("title", {}, lg).textContent = `${code} (placed as ${name})`;
    legend.add("tile-label", "tile (its printed code)", (p) => { el("rect", { x: 0.02, y: 0.3, width: 0.96, height: 0.4, class: "tile-label-box" }, p); el("text", { x: 0.08, y: 0.6, class: "tile-label-text" }, p).textContent = "1A"; });
  }
}
const LABEL_CHAR = 0.16;  // about the width of a tile label's character in squares (font-size 0.26)

function draw() {
  const g = ui.game;
  const geo = currentGeometry();
  const map = g.map;
  const svg = $("map");
  svg.innerHTML = "";
  if (!ui.view) ui.view = fit(map);
  svg.setAttribute("viewBox", ui.view.join(" "));
  const hidden = new Set(g.hiddenSpaces);
  const ask = ui.a !== null ? questions(ui.a) : null;
  const layer = (id) => el("g", { id }, svg);
  const legend = new Legend();
  const spacesG = layer("spaces");
  const glyphG = layer("terrain-glyphs");
  const looks = new Map();
  const look = (id) => { if (!looks.has(id)) looks.set(id, terrainLook(id, ui.bundle.terrain[id] || {})); return looks.get(id); };
  map.spaces.forEach((s, i) => {
    const cls = ["space"];
    if (hidden.has(i)) cls.push("hidden");
    else if (ask && ask.seen.has(i)) cls.push("seen");
    const lk = look(s.terrain);
    const key = hidden.has(i) ? "hidden" : `terrain:${s.terrain}`;
    el("rect", { x: s.x, y: s.y, width: 1, height: 1, class: cls.join(" "), "data-i": i, "data-legend": key, fill: hidden.has(i) ? "#222" : hex(lk.fill) }, spacesG);
    if (hidden.has(i)) { legend.add(key, "not in play (a hidden or removed tile)", (p) => el("rect", { x: 0, y: 0, width: 1, height: 1, class: "space hidden", fill: "#222" }, p)); return; }
    if (lk.glyph) terrainGlyph(glyphG, s.x, s.y, lk).setAttribute("data-legend", key);
    legend.add(key, s.terrain, (p) => { el("rect", { x: 0, y: 0, width: 1, height: 1, class: "space", fill: hex(lk.fill) }, p); if (lk.glyph) terrainGlyph(p, 0, 0, lk); },
      (ui.bundle.terrain[s.terrain] || {}).name);
  });
  // tile outlines: edges between spaces of different tiles
  const tileG = layer("tile-edges");
  map.spaces.forEach((s, i) => {
    for (const [dx, dy] of [[1, 0], [0, 1]]) {
      const j = geo.index(s.x + dx, s.y + dy);
      if (j >= 0 && map.spaces[j].tile !== s.tile) {
        line(dx ? [[s.x + 1, s.y], [s.x + 1, s.y + 1]] : [[s.x, s.y + 1], [s.x + 1, s.y + 1]], { class: "tile-edge", "data-legend": "tile-edge" }, tileG);
        legend.add("tile-edge", "tile border", (p) => line([[0.5, 0], [0.5, 1]], { class: "tile-edge" }, p));
      }
    }
  });
  const wallG = layer("walls");
  for (const w of map.walls) line(w, { class: "wall", "data-legend": "wall" }, wallG);
  if (map.walls.length) legend.add("wall", "wall", (p) => line([[0, 0.5], [1, 0.5]], { class: "wall" }, p));
  // lines along edges (2nd-edition elevation; docs/maps.md "Lines"): dashed, as render draws them
  for (const ln of map.lines || []) {
    const key = `line:${ln.kind}`;
    for (const e of ln.edges) line(e, { class: "edge-line", "data-legend": key }, wallG);
    legend.add(key, `${ln.kind.replace(/_/g, " ")} (+${ln.cross_cost} to cross)`, (p) => line([[0, 0.5], [1, 0.5]], { class: "edge-line" }, p));
  }
  const features = map.features || {};
  const runeDoors = features.rune_doors || {};
  const doorG = layer("doors");
  for (const [id, d] of Object.entries(map.doors)) {
    const state = g.doorState(id);  // a door off the board (hidden, removed) is not drawn: its alternative is
    if (state === "off") continue;
    const rune = runeDoors[id];
    const key = `door:${d.colour || ""}:${rune ? "rune:" : ""}${state}`;
    const cls = `door ${state === "open" ? "open" : "closed"}${state === "locked" ? " locked" : ""}`;
    const grp = el("g", { "data-door": id, "data-state": state, "data-legend": key, class: cls }, doorG);
    const colour = d.colour || hex(COLOURS.door);
    for (const e of d.edges) {
      line(e, { class: "door-line", stroke: colour }, grp);
      line(e, { class: "door-hit" }, grp);
    }
    const what = `${d.colour ? d.colour + " " : ""}${rune ? "rune door" : "door"}`;
    const said = { open: "open", closed: "closed", locked: "closed, locked" }[state];
    legend.add(key, `${what} (${said})`, (p) => { const s = el("g", { class: cls }, p); line([[0, 0.5], [1, 0.5]], { class: "door-line", stroke: colour }, s); });
    el("title", {}, grp).textContent = (state === "locked" ? `door ${id} (locked): an event must unlock it`
      : `door ${id} (${state}): click to ${state === "open" ? "close" : "open"} it`) + (rune ? `; a rune door: the ${rune} rune key opens it` : "");
  }
  drawFeatures(layer("features"), map, features, legend, hidden);
  const markG = layer("marks");
  for (const i of g.encounter.start) {
    const s = map.spaces[i];
    if (hidden.has(i)) continue;
    el("rect", { x: s.x + 0.08, y: s.y + 0.08, width: 0.84, height: 0.84, class: "start", "data-legend": "start" }, markG);
    legend.add("start", "hero start", (p) => el("rect", { x: 0.08, y: 0.08, width: 0.84, height: 0.84, class: "start" }, p));
  }
  for (const t of g.tokens.values()) {
    const s = map.spaces[t.space];
    const label = t.label ? text(t.label) : "";
    const key = `token:${t.kind}:${t.colour || ""}:${encodeURIComponent(label)}`;  // keys are space-separated in data-legend
    const c = token(markG, s.x, s.y, t.kind, t.colour, label);
    c.setAttribute("data-token", t.id);
    c.setAttribute("data-legend", key);
    el("title", {}, c).textContent = `${t.kind} token ${t.id}${label ? ": " + label : ""}`;
    legend.add(key, label ? `${label} (${t.kind})` : `token: ${t.kind}`, (p) => token(p, 0, 0, t.kind, t.colour, label));
  }
  for (const k of g.encounter.runekeys || []) {  // a rune key lying on the map (a carried one goes with its figure)
    if (k.carrier && g.placed.has(k.carrier) && !g.defeatedSpawns.has(k.carrier)) continue;
    for (const i of k.spaces || []) {
      if (hidden.has(i)) continue;
      const s = map.spaces[i];
      const m = runeKey(markG, s.x, s.y, k.colour);
      m.setAttribute("data-legend", `runekey:${k.colour}`);
      el("title", {}, m).textContent = `the ${k.colour} rune key${k.carrier ? ` (carried by ${k.carrier})` : ""}`;
      legend.add(`runekey:${k.colour}`, `${k.colour} rune key`, (p) => runeKey(p, 0, 0, k.colour));
    }
  }
  const figG = layer("figures");
  const carried = new Map((g.encounter.runekeys || []).filter((k) => k.carrier).map((k) => [k.carrier, k.colour]));
  for (const f of g.figures) {
    const cells = f.spaces.map((i) => map.spaces[i]);
    const x0 = Math.min(...cells.map((c) => c.x)), y0 = Math.min(...cells.map((c) => c.y));
    const x1 = Math.max(...cells.map((c) => c.x)) + 1, y1 = Math.max(...cells.map((c) => c.y)) + 1;
    const shape = figure(figG, x0, y0, x1, y1, f.rank, f.group);
    shape.setAttribute("data-figure", f.key);
    shape.setAttribute("data-legend", `rank:${f.rank} monster:${f.group}`);
    el("title", {}, shape).textContent = `${f.group} (${f.rank}) from spawn ${f.spawn}${carried.has(f.spawn) ? `, carrying the ${carried.get(f.spawn)} rune key` : ""}`;
    legend.add(`rank:${f.rank}`, f.rank, (p) => figure(p, 0, 0, 1, 1, f.rank, ""));
    legend.add(`monster:${f.group}`, `${monsterInitials(f.group)} = ${monsterName(f.group)}`, (p) => figure(p, 0, 0, 1, 1, "minion", f.group));
  }
  for (const h of g.heroFigures) {
    const s = map.spaces[h.space];
    el("circle", { cx: s.x + 0.5, cy: s.y + 0.5, r: 0.32, class: "hero", "data-hero": h.id, "data-legend": "hero" }, figG);
    const tx = el("text", { x: s.x + 0.5, y: s.y + 0.62, class: "hero-text" }, figG);
    tx.textContent = h.id.replace("hero", "H");
    legend.add("hero", "hero (H1 = hero 1)", (p) => el("circle", { cx: 0.5, cy: 0.5, r: 0.32, class: "hero" }, p));
  }
  tileLabels(layer("tile-labels"), map, hidden, legend);
  const hiG = layer("highlight");
  let routeInfo = "";
  ui.templateSquares = null;
  if (ask) {
    for (const i of ask.reach) {
      const s = map.spaces[i];
      el("rect", { x: s.x + 0.04, y: s.y + 0.04, width: 0.92, height: 0.92, class: "reach", "data-reach": i, "data-legend": "reach" }, hiG);
    }
    const tpl = ui.template && ui.bundle.templates ? ui.bundle.templates[ui.template] : null;
    // the template laid on the selected space: against its `facing` side (Breath, Bolt) or
    // centred there with the rank (Blast); doors as they stand, hidden tiles not there
    ui.templateSquares = tpl ? templateCovers(geo, tpl, ui.a, { facing: ui.facing, rank: ui.rank, openDoors: g.passableDoors, hidden: g.hiddenSpaces }) : null;
    for (const i of ui.templateSquares || []) {
      const s = map.spaces[i];
      el("rect", { x: s.x + 0.12, y: s.y + 0.12, width: 0.76, height: 0.76, class: "template", "data-template": i, "data-legend": "template" }, hiG);
    }
    // every figure with a space under it is hit, friend or foe (docs/rules.md, "Attack templates")
    const under = new Set(ui.templateSquares || []);
    ui.templateHits = tpl ? [...g.heroFigures.filter((h) => under.has(h.space)).map((h) => h.id),
      ...g.figures.filter((f) => f.spaces.some((i) => under.has(i))).map((f) => f.key)] : null;
    if (tpl) {
      routeInfo += `<div id="template-info" data-template="${esc(ui.template)}" data-count="${ui.templateSquares.length}" data-hits="${esc(ui.templateHits.join(" "))}">${esc(tpl.name)} `
        + (tpl.anchor === "attacker_side" ? `against the ${esc(ui.facing)} side of ${esc(spaceLabel(ui.a))}` : `centred on ${esc(spaceLabel(ui.a))}${tpl.by_rank ? `, rank ${ui.rank}` : ""}`)
        + `: covers ${ui.templateSquares.length} space(s)${tpl.illustrative ? " (illustrative shape)" : ""}; `
        + `figures under it: ${ui.templateHits.length ? esc(ui.templateHits.join(", ")) : "none"}.</div>`;
    }
    const sa = map.spaces[ui.a];
    el("rect", { x: sa.x, y: sa.y, width: 1, height: 1, class: "selected a", "data-legend": "selected-a" }, hiG);
    if (ui.b !== null) {
      const sb = map.spaces[ui.b];
      el("rect", { x: sb.x, y: sb.y, width: 1, height: 1, class: "selected b", "data-legend": "selected-b" }, hiG);
      const r = ask.moves.route(ui.a, ui.b);
      ui.route = r;
      if (r.route) {
        el("polyline", { points: r.route.map((i) => `${map.spaces[i].x + 0.5},${map.spaces[i].y + 0.5}`).join(" "), class: "route", "data-legend": "route" }, hiG);
      }
      routeInfo += `<div id="route" data-cost="${r.cost ?? ""}" data-steps="${r.steps ?? ""}">`
        + `${esc(spaceLabel(ui.a))} → ${esc(spaceLabel(ui.b))}: `
        + (r.route ? `cheapest route ${r.cost} movement point(s); ` : "no route for a move; ")
        + (r.steps !== null ? `${r.steps} space(s) apart (counted range)` : "no counted range")
        + `; ${ask.view.canSee(ui.a, ui.b) ? "in sight" : "not in sight"}.</div>`;
    } else ui.route = null;
  }
  // the panel
  const sel = ui.a === null ? "Click a space: what it sees (yellow) and reaches (green outline); click a second space for the route."
    : `<div id="selection" data-space="${ui.a}">Selected ${esc(spaceLabel(ui.a))}: sees ${ask.seen.size - 1} space(s), reaches ${ask.reach.size - 1}.</div>`
      + `<button data-testid="enter-space" id="enter-space"${g.waiting ? " disabled" : ""}>A hero enters this space</button>`;
  $("selection-box").innerHTML = sel + routeInfo;
  legend.render($("legend"));
  const enterBtn = $("enter-space");
  if (enterBtn) enterBtn.onclick = () => { g.moveHero("hero1", ui.a); draw(); };
  drawPanel();
}

function button(label, testid, action, disabled = false) {
  return `<button data-testid="${esc(testid)}" data-action="${esc(action)}"${disabled ? " disabled" : ""}>${esc(label)}</button>`;
}

function drawPanel() {
  const g = ui.game;
  const b = ui.bundle;
  const enc = g.encounter;
  const over = g.waiting;  // the quest is over, or a question waits for its answer
  const parts = [];
  const name = g.adventure ? text(enc.name) : `${text(g.quest.name)}: encounter ${g.encounterIndex + 1} of ${g.encounterCount}`;
  parts.push(`<h2 id="encounter-name">${esc(name)}</h2>`);
  if (!g.adventure && $("quest").value !== g.questId && g.questId in b.quests) $("quest").value = g.questId;  // `next_quest` moved play on
  if (g.asking && !g.outcome) {
    parts.push(`<div id="ask" data-testid="ask"><p id="ask-text">${esc(text(g.asking.text))}</p>`
      + g.asking.choices.map((c) => button(text(c.text), `choice-${c.index}`, `choice:${c.index}`)).join("") + "</div>");
  }
  parts.push(`<div>Round <span id="round">${g.round}</span> ${button("End the round", "end-round", "end-round", over)} ${button("Morale reaches zero", "morale-zero", "morale-zero", over)}</div>`);
  const vars = Object.entries(g.variables);
  if (vars.length) {
    parts.push("<h3>Variables</h3>" + vars.map(([k, v]) => `<div class="var">${esc(k)} = <span data-var="${esc(k)}">${v}</span> `
      + button("−1", `var-dec-${k}`, `var:${k}:-1`, over) + button("+1", `var-inc-${k}`, `var:${k}:1`, over) + "</div>").join(""));
  }
  if (g.tokens.size) {
    parts.push("<h3>Tokens</h3>" + [...g.tokens.values()].map((t) => `<div class="tok">${esc(t.kind)} ${esc(t.id)}${t.label ? " “" + esc(text(t.label)) + "”" : ""} at ${esc(spaceLabel(t.space))} `
      + button("Search", `search-${t.id}`, `search:${t.id}`, over) + button("Pick up", `pickup-${t.id}`, `pickup:${t.id}`, over) + "</div>").join(""));
  }
  const onMap = enc.spawns.filter((s) => g.placed.has(s.id) && !g.defeatedSpawns.has(s.id));
  if (onMap.length) {
    parts.push("<h3>Monsters</h3>" + onMap.map((s) => `<div class="spawn">${esc(s.id)} (${esc(monsterLabel(s))}, ${g.figures.filter((f) => f.spawn === s.id).length} figure(s)) `
      + button("Defeat", `defeat-${s.id}`, `defeat:${s.id}`, over)
      + (g.activationsOf(s.id).length ? button("Monster turn", `turn-${s.id}`, `turn:${s.id}`, over || g.turns.has(s.id)) + turnText(s.id) : "")
      + (s.pool && s.pick !== "random" && !g.openChoice.has(s.id) ? " Choose: " + s.pool.map((m) => button(m, `open-group-${s.id}-${m}`, `open-group:${s.id}:${m}`, over)).join("") : "")
      + "</div>").join(""));
  }
  parts.push("<h3>Heroes</h3>" + g.heroIds.map((h) => `<div class="hero-row">${esc(h)}: <span data-hero-state="${esc(h)}">${g.heroesDown.has(h) ? "defeated" : "standing"}</span> `
    + (g.heroesDown.has(h) ? button("Stands up", `hero-up-${h}`, `hero-up:${h}`, over) : button("Defeated", `hero-defeated-${h}`, `hero-defeated:${h}`, over)) + "</div>").join(""));
  if (g.held.length || g.shop) {  // item slots: what the party holds, the shop open (docs/bundle.md, "Item slots")
    parts.push("<h3>Items</h3>" + (g.held.length ? `<div data-items="held">Held: ${esc(g.held.map((id) => g.itemText(id)).join("; "))}</div>` : "")
      + (g.shop ? `<div data-items="shop">Shop: ${esc(g.shop.map((id) => g.itemText(id)).join("; "))}</div>` : ""));
  }
  const doors = Object.keys(g.map.doors);
  if (doors.length) {
    const said = { off: "not on the board", open: "open", closed: "closed", locked: "closed, locked" };
    parts.push("<h3>Doors</h3>" + doors.map((d) => {
      const state = g.doorState(d);
      const act = state === "open" ? button("Close", `close-${d}`, `close:${d}`, over)
        : state === "off" ? "" : button("Open", `open-${d}`, `open:${d}`, over || state === "locked");
      return `<div class="door-row" data-door-state="${state}">${esc(d)}: <span data-door-row="${esc(d)}">${said[state]}</span> ${act}</div>`;
    }).join(""));
  }
  if (g.adventure) parts.push(adventurePanel());
  parts.push("<h3>Script</h3><ol class='script'>" + g.events.map(({ key, event }) => {
    const every = Game.everyRound(event.on);
    const count = g.counts.get(key) || 0;
    return `<li data-event="${esc(key)}" data-fired="${count}" class="${g.fired.has(key) && !every ? "fired" : ""}${event.can_fire ? "" : " never"}" title="${event.can_fire ? "" : "the compiler proved this can never fire"}">`
      + `on ${esc(describeTrigger(event.on))}${event.quota ? ` ${event.quota} times` : ""}${event.if ? " if " + esc(describeCondition(event.if)) : ""}: <span class="effects">${esc(describeEffects(event.do, text))}</span>`
      + `${every && count ? ` (fired ${count}×)` : ""}</li>`;
  }).join("") + "</ol>");
  $("panel").innerHTML = parts.join("");
  $("panel").querySelectorAll("button[data-action]").forEach((btn) => { btn.onclick = () => act(btn.dataset.action); });
  drawCampaign();
  $("log").innerHTML = g.log.map((l) => `<li class="${esc(l.kind)}">${esc(l.text)}</li>`).join("");
  $("log").scrollTop = $("log").scrollHeight;
  const out = $("outcome");
  out.hidden = !g.outcome;
  out.className = g.outcome ? g.outcome.result : "";
  out.dataset.result = g.outcome ? g.outcome.result : "";
  out.textContent = g.outcome ? `${{ win: "Victory", lose: "Defeat", end: "The end" }[g.outcome.result]}: ${g.outcome.text}` : "";
}

/** A spawn's monster as the panel names it: a custom monster's name, unique / lieutenant with
 *  its health for the hero count, an open group's pool. */
/** A custom monster's turn drawn this round: the ability, then master and minions in their order. */
function turnText(id) {
  const t = ui.game.turns.get(id);
  if (!t) return "";
  const said = (key, label) => (t[key] ? `<p data-turn-part="${key}"><b>${label}:</b> ${esc(text(t[key]))}</p>` : "");
  const order = t.first === "master" ? [["master", "Master"], ["minion", "Minions"]] : [["minion", "Minions"], ["master", "Master"]];
  return `<div class="card turn" data-turn="${esc(id)}" data-activation="${esc(t.id)}" data-first="${t.first}"><b>Activation ${esc(t.id)}</b> (${t.first} first)`
    + said("ability", "Ability") + order.map(([k, l]) => said(k, l)).join("") + "</div>";
}

function monsterLabel(s) {
  const g = ui.game;
  const custom = g.quest.monsters && g.quest.monsters[s.group];
  const parts = [custom && custom.name ? `${text(custom.name)}, based on ${custom.base}` : s.group];
  if (s.lieutenant) parts.push("lieutenant");
  else if (s.unique) parts.push("unique");
  const health = (s.healths && s.healths[String(g.heroes)]) ?? s.health;
  if (health !== undefined) parts.push(`health ${health}`);
  if (s.pool && s.pick === "random") parts.push(g.openChoice.has(s.id) ? `random group: ${g.openChoice.get(s.id)}` : `random group: one of ${s.pool.join(", ")}`);
  else if (s.pool) parts.push(g.openChoice.has(s.id) ? `open group: ${g.openChoice.get(s.id)}` : `open group (${(s.traits || []).join(", ")}): one of ${s.pool.join(", ")}`);
  return parts.join(", ");
}

function describeTrigger(on) {
  const extra = on.door || on.token || on.group || on.variable || on.area || (on.round !== undefined ? `round ${on.round}` : Game.everyRound(on) ? "of every round" : "");
  return `${on.kind}${extra ? " " + extra : ""}${on.at_least !== undefined ? " ≥ " + on.at_least : ""}`;
}

function adventurePanel() {
  const g = ui.game;
  const b = ui.bundle;
  const t = g.adventure.track;
  const over = g.waiting;
  const parts = [];
  if (t) {
    const cells = [];
    for (let k = t.spaces; k >= 1; k--) {
      const marks = (g.doom === k ? "D" : "") + (g.fate === k ? "F" : "");
      cells.push(`<span class="track-space${marks ? " marked" : ""}" data-track="${k}">${k}${marks ? " " + marks : ""}</span>`);
    }
    parts.push(`<h3>Overlord track</h3><div id="track" data-doom="${g.doom}" data-fate="${g.fate}">${cells.join("")}</div>`);
  }
  parts.push(`<h3>Exploration (seed ${g.seed})</h3><ol id="deck-order">` + g.drawn.map((c, k) => `<li class="${k === g.encounterIndex ? "current" : k < g.encounterIndex ? "done" : ""}" data-card="${esc(c)}">${esc(text(b.encounters[b.cards[c].encounter].name))}</li>`).join("") + "</ol>");
  const card = g.cardData;
  if (card) {
    parts.push(`<div class="card"><b>${esc(text(g.encounter.name))}</b>${card.rules ? "<p>" + esc(text(card.rules)) + "</p>" : ""}`
      + (card.overlord || []).map((o) => `<p>Overlord${o.hourglass ? ` (hourglass ${o.hourglass})` : ""}: ${esc(text(o.text))}</p>`).join("") + "</div>");
  }
  const heroFigs = g.encounter.hero_figures || [];
  parts.push("<div>" + button("Fate step", "fate-step", "fate-step", over) + button("A hero is defeated", "hero-defeated", "hero-defeated", over)
    + heroFigs.map((f) => button(`${f} is defeated`, `figure-defeated-${f}`, `figure-defeated:${f}`, over)).join("")
    + button("Hourglass fills", "hourglass", "hourglass", over || !g.activeCard)
    + button("Explore (next card)", "explore", "explore", over || g.encounterIndex + 1 >= g.drawn.length)
    + button("Draw activation card", "draw-activation", "draw-activation", over) + "</div>");
  if (g.activationCard) {
    const c = b.cards[g.activationCard];
    parts.push(`<div class="card" id="activation-card" data-card="${esc(g.activationCard)}"><b>Activation: ${esc(g.activationCard)}</b>`
      + (c.groups || []).map((gr) => `<p>${esc(gr.group)}: ${gr.effect ? esc(text(gr.effect)) + " " : ""}${esc(gr.boxes.map((bx) => bx.rank + ": " + bx.actions.map((a) => a.verb + (a.target && a.target.order ? " " + a.target.order : "")).join(", ")).join("; "))}</p>`).join("") + "</div>");
  }
  if (g.perils.length) {
    const last = b.cards[g.perils[g.perils.length - 1]];
    parts.push(`<div class="card" id="peril-card"><b>Peril: ${esc(g.perils[g.perils.length - 1])}</b><p>${esc(text(last.effect))}</p></div>`);
  }
  return parts.join("");
}

function act(action) {
  const g = ui.game;
  const [what, arg, by] = action.split(":");
  switch (what) {
    case "end-round": g.endRound(); break;
    case "morale-zero": g.moraleZero(); break;
    case "var": g.setVariable(arg, (g.variables[arg] ?? 0) + Number(by)); break;
    case "search": g.search(arg); break;
    case "pickup": g.pickUp(arg); break;
    case "defeat": g.defeat(arg); break;
    case "open": g.openDoor(arg); break;
    case "close": g.closeDoor(arg); break;
    case "fate-step": g.fateStep(); break;
    case "hero-defeated": g.heroDefeated(arg || null); break;
    case "hero-up": g.heroStandsUp(arg); break;
    case "open-group": g.chooseOpenGroup(arg, by); break;
    case "figure-defeated": g.figureDefeated(arg); break;
    case "hourglass": g.hourglass(); break;
    case "explore": g.explore(); break;
    case "draw-activation": g.drawActivation(); break;
    case "turn": g.monsterTurn(arg); break;
    case "choice": g.answer(Number(arg)); break;
    default: break;
  }
  draw();
}
ui.act = act;

// ------------------------------------------------------------------ the app campaign
// The pack's 2nd-edition campaigns (bundle `app_campaigns`) walked beside the quests:
// choose an open quest (Play loads it when the pack holds it), record its outcome (or the
// outcome the page reached), see what it unlocked, up to the ending (campaign_panel.js).
function setupCampaign() {
  const camps = Object.keys(ui.bundle.app_campaigns || {});
  const box = $("campaign");
  box.hidden = !camps.length;
  if (!camps.length) return;
  box.innerHTML = `<label>Campaign <select id="campaign-id" data-testid="campaign-id">${camps.map((c) => `<option value="${esc(c)}">${esc(text(ui.bundle.app_campaigns[c].name))}</option>`).join("")}</select></label>`
    + button("New campaign", "campaign-restart", "campaign-restart") + "<div id=\"campaign-body\"></div>";
  const fresh = () => { ui.campaign = new CampaignSession(ui.bundle, $("campaign-id").value, Number($("seed").value) || 0); drawCampaign(); };
  $("campaign-id").onchange = fresh;
  box.querySelector("[data-action=campaign-restart]").onclick = fresh;
  fresh();
}

function drawCampaign() {
  const s = ui.campaign;
  if (!s) return;
  const playable = (q) => q in ui.bundle.quests;
  let html = campaignHtml(s, text, playable);
  const g = ui.game;
  if (g && g.outcome && (g.outcome.result === "win" || g.outcome.result === "lose") && s.open().includes(g.questId)) {
    html += button(`Record ${g.outcome.result === "win" ? "won" : "lost"} for ${text(s.campaign.quests[g.questId].title)}`, "campaign-record", "campaign-record");
  }
  const body = $("campaign-body");
  body.innerHTML = html;
  body.querySelectorAll("button[data-campaign]").forEach((btn) => {
    const [what, q] = btn.dataset.campaign.split(":");
    btn.onclick = () => {
      if (what === "play") { $("quest").value = q; newGame(); return; }
      s.record(q, what);
      drawCampaign();
    };
  });
  const rec = body.querySelector("[data-action=campaign-record]");
  if (rec) rec.onclick = () => { s.record(g.questId, g.outcome.result === "win" ? "won" : "lost"); drawCampaign(); };
}

// ------------------------------------------------------------------ the 1st-edition campaign state
// The bundle's `campaign.state` (replayed by the compiler) shown week by week: a slider and
// first/previous/next/last buttons (rtl_state.js).
function setupRtlState() {
  const ids = stateIds(ui.bundle);
  const box = $("rtl");
  box.hidden = !ids.length;
  if (!ids.length) return;
  box.innerHTML = `<h3>Campaign state</h3><label>State <select id="rtl-id" data-testid="rtl-id">${ids.map((i) => `<option value="${esc(i)}">${esc(i)}</option>`).join("")}</select></label><div id="rtl-body"></div>`;
  const fresh = () => { ui.rtl = new StateView(ui.bundle, $("rtl-id").value); drawRtlState(); };
  $("rtl-id").onchange = fresh;
  fresh();
}

function drawRtlState() {
  const v = ui.rtl;
  const body = $("rtl-body");
  body.innerHTML = stateHtml(v);
  body.querySelectorAll("button[data-rtl]").forEach((btn) => { btn.onclick = () => { v[btn.dataset.rtl](); drawRtlState(); }; });
  const slider = $("rtl-week");
  slider.oninput = () => { v.go(slider.value); drawRtlState(); $("rtl-week").focus(); };
}

window.addEventListener("error", (e) => { if (!ui.bundle) showError(`The player failed to start: ${e.message}`); });
start();

// app.js: the questc web player's page. Loads bundle.json (beside this file), checks it,
// draws the map from its geometry and plays the quest (docs/player.md).

import { Geometry, seenFromLarge } from "./sight.js";
import { Moves } from "./moves.js";
import { Game, usesRandom, describeCondition } from "./play.js";
import { readBundle, BundleError } from "./validate.js";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const TERRAIN_FILL = { plain: "#e9e1cf", water: "#9cc3e6", pit: "#5a4a3a", lava: "#e0703a", hazard: "#d9b36a", obstacle: "#6b6b6b", fog: "#b8b8c8" };

const ui = {
  bundle: null, game: null, geo: null, a: null, b: null,
  mode: "points", amount: 5, figuresBlock: true, view: null, version: null,
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
      const status = await fetchStatus();
      ui.version = status ? versionOf(status) : null;
      showBuildErrors(status);
    }
    const [text, schemaText] = await Promise.all([fetchText("bundle.json"), fetchText("bundle.schema.json").catch(() => null)]);
    let schema = null;
    try { schema = schemaText ? JSON.parse(schemaText) : null; } catch { schema = null; }
    ui.bundle = readBundle(text, schema);
  } catch (e) {
    showError(e instanceof BundleError ? e.message : `The bundle cannot be read: ${e.message}`);
    pollVersion(); // under `questc serve`, the next good build brings the page back
    return;
  }
  setupControls();
  const quests = [...Object.keys(ui.bundle.quests), ...Object.keys(ui.bundle.encounters || {})];
  if (!quests.length) {
    showError(`Pack "${ui.bundle.pack.id}" has no quests to play (it holds catalogs only).`);
    return;
  }
  const wanted = new URLSearchParams(location.search).get("quest");
  if (wanted && [...$("quest").options].some((o) => o.value === wanted)) $("quest").value = wanted;
  newGame();
  document.body.dataset.state = "ready";
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
  if (box.dataset.key === key) return;  // the same failure: leave the overlay as it is (selection, scrolling)
  box.dataset.key = key;
  const n = status.summary || {};
  const said = `${n.errors || 0} error(s)${n.warnings ? `, ${n.warnings} warning(s)` : ""}`;
  box.innerHTML = `<h2>The last save does not build (${esc(said)})</h2>`
    + `<p>${ui.bundle ? "The page still plays the last good build; it" : "The page"} reloads by itself once the pack builds again.</p>`
    + "<ol>" + status.diagnostics.map((d) => `<li class="${esc(d.severity)}" data-code="${esc(d.code)}" data-file="${esc(d.file)}" data-line="${d.line}">`
      + `<span class="where">${esc(d.file)}:${d.line}:${d.column}</span> <b>${esc(d.severity)}[${esc(d.code)}]</b> ${esc(d.message)}`
      + (d.fix ? ` <span class="fix">(${d.fix.includes(" ") ? "" : "fix: "}${esc(d.fix)})</span>` : "") + "</li>").join("")
    + (status.more ? `<li>… and ${status.more} more (in the terminal)</li>` : "") + "</ol>";
}

// ------------------------------------------------------------------ controls
function setupControls() {
  const b = ui.bundle;
  $("title").textContent = `${b.pack.name || b.pack.id} ${b.pack.version || ""}`;
  const quest = $("quest");
  // quests, then each top-level encounter (those exploration decks deal) on its own
  quest.innerHTML = Object.keys(b.quests).map((q) => `<option value="${esc(q)}">${esc(text(b.quests[q].name))}</option>`).join("")
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
    : ui.mode === "points" ? moves.reach(origin, ui.amount) : moves.within(origin, ui.amount);
  return { seen, reach, moves, view, large: large || null };
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
  const spacesG = layer("spaces");
  map.spaces.forEach((s, i) => {
    const cls = ["space"];
    if (hidden.has(i)) cls.push("hidden");
    else if (ask && ask.seen.has(i)) cls.push("seen");
    el("rect", { x: s.x, y: s.y, width: 1, height: 1, class: cls.join(" "), "data-i": i, fill: hidden.has(i) ? "#222" : (TERRAIN_FILL[s.terrain] || "#ddd") }, spacesG);
  });
  // tile outlines: edges between spaces of different tiles
  const tileG = layer("tile-edges");
  map.spaces.forEach((s, i) => {
    for (const [dx, dy] of [[1, 0], [0, 1]]) {
      const j = geo.index(s.x + dx, s.y + dy);
      if (j >= 0 && map.spaces[j].tile !== s.tile) {
        line(dx ? [[s.x + 1, s.y], [s.x + 1, s.y + 1]] : [[s.x, s.y + 1], [s.x + 1, s.y + 1]], { class: "tile-edge" }, tileG);
      }
    }
  });
  const wallG = layer("walls");
  for (const w of map.walls) line(w, { class: "wall" }, wallG);
  const doorG = layer("doors");
  for (const [id, d] of Object.entries(map.doors)) {
    const state = g.doorState(id);  // a door off the board (hidden, removed) is not drawn: its alternative is
    if (state === "off") continue;
    const grp = el("g", { "data-door": id, "data-state": state, class: `door ${state === "open" ? "open" : "closed"}${state === "locked" ? " locked" : ""}` }, doorG);
    for (const e of d.edges) {
      line(e, { class: "door-line", stroke: d.colour || "#8b5a2b" }, grp);
      line(e, { class: "door-hit" }, grp);
    }
    el("title", {}, grp).textContent = state === "locked" ? `door ${id} (locked): an event must unlock it`
      : `door ${id} (${state}): click to ${state === "open" ? "close" : "open"} it`;
  }
  const markG = layer("marks");
  for (const i of g.encounter.start) {
    const s = map.spaces[i];
    if (!hidden.has(i)) el("rect", { x: s.x + 0.08, y: s.y + 0.08, width: 0.84, height: 0.84, class: "start" }, markG);
  }
  for (const t of g.tokens.values()) {
    const s = map.spaces[t.space];
    const c = el("circle", { cx: s.x + 0.5, cy: s.y + 0.5, r: 0.3, class: `token ${t.kind}`, fill: t.colour || "", "data-token": t.id }, markG);
    el("title", {}, c).textContent = `${t.kind} token ${t.id}${t.label ? ": " + text(t.label) : ""}`;
    const tx = el("text", { x: s.x + 0.5, y: s.y + 0.62, class: "token-text" }, markG);
    tx.textContent = t.kind[0].toUpperCase();
  }
  const figG = layer("figures");
  for (const f of g.figures) {
    const cells = f.spaces.map((i) => map.spaces[i]);
    const x0 = Math.min(...cells.map((c) => c.x)), y0 = Math.min(...cells.map((c) => c.y));
    const x1 = Math.max(...cells.map((c) => c.x)) + 1, y1 = Math.max(...cells.map((c) => c.y)) + 1;
    const r = el("rect", { x: x0 + 0.1, y: y0 + 0.1, width: x1 - x0 - 0.2, height: y1 - y0 - 0.2, rx: 0.15, class: `figure ${f.rank}`, "data-figure": f.key }, figG);
    el("title", {}, r).textContent = `${f.group} (${f.rank}) from spawn ${f.spawn}`;
    const tx = el("text", { x: (x0 + x1) / 2, y: (y0 + y1) / 2 + 0.12, class: "figure-text" }, figG);
    tx.textContent = f.group.slice(0, 2);
  }
  for (const h of g.heroFigures) {
    const s = map.spaces[h.space];
    el("circle", { cx: s.x + 0.5, cy: s.y + 0.5, r: 0.32, class: "hero", "data-hero": h.id }, figG);
    const tx = el("text", { x: s.x + 0.5, y: s.y + 0.62, class: "hero-text" }, figG);
    tx.textContent = h.id.replace("hero", "H");
  }
  const hiG = layer("highlight");
  let routeInfo = "";
  if (ask) {
    for (const i of ask.reach) {
      const s = map.spaces[i];
      el("rect", { x: s.x + 0.04, y: s.y + 0.04, width: 0.92, height: 0.92, class: "reach", "data-reach": i }, hiG);
    }
    const sa = map.spaces[ui.a];
    el("rect", { x: sa.x, y: sa.y, width: 1, height: 1, class: "selected a" }, hiG);
    if (ui.b !== null) {
      const sb = map.spaces[ui.b];
      el("rect", { x: sb.x, y: sb.y, width: 1, height: 1, class: "selected b" }, hiG);
      const r = ask.moves.route(ui.a, ui.b);
      ui.route = r;
      if (r.route) {
        el("polyline", { points: r.route.map((i) => `${map.spaces[i].x + 0.5},${map.spaces[i].y + 0.5}`).join(" "), class: "route" }, hiG);
      }
      routeInfo = `<div id="route" data-cost="${r.cost ?? ""}" data-steps="${r.steps ?? ""}">`
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
      + (s.pool && !g.openChoice.has(s.id) ? " Choose: " + s.pool.map((m) => button(m, `open-group-${s.id}-${m}`, `open-group:${s.id}:${m}`, over)).join("") : "")
      + "</div>").join(""));
  }
  parts.push("<h3>Heroes</h3>" + g.heroIds.map((h) => `<div class="hero-row">${esc(h)}: <span data-hero-state="${esc(h)}">${g.heroesDown.has(h) ? "defeated" : "standing"}</span> `
    + (g.heroesDown.has(h) ? button("Stands up", `hero-up-${h}`, `hero-up:${h}`, over) : button("Defeated", `hero-defeated-${h}`, `hero-defeated:${h}`, over)) + "</div>").join(""));
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
      + `on ${esc(describeTrigger(event.on))}${event.quota ? ` ${event.quota} times` : ""}${event.if ? " if " + esc(describeCondition(event.if)) : ""}: ${esc(event.do.map((e) => e.kind).join(", "))}`
      + `${every && count ? ` (fired ${count}×)` : ""}</li>`;
  }).join("") + "</ol>");
  $("panel").innerHTML = parts.join("");
  $("panel").querySelectorAll("button[data-action]").forEach((btn) => { btn.onclick = () => act(btn.dataset.action); });
  $("log").innerHTML = g.log.map((l) => `<li class="${esc(l.kind)}">${esc(l.text)}</li>`).join("");
  $("log").scrollTop = $("log").scrollHeight;
  const out = $("outcome");
  out.hidden = !g.outcome;
  out.className = g.outcome ? g.outcome.result : "";
  out.dataset.result = g.outcome ? g.outcome.result : "";
  out.textContent = g.outcome ? `${g.outcome.result === "win" ? "Victory" : "Defeat"}: ${g.outcome.text}` : "";
}

/** A spawn's monster as the panel names it: a custom monster's name, unique / lieutenant with
 *  its health for the hero count, an open group's pool. */
function monsterLabel(s) {
  const g = ui.game;
  const custom = g.quest.monsters && g.quest.monsters[s.group];
  const parts = [custom && custom.name ? `${text(custom.name)}, based on ${custom.base}` : s.group];
  if (s.lieutenant) parts.push("lieutenant");
  else if (s.unique) parts.push("unique");
  const health = (s.healths && s.healths[String(g.heroes)]) ?? s.health;
  if (health !== undefined) parts.push(`health ${health}`);
  if (s.pool) parts.push(g.openChoice.has(s.id) ? `open group: ${g.openChoice.get(s.id)}` : `open group (${(s.traits || []).join(", ")}): one of ${s.pool.join(", ")}`);
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
    case "choice": g.answer(Number(arg)); break;
    default: break;
  }
  draw();
}
ui.act = act;

window.addEventListener("error", (e) => { if (!ui.bundle) showError(`The player failed to start: ${e.message}`); });
start();

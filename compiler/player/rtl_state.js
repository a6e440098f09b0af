// rtl_state.js: the web player's view of a 1st-edition campaign state (the bundle's
// `campaign.state`, replayed by the compiler: compiler/model/rtl_state.py; docs/player.md,
// "The 1st-edition campaign state"). A StateView steps through the recorded weeks (first,
// previous, next, last, or any week); stateHtml() draws the chosen week: the level,
// conquest, XP earned and spent, coins, the party, lieutenants, sieges and razed cities,
// upgrades, quest items, the heroes' dice and skills, the dungeon of the week, and what was
// recorded. No rule is computed here: every number is the compiler's. Kept apart from
// app.js so node can test it (tests/player/rtl_state.test.mjs).

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** The ids of the bundle's 1st-edition campaign states, sorted. */
export function stateIds(bundle) {
  return Object.keys(((bundle || {}).campaign || {}).state || {}).sort();
}

export class StateView {
  constructor(bundle, id) {
    const state = stateIds(bundle).includes(id) ? bundle.campaign.state[id] : null;
    if (!state) throw new Error(`no campaign state ${id} in the bundle`);
    this.bundle = bundle;
    this.id = id;
    this.state = state;
    this.world = (bundle.worlds || {})[state.world] || { locations: {} };
    this.index = this.weeks.length ? this.weeks.length - 1 : -1; // the last week first: the state after the record
  }

  get weeks() { return this.state.weeks || []; }
  get count() { return this.weeks.length; }
  /** The chosen week's state (null when nothing is recorded). */
  get week() { return this.index >= 0 ? this.weeks[this.index] : null; }
  /** What was recorded for the chosen week (its note and events). */
  get record() { return this.index >= 0 ? (this.state.record || [])[this.index] || {} : {}; }

  /** Go to week n (1-based), kept within the record. */
  go(n) {
    if (!this.count) return this;
    this.index = Math.max(0, Math.min(this.count - 1, Math.trunc(Number(n) || 1) - 1));
    return this;
  }
  next() { return this.go(this.index + 2); }
  previous() { return this.go(this.index); }
  first() { return this.go(1); }
  last() { return this.go(this.count); }

  /** A location's name in the world (its id when the world lacks it). */
  place(id) {
    if (id === "party") return "the party";
    const loc = this.world.locations[id];
    if (loc) return loc.name || id;
    const lt = (this.state.lieutenants || {})[id];
    return lt ? lt.name : id;
  }

  /** An upgrade's name (a Tamalir or a party upgrade card). */
  upgrade(id) {
    return this.name("tamalir_upgrades", id) !== id ? this.name("tamalir_upgrades", id) : this.name("party_upgrades", id);
  }

  name(table, id) {
    const item = ((this.state[table] || {})[id]) || null;
    return item && item.name ? item.name : id;
  }

  /** Each siege as {city, tokens, defense}. */
  sieges() {
    const w = this.week;
    if (!w) return [];
    return Object.keys(w.sieges).sort().map((city) => ({ city, tokens: w.sieges[city], defense: (this.world.locations[city] || {}).defense ?? null }));
  }

  /** XP left for each hero named in the record ("every hero" when none is), and the overlord's. */
  xpLeft() {
    const w = this.week;
    if (!w) return { heroes: {}, overlord: 0 };
    const spent = w.xp.hero_spent || {};
    const all = spent.all || 0;
    const heroes = {};
    const named = Object.keys(spent).filter((h) => h !== "all").sort();
    for (const h of named) heroes[h] = w.xp.each_hero - all - spent[h];
    if (!named.length) heroes["every hero"] = w.xp.each_hero - all;
    return { heroes, overlord: w.xp.overlord - w.xp.overlord_spent };
  }
}

function row(label, value, key) {
  return `<tr data-row="${esc(key)}"><th>${esc(label)}</th><td>${value}</td></tr>`;
}

function dice(d) {
  return ["black", "silver", "gold"].filter((c) => d[c]).map((c) => `${d[c]} ${c}`).join(", ") || "none";
}

/** The chosen week as HTML; data- attributes carry the numbers for tests and styles. */
export function stateHtml(view) {
  const w = view.week;
  const head = `<div id="rtl-nav">`
    + `<button data-rtl="first" data-testid="rtl-first">&laquo;</button><button data-rtl="previous" data-testid="rtl-previous">&lsaquo;</button>`
    + `<input id="rtl-week" data-testid="rtl-week" type="range" min="1" max="${view.count || 1}" value="${w ? w.week : 1}"${view.count ? "" : " disabled"}>`
    + `<button data-rtl="next" data-testid="rtl-next">&rsaquo;</button><button data-rtl="last" data-testid="rtl-last">&raquo;</button></div>`;
  if (!w) return head + `<p id="rtl-state" data-week="0">No week is recorded.</p>`;
  const c = w.conquest;
  const left = view.xpLeft();
  const spent = Object.entries(w.xp.hero_spent || {}).map(([h, n]) => `${h === "all" ? "every hero" : esc(h)} ${n}`).join(", ") || "none";
  const list = (items) => items.length ? items.join(", ") : "none";
  let html = head + `<table id="rtl-state" data-week="${w.week}" data-level="${esc(w.level || "")}" data-ended="${esc(w.ended || "")}">`;
  html += `<caption>Week ${w.week} of ${view.count}${w.level ? `, ${esc(w.level)} level` : ""}${w.ended ? ` — the campaign has ended (${esc(w.ended)})` : ""}</caption>`;
  html += row("Conquest", `heroes <b data-total="heroes">${c.heroes}</b> + overlord <b data-total="overlord">${c.overlord}</b> = <b data-total="combined">${c.combined}</b>`, "conquest");
  html += row("XP", `each hero earned <b data-total="hero-xp">${w.xp.each_hero}</b> (spent: ${spent}); left: `
    + Object.entries(left.heroes).map(([h, n]) => `${esc(h)} <span data-left="${esc(h)}">${n}</span>`).join(", ")
    + `; overlord <b data-total="overlord-xp">${w.xp.overlord}</b> (spent ${w.xp.overlord_spent})`, "xp");
  html += row("Coins", `<b data-total="coins">${w.treasury}</b>`, "coins");
  html += row("Party", `at <span data-party="${esc(w.party_at)}">${esc(view.place(w.party_at))}</span>`, "party");
  html += row("Lieutenants", list(Object.keys(w.lieutenants).sort().map((l) => `<span data-lieutenant="${esc(l)}" data-at="${esc(w.lieutenants[l])}">${esc(view.name("lieutenants", l))} at ${esc(view.place(w.lieutenants[l]))}</span>`)), "lieutenants");
  html += row("Sieges", list(view.sieges().map((s) => `<span data-siege="${esc(s.city)}" data-tokens="${s.tokens}">${esc(view.place(s.city))} ${s.tokens}/${s.defense ?? "?"}</span>`)), "sieges");
  html += row("Razed", list(w.razed.map((r) => `<span data-razed="${esc(r)}">${esc(view.place(r))}</span>`)), "razed");
  html += row("Upgrades", list(w.upgrades.map((u) => `<span data-upgrade="${esc(u)}">${esc(view.upgrade(u))}</span>`)), "upgrades");
  html += row("Quest items", list(Object.keys(w.items).sort().map((i) => `<span data-item="${esc(i)}" data-with="${esc(w.items[i])}">${esc(view.name("quest_items", i))}: ${esc(view.place(w.items[i]))}</span>`)), "items");
  if (w.heroes && Object.keys(w.heroes).length) {
    html += row("Heroes", Object.keys(w.heroes).sort().map((h) => {
      const hero = w.heroes[h];
      const traits = Object.keys(hero.dice || {}).sort().map((t) => `${esc(t)} ${dice(hero.dice[t])}`).join("; ");
      return `<div data-hero="${esc(h)}" data-skills="${(hero.skills || []).length}">${esc(view.name("hero_sheets", h))}: ${traits}; skills ${esc(list(hero.skills || []))}</div>`;
    }).join(""), "heroes");
  }
  if (w.dungeon) {
    const d = w.dungeon;
    html += row("Dungeon", `<span data-dungeon="${esc(d.at)}" data-reinforcement="${esc(d.reinforcement || "")}" data-threat="${d.threat ?? 0}">${esc(view.place(d.at))}: `
      + `fortified by ${list((d.fortified || []).map((l) => esc(view.name("lieutenants", l))))}; Power cards in play ${list((d.power_cards || []).map(esc))}; `
      + `threat ${d.threat ?? 0}; reinforcement marker ${esc(d.reinforcement || "-")}; levels ${d.levels ?? 0}; spawn cards ${d.spawns ?? 0}, marker turned up ${d.flips ?? 0}</span>`, "dungeon");
  }
  html += `</table>`;
  const rec = view.record;
  html += `<div id="rtl-record">${rec.note ? `<p>${esc(rec.note)}</p>` : ""}<ol>${(rec.events || []).map((e) => `<li data-do="${esc(e.do)}">${esc(Object.entries(e).map(([k, v]) => k === "do" ? v : `${k} ${v}`).join(", "))}</li>`).join("")}</ol></div>`;
  return html;
}

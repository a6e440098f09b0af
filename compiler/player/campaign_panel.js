// campaign_panel.js: the web player's campaign walk on screen (docs/player.md, "Campaigns").
// A CampaignSession wraps a CampaignWalk (campaign.js) with what the page shows: the side
// quests the app offers at this step (drawn once per step with Python's random.Random(seed),
// deal.js), the log of outcomes recorded, and what each outcome unlocked. campaignHtml()
// draws it; app.js wires its buttons. Kept apart from app.js so node can test it.

import { CampaignWalk } from "./campaign.js";
import { PythonRandom } from "./deal.js";

/** Python's random.random() on deal.js's Mersenne Twister: 53 bits from two outputs. */
export function pyRandom(rng) {
  const a = rng.uint32() >>> 5, b = rng.uint32() >>> 6;
  return (a * 67108864 + b) / 9007199254740992;
}

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export class CampaignSession {
  constructor(bundle, id, seed = 0) {
    this.bundle = bundle;
    this.id = id;
    this.walk = new CampaignWalk(bundle, id);
    this.rng = new PythonRandom(seed);
    this.history = []; // { quest, outcome, unlocked: [ids], act, travel: event id or null, answer: its answer ("ID", "ID won|lost") or null }
    this.unlocked = []; // what the last outcome opened
    this.offered = this.walk.offer(() => pyRandom(this.rng));
  }

  get campaign() { return this.walk.campaign; }

  /** The quests the party may choose now, in written order: the due ones, or the open
   *  story, interlude and finale quests and the side quests the app offers. */
  open() {
    const { spine, due } = this.walk.choices();
    if (due.length) return due;
    return this.walk.order.filter((id) => spine.includes(id) || this.offered.includes(id));
  }

  /** Record an outcome: the walk moves on, a new offer is drawn, and the quests open now
   *  that were not before are what it unlocked. */
  record(id, outcome) {
    const before = new Set(this.available());
    const act = this.walk.act;
    this.walk.record(id, outcome);
    const travel = this.journey();
    const answer = travel ? this.answer(travel) : null;
    this.offered = this.walk.offer(() => pyRandom(this.rng));
    this.unlocked = this.available().filter((q) => !before.has(q));
    this.history.push({ quest: id, outcome, unlocked: this.unlocked, act, travel, answer });
  }

  /** The party's answer to a travel event with `answers`, drawn as questc's runs draw it
   *  (docs/campaign.md): Python's choice() among them, then for a test random() against
   *  its exact odds; "ID", "ID won" or "ID lost"; null for an event without answers. */
  answer(eventId) {
    const event = (this.campaign.travel || []).find((t) => t.id === eventId);
    const answers = (event && event.answers) || [];
    if (!answers.length) return null;
    const a = answers[this.rng.below(answers.length)];
    if (!a.odds) return a.id;
    const [n, d] = a.odds.exact.split("/").map(Number);
    return `${a.id} ${pyRandom(this.rng) * d < n ? "won" : "lost"}`;
  }

  /** The travel event met on the way to the quest just played: one random() against the
   *  events' exact odds in written order (docs/campaign.md), or null. */
  journey() {
    const events = this.campaign.travel || [];
    if (!events.length) return null;
    const x = pyRandom(this.rng);
    let num = 0, den = 1;
    for (const t of events) {
      const [n, d] = t.odds.exact.split("/").map(Number);
      [num, den] = [num * d + n * den, den * d];
      if (x * den < num) return t.id;
    }
    return null;
  }

  /** The shop items each city offers at the fame the party has now. */
  shops() {
    const fame = this.totals().fame;
    return Object.entries(this.campaign.cities || {}).map(([id, c]) => ({
      id, name: c.name, items: c.sells.filter((g) => g.fame <= fame).flatMap((g) => g.items),
    }));
  }

  /** Every quest open in the walk (spine and the whole side pool), offered or not. */
  available() {
    const { spine, sides } = this.walk.choices();
    return [...spine, ...sides];
  }

  /** Gold, XP and fame the outcomes recorded have paid (the quests' `rewards`, the travel
   *  events met and their answers, docs/campaign.md); fame never falls below 0. */
  totals() {
    const out = { gold: 0, xp: 0, fame: 0 };
    const events = Object.fromEntries((this.campaign.travel || []).map((t) => [t.id, t]));
    for (const { quest, outcome, travel, answer } of this.history) {
      const step = { gold: 0, xp: 0, fame: 0 };
      const add = (rewards, when) => {
        for (const p of rewards || []) {
          if (p.when !== "any" && p.when !== when) continue;
          for (const k of Object.keys(step)) step[k] += p[k] || 0;
        }
      };
      add(this.campaign.quests[quest].rewards, outcome);
      if (travel) {
        add(events[travel].rewards, null);
        if (answer) {
          const [aid, result] = answer.split(" ");
          add(((events[travel].answers || []).find((a) => a.id === aid) || {}).rewards, result || null);
        }
      }
      out.gold += step.gold;
      out.xp += step.xp;
      out.fame = Math.max(0, out.fame + step.fame);
    }
    return out;
  }
}

function ending(walk) {
  return { won: "The heroes won the campaign", lost: "The heroes lost the campaign", none: "The campaign ended without a finale" }[walk.ending];
}

/** The campaign box as HTML; `text` turns a string id into words; `playable` tells
 *  whether a quest id is one the page can play. */
export function campaignHtml(session, text, playable) {
  const w = session.walk;
  const c = session.campaign;
  const parts = [`<h3>Campaign: ${esc(text(c.name))}</h3>`];
  const totals = session.totals();
  const diff = c.difficulty;
  if (diff) {
    parts.push(`<div id="campaign-difficulty" data-setting="${esc(diff.setting)}">Difficulty ${esc(diff.setting)}: each hero starts with ${diff.gold_per_hero} gold${c.delve ? ` and ${diff.delve_xp} XP` : ""}`
      + (diff.peril_rounds ? `; peril rises every <span data-peril="${diff.peril_rounds}">${diff.peril_rounds}</span> rounds${diff.peril_illustrative ? " (illustrative)" : ""}` : "") + "</div>");
  }
  parts.push(`<div id="campaign-state" data-act="${w.act ?? ""}" data-ending="${w.ending ?? ""}" data-weeks="${w.weeks}">`
    + (w.ending === null ? `Act ${w.act}` : esc(ending(w))) + `, week ${w.weeks}`
    + ` · gold <span data-total="gold">${totals.gold}</span> · XP <span data-total="xp">${totals.xp}</span> · fame <span data-total="fame">${totals.fame}</span></div>`);
  if (session.unlocked.length) {
    parts.push(`<div id="campaign-unlocked" data-testid="campaign-unlocked">Unlocked: ${session.unlocked.map((q) => `<span data-quest="${esc(q)}">${esc(text(c.quests[q].title))}</span>`).join(", ")}</div>`);
  }
  const due = w.choices().due;
  if (w.ending === null) {
    parts.push("<ul id=\"campaign-open\">" + session.open().map((q) => {
      const quest = c.quests[q];
      const weeks = w.timers[q] !== undefined ? ` (begin in ${w.timers[q]} week${w.timers[q] === 1 ? "" : "s"})` : "";
      return `<li data-quest="${esc(q)}" data-kind="${esc(quest.kind)}">${esc(quest.kind)}: ${esc(text(quest.title))}${weeks}${due.includes(q) ? " — due now" : ""} `
        + (playable(q) ? `<button data-testid="campaign-play-${esc(q)}" data-campaign="play:${esc(q)}">Play</button>` : "")
        + `<button data-testid="campaign-won-${esc(q)}" data-campaign="won:${esc(q)}">Won</button>`
        + `<button data-testid="campaign-lost-${esc(q)}" data-campaign="lost:${esc(q)}">Lost</button></li>`;
    }).join("") + "</ul>");
  }
  const events = Object.fromEntries((c.travel || []).map((t) => [t.id, t]));
  if (session.history.length) {
    const answered = (h) => {
      if (!h.answer) return "";
      const [aid, result] = h.answer.split(" ");
      const a = (events[h.travel].answers || []).find((x) => x.id === aid) || {};
      return ` (${esc(a.title ? text(a.title) : aid)}${result ? `: ${result === "won" ? "passed" : "failed"}` : ""})`;
    };
    parts.push("<ol id=\"campaign-history\">" + session.history.map((h) => `<li data-quest="${esc(h.quest)}" data-outcome="${h.outcome}" data-travel="${esc(h.travel || "")}" data-answer="${esc(h.answer || "")}">`
      + (h.travel ? `On the way: ${esc(events[h.travel].title ? text(events[h.travel].title) : h.travel)}${answered(h)}. ` : "")
      + `${esc(text(c.quests[h.quest].title))}: ${h.outcome}`
      + (h.unlocked.length ? ` → ${h.unlocked.map((q) => esc(text(c.quests[q].title))).join(", ")}` : "") + "</li>").join("") + "</ol>");
  }
  const shops = session.shops();
  if (shops.length) {
    const prices = c.prices || {};
    const priced = (i) => (prices[i] !== undefined ? `${i} (${prices[i]} gold)` : i);
    parts.push("<div id=\"campaign-shops\">" + shops.map((sh) => {
      const stock = (c.cities[sh.id] || {}).stock;
      return `<div data-city="${esc(sh.id)}"${stock ? ` data-stock="${stock}"` : ""}>${esc(sh.name ? text(sh.name) : sh.id)} sells (a week a visit`
        + (stock ? `; ${stock} of these on sale at a time` : "") + "): "
        + `<span data-items="${esc(sh.items.join(" "))}">${esc(sh.items.map(priced).join(", ") || "nothing yet")}</span></div>`;
    }).join("") + "</div>");
  }
  return parts.join("");
}

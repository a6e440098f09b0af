// play.js: the state of one quest in play and its event script (docs/bundle.md, "Events").
//
// No DOM here: the page (app.js) calls the trigger methods (openDoor, search, pickUp,
// defeat, enter, endRound, setVariable, moraleZero; for cooperative adventures also
// fateStep, heroDefeated, figureDefeated, hourglass, explore) and redraws from the state.
//
// Semantics (written down in docs/bundle.md):
// - An event fires at most once, when its trigger happens; events whose triggers happen
//   together fire in the order written. Its effects apply in order.
// - Effects that cause triggers (opening a door, changing a variable) queue them; they
//   are handled once the current event's effects are done, first in first out.
// - `win` and `lose` end the quest at once: nothing after them happens.
// - `next` moves on to the next encounter once the event's effects are done; triggers
//   still queued for the old encounter are dropped.
// - A `variable` event fires as soon as its variable is at least `at_least`.

import { deal, playable } from "./deal.js";

export class Game {
  /** quest: the quest object when it is not `bundle.quests[questId]` (a top-level encounter played alone). */
  constructor(bundle, questId, { heroes = null, lang = null, seed = 0, quest = null } = {}) {
    this.bundle = bundle;
    this.questId = questId;
    this.quest = quest || bundle.quests[questId];
    const [low, high] = this.quest.heroes;
    this.heroes = Math.min(high, Math.max(low, heroes || low));
    this.lang = lang;
    this.seed = seed;
    this.log = [];
    this.outcome = null;
    this.round = 1;
    this.fired = new Set();
    this.queue = [];
    this.adventure = this.quest.adventure || null;
    if (this.adventure) this._dealAdventure();
    this._enter(0, true);
  }

  text(id) {
    if (!id) return "";
    const tr = this.lang && this.bundle.translations && this.bundle.translations[this.lang];
    if (tr && tr[id] !== undefined) return tr[id];
    const s = this.bundle.strings[id];
    return s ? s.text : id;
  }

  // ---------------------------------------------------------------- encounters
  get encounterCount() { return this.adventure ? this.drawn.length : this.quest.encounters.length; }

  _dealAdventure() {
    const a = this.adventure;
    const decks = this.bundle.decks;
    const ex = decks[a.decks.exploration];
    this.order = deal(ex, this.seed);
    this.drawn = playable(ex, this.order);
    this.activation = a.decks.activation ? deal(decks[a.decks.activation], this.seed) : [];
    this.peril = a.decks.peril ? deal(decks[a.decks.peril], this.seed) : [];
    this.activationAt = 0;
    this.perilAt = 0;
    this.activeCard = null;
    this.perils = [];
    const t = a.track;
    if (t) {
      this.doom = t.doom.start[String(this.heroes)];
      this.fate = t.fate.start[String(this.heroes)];
    }
  }

  _enter(k, first = false) {
    this.encounterIndex = k;
    if (this.adventure) {
      this.card = this.drawn[k];
      this.cardData = this.bundle.cards[this.card];
      this.encounter = this.bundle.encounters[this.cardData.encounter];
      this.activeCard = this.card;
      this.hourglass = {};
    } else {
      this.encounter = this.quest.encounters[k];
    }
    const enc = this.encounter;
    const map = enc.map;
    this.map = map;
    this.fired = new Set([...this.fired].filter((key) => key.startsWith("adv:")));
    this.queue = [];
    this.revealed = new Set(map.tiles.filter((t) => !t.hidden).map((t) => t.name));
    this.openDoors = new Set(Object.keys(map.doors).filter((d) => map.doors[d].open));
    this.variables = { ...enc.variables };
    this.tokens = new Map();
    for (const t of enc.tokens) if (t.when === "setup" && this.revealed.has(t.tile)) this.tokens.set(t.id, t);
    this.figures = [];
    this.placed = new Set();
    this.defeatedSpawns = new Set();
    for (const s of enc.spawns) if (s.when === "setup" && this.revealed.has(s.tile ?? "")) this._spawn(s.id);
    for (const s of enc.spawns) if (s.when === "setup" && s.tile === null) this._spawn(s.id);
    // heroes on the first N start spaces (a party of N may take any N of them)
    const starts = [...enc.start];
    this.heroFigures = starts.slice(0, this.heroes).map((space, i) => ({ id: `hero${i + 1}`, space }));
    if (enc.flavor) this._say(enc.flavor, "flavor");
    if (first) this.fire({ kind: "start" });
    this.fire({ kind: "encounter_start" });
    this.fire({ kind: "variable" });
  }

  /** Space indices out of play: those of tiles still hidden. */
  get hiddenSpaces() {
    const out = [];
    this.map.spaces.forEach((s, i) => { if (!this.revealed.has(s.tile)) out.push(i); });
    return out;
  }

  /** Space indices holding a figure (monsters and heroes). */
  get figureSpaces() {
    const out = new Set();
    for (const f of this.figures) for (const i of f.spaces) out.add(i);
    for (const h of this.heroFigures) out.add(h.space);
    return out;
  }

  _spawn(id) {
    if (this.placed.has(id)) return;
    const s = this.encounter.spawns.find((x) => x.id === id);
    if (!s) return;
    this.placed.add(id);
    const figs = s.figures[String(this.heroes)] || [];
    figs.forEach((f, k) => this.figures.push({ key: `${id}#${k}`, spawn: id, group: s.group, rank: f.rank, spaces: f.spaces, size: f.size, space: f.space }));
  }

  _say(id, kind = "say") { this.log.push({ kind, text: this.text(id), id }); }

  // ---------------------------------------------------------------- the script
  get events() {
    const own = this.encounter.events.map((e) => ({ key: `enc${this.encounterIndex}:${e.index}`, event: e }));
    const adv = this.adventure ? this.adventure.events.map((e) => ({ key: `adv:${e.index}`, event: e })) : [];
    return [...own, ...adv];
  }

  _matches(on, t) {
    if (on.kind !== t.kind) return false;
    switch (on.kind) {
      case "round_end": return on.round === t.round;
      case "open": return on.door === t.door;
      case "defeated": return on.group === t.group;
      case "searched": case "picked_up": return on.token === t.token;
      case "enters": return (on.spaces || []).includes(t.space);
      case "variable": return (this.variables[on.variable] ?? 0) >= on.at_least;
      default: return true;
    }
  }

  /** A trigger happens: fire every matching event not fired yet, in the order written. */
  fire(trigger) {
    this.queue.push(trigger);
    if (this._busy) return;
    this._busy = true;
    try {
      while (this.queue.length && !this.outcome) {
        const t = this.queue.shift();
        for (const { key, event } of this.events) {
          if (this.outcome || this.fired.has(key) || !this._matches(event.on, t)) continue;
          if (event.if) continue;  // conditions are not played yet (issue 31): such an event never fires here
          this.fired.add(key);
          const next = this._apply(event);
          if (next && !this.outcome) { this._next(); break; }
        }
      }
    } finally {
      this._busy = false;
    }
  }

  _apply(event) {
    let next = false;
    for (const e of event.do) {
      if (this.outcome) break;
      switch (e.kind) {
        case "say": this._say(e.text); break;
        case "win": case "lose":
          this.outcome = { result: e.kind, text: this.text(e.text) };
          this.log.push({ kind: e.kind, text: this.text(e.text) || (e.kind === "win" ? "The heroes win." : "The heroes lose.") });
          break;
        case "reveal":
          for (const tile of e.tiles) this._reveal(tile);
          break;
        case "spawn": this._spawn(e.spawn); break;
        case "place_token": {
          const t = this.encounter.tokens.find((x) => x.id === e.token);
          if (t) this.tokens.set(t.id, t);
          break;
        }
        case "remove_token": this.tokens.delete(e.token); break;
        case "set": {
          let value = e.value;
          if (e.from !== undefined) value = this.variables[e.from] ?? 0;
          else if (e.random) value = e.random[0] + Math.floor(Math.random() * (e.random[1] - e.random[0] + 1));
          this.variables[e.variable] = value;
          this.queue.push({ kind: "variable" });
          break;
        }
        case "advance": case "add": this.variables[e.variable] = (this.variables[e.variable] ?? 0) + e.by; this.queue.push({ kind: "variable" }); break;
        case "activate": this.log.push({ kind: "say", text: `The ${e.group} group activates now.` }); break;
        case "open": if (!this.openDoors.has(e.door)) { this.openDoors.add(e.door); this.queue.push({ kind: "open", door: e.door }); } break;
        case "close": this.openDoors.delete(e.door); break;
        case "next": next = true; break;
        default: break;
      }
    }
    return next;
  }

  _reveal(tile) {
    if (this.revealed.has(tile)) return;
    this.revealed.add(tile);
    for (const t of this.encounter.tokens) if (t.when === "setup" && t.tile === tile) this.tokens.set(t.id, t);
    for (const s of this.encounter.spawns) if (s.when === "setup" && s.tile === tile) this._spawn(s.id);
  }

  _next() {
    this.queue = [];
    if (this.encounterIndex + 1 < this.encounterCount) {
      this.log.push({ kind: "info", text: `Encounter ${this.encounterIndex + 2} begins.` });
      this._enter(this.encounterIndex + 1);
    }
  }

  // ---------------------------------------------------------------- what players do
  openDoor(id) {
    if (this.outcome || this.openDoors.has(id)) return;
    this.openDoors.add(id);
    this.fire({ kind: "open", door: id });
  }

  closeDoor(id) { if (!this.outcome) this.openDoors.delete(id); }

  search(token) { if (!this.outcome && this.tokens.has(token)) this.fire({ kind: "searched", token }); }

  pickUp(token) { if (!this.outcome && this.tokens.has(token)) this.fire({ kind: "picked_up", token }); }

  enter(space) { if (!this.outcome) this.fire({ kind: "enters", space }); }

  moveHero(hero, space) {
    const h = this.heroFigures.find((x) => x.id === hero);
    if (!h || this.outcome) return;
    h.space = space;
    this.enter(space);
  }

  moraleZero() { if (!this.outcome) this.fire({ kind: "morale_zero" }); }

  setVariable(name, value) {
    if (this.outcome) return;
    this.variables[name] = value;
    this.fire({ kind: "variable" });
  }

  /** Defeat every figure of spawn `id`; `defeated` fires for a named spawn's id, and for a
   *  monster group once every spawn of that group placed so far is defeated. */
  defeat(id) {
    if (this.outcome) return;
    const s = this.encounter.spawns.find((x) => x.id === id);
    if (!s) return;
    this.figures = this.figures.filter((f) => f.spawn !== id);
    this.defeatedSpawns.add(id);
    if (id !== s.group) this.fire({ kind: "defeated", group: id });
    const same = this.encounter.spawns.filter((x) => x.group === s.group && this.placed.has(x.id));
    if (same.every((x) => this.defeatedSpawns.has(x.id))) this.fire({ kind: "defeated", group: s.group });
  }

  endRound() {
    if (this.outcome) return;
    const round = this.round;
    this.round += 1;
    this.fire({ kind: "round_end", round });
    this._track("round_end");
  }

  // ---------------------------------------------------------------- cooperative adventures
  _track(source, detail = {}) {
    const t = this.adventure && this.adventure.track;
    if (!t || this.outcome) return;
    for (const r of t.rules) {
      if (r.source !== source) continue;
      if (source === "defeated" && r.figure !== detail.figure) continue;
      if (source === "hourglass" && !(r.cards || []).includes(detail.card)) continue;
      if (r.action === "advance") {
        if (r.marker === "doom") this.doom = Math.min(t.spaces, this.doom + r.by);
        else this.fate = Math.max(1, this.fate - r.by);
        this.log.push({ kind: "info", text: `${r.marker === "doom" ? "Doom" : "Fate"} moves to space ${r.marker === "doom" ? this.doom : this.fate}.` });
      } else if (r.action === "draw_peril") {
        this.drawPeril();
      }
    }
    if (this.doom >= this.fate) this.fire({ kind: "doom_reaches_fate" });
  }

  get trackMet() { return this.adventure && this.adventure.track ? this.doom >= this.fate : false; }

  /** The Overlord phase's Fate step (while no exploration card is active). */
  fateStep() { if (!this.outcome) this._track("fate_step"); }

  heroDefeated() { if (!this.outcome) this._track("hero_defeated"); }

  /** A figure that counts as a hero (e.g. a villager token such as Desmond) is defeated. */
  figureDefeated(figure) { if (!this.outcome) this._track("defeated", { figure }); }

  /** The hourglass overlord effect of the active exploration card fills. */
  hourglass() { if (!this.outcome && this.activeCard) this._track("hourglass", { card: this.activeCard }); }

  /** Resolve the active exploration card (it stays on the table, no longer active). */
  resolveCard() { this.activeCard = null; }

  drawPeril() {
    if (!this.peril.length) return null;
    const card = this.peril[this.perilAt % this.peril.length];
    this.perilAt += 1;
    this.perils.push(card);
    const c = this.bundle.cards[card];
    this.log.push({ kind: "peril", text: `Peril: ${this.text(c && c.effect)}`, card });
    return card;
  }

  drawActivation() {
    if (!this.activation.length) return null;
    const card = this.activation[this.activationAt % this.activation.length];
    this.activationAt += 1;
    this.activationCard = card;
    return card;
  }

  /** Explore: draw the next exploration card and set its encounter up. */
  explore() {
    if (this.outcome || !this.adventure || this.encounterIndex + 1 >= this.drawn.length) return;
    this.log.push({ kind: "info", text: `Explored: ${this.text(this.bundle.encounters[this.bundle.cards[this.drawn[this.encounterIndex + 1]].encounter].name)}.` });
    this._enter(this.encounterIndex + 1);
  }
}

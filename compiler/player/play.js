// play.js: the state of one quest in play and its event script (docs/bundle.md, "Events").
//
// No DOM here: the page (app.js) calls the trigger methods (openDoor, search, pickUp,
// defeat, enter, endRound, setVariable, moraleZero, heroDefeated, heroStandsUp; for
// cooperative adventures also fateStep, figureDefeated, hourglass, explore), answers
// questions (`asking`, `answer`) and redraws from the state.
//
// Semantics (written down in docs/bundle.md):
// - An event fires at most once, when its trigger happens and its `if` holds (a failed
//   condition does not use it up); events whose triggers happen together fire in the
//   order written. Its effects apply in order. Round events without a `round` fire at
//   every round where their `if` holds; rounds are counted per encounter, from 1.
// - `ask` stops the script until `answer(k)` picks one of the offered choices; the
//   choice's effects run, then the rest of the event and of the queue.
// - `set … random` draws with Python's `random.Random(seed).randint` (deterministic for
//   the game's seed).
// - Effects that cause triggers (opening a door, changing a variable) queue them; they
//   are handled once the current event's effects are done, first in first out.
// - `win` and `lose` end the quest at once: nothing after them happens.
// - `next` moves on to the next encounter once the event's effects are done; triggers
//   still queued for the old encounter are dropped.
// - `next_quest` ends the quest at once (nothing after it happens, as after `win`) and
//   play goes on with quest `quest` of the bundle from its start: the same party (its hero
//   count, within the new quest's range) and the campaign variables, everything else that
//   quest's own.
// - Campaign variables (an encounter's `campaign`): one table of values for the play;
//   entering an encounter, each takes the table's value (else its start); leaving by
//   `next` or `next_quest`, its value goes back to the table. A new Game: an empty table.
// - A `variable` event fires as soon as its variable is at least `at_least`.
// - Doors have states: on the board or not (`hidden` at the start, `remove_door`,
//   `place_door`), open or closed, locked or not (`unlock`). Heroes open only a closed,
//   unlocked door on the board; the `open` effect opens a closed door on the board, locked
//   or not. A door off the board lets figures and sight through its place.
// - `remove_tile` takes a tile out of play with the tokens and figures on it (not
//   defeated); `reveal` puts it back, bare: setup tokens and spawns come with a tile's
//   first reveal only. `remove_spawn` takes a spawn's (or a group's) figures off the map,
//   not defeated: the spawn counts as not placed until a `spawn` places it again.
// - `random` does one of its options, drawn as Python's `randint(1, n)` from the same
//   seeded stream as `set … random`.
// - `if` does the `do` of the first of its `arms` whose `if` holds at that moment (after
//   the effects before it in the event; an arm without `if` always holds), or nothing;
//   then the event goes on with the next effect. An arm may ask: the rest waits.
// - `repeat` does its `do`; an `again` of the same `label` inside it stops at once what runs
//   in the block (the rest of an arm, of a choice, of the block) and starts the block again
//   from its first effect; once the block ends without an `again`, the event goes on with
//   the effect after the `repeat`. An `again` of an outer loop's label ends the inner loop
//   too. More than MAX_AGAIN runs of one block in a row with no question asked stop it
//   (logged): a quest that checks clean never loops without a player's choice or a bound.
// - Heroes are defeated one by one (`hero_defeated` each time) and stand up again;
//   `all_heroes_defeated` fires when the last hero of the party standing is defeated.
// - A quota (`quota: N`) counts every occurrence of the event's trigger, whether its `if`
//   holds or not; from the N-th on the event fires at the first where its `if` holds.
// - Item slots (the quest's `items`): the party holds the `starting` ones from the quest's
//   start (a quest begun by `next_quest`: that quest's); `give` adds the slot to `held` and
//   logs what the party receives (the slot's label and what it names or draws by: the real
//   item is chosen by the app or the table, not here); `shop` opens a shop offering its slots
//   (`shop`, logged) and the script waits, as for an `ask`, with one choice, "Leave the shop"
//   (`asking.shop` holds the slots): the players buy and sell at the table meanwhile; the shop
//   closes when they leave it, and the event goes on. `restock` chooses every slot's item
//   again (logged): the open shop closes, its stock being gone; a shop opened later offers
//   the new items. What the party holds stays. `take` gives a held slot back (logged; a
//   slot not held: nothing happens).

import { deal, playable, PythonRandom } from "./deal.js";

const MAX_AGAIN = 10000;  // runs of a `repeat` block in a row without a question before play stops it
const SHOP_TEXT = "The shop is open: buy and sell, then leave it.";  // what `asking` says while a shop is open
const LEAVE_SHOP = "Leave the shop";

/** An item slot in words: `“Label” (id: what it is)`, what it is being the items it names
 *  (`a or b`) or the draw (`one of T…`, `all of T…`, `not X…`); no label: `id (…)`. */
export function describeItem(id, slot, text = (sid) => sid) {
  if (!slot) return id;
  const parts = [];
  if (slot.named) parts.push(slot.named.join(" or "));
  if (slot.traits) parts.push(`an item with one of ${slot.traits.join(", ")}`);
  if (slot.with) parts.push(`${slot.traits ? "and" : "an item with"} all of ${slot.with.join(", ")}`);
  if (slot.except) parts.push(`not ${slot.except.join(", ")}`);
  const what = parts.join(slot.named ? "; " : ", ");
  const label = slot.label ? text(slot.label) : "";
  return label ? `“${label}” (${id}: ${what})` : `${id} (${what})`;
}

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
    this.counts = new Map();   // event key -> how many times it fired
    this.occurrences = new Map();  // event key -> how often its trigger happened (quotas)
    this.queue = [];
    this.generation = 0;       // one per encounter entered: triggers of an older one are dropped
    this.asking = null;        // the question waiting for an answer: {text, choices: [{index, text}]}
    this.rng = new PythonRandom(seed);
    this.randomPicks = new Map();  // "encounter:spawn id" of a random group -> the monster drawn for it (kept for the quest)
    this.campaign = {};  // campaign variable -> its value, kept across `next` and `next_quest` (a quest begun anew: empty)
    this.turns = new Map();  // spawn id -> {id, ability, master, minion, first}: a custom monster's turn drawn this round
    this._startItems();
    this.adventure = this.quest.adventure || null;
    if (this.adventure) this._dealAdventure();
    this._enter(0, true);
  }

  /** The quest's starting item slots held, no shop open. */
  _startItems() {
    this.held = Object.entries(this.quest.items || {}).filter(([, slot]) => slot.starting).map(([id]) => id);
    this.shop = null;  // the slots the open shop offers
  }

  /** Item slot `id` in words: its label, then what it names or draws by (describeItem). */
  itemText(id) {
    return describeItem(id, (this.quest.items || {})[id], (sid) => this.text(sid));
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
    this.generation += 1;
    this.round = 1;
    this.gone = new Set();     // tokens searched or picked up (no longer on the board)
    this.revealed = new Set(map.tiles.filter((t) => !t.hidden).map((t) => t.name));
    this.everRevealed = new Set(this.revealed);  // setup tokens and spawns come with a tile's first reveal only
    const doors = Object.keys(map.doors);
    this.offBoard = new Set(doors.filter((d) => map.doors[d].hidden));  // doors not on the board now
    this.openDoors = new Set(doors.filter((d) => map.doors[d].open && !map.doors[d].hidden));
    this.locked = new Set(doors.filter((d) => map.doors[d].locked));
    this.variables = { ...enc.variables };
    for (const name of enc.campaign || []) if (name in this.campaign) this.variables[name] = this.campaign[name];
    this.tokens = new Map();
    for (const t of enc.tokens) if (t.when === "setup" && this.revealed.has(t.tile)) this.tokens.set(t.id, t);
    this.figures = [];
    this.placed = new Set();
    this.openChoice = new Map();  // open group spawn id -> the monster the players chose from its pool
    this.defeatedSpawns = new Set();
    for (const s of enc.spawns) if (s.when === "setup" && this.revealed.has(s.tile ?? "")) this._spawn(s.id);
    for (const s of enc.spawns) if (s.when === "setup" && s.tile === null) this._spawn(s.id);
    // heroes on the first N start spaces (a party of N may take any N of them)
    const starts = [...enc.start];
    this.heroFigures = starts.slice(0, this.heroes).map((space, i) => ({ id: `hero${i + 1}`, space }));
    this.heroesDown = new Set();  // heroes defeated and not stood up again ("hero1" … "heroN")
    if (enc.flavor) this._say(enc.flavor, "flavor");
    if (enc.setup) this._say(enc.setup, "setup");
    if (first) this.fire({ kind: "start" });
    this.fire({ kind: "encounter_start" });
    this.fire({ kind: "variable" });
    this.fire({ kind: "round_start", round: 1 });
  }

  /** Space indices out of play: those of tiles still hidden. */
  get hiddenSpaces() {
    const out = [];
    this.map.spaces.forEach((s, i) => { if (!this.revealed.has(s.tile)) out.push(i); });
    return out;
  }

  /** Door ids whose place lets figures and sight through now: open, or off the board (for
   *  sight.js and moves.js, which shut every door not listed; a closed door sharing the place shuts it). */
  get passableDoors() { return [...this.openDoors, ...this.offBoard]; }

  /** A door's state now: "off" (not on the board), "open", "locked" (closed) or "closed". */
  doorState(id) {
    if (this.offBoard.has(id)) return "off";
    if (this.openDoors.has(id)) return "open";
    return this.locked.has(id) ? "locked" : "closed";
  }

  /** Space indices holding a figure (monsters and heroes). */
  get figureSpaces() {
    const out = new Set();
    for (const f of this.figures) for (const i of f.spaces) out.add(i);
    // before the heroes stand (a random group placed at the start): the start spaces they will take
    for (const h of this.heroFigures || this.encounter.start.slice(0, this.heroes).map((space) => ({ space }))) out.add(h.space);
    return out;
  }

  /** Place spawn `id`'s figures; placed again (a repeating reinforcement), only those not on the map. */
  _spawn(id) {
    const s = this.encounter.spawns.find((x) => x.id === id);
    if (!s) return;
    if (s.pick === "random" && !this.openChoice.has(id)) this.openChoice.set(id, this._draw(s));
    this.placed.add(id);
    if (this.openChoice.has(id)) { this._placeChosen(s, this.openChoice.get(id)); return; }
    const figs = s.figures[String(this.heroes)] || [];
    figs.forEach((f, k) => {
      const key = `${id}#${k}`;
      if (this.figures.some((x) => x.key === key)) return;
      this.figures.push({ key, spawn: id, group: s.group, rank: f.rank, spaces: f.spaces, size: f.size, space: f.space });
      this.defeatedSpawns.delete(id);
    });
  }

  /** A random group's monster (docs/bundle.md, "Random groups"): the one drawn before for
   *  this spawn, else one of its pool that no spawn has drawn or been chosen as and none of
   *  whose figures is on the map (the whole pool when none is left), drawn as Python's
   *  randint(1, n) from the game's seeded stream; kept for the rest of the quest. */
  _draw(s) {
    const key = `${this.encounterIndex}:${s.id}`;
    if (this.randomPicks.has(key)) return this.randomPicks.get(key);
    const taken = new Set([...this.randomPicks.values(), ...this.openChoice.values(), ...this.figures.map((f) => f.group)]);
    const known = s.pool.filter((m) => this.bundle.monsters && this.bundle.monsters[m]);
    const free = known.filter((m) => !taken.has(m));
    const from = free.length ? free : known;
    const pick = from[this.rng.below(from.length)];
    this.randomPicks.set(key, pick);
    this.log.push({ kind: "random-group", text: `(random group ${s.id}: ${pick}, one of ${from.length})`, spawn: s.id, monster: pick });
    return pick;
  }

  /** The players choose monster `monster` of open group `id`'s `pool` (once): its own figures
   *  replace the listed ones now if the spawn is on the map, and are the ones placed by later
   *  `spawn` effects. */
  chooseOpenGroup(id, monster) {
    const s = this.encounter.spawns.find((x) => x.id === id);
    const known = this.bundle.monsters && this.bundle.monsters[monster];
    if (this.waiting || !s || !s.pool || s.pick === "random" || !s.pool.includes(monster) || !known || this.openChoice.has(id)) return;
    this.openChoice.set(id, monster);
    if (!this.placed.has(id)) return;
    this.figures = this.figures.filter((f) => f.spawn !== id);
    this._placeChosen(s, monster);
  }

  /** Open group `s` as monster `monster`: its group limit for the hero count (masters first),
   *  each figure on the first free place in the order of `_nearest` from the listed spaces,
   *  its base as on the card or turned a quarter. Only figures not on the map are placed. */
  _placeChosen(s, monster) {
    const m = this.bundle.monsters[monster];
    const limit = (m.group_limits || {})[String(this.heroes)] || { masters: 1, minions: 0 };
    // a unique spawn is one figure, its master, whichever monster the group turns out to be
    const ranks = s.unique ? ["master"] : [...Array(limit.masters || 0).fill("master"), ...Array(limit.minions || 0).fill("minion")];
    const [w, h] = String(m.size || "1x1").split("x").map(Number);
    const listed = (s.figures[String(this.heroes)] || []).flatMap((f) => f.spaces);
    const order = this._nearest(listed);
    const taken = this.figureSpaces;
    const hidden = new Set(this.hiddenSpaces);
    const terrain = this.bundle.terrain || {};
    const free = (i) => i >= 0 && !taken.has(i) && !hidden.has(i) && !(terrain[this.map.spaces[i].terrain] || {}).blocks_movement;
    ranks.forEach((rank, k) => {
      const key = `${s.id}#${k}`;
      if (this.figures.some((x) => x.key === key)) return;
      for (const anchor of order) {
        const a = this.map.spaces[anchor];
        for (const [fw, fh] of w === h ? [[w, h]] : [[w, h], [h, w]]) {
          const cells = [];
          for (let dy = 0; dy < fh; dy++) for (let dx = 0; dx < fw; dx++) cells.push(this._spaceAt(a.x + dx, a.y + dy));
          if (!cells.every(free)) continue;
          cells.sort((p, q) => p - q);
          cells.forEach((c) => taken.add(c));
          this.figures.push({ key, spawn: s.id, group: monster, rank, spaces: cells, size: [fw, fh], space: cells[0] });
          this.defeatedSpawns.delete(s.id);
          return;
        }
      }
    });
  }

  /** The space index at world (x, y), or -1. */
  _spaceAt(x, y) {
    if (!this._index || this._index.map !== this.map) {
      this._index = { map: this.map, at: new Map(this.map.spaces.map((sp, i) => [`${sp.x},${sp.y}`, i])) };
    }
    return this._index.at.get(`${x},${y}`) ?? -1;
  }

  /** Every space, nearest first: the `seeds` in order, then breadth-first over `counting`
   *  (range steps, so never through a wall), then the rest by index. */
  _nearest(seeds) {
    const out = [...new Set(seeds)];
    const seen = new Set(out);
    for (let k = 0; k < out.length; k++) {
      for (const j of (this.map.counting && this.map.counting[out[k]]) || []) if (!seen.has(j)) { seen.add(j); out.push(j); }
    }
    this.map.spaces.forEach((_, i) => { if (!seen.has(i)) out.push(i); });
    return out;
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
      case "round_start": case "round_end": return on.round === undefined || on.round === t.round;
      case "open": return on.door === t.door;
      case "defeated": return on.group === t.group;
      case "searched": case "picked_up": return on.token === t.token;
      case "enters": return (on.spaces || []).includes(t.space);
      case "variable": return (this.variables[on.variable] ?? 0) >= on.at_least;
      default: return true;
    }
  }

  /** The value of a comparison operand now. */
  _operand(o) {
    switch (o.kind) {
      case "number": return o.value;
      case "variable": return this.variables[o.name] ?? 0;
      case "heroes": return this.heroes;
      case "round": return this.round;  // the round under way (N through round N's end: endRound)
      default: return 0;
    }
  }

  /** Whether `name` (of kind `what`) is on the board now (docs/bundle.md, "Conditions"). */
  onBoard(what, name) {
    switch (what) {
      case "tile": return this.revealed.has(name);
      case "token": return this.tokens.has(name) && !this.gone.has(name);
      case "spawn": return this.figures.some((f) => f.spawn === name || f.group === name);
      case "door": return name in this.map.doors && !this.offBoard.has(name) && !this.openDoors.has(name);
      default: return false;
    }
  }

  /** Whether condition `c` (a bundle `condition`) holds on the state now. */
  holds(c) {
    switch (c.kind) {
      case "and": return c.parts.every((p) => this.holds(p));
      case "or": return c.parts.some((p) => this.holds(p));
      case "not": return !this.holds(c.parts[0]);
      case "heroes": return this.heroes >= c.low && this.heroes <= c.high;
      case "on_board": return this.onBoard(c.what, c.name);
      case "compare": {
        const a = this._operand(c.left), b = this._operand(c.right);
        switch (c.op) {
          case "==": return a === b;
          case "!=": return a !== b;
          case "<": return a < b;
          case "<=": return a <= b;
          case ">": return a > b;
          case ">=": return a >= b;
          default: return false;
        }
      }
      default: return false;
    }
  }

  /** Play is stopped: the quest is over or a question waits for its answer. */
  get waiting() { return !!(this.outcome || this.asking); }

  /** A trigger happens: every matching event not used up whose `if` holds fires, in the order written. */
  fire(trigger) {
    this.queue.push({ ...trigger, generation: this.generation });
    this._run();
  }

  /** Run the script until the queue is empty, the quest ends or a question is asked. */
  _run(answer) {
    if (this._busy || (this.asking && answer === undefined)) return;  // the running loop (or the answer) takes it up
    this._busy = true;
    try {
      if (!this._script) this._script = this._loop();
      const step = this._script.next(answer);
      this.asking = step.done ? null : step.value;
      if (step.done) this._script = null;
    } finally {
      this._busy = false;
    }
  }

  /** Answer the question asked with the choice of index `k` (in the `ask`'s `choices`). */
  answer(k) {
    if (this.outcome || !this.asking || !this.asking.choices.some((c) => c.index === k)) return;
    this._run(k);
  }

  static everyRound(on) { return (on.kind === "round_start" || on.kind === "round_end") && on.round === undefined; }

  *_loop() {
    while (this.queue.length && !this.outcome) {
      const t = this.queue.shift();
      if (t.generation !== this.generation) continue;  // for an encounter left since
      if (t.kind === "round_start") this.round = t.round;  // the new round is under way from its start
      for (const { key, event } of this.events) {
        if (this.outcome) break;
        const every = Game.everyRound(event.on);
        if ((!every && this.fired.has(key)) || !this._matches(event.on, t)) continue;
        if (event.quota) {  // every occurrence counts, whether `if` holds or not
          const seen = (this.occurrences.get(key) || 0) + 1;
          this.occurrences.set(key, seen);
          if (seen < event.quota) continue;
        }
        if (event.if && !this.holds(event.if)) continue;  // not used up: it waits for its trigger again
        this.fired.add(key);
        this.counts.set(key, (this.counts.get(key) || 0) + 1);
        const ctx = { next: false, quest: null, again: null };
        yield* this._effects(event.do, ctx);
        if (ctx.quest !== null && !this.outcome) { this._changeQuest(ctx.quest); break; }
        if (ctx.next && !this.outcome) { this._next(); break; }
      }
    }
  }

  *_effects(list, ctx) {
    for (const e of list) {
      if (this.outcome || ctx.quest !== null || ctx.again) return;
      if (e.kind === "again") { ctx.again = e.label; return; }  // back to the start of `repeat label`
      if (e.kind === "repeat") {
        for (let runs = 1; ; runs++) {
          const asked = this.asked || 0;
          yield* this._effects(e.do || [], ctx);
          if (ctx.again !== e.label) break;  // the block ended, or an outer loop's `again` leaves it too
          ctx.again = null;
          if (this.outcome || ctx.quest !== null) break;
          if ((this.asked || 0) !== asked) runs = 0;  // a question between: the player chose to go round again
          if (runs >= MAX_AGAIN) {
            this.log.push({ kind: "loop", text: `(the loop ${e.label} ran ${MAX_AGAIN} times in a row without a question: stopped)` });
            break;
          }
        }
        continue;
      }
      if (e.kind === "random") {
        const options = e.options || [];
        if (!options.length) continue;
        const k = this.rng.below(options.length);  // Python's randint(1, n) - 1
        this.log.push({ kind: "random", text: `(random: option ${k + 1} of ${options.length})`, option: k });
        yield* this._effects(options[k], ctx);
        continue;
      }
      if (e.kind === "if") {  // the first arm whose `if` holds now (an arm without one: the `else`)
        const arm = (e.arms || []).find((a) => !a.if || this.holds(a.if));
        if (arm) yield* this._effects(arm.do, ctx);
        continue;
      }
      if (e.kind === "shop") {  // the players buy and sell; the event goes on when they leave the shop
        this._effect(e, ctx);
        yield { text: SHOP_TEXT, choices: [{ index: 0, text: LEAVE_SHOP }], shop: [...e.items] };
        this.asked = (this.asked || 0) + 1;
        this.shop = null;
        this.log.push({ kind: "shop", text: "The party leaves the shop." });
        continue;
      }
      if (e.kind !== "ask") { this._effect(e, ctx); continue; }
      const offered = (e.choices || []).map((c, index) => ({ c, index })).filter(({ c }) => !c.if || this.holds(c.if));
      if (!offered.length) continue;  // no choice offered: the ask does nothing
      this.log.push({ kind: "ask", text: this.text(e.text), id: e.text });
      const k = yield { text: e.text, choices: offered.map(({ c, index }) => ({ index, text: c.text })) };
      this.asked = (this.asked || 0) + 1;
      const pick = offered.find((o) => o.index === k).c;
      this.log.push({ kind: "choice", text: `→ ${this.text(pick.text)}`, id: pick.text });
      yield* this._effects(pick.do, ctx);
    }
  }

  _effect(e, ctx) {
    switch (e.kind) {
      case "say": this._say(e.text); break;
      case "win": case "lose": case "end":  // end: the quest ends, won or lost not said
        this.outcome = { result: e.kind, text: this.text(e.text) };
        this.log.push({ kind: e.kind, text: this.text(e.text) || { win: "The heroes win.", lose: "The heroes lose.", end: "The quest ends." }[e.kind] });
        break;
      case "reveal":
        for (const tile of e.tiles) this._reveal(tile);
        break;
      case "spawn": this._spawn(e.spawn); break;
      case "place_token": {
        const t = this.encounter.tokens.find((x) => x.id === e.token);
        if (t) { this.tokens.set(t.id, t); this.gone.delete(t.id); }
        break;
      }
      case "remove_token": this.tokens.delete(e.token); break;
      case "set": {
        let value = e.value;
        if (e.from !== undefined) value = this.variables[e.from] ?? 0;
        else if (e.random) value = e.random[0] + this.rng.below(e.random[1] - e.random[0] + 1);  // Python's randint
        this.variables[e.variable] = value;
        this.queue.push({ kind: "variable", generation: this.generation });
        break;
      }
      case "advance": case "add":
        this.variables[e.variable] = (this.variables[e.variable] ?? 0) + e.by;
        this.queue.push({ kind: "variable", generation: this.generation });
        break;
      case "activate": this.log.push({ kind: "say", text: `The ${e.group} group activates now.` }); break;
      case "open":  // a closed door on the board opens, locked or not
        if (e.door in this.map.doors && ["closed", "locked"].includes(this.doorState(e.door))) { this.openDoors.add(e.door); this.queue.push({ kind: "open", door: e.door, generation: this.generation }); }
        break;
      case "close": this.openDoors.delete(e.door); break;
      case "unlock": this.locked.delete(e.door); break;
      case "place_door":
        if (e.door in this.map.doors) { this.offBoard.delete(e.door); this.openDoors.delete(e.door); }
        break;
      case "remove_door":
        if (e.door in this.map.doors) { this.offBoard.add(e.door); this.openDoors.delete(e.door); }
        break;
      case "remove_tile": this._removeTile(e.tile); break;
      case "remove_spawn": this._removeSpawn(e.spawn); break;
      case "next": ctx.next = true; break;
      case "next_quest": ctx.quest = e.quest; break;
      case "give":
        if (!this.held.includes(e.item)) this.held.push(e.item);
        this.log.push({ kind: "give", text: `The party receives ${this.itemText(e.item)}.`, item: e.item });
        break;
      case "take":
        if (this.held.includes(e.item)) {
          this.held = this.held.filter((id) => id !== e.item);
          this.log.push({ kind: "take", text: `The party gives up ${this.itemText(e.item)}.`, item: e.item });
        }
        break;
      case "restock":
        this.shop = null;
        this.log.push({ kind: "restock", text: "The quest's items are chosen again: a shop opened from now on offers new ones." });
        break;
      case "shop":
        this.shop = [...e.items];
        this.log.push({ kind: "shop", text: `A shop opens: ${e.items.map((id) => this.itemText(id)).join("; ")}.`, items: [...e.items] });
        break;
      default: break;
    }
  }

  _reveal(tile) {
    if (this.revealed.has(tile)) return;
    this.revealed.add(tile);
    if (this.everRevealed.has(tile)) return;  // put back after remove_tile: the tile alone
    this.everRevealed.add(tile);
    for (const t of this.encounter.tokens) if (t.when === "setup" && t.tile === tile) this.tokens.set(t.id, t);
    for (const s of this.encounter.spawns) if (s.when === "setup" && s.tile === tile) this._spawn(s.id);
  }

  /** Tile `tile` leaves play with the tokens and monster figures on it (not defeated). */
  _removeTile(tile) {
    if (!this.revealed.delete(tile)) return;
    for (const [id, t] of this.tokens) if (this.map.spaces[t.space] && this.map.spaces[t.space].tile === tile) this.tokens.delete(id);
    const on = (f) => f.spaces.some((i) => this.map.spaces[i] && this.map.spaces[i].tile === tile);
    const touched = new Set(this.figures.filter(on).map((f) => f.spawn));
    this.figures = this.figures.filter((f) => !on(f));
    for (const id of touched) if (!this.figures.some((f) => f.spawn === id)) this.placed.delete(id);
  }

  /** Every figure of spawn `name` (a spawn id, or a monster group: all its spawns) leaves the
   *  map, not defeated: no `defeated` trigger, and the spawn counts as not placed. */
  _removeSpawn(name) {
    for (const s of this.encounter.spawns) {
      if (s.id !== name && s.group !== name) continue;
      this.figures = this.figures.filter((f) => f.spawn !== s.id);
      this.placed.delete(s.id);
    }
  }

  /** Leaving an encounter by `next` or `next_quest`: its campaign variables' values go to the campaign's table. */
  _keepCampaign() {
    for (const name of (this.encounter && this.encounter.campaign) || []) this.campaign[name] = this.variables[name] ?? 0;
  }

  _next() {
    this.queue = [];
    if (this.encounterIndex + 1 < this.encounterCount) this._keepCampaign();
    if (this.encounterIndex + 1 < this.encounterCount) {
      this.log.push({ kind: "info", text: `Encounter ${this.encounterIndex + 2} begins.` });
      this._enter(this.encounterIndex + 1);
    }
  }

  /** `next_quest`: play goes on with quest `qid` from its start, with the same party. */
  _changeQuest(qid) {
    const quest = this.bundle.quests[qid];
    if (!quest) return;  // the compiler checks every `next quest` (Q0801)
    this.log.push({ kind: "info", text: `Quest ${this.text(quest.name) || qid} begins.` });
    this._keepCampaign();
    this.questId = qid;
    this.quest = quest;
    const [low, high] = quest.heroes;
    this.heroes = Math.min(high, Math.max(low, this.heroes));
    this.fired = new Set();
    this.counts = new Map();
    this.occurrences = new Map();
    this.queue = [];
    this.adventure = quest.adventure || null;
    this._startItems();
    if (this.adventure) this._dealAdventure();
    this._enter(0, true);
  }

  // ---------------------------------------------------------------- what players do
  /** Heroes open a closed door on the board that is not locked. */
  openDoor(id) {
    if (this.waiting || !(id in this.map.doors) || this.doorState(id) !== "closed") return;
    this.openDoors.add(id);
    this.fire({ kind: "open", door: id });
  }

  closeDoor(id) { if (!this.waiting) this.openDoors.delete(id); }

  /** Heroes search (pick up) a token on the board: it leaves the board. */
  search(token) { if (!this.waiting && this.tokens.has(token)) { this.tokens.delete(token); this.gone.add(token); this.fire({ kind: "searched", token }); } }

  pickUp(token) { if (!this.waiting && this.tokens.has(token)) { this.tokens.delete(token); this.gone.add(token); this.fire({ kind: "picked_up", token }); } }

  enter(space) { if (!this.waiting) this.fire({ kind: "enters", space }); }

  moveHero(hero, space) {
    const h = this.heroFigures.find((x) => x.id === hero);
    if (!h || this.waiting) return;
    h.space = space;
    this.enter(space);
  }

  moraleZero() { if (!this.waiting) this.fire({ kind: "morale_zero" }); }

  setVariable(name, value) {
    if (this.waiting) return;
    this.variables[name] = value;
    this.fire({ kind: "variable" });
  }

  /** Defeat every figure of spawn `id`; `defeated` fires for a named spawn's id, and for a
   *  monster group once every spawn of that group placed so far is defeated. */
  defeat(id) {
    if (this.waiting) return;
    const s = this.encounter.spawns.find((x) => x.id === id);
    if (!s) return;
    this.figures = this.figures.filter((f) => f.spawn !== id);
    this.defeatedSpawns.add(id);
    if (id !== s.group) this.fire({ kind: "defeated", group: id });
    const same = this.encounter.spawns.filter((x) => x.group === s.group && this.placed.has(x.id));
    if (same.every((x) => this.defeatedSpawns.has(x.id))) this.fire({ kind: "defeated", group: s.group });
  }

  /** The round ends: `round_end` of this round, the track's round-end rules, then `round_start`
   *  of the next round (dropped when the encounter changed meanwhile). */
  /** The activations (its turns in words) of the monster spawn `id` shows: the custom
   *  monster's own, else those of the custom monster it is based on; [] for none. */
  activationsOf(id) {
    const s = this.encounter.spawns.find((x) => x.id === id);
    const own = this.quest.monsters || {};
    let m = s ? own[s.group] : null;
    for (let k = 0; m && k < 32; k++) {
      if (m.activations && m.activations.length) return m.activations;
      m = own[m.base];
    }
    return [];
  }

  /** The monsters' turn for spawn `id` (docs/bundle.md, "Custom monsters"): one of its
   *  activations drawn at random (the seeded stream), and who goes first (the activation's
   *  `first`, else drawn), kept until the round ends, as the app keeps it for the round. */
  monsterTurn(id) {
    if (this.waiting || this.turns.has(id)) return;
    const all = this.activationsOf(id);
    if (!all.length) return;
    const a = all[this.rng.below(all.length)];
    const first = a.first || (this.rng.below(2) === 0 ? "minion" : "master");
    this.turns.set(id, { ...a, first });
    this.log.push({ kind: "turn", text: `(${id}'s turn: ${a.id}, ${first} first)` });
  }

  endRound() {
    if (this.waiting) return;
    this.turns.clear();
    const round = this.round;
    const generation = this.generation;
    // `this.round` stays N through round N's end (its events, and a question they ask, see N,
    // as the app's #round: RoundController.EndRound); round N + 1 begins when its
    // `round_start` is taken from the queue (_loop), after every end-of-round event
    this.fire({ kind: "round_end", round });
    this._track("round_end");
    if (this.generation === generation) this.fire({ kind: "round_start", round: round + 1 });
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
  fateStep() { if (!this.waiting) this._track("fate_step"); }

  /** The party's heroes by id, "hero1" … "heroN" (N: the hero count, also without a start space each). */
  get heroIds() { return Array.from({ length: this.heroes }, (_, i) => `hero${i + 1}`); }

  /** Hero `hero` is defeated (absent: a hero, as the adventure's track counts them): `hero_defeated`
   *  fires, then `all_heroes_defeated` when no hero of the party is left standing. */
  heroDefeated(hero = null) {
    if (this.waiting || (hero && (this.heroesDown.has(hero) || !this.heroIds.includes(hero)))) return;
    const generation = this.generation;
    if (hero) this.heroesDown.add(hero);
    this.fire({ kind: "hero_defeated" });
    if (hero && this.heroesDown.size === this.heroes && this.generation === generation) this.fire({ kind: "all_heroes_defeated" });
    this._track("hero_defeated");
  }

  /** Hero `hero` stands up again (on the heroes' next turn, by the rules). */
  heroStandsUp(hero) { if (!this.waiting) this.heroesDown.delete(hero); }

  /** A figure that counts as a hero (e.g. a villager token such as Desmond) is defeated. */
  figureDefeated(figure) { if (!this.waiting) this._track("defeated", { figure }); }

  /** The hourglass overlord effect of the active exploration card fills. */
  hourglass() { if (!this.waiting && this.activeCard) this._track("hourglass", { card: this.activeCard }); }

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
    if (this.waiting || !this.adventure || this.encounterIndex + 1 >= this.drawn.length) return;
    this.log.push({ kind: "info", text: `Explored: ${this.text(this.bundle.encounters[this.bundle.cards[this.drawn[this.encounterIndex + 1]].encounter].name)}.` });
    this._enter(this.encounterIndex + 1);
  }
}

/** Whether any event effect of `quest` (nested choices and `if` arms included) draws a random number. */
export function usesRandom(quest, bundle = null) {
  const inEffects = (list) => (list || []).some((e) => (e.kind === "set" && e.random) || e.kind === "random"
    || (e.choices || []).some((c) => inEffects(c.do)) || (e.arms || []).some((a) => inEffects(a.do)) || inEffects(e.do || []));
  const encounters = [...(quest.encounters || [])];
  if (quest.adventure && bundle) for (const c of Object.values(bundle.cards || {})) if (c.encounter && bundle.encounters[c.encounter]) encounters.push(bundle.encounters[c.encounter]);
  const events = [...encounters.flatMap((e) => e.events || []), ...((quest.adventure && quest.adventure.events) || [])];
  return events.some((ev) => inEffects(ev.do));
}

/** A condition written back as in the quest language (for the script listing). */
export function describeCondition(c, top = true) {
  const operand = (o) => (o.kind === "number" ? String(o.value) : o.kind === "variable" ? o.name : o.kind);  // heroes, round
  let out;
  switch (c.kind) {
    case "and": case "or": out = c.parts.map((p) => describeCondition(p, false)).join(` ${c.kind} `); break;
    case "not": return `not ${describeCondition(c.parts[0], false)}`;
    case "compare": return `${operand(c.left)} ${c.op} ${operand(c.right)}`;
    case "on_board": return `on_board ${c.name}`;
    case "heroes": return `heroes ${c.low === c.high ? c.low : c.high >= 4 ? `${c.low}+` : `${c.low}..${c.high}`}`;
    default: return c.kind;
  }
  return top ? out : `(${out})`;
}

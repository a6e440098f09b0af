// solve.mjs: a way to play a quest to a win or to a loss with the web player's own buttons,
// found by a breadth-first search over the game states of play.js. The browser tests
// (tests/test_player_site.py) load it into the page and then click the actions it returns;
// the node tests use it on hand-made bundles.
//
// An action is what one button of the panel does (app.js's `act`): "end-round",
// "morale-zero", "search:T", "pickup:T", "defeat:S", "open:D", "close:D", "choice:K", and
// "enter:I" (a hero enters space I: only spaces some `enters` trigger names),
// "hero-defeated:H" (only in quests with an event on heroes defeated). The variable
// buttons (−1 / +1) are left out: they are the players correcting the game by hand, and
// with them every quest would be won by typing the answer in.

import { Game } from "./play.js";

/** The actions the panel offers in the state of game `g` (none once the quest is over). */
export function actions(g) {
  if (g.outcome) return [];
  if (g.asking) return g.asking.choices.map((c) => `choice:${c.index}`);
  const out = ["end-round", "morale-zero"];
  for (const t of g.tokens.keys()) out.push(`search:${t}`, `pickup:${t}`);
  for (const s of g.encounter.spawns) if (g.placed.has(s.id) && !g.defeatedSpawns.has(s.id)) out.push(`defeat:${s.id}`);
  for (const d of Object.keys(g.map.doors)) {
    const state = g.doorState(d);
    if (state === "closed") out.push(`open:${d}`);
    else if (state === "open") out.push(`close:${d}`);
  }
  // heroes defeated one by one, only where an event waits for it (standing up again is never needed)
  if (g.events.some(({ event }) => event.on.kind === "hero_defeated" || event.on.kind === "all_heroes_defeated")) {
    for (const h of g.heroIds) if (!g.heroesDown.has(h)) out.push(`hero-defeated:${h}`);
  }
  const hidden = new Set(g.hiddenSpaces);
  for (const { event } of g.events) {
    if (event.on.kind !== "enters") continue;
    const i = (event.on.spaces || []).find((s) => !hidden.has(s));
    if (i !== undefined) out.push(`enter:${i}`);
  }
  return [...new Set(out)];
}

/** Do `action` on game `g`, as the page's button does. */
export function apply(g, action) {
  const [what, arg] = action.split(":");
  switch (what) {
    case "end-round": g.endRound(); break;
    case "morale-zero": g.moraleZero(); break;
    case "search": g.search(arg); break;
    case "pickup": g.pickUp(arg); break;
    case "defeat": g.defeat(arg); break;
    case "open": g.openDoor(arg); break;
    case "close": g.closeDoor(arg); break;
    case "choice": g.answer(Number(arg)); break;
    case "enter": g.moveHero("hero1", Number(arg)); break;
    case "hero-defeated": g.heroDefeated(arg); break;
    default: throw new Error(`unknown action ${action}`);
  }
}

const sorted = (xs) => [...xs].sort();

/** What distinguishes two states for the rest of the play (rounds counted up to `cap`). */
function stateKey(g, cap) {
  return JSON.stringify([
    g.encounterIndex, Math.min(g.round, cap), sorted(g.fired), Object.entries(g.variables).sort(),
    sorted(g.tokens.keys()), sorted(g.figures.map((f) => f.key)), sorted(g.placed), sorted(g.defeatedSpawns),
    sorted(g.openDoors), sorted(g.offBoard), sorted(g.locked), sorted(g.revealed), sorted(g.occurrences),
    g.asking && [g.asking.text, g.asking.choices], g.outcome && g.outcome.result, g.heroFigures.map((h) => h.space), sorted(g.heroesDown),
  ]);
}

/** The highest round number any event of the quest names, plus one. */
function roundCap(quest) {
  let cap = 1;
  for (const enc of quest.encounters || []) for (const e of enc.events) if (e.on.round) cap = Math.max(cap, e.on.round + 1);
  return cap;
}

/** A shortest list of actions that ends quest `questId` of `bundle` with `goal` ("win" or
 *  "lose"), or null when none is found within `maxStates` states. */
export function solve(bundle, questId, goal, { heroes = null, seed = 0, maxStates = 50000 } = {}) {
  const quest = bundle.quests[questId];
  const cap = roundCap(quest);
  const replay = (path) => {
    const g = new Game(bundle, questId, { heroes, seed });
    for (const a of path) apply(g, a);
    return g;
  };
  const start = replay([]);
  if (start.outcome) return start.outcome.result === goal ? [] : null;
  const seen = new Set([stateKey(start, cap)]);
  let frontier = [[]];
  while (frontier.length && seen.size < maxStates) {
    const next = [];
    for (const path of frontier) {
      for (const a of actions(replay(path))) {
        const p = [...path, a];
        const g = replay(p);
        if (g.outcome) {
          if (g.outcome.result === goal) return p;
          continue;
        }
        const k = stateKey(g, cap);
        if (seen.has(k)) continue;
        seen.add(k);
        next.push(p);
      }
    }
    frontier = next;
  }
  return null;
}

// play.js, quest chains: `next_quest` ends the quest at once and play goes on with the
// named quest of the bundle from its start, with the same party (docs/bundle.md,
// "Spawns, tokens, events"; docs/language.md, "Quest chains"). Expected values worked
// out by hand from those rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game } from "./play.js";
import { describeEffect } from "./labels.js";
import { SMALL_MAP, say, said } from "./helpers.mjs";

const enc = (events, variables = {}) => ({
  number: 1, reachable: true, start: [0, 1], tokens: [], spawns: [], variables, map: SMALL_MAP,
  events: events.map((ev, i) => ({ index: i + 1, can_fire: true, ...ev })),
});

/** Hub `town` (2..4 heroes) sends the party to `mine` (3..4 heroes), which may send it back. */
function chainBundle() {
  return {
    strings: { "n.town": { text: "The Town" }, "n.mine": { text: "The Mine" } },
    quests: {
      town: { name: "n.town", heroes: [2, 4], encounters: [enc([
        { on: { kind: "start" }, do: [say("town start")] },
        { on: { kind: "round_end", round: 1 }, do: [{ kind: "set", variable: "gold", value: 7 }, say("leaving"), { kind: "next_quest", quest: "mine" }, say("never said")] },
        { on: { kind: "round_end", round: 1 }, do: [say("nor this: the town is left")] },
      ], { gold: 0 })] },
      mine: { name: "n.mine", heroes: [3, 4], encounters: [enc([
        { on: { kind: "start" }, do: [say("mine start")] },
        { on: { kind: "round_end", round: 1 }, do: [{ kind: "ask", text: "back?", choices: [
          { text: "yes", do: [{ kind: "next_quest", quest: "town" }] }, { text: "no", do: [{ kind: "win" }] }] }] },
      ], { depth: 1 })] },
    },
  };
}

test("next_quest: the rest of the event and of the old quest's events never happen; the new quest starts", () => {
  const g = new Game(chainBundle(), "town", { heroes: 2 });
  assert.deepEqual(said(g), ["town start"]);
  g.endRound();
  assert.equal(g.questId, "mine");
  assert.equal(g.quest.name, "n.mine");
  assert.deepEqual(said(g), ["town start", "leaving", "mine start"]);
  assert.ok(g.log.some((l) => l.kind === "info" && l.text === "Quest The Mine begins."));
  // the party goes on: two heroes, raised to the mine's lowest count; the rest is the mine's own
  assert.equal(g.heroes, 3);
  assert.deepEqual(g.variables, { depth: 1 });
  assert.equal(g.round, 1);
  assert.equal(g.outcome, null);
});

test("a hub: back to the town, whose events fire again from its start", () => {
  const g = new Game(chainBundle(), "town", { heroes: 4 });
  g.endRound();
  g.endRound();
  assert.equal(g.asking.text, "back?");
  g.answer(0);
  assert.equal(g.questId, "town");
  assert.equal(g.heroes, 4);
  assert.deepEqual(g.variables, { gold: 0 });
  assert.deepEqual(said(g), ["town start", "leaving", "mine start", "town start"]);
  g.endRound();  // the town's round-1 event fires again: fired events were the old visit's
  assert.equal(g.questId, "mine");
  g.endRound();
  g.answer(1);
  assert.equal(g.outcome.result, "win");
});

test("the script listing says next quest as the language does", () => {
  assert.equal(describeEffect({ kind: "next_quest", quest: "mine" }, (id) => id), "next quest mine");
});

/** The same chain with `gold` a campaign variable of both quests (the mine lists it too). */
function campaignBundle() {
  const b = chainBundle();
  b.quests.town.encounters[0].campaign = ["gold"];
  b.quests.mine.encounters[0].variables = { depth: 1, gold: 0 };
  b.quests.mine.encounters[0].campaign = ["gold"];
  b.quests.mine.encounters[0].events.push(
    { index: 3, can_fire: true, on: { kind: "round_start", round: 1 }, do: [{ kind: "add", variable: "gold", by: 1 }] });
  return b;
}

test("campaign variables keep their value across next_quest, there and back; others start afresh", () => {
  const g = new Game(campaignBundle(), "town", { heroes: 3 });
  assert.deepEqual(g.variables, { gold: 0 });
  g.endRound();  // the town sets gold to 7 and moves on: the mine finds 7, and adds 1 at its first round's start
  assert.equal(g.questId, "mine");
  assert.deepEqual(g.variables, { depth: 1, gold: 8 });
  g.endRound();
  g.answer(0);   // back to the town: gold is still 8 there
  assert.equal(g.questId, "town");
  assert.deepEqual(g.variables, { gold: 8 });
  // a quest begun anew (a new Game, the web player's menu) starts the campaign afresh
  assert.deepEqual(new Game(campaignBundle(), "mine", { heroes: 3 }).variables, { depth: 1, gold: 1 });
});

test("without campaign, the same variable starts afresh in each quest", () => {
  const b = campaignBundle();
  delete b.quests.town.encounters[0].campaign;
  delete b.quests.mine.encounters[0].campaign;
  const g = new Game(b, "town", { heroes: 3 });
  g.endRound();
  assert.deepEqual(g.variables, { depth: 1, gold: 1 });
});

test("a quest that does not list a campaign variable passes its value on; next carries it into the next encounter", () => {
  const b = campaignBundle();
  // the town's two encounters: gold set in the first is found in the second, through `next`
  b.quests.town.encounters = [
    { ...enc([{ on: { kind: "round_end", round: 1 }, do: [{ kind: "set", variable: "gold", value: 5 }, { kind: "next" }] }], { gold: 0 }), campaign: ["gold"] },
    { ...enc([{ on: { kind: "round_end", round: 1 }, do: [{ kind: "next_quest", quest: "hall" }] }], {}), number: 2 },
  ];
  b.quests.hall = { name: "n.town", heroes: [2, 4], encounters: [
    { ...enc([{ on: { kind: "round_end", round: 1 }, do: [{ kind: "next_quest", quest: "mine" }] }], { gold: 0 }) }] };
  const g = new Game(b, "town", { heroes: 3 });
  g.endRound();
  assert.equal(g.encounterIndex, 1);
  g.endRound();  // encounter 2 lists no campaign variable: the table keeps gold = 5
  assert.equal(g.questId, "hall");
  assert.deepEqual(g.variables, { gold: 0 });  // the hall's own `gold`, not a campaign one
  g.endRound();
  assert.equal(g.questId, "mine");
  assert.deepEqual(g.variables, { depth: 1, gold: 6 });  // 5 carried through the hall, +1 at the mine's start
});

// play.js, item slots (docs/language.md, "Quest items and shops"; docs/bundle.md, "Item slots"):
// the starting slots held from the start, `give` adds one and says what the party receives,
// `shop` opens a shop of its slots and says them. Expected texts written out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game, describeItem } from "./play.js";
import { describeEffect } from "./labels.js";
import { SMALL_MAP, say } from "./helpers.mjs";

const ITEMS = {
  relic: { label: "t.relic", with: ["relic"], starting: false },
  ware_a: { traits: ["weapon", "armor"], except: ["ware_b"], starting: false },
  ware_b: { traits: ["weapon", "armor"], except: ["ware_a"], starting: false },
  charm: { named: ["ItemLuckyCharm"], starting: true },
};

const bundle = () => ({
  strings: { "n.q": { text: "Q" }, "t.relic": { text: "The old relic" } },
  quests: { q: { name: "n.q", heroes: [2, 4], items: ITEMS, encounters: [{
    number: 1, reachable: true, start: [0, 1], tokens: [], spawns: [], variables: {}, map: SMALL_MAP,
    events: [
      { index: 1, can_fire: true, on: { kind: "round_end", round: 1 }, do: [{ kind: "give", item: "relic" }, say("given")] },
      { index: 2, can_fire: true, on: { kind: "round_end", round: 2 }, do: [{ kind: "shop", items: ["ware_a", "ware_b"] }] },
    ],
  }] } },
});

test("the starting slots are held from the start, and no shop is open", () => {
  const g = new Game(bundle(), "q", { heroes: 2 });
  assert.deepEqual(g.held, ["charm"]);
  assert.equal(g.shop, null);
});

test("give: the slot is held and the log says what the party receives, by its label and traits", () => {
  const g = new Game(bundle(), "q", { heroes: 2 });
  g.endRound();
  assert.deepEqual(g.held, ["charm", "relic"]);
  const given = g.log.find((l) => l.kind === "give");
  assert.equal(given.text, "The party receives “The old relic” (relic: an item with all of relic).");
  assert.equal(given.item, "relic");
  assert.equal(g.log.at(-1).text, "given");  // the effects after it run
});

test("shop: the shop offers its slots, each said with its draw; play waits until the party leaves it", () => {
  const b = bundle();
  b.quests.q.encounters[0].events[1].do.push(say("after the shop"));
  const g = new Game(b, "q", { heroes: 2 });
  g.endRound();
  g.endRound();
  assert.deepEqual(g.shop, ["ware_a", "ware_b"]);
  assert.deepEqual(g.held, ["charm", "relic"]);  // a shop gives nothing by itself
  assert.equal(g.log.find((l) => l.kind === "shop").text,
    "A shop opens: ware_a (an item with one of weapon, armor, not ware_b); ware_b (an item with one of weapon, armor, not ware_a).");
  assert.deepEqual(g.asking, { text: "The shop is open: buy and sell, then leave it.", choices: [{ index: 0, text: "Leave the shop" }],
    shop: ["ware_a", "ware_b"] });
  assert.notEqual(g.log.at(-1).text, "after the shop");  // the rest of the event waits
  g.answer(0);
  assert.equal(g.shop, null);
  assert.equal(g.asking, null);
  assert.deepEqual(g.log.slice(-2).map((l) => l.text), ["The party leaves the shop.", "after the shop"]);
});

test("restock: the open shop closes (its stock is gone), what the party holds stays", () => {
  const b = bundle();
  b.quests.q.encounters[0].events.push({ index: 3, can_fire: true, on: { kind: "round_end", round: 3 }, do: [{ kind: "restock" }] });
  const g = new Game(b, "q", { heroes: 2 });
  g.endRound(); g.endRound(); g.answer(0); g.endRound();
  assert.equal(g.shop, null);
  assert.deepEqual(g.held, ["charm", "relic"]);
  assert.equal(g.log.at(-1).kind, "restock");
  assert.equal(describeEffect({ kind: "restock" }, (id) => id), "restock");
});

test("take: a held slot is given back (said), one not held changes nothing", () => {
  const b = bundle();
  b.quests.q.encounters[0].events.push({ index: 3, can_fire: true, on: { kind: "round_end", round: 1 }, do: [{ kind: "take", item: "relic" }, { kind: "take", item: "ware_a" }] });
  const g = new Game(b, "q", { heroes: 2 });
  g.endRound();  // event 1 gives the relic, event 3 takes it back (written after it)
  assert.deepEqual(g.held, ["charm"]);
  assert.deepEqual(g.log.filter((l) => l.kind === "take").map((l) => l.text), ["The party gives up “The old relic” (relic: an item with all of relic)."]);
  assert.equal(describeEffect({ kind: "take", item: "relic" }, (id) => id), "take relic");
});

test("labels: the effects and a named slot in words", () => {
  assert.equal(describeEffect({ kind: "give", item: "relic" }, (id) => id), "give relic");
  assert.equal(describeEffect({ kind: "shop", items: ["ware_a", "ware_b"] }, (id) => id), "shop ware_a, ware_b");
  assert.equal(describeItem("charm", ITEMS.charm), "charm (ItemLuckyCharm)");
  assert.equal(describeItem("both", { traits: ["a"], with: ["b", "c"] }), "both (an item with one of a, and all of b, c)");
  assert.equal(describeItem("unknown", undefined), "unknown");
});

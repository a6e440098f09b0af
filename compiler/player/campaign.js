// A 2nd-edition app campaign walked step by step from the bundle's `app_campaigns`
// section: which quests are open, which side quests the app offers, recording an
// outcome, acts ending, weeks counting down, the ending. The rules are those of
// compiler/model/app_campaign.py (docs/campaign.md, "How a run goes"); tests compare the
// two on seeded runs (tests/test_app_campaign.py, tests/player/campaign.test.mjs).
// The page does not show a campaign yet: this is the walk it will drive.

const UNPLAYED = undefined;

export class CampaignWalk {
  constructor(bundle, id) {
    const camp = (bundle.app_campaigns || {})[id];
    if (!camp) throw new Error(`no campaign ${id} in the bundle`);
    this.campaign = camp;
    this.acts = camp.acts.map((a) => a.number);
    this.order = camp.acts.flatMap((a) => a.quests); // written order, act by act
    this.outcomes = {}; // quest id -> "won" | "lost"
    this.timers = {}; // quest id -> weeks left, once its count runs
    this.at = 0; // index into this.acts
    this.ending = null; // null while the campaign goes on, else "won" | "lost" | "none"
    this.weeks = 0;
    this.settle();
  }

  get act() {
    return this.ending === null ? this.acts[this.at] : null;
  }

  actOver(number) {
    const i = this.acts.indexOf(number);
    return i >= 0 && (i < this.at || this.ending !== null);
  }

  actWon(number) {
    if (!this.actOver(number)) return false;
    let won = 0, lost = 0;
    for (const id of this.order) {
      const q = this.campaign.quests[id];
      if (q.act !== number || q.kind !== "story") continue;
      if (this.outcomes[id] === "won") won += 1;
      if (this.outcomes[id] === "lost") lost += 1;
    }
    return won > lost;
  }

  holds(u) {
    if (u === undefined) return true;
    if (u.all) return u.all.every((p) => this.holds(p));
    if (u.any) return u.any.some((p) => this.holds(p));
    if (u.not) return !this.holds(u.not);
    if (u.act !== undefined) {
      if (u.outcome === "played") return this.actOver(u.act);
      const won = this.actWon(u.act);
      return u.outcome === "won" ? won : this.actOver(u.act) && !won;
    }
    if (!(u.quest in this.campaign.quests)) return false;
    const o = this.outcomes[u.quest];
    return u.outcome === "played" ? o !== UNPLAYED : o === u.outcome;
  }

  // { spine, sides, due }: the open quests of the current act in written order; `due`,
  // when not empty, is all the party may play (a story quest's weeks have run out)
  choices() {
    const spine = [], sides = [];
    if (this.ending === null) {
      for (const id of this.order) {
        const q = this.campaign.quests[id];
        if (q.act !== this.acts[this.at] || this.outcomes[id] !== UNPLAYED || !this.holds(q.after)) continue;
        (q.kind === "side" ? sides : spine).push(id);
      }
    }
    return { spine, sides, due: spine.filter((id) => this.timers[id] === 0) };
  }

  // the side quests the app offers: `side_offer` of them drawn with `random` (a function
  // returning [0, 1)), all of them when there are no more; none while a quest is due
  offer(random = Math.random) {
    const { sides, due } = this.choices();
    if (due.length) return [];
    const k = this.campaign.side_offer;
    if (k === undefined || sides.length <= k) return sides;
    const pool = [...sides], out = [];
    while (out.length < k) out.push(...pool.splice(Math.floor(random() * pool.length), 1));
    return this.order.filter((id) => out.includes(id));
  }

  record(id, outcome) {
    const { spine, sides, due } = this.choices();
    const allowed = due.length ? due : [...spine, ...sides];
    if (!allowed.includes(id)) throw new Error(`${id} is not open now`);
    if (outcome !== "won" && outcome !== "lost") throw new Error(`an outcome is won or lost, not ${outcome}`);
    this.outcomes[id] = outcome;
    const q = this.campaign.quests[id];
    if (q.kind === "side") {
      this.weeks += 1;
      for (const other of Object.keys(this.timers)) if (this.timers[other] > 0) this.timers[other] -= 1;
    }
    // a finale ends the campaign; in the Delve a stage lost ends it, and so does the last stage won
    const stages = this.order.filter((other) => this.campaign.quests[other].kind === "stage");
    if (q.kind === "finale" || (q.kind === "stage" && (outcome === "lost" || id === stages[stages.length - 1]))) this.ending = outcome;
    this.settle();
  }

  // start the counts of quests that opened; end acts with nothing left to play
  settle() {
    for (;;) {
      if (this.ending !== null) return;
      const { spine } = this.choices();
      for (const id of spine) {
        const weeks = this.campaign.quests[id].weeks;
        if (weeks !== undefined && !(id in this.timers)) this.timers[id] = weeks;
      }
      if (spine.length) return;
      if (this.at + 1 < this.acts.length) this.at += 1;
      else this.ending = "none";
    }
  }
}

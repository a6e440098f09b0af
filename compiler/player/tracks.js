// The bundle's `tracks` stepped by a front end (docs/bundle.md, "Typed effects, the loot
// track and experience"; docs/cards.md, "Loot and experience" and "Morale"): the same rules
// as compiler/model/effects.py (place_token, raise_payout, morale_steps), as pure functions
// over a track object of the bundle and a small state. Not wired into the web player's UI.

/** The loot track before any token: no damage tokens, the payout token on its first space. */
export const lootStart = () => ({ tokens: 0, payout: 1 });

/** `loot by N`: tokens climb to the loot limit for `heroes` (tokens past it are ignored);
 *  reaching it pays as many cards as the payout space says and resets both tokens.
 *  Returns {state, paid} (paid: null when the limit is not reached). */
export function placeLoot(track, heroes, state, by) {
  const limit = track.limit[String(heroes)];
  if (limit === undefined) throw new Error(`no loot limit for ${heroes} heroes`);
  const tokens = Math.min(limit, state.tokens + by);
  if (tokens === limit) return { state: lootStart(), paid: track.payout[state.payout - 1] };
  return { state: { tokens, payout: state.payout }, paid: null };
}

/** `loot_payout by N`: the payout token moves, never past the top nor below its start. */
export function raisePayout(track, state, by) {
  return { tokens: state.tokens, payout: Math.max(1, Math.min(track.payout.length, state.payout + by)) };
}

/** Morale at the start of a quest: the hero count, or the track's number. */
export const moraleStart = (track, heroes) => (track.start === "heroes" ? heroes : track.start);

/** A hero knocked out: at 0 the quest is lost; otherwise morale falls by one. */
export function knockOut(track, morale) {
  if (morale === 0) return { morale, lost: true };
  return { morale: morale - 1, lost: false };
}

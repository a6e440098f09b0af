"""`questc campaign PACK` for a pack with a 1st-edition campaign state (an `rtl_state:`
catalog) and no app campaign: the state's rules in short and its recorded weeks replayed,
one line a week (level, conquest, XP earned and spent, coins, where the party and the
lieutenants are, sieges, razed cities, quest items, upgrades), as text or as JSON (the
bundle's `campaign.state`). compiler/commands/campaign.py hands over to `run_state`.
Exit 0 answered, 1 the pack has errors (docs/campaign.md, "The moving state")."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Mapping

from compiler.commands.common import PROBLEMS

if TYPE_CHECKING:
    from compiler.diagnostics import Sink
    from compiler.model import Model
    from compiler.model import rtl_state as r


# In `-o`, the place of the week's number: one picture for each recorded week.
WEEK = "{week}"


def _pairs(mapping: Mapping[str, object]) -> str:
    return ", ".join(f"{k} {v}" for k, v in mapping.items()) or "-"


def week_line(w: r.WeekState) -> str:
    spent = ", ".join(f"{h} {n}" for h, n in w.hero_xp_spent.items())
    return (
        f"week {w.week:>3}  {w.level or '-':<7} conquest {w.hero_conquest}+{w.overlord_conquest}={w.hero_conquest + w.overlord_conquest}"
        f"  XP each hero {w.hero_xp}{f' (spent: {spent})' if spent else ''}, overlord {w.overlord_xp} (spent {w.overlord_xp_spent})"
        f"  coins {w.treasury}  party at {w.party_at}"
        f"\n           lieutenants: {_pairs(w.lieutenants)}; sieges: {_pairs(w.sieges)}; razed: {', '.join(w.razed) or '-'};"
        f" items: {_pairs(w.items)}; upgrades: {', '.join(w.upgrades) or '-'}{f'; ended: {w.ended}' if w.ended else ''}"
    )


def state_text(sid: str, checked: r.CheckedState, final_battle: int | None) -> str:
    from compiler.model import rtl_state as rs

    s = checked.state
    most = rs.most_xp(s, final_battle)
    lines = [f"campaign state {sid} (campaign {s.campaign}, world {s.world}, {s.heroes} heroes)"]
    lines.append(f"  week: the overlord gains {s.overlord_conquest} conquest, +{s.per_razed_city} per razed city; "
                 f"{s.overlord_upgrades} overlord upgrade(s) and {s.tamalir_per_week} Tamalir upgrade(s) a week")
    if s.awards:
        lines.append("  awards: " + "; ".join(
            f"{a.id} " + " ".join(p for p in (f"heroes {a.heroes}" if a.heroes else "", f"overlord {a.overlord}" if a.overlord else "",
                                                 f"coins {a.coins}" if a.coins else "") if p)
            for a in s.awards.values()))
    lines.append(f"  XP: {s.hero_xp_per} per hero token (every hero), {s.overlord_xp_per} per overlord token"
                 + (f"; at most {most[0]} (each hero) and {most[1]} (overlord) before the Final Battle at {final_battle}" if most else ""))
    if s.siege_die:
        lines.append(f"  siege: a full siege razes on a `{s.raze_on}` of `{s.siege_die}`; razing `{s.capital}` ends the campaign")
    for title, table in (("lieutenants", s.lieutenants), ("Tamalir upgrades", s.tamalir_upgrades), ("party upgrades", s.party_upgrades),
                         ("quest items", s.quest_items)):
        if table:
            lines.append(f"  {title}: {', '.join(sorted(table))}")
    weeks = checked.replay.weeks
    if weeks:
        lines.append(f"  the record, {len(weeks)} week(s):")
        lines.extend("  " + week_line(w) for w in weeks)
    return "\n".join(lines) + "\n"


def run_state(args: argparse.Namespace, model: Model, sink: Sink) -> int:
    """Print every campaign state of the pack (or `--id`'s); the caller has found one."""
    from compiler.diagnostics.render import exit_code, print_diagnostics
    from compiler.emit.rtl_state import rtl_state_json

    states = dict(model.rtl_state or {})
    if args.id is not None and args.id in states:
        states = {args.id: states[args.id]}
    if sink.items:
        print_diagnostics(sink, "human", stream=sys.stderr)
    if exit_code(sink, args.strict):
        return PROBLEMS
    rolled = {sid: razing_rolled(checked, args.simulate, args.seed) for sid, checked in sorted(states.items())} if args.simulate else {}
    if args.format == "json":
        import json

        everything = rtl_state_json(model) or {}
        answer = {i: {**everything[i], **({"razing_rolled": rolled[i]} if i in rolled else {})} for i in states}
        sys.stdout.write(json.dumps({"states": answer}, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
        return 0
    out = []
    for sid, checked in sorted(states.items()):
        out.append(state_text(sid, checked, _final(model, checked)) + (rolled_text(rolled[sid]) if sid in rolled else ""))
    sys.stdout.write("\n".join(out))
    if args.output is not None and states:
        from compiler.emit.images.primitives import save_png
        from compiler.emit.images.rtl_state import render_state

        first = states[sorted(states)[0]]
        world = (model.worlds or {})[first.state.world]
        if WEEK in args.output:  # one picture a week: FILE with {week} as 01, 02, ...
            for w in first.replay.weeks:
                save_png(render_state(first, world, _final(model, first), week=w.week), args.output.replace(WEEK, f"{w.week:02d}"))
        else:
            save_png(render_state(first, world, _final(model, first)), args.output)
    return 0


def _final(model: Model, checked: r.CheckedState) -> int | None:
    """The Final Battle's threshold of the state's campaign catalog entry."""
    entry = (model.catalogs.get("campaign") or {}).get(checked.state.campaign)
    return entry.data.get("final_battle") if entry is not None and isinstance(entry.data, dict) else None


def razing_rolled(checked: r.CheckedState, runs: int, seed: int) -> dict[str, object]:
    """`--simulate N --seed S` for a campaign state: the record replayed N times with every
    razing roll rolled (one random.Random(S) for all runs, so the same arguments give the
    same answer); the exact chance one roll razes, and what the runs came to."""
    import random
    from fractions import Fraction

    from compiler.model import rtl_state as rs

    odds = rs.raze_odds(checked.raze_die)
    out: dict[str, object] = {"runs": runs, "seed": seed, "die": checked.state.siege_die, "face": checked.state.raze_on,
                              "faces": [label for label, _ in checked.raze_die],
                              "odds": {"exact": f"{odds.numerator}/{odds.denominator}", "value": round(float(odds), 6)} if odds is not None else None}
    rng = random.Random(seed)
    rolls = razings = diverged = capital = 0
    razed: dict[str, int] = {}
    first: list[dict[str, object]] = []
    for k in range(runs if odds is not None else 0):
        rep = rs.rolled_replay(checked, rng)
        if rep is None:
            break
        rolls += len(rep.rolls)
        razings += sum(1 for _, roll in rep.rolls if roll.razed)
        diverged += 1 if rep.problems else 0
        last = rep.weeks[-1] if rep.weeks else None
        for city in last.razed if last is not None else ():
            razed[city] = razed.get(city, 0) + 1
        capital += 1 if last is not None and last.ended == "capital_razed" else 0
        if k == 0:
            first = [{"week": w, "city": roll.city, "face": roll.face, "razed": roll.razed} for w, roll in rep.rolls]
    share = Fraction(razings, rolls) if rolls else None
    out.update(rolls=rolls, razed_rolls=razings, razed_share=(f"{share.numerator}/{share.denominator}" if share is not None else None),
               razed_cities=dict(sorted(razed.items())), capital_razed=capital, runs_leaving_the_record=diverged, first_run=first)
    return out


def rolled_text(a: Mapping[str, object]) -> str:
    """The rolled replays in words (`razing_rolled`)."""
    odds, faces = a["odds"], a["faces"]
    if not isinstance(odds, dict) or not isinstance(faces, list):
        return "  razing rolled: no razing die to roll\n"
    lines = [f"  razing rolled: {a['runs']} run(s), seed {a['seed']}; `{a['die']}` ({', '.join(str(f) for f in faces)}) razes on `{a['face']}`"
             f" with odds {odds['exact']} ({odds['value'] * 100:.2f}%) a roll",
             f"    {a['rolls']} roll(s), {a['razed_rolls']} razed" + (f" ({a['razed_share']})" if a["razed_share"] else "")
             + f"; cities razed at the end (runs): {_pairs(a['razed_cities']) if isinstance(a['razed_cities'], dict) else '-'};"
             f" capital razed in {a['capital_razed']}; runs the record could not follow after a roll: {a['runs_leaving_the_record']}"]
    first = a["first_run"]
    if isinstance(first, list) and first:
        lines.append("    first run: " + "; ".join(f"week {f['week']} {f['city']} {f['face']}{' (razed)' if f['razed'] else ''}" for f in first))
    return "\n".join(lines) + "\n"

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
    if args.format == "json":
        import json

        everything = rtl_state_json(model) or {}
        sys.stdout.write(json.dumps({"states": {i: everything[i] for i in states}}, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
        return 0
    out = []
    for sid, checked in sorted(states.items()):
        out.append(state_text(sid, checked, _final(model, checked)))
    sys.stdout.write("\n".join(out))
    if args.output is not None and states:
        from compiler.emit.images.primitives import save_png
        from compiler.emit.images.rtl_state import render_state

        first = states[sorted(states)[0]]
        world = (model.worlds or {})[first.state.world]
        save_png(render_state(first, world, _final(model, first)), args.output)
    return 0


def _final(model: Model, checked: r.CheckedState) -> int | None:
    """The Final Battle's threshold of the state's campaign catalog entry."""
    entry = (model.catalogs.get("campaign") or {}).get(checked.state.campaign)
    return entry.data.get("final_battle") if entry is not None and isinstance(entry.data, dict) else None

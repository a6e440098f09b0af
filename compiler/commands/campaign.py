"""questc campaign PACK [--id ID] [-o FILE.png] [--simulate N [--seed S]]: a pack's
2nd-edition app campaign as text (acts, quests, what unlocks them, the exact chance each
quest is played and each ending comes), as a picture, and as N seeded runs. For a
1st-edition pack with a campaign state, the state replayed (compiler/commands/rtl_state.py).

The text goes to stdout; diagnostics to stderr. Exit 0 answered, 1 the pack has errors
(or no campaign: K0412), 2 usage (an unknown --id: K0413). The same arguments give the
same bytes (docs/campaign.md, "questc campaign").
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING

from compiler.commands.common import PROBLEMS, USAGE, add_pack_arguments, command_line_span, compile_args

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink
    from compiler.model import app_campaign as ac
    from compiler.syntax import ast


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--id", default=None, metavar="ID", help="which campaign, if the pack declares several (default: all)")
    parser.add_argument("-o", "--output", default=None, metavar="FILE", help="also draw the campaign's graph to this PNG file (a 1st-edition campaign state: the state after the record; `{week}` in the name: one file per week)")
    parser.add_argument("--simulate", type=_count, default=None, metavar="N", help="walk N seeded runs and count what each reaches (a 1st-edition campaign state: replay the record N times with every full siege's razing rolled)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the simulation's seed (default: 1)")


def _fail(sink: Sink, args: argparse.Namespace, code: int) -> int:
    from compiler.diagnostics.render import print_diagnostics

    print_diagnostics(sink, args.format)
    return code


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.hints import did_you_mean
    from compiler.diagnostics.render import exit_code, print_diagnostics

    result = compile_args(args, images=False, sight=False)
    sink = result.sink
    model = result.model
    if model is None:
        return _fail(sink, args, PROBLEMS)
    campaigns = dict(model.app_campaigns or {})
    if not campaigns and model.rtl_state and (args.id is None or args.id in model.rtl_state):
        from compiler.commands.rtl_state import run_state  # a 1st-edition campaign state

        return run_state(args, model, sink)
    if not campaigns:
        sink.report("K0412", command_line_span(args, args.paths[0]), pack=model.pack.id)
        return _fail(sink, args, PROBLEMS)
    if args.id is not None:
        if args.id not in campaigns:
            guess = did_you_mean(args.id, sorted(campaigns))
            hint = f"; did you mean `{guess}`?" if guess else f" (campaigns: {', '.join(sorted(campaigns))})"
            sink.report("K0413", command_line_span(args, args.id), name=args.id, pack=model.pack.id, hint=hint, fix=guess)
            return _fail(sink, args, USAGE)
        campaigns = {args.id: campaigns[args.id]}
    if sink.items:  # with --format json the answer is on stdout: the diagnostics stay human on stderr
        print_diagnostics(sink, "human", stream=sys.stderr)
    if exit_code(sink, args.strict):
        return PROBLEMS
    out: list[str] = []
    answer: dict[str, object] = {}
    for cid, checked in sorted(campaigns.items()):
        sim = None
        if args.simulate is not None:
            from compiler.model.app_campaign import simulate

            sim = simulate(checked.campaign, args.simulate, args.seed)
        out.append(campaign_text(checked, sim))
        answer[cid] = campaign_answer(checked, sim)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps({"campaigns": answer}, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("\n".join(out))
    if args.output is not None:
        from compiler.emit.images.app_campaign import render_campaign
        from compiler.emit.images.primitives import save_png

        first = campaigns[sorted(campaigns)[0]]
        save_png(render_campaign(first), args.output)
    return 0


def _pct(p: float) -> str:
    return f"{p * 100:.2f}%"


def _chance(f: Fraction) -> str:
    return f"{f} ({_pct(float(f))})"


def _exact(f: Fraction) -> dict[str, object]:
    return {"exact": f"{f.numerator}/{f.denominator}", "value": round(float(f), 6)}


def _reward(r: ast.Reward) -> dict[str, object]:
    from compiler.model import app_campaign as ac

    return {"when": r.when, **{c: getattr(r, c) for c in ac.CURRENCIES if getattr(r, c)}}


def _reward_text(rewards: tuple[ast.Reward, ...]) -> str:
    from compiler.model import app_campaign as ac

    parts = []
    for r in rewards:
        when = r.when
        paid = " ".join(f"{c} {getattr(r, c)}" for c in ac.CURRENCIES if getattr(r, c))
        parts.append(f"reward {'' if when == 'any' else when + ' '}{paid}".rstrip())
    return " ".join(parts)


def _setting(checked: ac.Checked) -> str:
    from compiler.model import app_campaign as ac

    d = checked.decl.difficulty
    return d.name if d is not None and d.name in ac.DIFFICULTIES else "normal"


def campaign_answer(checked: ac.Checked, sim: ac.Simulation | None = None) -> dict[str, object]:
    """What the text says, as JSON (`--format json`; docs/campaign.md): texts as written,
    conditions in the language's words, chances exact and rounded, the simulation's counts."""
    from compiler.model import app_campaign as ac

    camp, analysis = checked.campaign, checked.analysis
    quests: dict[str, object] = {}
    for q in camp.quests:
        item: dict[str, object] = {"kind": q.kind, "act": camp.acts[q.act], "title": q.title, "in_pack": q.in_pack, "odds": _exact(q.odds)}
        if q.after is not None:
            item["after"] = ac.unlock_text(q.after)
        if q.weeks is not None:
            item["weeks"] = q.weeks
        if q.rewards:
            item["rewards"] = [_reward(r) for r in q.rewards]
        if analysis is not None:
            item["played"] = _exact(analysis.played[q.id])
        if sim is not None:
            item["simulated"] = sim.played[q.id]
        quests[q.id] = item
    out: dict[str, object] = {
        "name": camp.name,
        "source": camp.source,
        "acts": [{"number": n, "title": camp.act_titles[i], "quests": [q.id for q in camp.quests if q.act == i]} for i, n in enumerate(camp.acts)],
        "quests": quests,
        "states": analysis.states if analysis is not None else None,
    }
    if camp.side_offer is not None:
        out["side_offer"] = camp.side_offer
    decl = checked.decl
    setting = _setting(checked)
    out["difficulty"] = {"setting": setting, **ac.DIFFICULTIES[setting], **_peril(checked)}
    out["delve"] = camp.delve
    if decl.cities:
        out["cities"] = {c.id: {"name": c.name.value if c.name else None, "sells": [{"items": [r.name for r in g.items], "fame": g.fame} for g in c.sells],
                                **({"stock": c.stock} if c.stock is not None and c.stock > 0 else {})}
                         for c in sorted(decl.cities, key=lambda c: c.id)}
    if camp.prices:
        out["prices"] = dict(sorted(camp.prices.items()))
    if camp.visit_odds is not None:
        visit: dict[str, object] = {"odds": _exact(camp.visit_odds), "spend": camp.visit_spend}
        if analysis is not None:
            visit.update(expected=_exact(analysis.visits), least=analysis.visit_range[0], most=analysis.visit_range[1],
                         gold_spent=_exact(analysis.visits * camp.visit_spend),
                         by_city={shop.city: _exact(analysis.visits / len(camp.shops)) for shop in camp.shops},
                         runs_by_visits={str(n): _exact(p) for n, p in analysis.visits_by().items()})
        out["visit"] = visit
    if camp.travel:
        out["travel"] = [
            {"id": t.id, "odds": _exact(t.odds), "rewards": [_reward(r) for r in t.rewards],
             **({"answers": _answers_json(t, analysis, sim)} if t.answers else {}),
             **({"once": _exact(analysis.travel_once[t.id]), "expected": _exact(analysis.travel_expected[t.id])} if analysis is not None else {}),
             **({"simulated_runs": sim.travel_runs[t.id], "simulated_total": sim.travel_total[t.id]} if sim is not None else {})}
            for t in camp.travel
        ]
    if analysis is not None:
        out["endings"] = {e: _exact(analysis.endings[e]) for e in ac.ENDINGS}
        out["expected_weeks"] = _exact(analysis.total_weeks(camp))
        out["awards"] = {str(camp.acts[at]): {c: {"least": lo, "most": hi} for c, (lo, hi) in by.items()} for at, by in sorted(analysis.awards.items())}
        out["most_fame"] = analysis.most_fame
        out["fame_held"] = {str(camp.acts[at]): {"least": lo, "most": hi} for at, (lo, hi) in sorted(analysis.fame_held.items())}
        out["runs_by_weeks"] = {str(n): _exact(p) for n, p in analysis.weeks_by(camp).items()}
        if camp.delve:
            out["upgrades"] = _exact(analysis.upgrades)
            out["reveals"] = _exact(analysis.reveals)
    if sim is not None:
        simulation: dict[str, object] = {
            "runs": sim.runs, "seed": sim.seed, "endings": dict(sim.endings),
            "weeks": {str(n): k for n, k in sim.weeks.items()}, "quests_played": {str(n): k for n, k in sim.quests_played.items()},
            "awards": {str(camp.acts[at]): {c: {"least": lo, "most": hi} for c, (lo, hi) in by.items()} for at, by in sorted(sim.awards.items())},
            "fame_held": {str(camp.acts[at]): {"least": lo, "most": hi} for at, (lo, hi) in sorted(sim.fame_held.items())},
        }
        if camp.visit_odds is not None:
            simulation.update(visits={str(n): k for n, k in sim.visits.items()}, gold_spent=sim.gold_spent,
                              city_visits=dict(sim.city_visits), on_sale={c: dict(items) for c, items in sim.on_sale.items()})
        if camp.delve:
            simulation.update(upgrades=sim.upgrades, reveals=sim.reveals, revealed=dict(sim.revealed))
        out["simulation"] = simulation
    return out


def _peril(checked: ac.Checked) -> dict[str, object]:
    """The rounds between peril steps: the campaign's `peril N`, else the difficulty's
    number, which is this project's own (illustrative)."""
    from compiler.model import app_campaign as ac

    written = checked.decl.peril
    if written is not None and written > 0:
        return {"peril_rounds": written, "peril_illustrative": checked.campaign.source == "illustrative"}
    return {"peril_rounds": ac.PERIL_ROUNDS[_setting(checked)], "peril_illustrative": True}


def _answers_json(t: ac.Travel, analysis: ac.Analysis | None, sim: ac.Simulation | None) -> list[dict[str, object]]:
    """Each way a travel event's answers can go: the chance given the event, per journey
    (exact), the expected times per run, what it pays in all, and the simulated times."""
    out: list[dict[str, object]] = []
    for key, chance, pays in t.outcomes():
        item: dict[str, object] = {"answer": key, "chance": _exact(chance), "per_journey": _exact(chance * t.odds),
                                   "pays": {c: v for c, v in pays.items() if v}}
        if analysis is not None:
            item["expected"] = _exact(analysis.travel_expected[t.id] * chance)
        if sim is not None:
            item["simulated"] = sim.answers[f"{t.id}:{key}"]
        out.append(item)
    return out


def campaign_text(checked: ac.Checked, sim: ac.Simulation | None = None) -> str:
    """The campaign as text: a header, each act with its quests, the endings; with `sim`,
    each count beside its exact chance."""
    from compiler.diagnostics.render import visible
    from compiler.model import app_campaign as ac

    camp, analysis = checked.campaign, checked.analysis
    offer = f"side_offer {camp.side_offer}" if camp.side_offer is not None else "every unlocked side quest offered"
    if camp.delve:
        offer = f"stages in order, Act II after stage {ac.DELVE_ACT_AFTER}"
    walked = f"{analysis.states} states walked" if analysis is not None else "not walked (K0410)"
    what = "the Delve" if camp.delve else "campaign"
    lines = [f"{what} {camp.id} \"{visible(camp.name)}\" ({camp.source}): {len(camp.acts)} acts, {len(camp.quests)} quests, {offer}; {walked}"]
    setting = _setting(checked)
    rule = ac.DIFFICULTIES[setting]
    peril = _peril(checked)
    lines.append(f"difficulty {setting}: each hero starts with {rule['gold_per_hero']} gold" + (f" and {rule['delve_xp']} XP" if camp.delve else "")
                 + f"; peril rises every {peril['peril_rounds']} rounds" + (" (illustrative)" if peril["peril_illustrative"] else ""))
    if sim is not None:
        lines.append(f"simulated {sim.runs} runs, seed {sim.seed}")
    for city in sorted(checked.decl.cities, key=lambda c: c.id):
        shop = "; ".join((f"at fame {g.fame}: " if g.fame else "") + ", ".join(r.name for r in g.items) for g in city.sells)
        lines.append(f"city {city.id}" + (f" \"{visible(city.name.value)}\"" if city.name else "") + f" sells {shop or 'nothing'}"
                     + (f"; a visit finds {city.stock} on sale" if city.stock is not None and city.stock > 0 else ""))
        if sim is not None and city.id in sim.on_sale and sim.city_visits.get(city.id):
            seen = sim.city_visits[city.id]
            lines.append(f"  simulated {seen} visits; on sale: " + ", ".join(
                f"{item} {n}/{seen} ({_pct(n / seen)})" + (f" at {camp.prices[item]} gold" if item in camp.prices else "") for item, n in sim.on_sale[city.id].items()))
    if camp.prices:
        lines.append("prices: " + ", ".join(f"{item} {gold}" for item, gold in sorted(camp.prices.items())))
    if camp.visit_odds is not None:
        head = f"visit a city after a quest: odds {camp.visit_odds}, a week, {camp.visit_spend} gold spent"
        facts = []
        if analysis is not None:
            low, high = analysis.visit_range
            facts.append(f"expected {analysis.visits} ({float(analysis.visits):.2f}) visits a run, {low}..{high}, gold spent {analysis.visits * camp.visit_spend}")
        if sim is not None:
            facts.append(f"simulated mean {sum(n * k for n, k in sim.visits.items()) / sim.runs:.2f}, gold spent {sim.gold_spent / sim.runs:.2f}, runs by visits "
                         + ", ".join(f"{n}: {k}" for n, k in sim.visits.items()))
        lines.append(head + ("; " + "; ".join(facts) if facts else ""))
    written = {t.id: t for t in checked.decl.travel}
    for t in camp.travel:
        near = written[t.id].near
        head = f"travel {t.id} odds {t.odds} per journey" + (f" near {near.name}" if near is not None else "")
        if t.rewards:
            head += " " + _reward_text(t.rewards)
        facts = []
        if analysis is not None:
            facts.append(f"met in a run {_chance(analysis.travel_once[t.id])}, on average {analysis.travel_expected[t.id]} times")
        if sim is not None:
            facts.append(f"simulated {sim.travel_runs[t.id]}/{sim.runs} runs ({_pct(sim.travel_runs[t.id] / sim.runs)}), {sim.travel_total[t.id] / sim.runs:.3f} times")
        lines.append(head + ("; " + "; ".join(facts) if facts else ""))
        if t.answers:
            for key, chance, pays in t.outcomes():
                gives = " ".join(f"{c} {v}" for c, v in pays.items() if v) or "nothing"
                bits = [f"  answer {key}: {chance} of the event, {chance * t.odds} a journey, pays {gives}"]
                if analysis is not None:
                    bits.append(f"on average {analysis.travel_expected[t.id] * chance} times a run")
                if sim is not None:
                    bits.append(f"simulated {sim.answers[f'{t.id}:{key}'] / sim.runs:.3f} times")
                lines.append("; ".join(bits))
    for at, number in enumerate(camp.acts):
        title = camp.act_titles[at]
        items = checked.decl.acts[at].items if at < len(checked.decl.acts) else ()
        lines.append(f"act {number}" + (f" \"{visible(title)}\"" if title else "") + (f" items {', '.join(r.name for r in items)}" if items else ""))
        if analysis is not None and at in analysis.awards:
            paid = analysis.awards[at]
            lines.append("  paid in this act: " + ", ".join(f"{c} {paid[c][0]}..{paid[c][1]}" for c in ac.CURRENCIES)
                         + (" (simulated " + ", ".join(f"{c} {sim.awards[at][c][0]}..{sim.awards[at][c][1]}" for c in ac.CURRENCIES) + ")"
                            if sim is not None and at in sim.awards else ""))
        if analysis is not None and at in analysis.fame_held:
            lo, hi = analysis.fame_held[at]
            lines.append(f"  fame held as the act ends: {lo}..{hi}" + (f" (simulated {sim.fame_held[at][0]}..{sim.fame_held[at][1]})" if sim is not None and at in sim.fame_held else ""))
        for q in camp.quests:
            if q.act != at:
                continue
            head = f"  {q.kind:<9} {q.id}"
            if q.title:
                head += f" \"{visible(q.title)}\""
            if not q.in_pack:
                head += " (not in the pack)"
            if q.weeks is not None:
                head += f" weeks {q.weeks}"
            if q.odds != ac.DEFAULT_ODDS:
                head += f" odds {q.odds}"
            if q.rewards:
                head += " " + _reward_text(q.rewards)
            if q.after is not None and q.kind != "stage":
                head += f" after {ac.unlock_text(q.after)}"
            lines.append(head)
            facts = []
            if analysis is not None:
                facts.append("played " + _chance(analysis.played[q.id]))
            if sim is not None:
                facts.append(f"simulated {sim.played[q.id]}/{sim.runs} ({_pct(sim.played[q.id] / sim.runs)})")
            if facts:
                lines.append("      " + "; ".join(facts))
    words = {"won": "the Delve won", "lost": "the Delve lost", "none": "neither"} if camp.delve else {"won": "a finale won", "lost": "a finale lost", "none": "no finale"}
    for e in ac.ENDINGS:
        facts = []
        if analysis is not None:
            facts.append(_chance(analysis.endings[e]))
        if sim is not None:
            facts.append(f"simulated {sim.endings[e]}/{sim.runs} ({_pct(sim.endings[e] / sim.runs)})")
        if facts:
            lines.append(f"ending: {words[e]}: " + "; ".join(facts))
    facts = []
    if analysis is not None:
        expected = analysis.total_weeks(camp)
        facts.append(f"expected {expected} ({float(expected):.2f})")
    if sim is not None:
        mean = sum(n * k for n, k in sim.weeks.items()) / sim.runs
        facts.append(f"simulated mean {mean:.2f}, runs by weeks " + ", ".join(f"{n}: {k}" for n, k in sim.weeks.items()))
    if facts:
        lines.append("weeks passed (one per side quest attempted" + (", one per city visit" if camp.visit_odds is not None else "") + "): " + "; ".join(facts))
    if analysis is not None and camp.delve:
        lines.append(f"upgrade phases: expected {analysis.upgrades} ({float(analysis.upgrades):.2f}), shop items revealed {analysis.reveals} ({float(analysis.reveals):.2f})"
                     + (f"; simulated {sim.upgrades / sim.runs:.2f} and {sim.reveals / sim.runs:.2f}" if sim is not None else ""))
        if sim is not None and sim.revealed:
            lines.append("items revealed (simulated, times in all runs): " + ", ".join(f"{item} {n}" for item, n in sim.revealed.items()))
    if analysis is not None:
        lines.append(f"most fame a run gathers: {analysis.most_fame}")
    if sim is not None:
        spread = ", ".join(f"{n}: {k}" for n, k in sim.quests_played.items())
        lines.append(f"quests played per run (simulated): {spread}")
    return "\n".join(lines) + "\n"

"""The app-campaign pass: each 2nd-edition `campaign` declaration resolved against the
pack's quests and checked (docs/campaign.md, "The app campaign (2nd edition)"):

- acts numbered 1, 2, … (K0404); quests listed once (K0403), each a quest of the pack
  or named by id with its title (K0402); odds between 0 and 1 (K0408); `side_offer` at
  least 1 (K0409); `weeks` only on spine quests (K0414); the source known (K0105);
- conditions read quests of the campaign (K0401) and acts it has (K0411), and can hold
  while their quest is open (K0405: a small truth table over what the condition reads);
- every run is walked exactly (compiler/model/app_campaign.py): a quest no run plays is
  K0406 (reported at the root only: a quest whose condition reads one already reported
  is left alone), a run that ends with no finale is K0407, a campaign too large to walk
  is K0410;
- the rest of the app campaign: a travel event near a city the campaign lacks (K0415),
  a shop selling an item no act has (K0416), a reward no run can earn (K0417: a shop item
  waiting for more fame than any run gathers, a travel event paid on an outcome), the
  Delve's six stages, three an act (K0418), stages only in the Delve and nothing else in
  it (K0419), a difficulty the app does not have (K0420), travel odds that are no chance
  or add up past 1 (K0421), city visits that cannot happen (K0422: no city, the Delve,
  odds that are no chance, a stock of 0), gold or XP taken away (K0423: only fame can
  be), a Delve `reveal` or `peril` that means nothing (K0424), a travel answer written
  twice (K0425); a test answer's odds as a quest's (K0408), a reward on `won`/`lost` for
  a choice that is no test (K0417).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import product

from compiler.diagnostics import Related, Sink
from compiler.diagnostics.hints import did_you_mean
from compiler.model import Model
from compiler.model import app_campaign as ac
from compiler.syntax import ast

SOURCES = ("rulebook", "illustrative")
MAX_TRUTH_TABLE = 10  # atoms a condition may read before K0405 stops trying every case


def app_campaign_pass(model: Model, sink: Sink) -> Model:
    symbols = model.symbols or {}
    quests = symbols.get("quest") or {}
    out: dict[str, ac.Checked] = {}
    for cid, decl in sorted((symbols.get("app_campaign") or {}).items()):
        if isinstance(decl, ast.AppCampaign):
            out[cid] = check_campaign(decl, quests, sink)
    return model.with_(app_campaigns=out)


def _hint(name: str, known: list[str], sink: Sink) -> tuple[str, str | None]:
    guess = did_you_mean(name, known, None, sink)
    return (f"; did you mean `{guess}`?", guess) if guess else ("", None)


def resolve(decl: ast.AppCampaign, pack_quests: dict[str, ast.Declaration] | object, sink: Sink) -> tuple[ac.Campaign, set[str]]:
    """The campaign as the model reads it, and the ids of quests already reported."""
    known_pack = dict(pack_quests) if isinstance(pack_quests, dict) else {}
    broken: set[str] = set()
    if decl.source is not None and decl.source.name not in SOURCES:
        hint, fix = _hint(decl.source.name, list(SOURCES), sink)
        sink.report("K0105", decl.source.span, value=decl.source.name, hint=hint, fix=fix)
    side_offer = decl.side_offer
    if side_offer is not None and side_offer < 1:
        sink.report("K0409", decl.side_offer_span, count=side_offer)
        side_offer = None
    if decl.difficulty is not None and decl.difficulty.name not in ac.DIFFICULTIES:
        hint, fix = _hint(decl.difficulty.name, list(ac.DIFFICULTIES), sink)
        sink.report("K0420", decl.difficulty.span, value=decl.difficulty.name, hint=hint, fix=fix)
    acts: list[int] = []
    titles: list[str | None] = []
    quests: list[ac.Quest] = []
    first: dict[str, ast.CampaignQuest] = {}
    previous_stage: ast.Ref | None = None
    for at, act in enumerate(decl.acts):
        if act.number != at + 1:
            sink.report("K0404", act.span, number=act.number, expected=at + 1)
        acts.append(act.number)
        titles.append(act.title.value if act.title else None)
        for q in act.quests:
            name = q.quest.name
            if name in first:
                sink.report("K0403", q.quest.span, name=name, campaign=decl.id, related=(Related(first[name].span, "first listed here"),))
                continue
            first[name] = q
            in_pack = name in known_pack and isinstance(known_pack[name], ast.Quest)
            title: str | None = q.title.value if q.title else None
            if title is None and not in_pack:
                hint, fix = _hint(name, sorted(known_pack), sink)
                sink.report("K0402", q.quest.span, name=name, kind=q.kind, hint=hint, fix=fix)
                broken.add(name)
            if title is None and in_pack:
                own = known_pack[name]
                title = own.name.value if isinstance(own, ast.Quest) else None
            odds = ac.DEFAULT_ODDS
            if q.odds is not None:
                won, of = q.odds
                if of == 0 or not 0 < won < of:
                    sink.report("K0408", q.odds_span, odds=f"{won}/{of}")
                else:
                    odds = Fraction(won, of)
            weeks = q.weeks
            if weeks is not None and q.kind == "side":
                sink.report("K0414", q.weeks_span, name=name)
                weeks = None
            after = q.after
            if decl.delve and q.kind != "stage":
                sink.report("K0419", q.quest.span, name=name, why=f"the Delve is played in stages: a {q.kind} quest has no place in it")
                broken.add(name)
            elif not decl.delve and q.kind == "stage":
                sink.report("K0419", q.quest.span, name=name, why="a stage belongs to the Delve (write `delve` in the campaign)")
                broken.add(name)
            elif q.kind == "stage":
                if q.after is not None or q.weeks is not None:
                    sink.report("K0419", q.after.span if q.after is not None else q.weeks_span, name=name,
                                why="a stage opens when the stage before it is won: it takes no `after` and no `weeks`")
                after = None if previous_stage is None else ast.Unlock("quest", quest=previous_stage, outcome="won", span=q.quest.span)
                weeks = None
                previous_stage = q.quest
            _amounts(q.rewards, sink)
            reveal = _reveal(q, act, sink)
            quests.append(ac.Quest(name, q.kind, at, title, in_pack, odds, after, q.quest.span, weeks, q.rewards, reveal))
    last = next((q for q in reversed(quests) if q.kind == "stage"), None)
    if last is not None and last.reveal is not None:  # the Delve is won after it: no upgrade phase follows
        spot = next(q for act in decl.acts for q in act.quests if q.quest.name == last.id)
        sink.report("K0424", spot.reveal_span, what=f"`reveal {last.reveal}` on `{last.id}`",
                    why="the last stage won ends the Delve, so no upgrade phase follows it")
        quests[-1 if quests[-1] is last else quests.index(last)] = dataclasses.replace(last, reveal=None)
    if decl.delve:
        per_act = [sum(1 for q in quests if q.act == at and q.kind == "stage") for at in range(len(acts))]
        want = [ac.DELVE_ACT_AFTER, ac.DELVE_STAGES - ac.DELVE_ACT_AFTER]
        if per_act != want:
            found = ", ".join(f"{n} in act {a}" for n, a in zip(per_act, acts)) or "no act"
            sink.report("K0418", decl.delve_span, campaign=decl.id, found=found)
    shops, visit_odds = _visits(decl, sink)
    camp = ac.Campaign(
        id=decl.id,
        name=decl.name.value,
        acts=tuple(acts),
        act_titles=tuple(titles),
        quests=tuple(quests),
        side_offer=side_offer,
        source=decl.source.name if decl.source is not None and decl.source.name in SOURCES else "illustrative",
        span=decl.name.span,
        positions={q.id: i for i, q in reversed(list(enumerate(quests)))},
        delve=decl.delve,
        travel=_travel(decl, sink),
        visit_odds=visit_odds,
        visit_spend=decl.visit.spend if decl.visit is not None else 0,
        shops=shops,
        prices={name: price for act in decl.acts for name, price in act.prices},
        act_items=tuple(tuple(r.name for r in act.items) for act in decl.acts),
    )
    _shops(decl, sink)
    if decl.peril is not None and decl.peril < 1:
        sink.report("K0424", decl.peril_span, what=f"`peril {decl.peril}`", why="peril rises every N rounds, N at least 1")
    return camp, broken


def _amounts(rewards: tuple[ast.Reward, ...], sink: Sink) -> None:
    """K0423: only fame can be taken away (`reward fame -1`); gold and XP are paid."""
    for r in rewards:
        for c in ("gold", "xp"):
            if getattr(r, c) < 0:
                sink.report("K0423", r.span, currency=c, amount=getattr(r, c))


def _reveal(q: ast.CampaignQuest, act: ast.CampaignAct, sink: Sink) -> int | None:
    """A Delve stage's `reveal N`: only on a stage, at least the items the heroes keep, at
    most the act's shop item deck (when the act lists one) (K0424)."""
    if q.reveal is None:
        return None
    keep = max(ac.DELVE_KEEP.values())
    if q.kind != "stage":
        why = "only a Delve stage is followed by an upgrade phase that reveals shop items"
    elif q.reveal < keep:
        why = f"the heroes keep {keep} of the items revealed (1 with two heroes), so at least {keep} are revealed"
    elif act.items and q.reveal > len(act.items):
        why = f"act {act.number}'s shop item deck has {len(act.items)} items"
    else:
        return q.reveal
    sink.report("K0424", q.reveal_span, what=f"`reveal {q.reveal}` on `{q.quest.name}`", why=why)
    return None


def _visits(decl: ast.AppCampaign, sink: Sink) -> tuple[tuple[ac.Shop, ...], Fraction | None]:
    """The visit policy and the shops a visit may go to; K0422 for visits that cannot
    happen (no city, the Delve, odds that are no chance) and for a stock of 0."""
    shops = []
    for city in decl.cities:
        stock = city.stock
        if stock is not None and stock < 1:
            sink.report("K0422", city.stock_span, what=f"`stock {stock}` in `{city.id}`", why="a visit finds at least one item on sale")
            stock = None
        shops.append(ac.Shop(city.id, tuple((g.fame, tuple(r.name for r in g.items)) for g in city.sells), stock))
    v = decl.visit
    if v is None:
        return tuple(shops), None
    won, of = v.odds
    if decl.delve:
        why = "the Delve is played stage after stage, with no city between"
    elif not decl.cities:
        why = "the campaign declares no city to visit"
    elif of == 0 or not 0 < won <= of:
        why = "its odds are a chance above 0 and at most 1"
    else:
        return tuple(shops), Fraction(won, of)
    sink.report("K0422", v.span, what=f"`visit odds {won}/{of}`", why=why)
    return tuple(shops), None


def _travel(decl: ast.AppCampaign, sink: Sink) -> tuple[ac.Travel, ...]:
    """The travel events with their exact chances; K0415 near an unknown city, K0421 for
    a chance outside (0, 1] or chances adding up past 1, K0417 for a reward on an outcome."""
    cities = sorted(c.id for c in decl.cities)
    out: list[ac.Travel] = []
    total = Fraction(0)
    for t in decl.travel:
        if t.near is not None and t.near.name not in cities:
            hint, fix = _hint(t.near.name, cities, sink)
            sink.report("K0415", t.near.span, name=t.near.name, event=t.id, campaign=decl.id, hint=hint, fix=fix)
        for r in t.rewards:
            if r.when != "any":
                sink.report("K0417", r.span, what=f"travel event `{t.id}` pays when `{r.when}`",
                            why="a journey has no outcome of its own, so nothing is ever paid")
        won, of = t.odds
        if of == 0 or not 0 < won <= of:
            sink.report("K0421", t.odds_span, odds=f"{won}/{of}", why="a chance lies above 0 and at most 1")
            continue
        odds = Fraction(won, of)
        if total + odds > 1:
            sink.report("K0421", t.odds_span, odds=f"{won}/{of}",
                        why=f"with the events before it the chances of one journey add up to {total + odds}, more than 1")
            continue
        total += odds
        _amounts(t.rewards, sink)
        out.append(ac.Travel(t.id, odds, t.rewards, _answers(t, sink)))
    return tuple(out)


def _answers(t: ast.TravelEvent, sink: Sink) -> tuple[ac.Answer, ...]:
    """A travel event's answers: a test's odds strictly between 0 and 1 (K0408), `won`/
    `lost` rewards only on a test (K0417), each answer once (K0425)."""
    out: list[ac.Answer] = []
    first: dict[str, ast.TravelAnswer] = {}
    for a in t.answers:
        if a.id in first:
            sink.report("K0425", a.span, answer=a.id, event=t.id, related=(Related(first[a.id].span, "first written here"),))
            continue
        first[a.id] = a
        odds: Fraction | None = None
        if a.odds is not None:
            won, of = a.odds
            if of == 0 or not 0 < won < of:
                sink.report("K0408", a.odds_span, odds=f"{won}/{of}")
                continue
            odds = Fraction(won, of)
        else:
            for r in a.rewards:
                if r.when != "any":
                    sink.report("K0417", r.span, what=f"answer `{a.id}` of travel event `{t.id}` pays when `{r.when}`",
                                why="a choice without `odds` is no test, so it is never won or lost")
        _amounts(a.rewards, sink)
        out.append(ac.Answer(a.id, odds, a.rewards))
    return tuple(out)


def _shops(decl: ast.AppCampaign, sink: Sink) -> None:
    """K0416: every item a city sells is in some act's shop item deck."""
    items = sorted({r.name for act in decl.acts for r in act.items})
    for city in decl.cities:
        for sells in city.sells:
            for item in sells.items:
                if item.name not in items:
                    hint, fix = _hint(item.name, items, sink)
                    sink.report("K0416", item.span, item=item.name, city=city.id, hint=hint, fix=fix)


def check_campaign(decl: ast.AppCampaign, pack_quests: dict[str, ast.Declaration] | object, sink: Sink) -> ac.Checked:
    camp, broken = resolve(decl, pack_quests, sink)
    ids = sorted(camp.positions)
    # names and acts each condition reads
    for q in camp.quests:
        for ref in ac.unlock_quests(q.after):
            if ref.name not in ids:
                hint, fix = _hint(ref.name, ids, sink)
                sink.report("K0401", ref.span, name=ref.name, campaign=camp.id, hint=hint, fix=fix)
                broken.add(q.id)
        for number, span in ac.unlock_acts(q.after):
            if number not in camp.acts:
                sink.report("K0411", span, number=number, campaign=camp.id, acts=", ".join(str(a) for a in camp.acts) or "none")
                broken.add(q.id)
    for q in camp.quests:
        if q.after is not None and q.id not in broken:
            why = never_holds(camp, q)
            if why is not None:
                sink.report("K0405", q.after.span, after=ac.unlock_text(q.after), name=q.id, act=camp.acts[q.act], why=why)
                broken.add(q.id)
    if not camp.quests:
        return ac.Checked(camp, None, decl)
    try:
        analysis = ac.analyse(camp)
    except ac.TooLarge:
        sink.report("K0410", camp.span, campaign=camp.id, limit=f"{ac.state_limit(camp):,}")
        return ac.Checked(camp, None, decl)
    unreached = {q.id for q in camp.quests if analysis.played[q.id] == 0}
    for at, act in enumerate(decl.acts):
        if at not in analysis.acts_reached and at < len(camp.acts):  # one error for the act, not one per quest
            sink.report("K0406", act.span, campaign=camp.id, name=f"act {act.number}", why="every run ends with a finale before it")
            broken.update(q.id for q in camp.quests if q.act == at)
    for q in camp.quests:
        if q.id not in unreached or q.id in broken:
            continue
        reads = {r.name for r in ac.unlock_quests(q.after)}
        if reads & (unreached | broken):
            continue  # the quest it waits for is reported (or unreached) itself
        why = (
            f"`{ac.unlock_text(q.after)}` never holds while act {camp.acts[q.act]} still has a story, interlude or finale quest open"
            if q.after is not None else f"act {camp.acts[q.act]} is never reached"
        )
        sink.report("K0406", q.span, campaign=camp.id, name=q.id, why=why)
    for city in decl.cities:
        for sells in city.sells:
            if sells.fame > analysis.most_fame:
                sink.report("K0417", sells.span, what=f"`{city.id}` sells {', '.join(r.name for r in sells.items)} at fame {sells.fame}",
                            why=f"no run gathers more than {analysis.most_fame} fame")
    finale_unreached = any(q.kind == "finale" and q.id in unreached for q in camp.quests)
    if analysis.no_finale_path is not None and not broken and not finale_unreached:  # else the finale's own error says it
        sink.report("K0407", camp.span, campaign=camp.id, path=", ".join(analysis.no_finale_path))
    return ac.Checked(camp, analysis, decl)


def never_holds(camp: ac.Campaign, quest: ac.Quest) -> str | None:
    """Why `quest`'s condition is false in every state where the quest is open, or None
    when some assignment of what it reads makes it true (or it reads too much to try).
    Open means: its own act is the current one, so later acts' quests are unplayed and
    acts from its own on are not over; the quest itself is unplayed."""
    names = sorted({r.name for r in ac.unlock_quests(quest.after)})
    acts = sorted({n for n, _ in ac.unlock_acts(quest.after)})
    if len(names) + len(acts) > MAX_TRUTH_TABLE:
        return None
    own = camp.act_number(quest)
    choices: list[tuple[int, ...]] = []
    for name in names:
        i = camp.index(name)
        assert i is not None  # unknown names were reported (K0401) and skipped
        later = camp.quests[i].act > quest.act or name == quest.id
        choices.append((ac.UNPLAYED,) if later else (ac.UNPLAYED, ac.WON, ac.LOST))
    act_choices = [("open",) if n >= own else ("won", "lost") for n in acts]
    for values in product(*choices):
        for act_values in product(*act_choices):
            if _eval(quest.after, dict(zip(names, values)), dict(zip(acts, act_values))):
                return None
    return _why(camp, quest, names, acts, own)


def _eval(u: ast.Unlock | None, quests: dict[str, int], acts: dict[int, str]) -> bool:
    if u is None:
        return True
    if u.op == "all":
        return all(_eval(p, quests, acts) for p in u.parts)
    if u.op == "any":
        return any(_eval(p, quests, acts) for p in u.parts)
    if u.op == "not":
        return not _eval(u.parts[0], quests, acts)
    if u.op == "act":
        assert u.act is not None
        state = acts[u.act]
        return state != "open" if u.outcome == "played" else state == u.outcome
    assert u.quest is not None
    o = quests[u.quest.name]
    return o != ac.UNPLAYED if u.outcome == "played" else o == (ac.WON if u.outcome == "won" else ac.LOST)


def _why(camp: ac.Campaign, quest: ac.Quest, names: list[str], acts: list[int], own: int) -> str:
    later = [n for n in names if n != quest.id and (i := camp.index(n)) is not None and camp.quests[i].act > quest.act]
    if quest.id in names:
        return "it reads the quest's own outcome"
    if later:
        return f"`{later[0]}` is in a later act, so it is not played yet"
    if any(n >= own for n in acts):
        return f"act {max(acts)} is not over yet"
    return "its parts contradict each other"

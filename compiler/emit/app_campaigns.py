"""The bundle's `app_campaigns` section (schemas/bundle/app_campaigns.schema.json): each
2nd-edition app campaign checked by compiler/passes/app_campaign.py, as data a front end
walks without the compiler: acts in play order with their quests, each quest's kind,
act, title, odds and unlock condition (a small JSON tree), and the exact chance each
quest is played and each ending comes (docs/bundle.md, docs/campaign.md).

String ids (compiler/model/texts.py: app_campaign_texts):
    app_campaign.<id>.name | .act.<N>.title | .quest.<quest id>.title | .city.<id>.name | .travel.<id>.title
    | .travel.<id>.answer.<answer id>.title
A quest of the pack has no title of its own here: its name is `quest.<quest id>.name`.
"""

from __future__ import annotations

from fractions import Fraction

from compiler.emit.shared import JSON, JSONObject
from compiler.emit.strings import StringTable
from compiler.model import Model
from compiler.model import app_campaign as ac
from compiler.model.texts import app_campaign_texts
from compiler.syntax import ast


def chance_json(f: Fraction) -> JSONObject:
    return {"exact": f"{f.numerator}/{f.denominator}", "value": round(float(f), 6)}


def unlock_json(u: ast.Unlock) -> JSON:
    if u.op == "quest":
        assert u.quest is not None
        return {"quest": u.quest.name, "outcome": u.outcome}
    if u.op == "act":
        return {"act": u.act, "outcome": u.outcome}
    if u.op == "not":
        return {"not": unlock_json(u.parts[0])}
    return {u.op: [unlock_json(p) for p in u.parts]}


def reward_json(r: ast.Reward) -> JSONObject:
    out: JSONObject = {"when": r.when}
    for c in ac.CURRENCIES:
        if getattr(r, c):
            out[c] = getattr(r, c)
    return out


def _city_json(campaign: str, city: ast.City, ids: dict[str, str]) -> JSONObject:
    out: JSONObject = {"sells": [{"items": [r.name for r in s.items], "fame": s.fame} for s in city.sells]}
    if city.stock is not None and city.stock > 0:
        out["stock"] = city.stock
    sid = f"app_campaign.{campaign}.city.{city.id}.name"
    if sid in ids:
        out["name"] = sid
    return out


def campaign_json(checked: ac.Checked, decl: ast.AppCampaign, table: StringTable) -> JSONObject:
    ids = {}
    for sid, text, _note in app_campaign_texts(decl):
        if text is not None:
            table.add(sid, text)
            ids[sid] = sid
    camp, analysis = checked.campaign, checked.analysis
    acts: list[JSON] = []
    for at, number in enumerate(camp.acts):
        act: JSONObject = {"number": number, "quests": [q.id for q in camp.quests if q.act == at]}
        sid = f"app_campaign.{camp.id}.act.{number}.title"
        if sid in ids:
            act["title"] = sid
        if at < len(decl.acts) and decl.acts[at].items:
            act["items"] = [r.name for r in decl.acts[at].items]
        if analysis is not None and at in analysis.awards:
            act["awards"] = {c: {"least": low, "most": high} for c, (low, high) in analysis.awards[at].items()}
        if analysis is not None and at in analysis.fame_held:
            low, high = analysis.fame_held[at]
            act["fame_held"] = {"least": low, "most": high}
        acts.append(act)
    quests: JSONObject = {}
    for q in camp.quests:
        own = f"app_campaign.{camp.id}.quest.{q.id}.title"
        item: JSONObject = {
            "kind": q.kind,
            "act": camp.acts[q.act],
            "in_pack": q.in_pack,
            "title": own if own in ids else f"quest.{q.id}.name",
            "odds": chance_json(q.odds),
        }
        if q.after is not None:
            item["after"] = unlock_json(q.after)
        if q.weeks is not None:
            item["weeks"] = q.weeks
        if q.rewards:
            item["rewards"] = [reward_json(r) for r in q.rewards]
        if analysis is not None:
            item["played"] = chance_json(analysis.played[q.id])
        if q.reveal is not None:
            item["reveal"] = q.reveal
        quests[q.id] = item
    out: JSONObject = {
        "name": f"app_campaign.{camp.id}.name",
        "source": camp.source,
        "acts": acts,
        "quests": dict(sorted(quests.items())),
    }
    if camp.side_offer is not None:
        out["side_offer"] = camp.side_offer
    setting = decl.difficulty.name if decl.difficulty is not None and decl.difficulty.name in ac.DIFFICULTIES else "normal"
    out["difficulty"] = {"setting": setting, **ac.DIFFICULTIES[setting]}
    if decl.peril is not None and decl.peril > 0:
        out["difficulty"]["peril_rounds"] = decl.peril
        out["difficulty"]["peril_illustrative"] = camp.source == "illustrative"
    else:  # the rulebook gives no number: this project's own, illustrative
        out["difficulty"]["peril_rounds"] = ac.PERIL_ROUNDS[setting]
        out["difficulty"]["peril_illustrative"] = True
    if camp.prices:
        out["prices"] = dict(sorted(camp.prices.items()))
    if camp.visit_odds is not None:
        visit: JSONObject = {"odds": chance_json(camp.visit_odds), "spend": camp.visit_spend}
        if analysis is not None:
            visit["expected"] = chance_json(analysis.visits)
            visit["least"], visit["most"] = analysis.visit_range
        out["visit"] = visit
    if camp.delve:
        out["delve"] = {"stages": ac.DELVE_STAGES, "act_after": ac.DELVE_ACT_AFTER, "keep": dict(ac.DELVE_KEEP),
                        "keep_if_tracker_empty": ac.DELVE_KEEP_IF_TRACKER_EMPTY}
    if decl.cities:
        out["cities"] = {c.id: _city_json(camp.id, c, ids) for c in sorted(decl.cities, key=lambda c: c.id)}
    if camp.travel:
        travel: list[JSON] = []
        written = {t.id: t for t in decl.travel}
        for t in camp.travel:
            event: JSONObject = {"id": t.id, "odds": chance_json(t.odds)}
            sid = f"app_campaign.{camp.id}.travel.{t.id}.title"
            if sid in ids:
                event["title"] = sid
            near = written[t.id].near
            if near is not None:
                event["near"] = near.name
            if t.rewards:
                event["rewards"] = [reward_json(r) for r in t.rewards]
            if t.answers:
                event["answers"] = [_answer_json(camp.id, t, a, ids) for a in t.answers]
            if analysis is not None:
                event["once"] = chance_json(analysis.travel_once[t.id])
                mean = analysis.travel_expected[t.id]
                event["expected"] = {"exact": f"{mean.numerator}/{mean.denominator}", "value": round(float(mean), 6)}
            travel.append(event)
        out["travel"] = travel
    if analysis is not None:
        out["most_fame"] = analysis.most_fame
    if analysis is not None:
        out["endings"] = {e: chance_json(analysis.endings[e]) for e in ac.ENDINGS}
        weeks = analysis.total_weeks(camp)
        out["expected_weeks"] = {"exact": f"{weeks.numerator}/{weeks.denominator}", "value": round(float(weeks), 6)}
    return out


def _answer_json(campaign: str, t: ac.Travel, a: ac.Answer, ids: dict[str, str]) -> JSONObject:
    """An answer to a travel event: `odds` for a test, its rewards, its title's string id."""
    out: JSONObject = {"id": a.id}
    sid = f"app_campaign.{campaign}.travel.{t.id}.answer.{a.id}.title"
    if sid in ids:
        out["title"] = sid
    if a.odds is not None:
        out["odds"] = chance_json(a.odds)
    if a.rewards:
        out["rewards"] = [reward_json(r) for r in a.rewards]
    return out


def app_campaigns_section(model: Model, table: StringTable) -> JSONObject | None:
    checked = model.app_campaigns
    if not checked:
        return None
    return {cid: campaign_json(c, c.decl, table) for cid, c in sorted(checked.items())}

"""Every player-facing text of a checked model, under the id the bundle gives it.

`player_texts(model)` walks the passes' results in the order the bundle's emitters add
texts to the string table (compiler/emit/strings.py: quests, then cooperative quests,
then top-level encounters, then cards; the first text under an id wins) and yields the
same ids, so `questc check` knows the string table without building JSON. A test
(tests/test_translations.py) compares the two on every shipped pack.

Each text carries its translator note: the `##` doc comment of the declaration it
belongs to (a quest, an encounter, a card), when the designer wrote one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from compiler.diagnostics import Span
from compiler import frozen
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.model import Model
    from compiler.model.campaign import Campaign
    from compiler.model.quest import Event, QuestEncounter

# a text's id, the text (None: not written) and its translator note
Texts = Iterator[tuple[str, ast.Text | None, str | None]]

TEXT_EFFECTS = ("say", "win", "lose", "end")


@frozen
class PlayerText:
    id: str
    text: str
    span: Span
    note: str | None = None  # the declaration's doc comment


def _sid(*parts: object) -> str:
    return ".".join(str(p) for p in parts)


def player_texts(model: Model) -> tuple[PlayerText, ...]:
    """Every text once, by id, in the string table's order (first text under an id wins)."""
    seen: dict[str, PlayerText] = {}
    for sid, text, note in _walk(model):
        if text is not None and sid not in seen:
            seen[sid] = PlayerText(sid, text.value, text.span, note or None)
    return tuple(seen.values())


def _walk(model: Model) -> Texts:
    for _qid, q in sorted((model.quests or {}).items()):
        base = ("quest", q.id)
        yield _sid(*base, "name"), q.name, q.doc
        for e in q.encounters:
            yield from _encounter(e, base, q.doc)
        for custom in q.monsters:
            yield _sid(*base, "monster", custom.id, "name"), custom.name, q.doc
    for _qid, p in sorted((model.adventures or {}).items()):
        base = ("quest", p.id)
        for ev in p.events:
            yield from _event(ev, base, p.doc)
        yield _sid(*base, "name"), p.name, p.doc
    declared = {e.id: e for e in model.declarations(ast.Encounter)}
    for eid, resolved in (model.encounters or {}).items():
        enc = declared.get(eid)
        doc = enc.doc if enc is not None else None
        yield from _encounter(resolved, ("encounter", eid), doc)
        if enc is not None:
            yield _sid("encounter", eid, "name"), enc.name, doc
    cards = model.cards
    if cards is not None:
        for _cid, c in cards.exploration.items():
            base = ("card", c.id)
            for key in ("rules", "after_setup"):
                yield _sid(*base, key), getattr(c, key), c.doc
            for k, item in enumerate(c.overlord, 1):
                yield _sid(*base, "overlord", k), item.text if isinstance(item, ast.Hourglass) else item, c.doc
        for _cid, peril in cards.peril.items():
            for key in ("flavor", "effect", "with_monsters", "without_monsters"):
                yield _sid("card", peril.id, key), getattr(peril, key), peril.doc
        for _cid, act in cards.activation.items():
            for g in act.groups:
                gbase = ("card", act.id, "group", g.group)
                for b in g.boxes:
                    for k, a in enumerate(b.actions, 1):
                        if a.verb == "special":
                            yield _sid(*gbase, b.rank, k), a.text, act.doc
                yield _sid(*gbase, "effect"), g.effect, act.doc
    if model.campaign is not None:
        yield from campaign_texts(model.campaign)
    for _cid, checked in sorted((model.app_campaigns or {}).items()):
        yield from app_campaign_texts(checked.decl)


# The texts of each kind of campaign declaration: (key, attribute path), in order.
CAMPAIGN_TEXTS = {
    "Level": (("title", "title"), ("leader.name", "leader.name"), ("leader.rules", "leader_rules"),
              ("special", "special"), ("description", "description")),
    "Dungeon": (("name", "name"),),
    "RumorCard": (("title", "title"), ("instructions", "instructions"), ("rumor", "rumor"), ("reward", "reward")),
    "LegendaryArea": (("name", "name"), ("treasure", "treasure")),
    "Avatar": (("name", "name"),),
    "IncidentCard": (("title", "title"), ("leader.name", "leader.name"), ("leader.rules", "leader_rules"),
                     ("non_combat", "non_combat"), ("flavor", "flavor")),
    "LocationCard": (("title", "title"), ("rule", "rule")),
    "Plot": (("name", "name"),),
    "TreacheryCard": (("title", "title"), ("rules", "rules")),
    "OverlordDeck": (),
}


def _attr(node: object, path: str) -> ast.Text | None:
    for part in path.split("."):
        node = getattr(node, part, None) if node is not None else None
    assert node is None or isinstance(node, ast.Text), f"{path} is not a text"  # CAMPAIGN_TEXTS names texts only
    return node


def campaign_texts(campaign: Campaign) -> Texts:
    """The campaign's texts, `campaign.<declaration id>.<key>`, declarations by id."""
    for decl in sorted(campaign.declarations(), key=lambda d: d.id):
        base = ("campaign", decl.id)
        for key, path in CAMPAIGN_TEXTS[type(decl).__name__]:
            yield _sid(*base, key), _attr(decl, path), decl.doc
        if isinstance(decl, ast.IncidentCard):
            for k, ab in enumerate(decl.abilities, 1):
                yield _sid(*base, "ability", k), ab.text, decl.doc
        if isinstance(decl, ast.Plot):
            for card in decl.cards:
                yield _sid(*base, "card", card.id, "title"), card.title, decl.doc
                yield _sid(*base, "card", card.id, "text"), card.text, decl.doc


def app_campaign_texts(decl: ast.AppCampaign) -> Texts:
    """A 2nd-edition campaign's texts: `app_campaign.<id>.name`, `.act.<N>.title`,
    `.quest.<quest id>.title` for a quest named by id (a pack quest's name is its own),
    `.city.<id>.name`, `.travel.<id>.title` and `.travel.<id>.answer.<answer id>.title`."""
    base = ("app_campaign", decl.id)
    yield _sid(*base, "name"), decl.name, decl.doc
    for act in decl.acts:
        yield _sid(*base, "act", act.number, "title"), act.title, decl.doc
        for q in act.quests:
            yield _sid(*base, "quest", q.quest.name, "title"), q.title, decl.doc
    for city in decl.cities:
        yield _sid(*base, "city", city.id, "name"), city.name, decl.doc
    for t in decl.travel:
        yield _sid(*base, "travel", t.id, "title"), t.title, decl.doc
        for a in t.answers:
            yield _sid(*base, "travel", t.id, "answer", a.id, "title"), a.title, decl.doc


def _encounter(e: QuestEncounter, base: tuple[str, ...], doc: str | None) -> Texts:
    here = (*base, f"e{e.number}")
    for t in e.tokens:
        yield _sid(*here, "token", t.id, "label"), t.label, doc
    for ev in e.events:
        yield from _event(ev, here, doc)
    for key in ("flavor", "setup"):
        yield _sid(*here, key), getattr(e, key), doc


def _event(ev: Event, here: tuple[str, ...], doc: str | None) -> Texts:
    from compiler.model.quest import event_texts

    for suffix, text in event_texts(ev.effects):  # numbered as the bundle numbers them
        yield _sid(*here, "event", ev.index, *suffix), text, doc

"""The 1st-edition campaign's moving state as a picture: the world (locations and trails,
drawn by compiler/emit/images/world.py) with the state of one recorded week laid on it,
and the numbers under the map.

    state_marks(week, world, positions)  -> what is laid on the map, where (pure; the test
                                            looks for each mark's colour at its place)
    render_state(checked, world, week=None) -> the picture after `week` (default: the last)

On the map: the party (a green disc, P), each lieutenant (a purple disc with its initials),
each quest item (a yellow diamond, at its place or beside whoever carries it), each siege
(a box with tokens/defense) and each razed city (a red cross). Under it: the week, the
campaign level, conquest, XP earned and spent, coins, upgrades, and the same facts in
words (docs/campaign.md, "The picture"). Deterministic: same state, same bytes.
"""

from __future__ import annotations

from typing import Callable, Mapping

from PIL import Image, ImageDraw

from compiler import frozen
from compiler.emit.images import style as S
from compiler.emit.images.outputs import world_picture
from compiler.emit.images.primitives import cross, diamond, disc, label_box, text_centred
from compiler.emit.images.world import world_canvas
from compiler.model import rtl_state as r
from compiler.model.world import World

PARTY: S.RGB = (30, 150, 60)
LIEUTENANT: S.RGB = (120, 40, 150)
ITEM: S.RGB = (240, 200, 30)
SIEGE: S.RGB = (235, 120, 30)
RAZED: S.RGB = (205, 25, 25)
LINE_H = 18


@frozen
class Mark:
    """One thing laid on the map: what (party, lieutenant, item, siege, razed), its id, the
    pixel at its centre, the colour drawn there and its label."""

    kind: str
    id: str
    at: tuple[int, int]
    colour: S.RGB
    label: str = ""


def initials(name: str) -> str:
    words = [w for w in name.replace("_", " ").split() if w[:1].isalpha()]
    return "".join(w[0].upper() for w in words[-2:]) or name[:2].upper()


def state_marks(week: r.WeekState, state: r.StateRules, world: World,
                px: Callable[[str], tuple[int, int]]) -> list[Mark]:
    """Every mark of `week` on the map, in drawing order. Marks round one location are
    set apart: the party up-left, lieutenants up-right (one under the other), items below,
    sieges and razing on the location itself."""
    marks: list[Mark] = []
    known = set(world.locations)
    for city in week.razed:
        if city in known:
            marks.append(Mark("razed", city, px(city), RAZED))
    for city, tokens in week.sieges.items():
        if city in known:
            x, y = px(city)
            defense = world.locations[city].defense
            marks.append(Mark("siege", city, (x + 30, y - 2), SIEGE, f"{tokens}/{defense if defense is not None else '?'}"))
    carriers: dict[str, tuple[int, int]] = {}
    if week.party_at in known:
        x, y = px(week.party_at)
        carriers["party"] = (x - 17, y - 17)
        marks.append(Mark("party", "party", carriers["party"], PARTY, "P"))
    stacked: dict[str, int] = {}
    for lid, at in week.lieutenants.items():
        if at not in known:
            continue
        n = stacked.get(at, 0)
        stacked[at] = n + 1
        x, y = px(at)
        carriers[lid] = (x + 17, y - 17 - 22 * n)
        lt = state.lieutenants.get(lid)
        marks.append(Mark("lieutenant", lid, carriers[lid], LIEUTENANT, initials(lt.name if lt is not None else lid)))
    below: dict[str, int] = {}
    for iid, holder in week.items.items():
        spot: tuple[int, int]
        if holder in carriers:
            cx, cy = carriers[holder]
            spot = (cx + 13, cy + 9)
        elif holder in known:
            n = below.get(holder, 0)
            below[holder] = n + 1
            x, y = px(holder)
            spot = (x - 24 - 16 * n, y + 10)
        else:
            continue
        marks.append(Mark("item", iid, spot, ITEM, "Q"))
    return marks


def _draw_mark(draw: ImageDraw.ImageDraw, m: Mark, small: S.Font) -> None:
    x, y = m.at
    if m.kind == "razed":
        cross(draw, [x - 13, y - 13, x + 13, y + 13], RAZED, 5)
    elif m.kind == "siege":
        w = S.text_size(small, m.label)[2] + 8
        draw.rectangle([x - w // 2, y - 9, x + w // 2, y + 9], fill=SIEGE, outline=S.TEXT)
        text_centred(draw, (x, y), m.label, small, S.TEXT, whole_pixels=False)
    elif m.kind == "item":
        diamond(draw, (x, y), 8, ITEM, S.TEXT)
    else:
        disc(draw, (x, y), 10, m.colour, S.TEXT, 2)
        text_centred(draw, (x, y), m.label, small, (255, 255, 255), whole_pixels=False)


def panel_lines(week: r.WeekState, state: r.StateRules, final_battle: int | None) -> list[str]:
    """The numbers of the week in words, one line each (drawn under the map)."""
    spent = ", ".join(f"{'every hero' if h == 'all' else h} {n}" for h, n in week.hero_xp_spent.items()) or "none"
    combined = week.hero_conquest + week.overlord_conquest
    level = week.level or "-"
    return [
        f"Conquest: heroes {week.hero_conquest} + overlord {week.overlord_conquest} = {combined}"
        + (f" (Final Battle at {final_battle})" if final_battle is not None else "") + f"; level {level}",
        f"XP: each hero earned {week.hero_xp} (spent: {spent}); overlord {week.overlord_xp} (spent {week.overlord_xp_spent})",
        f"Coins in the treasury: {week.treasury}; upgrades: {', '.join(week.upgrades) or 'none'}",
        f"Party at {week.party_at}; lieutenants: {', '.join(f'{k} at {v}' for k, v in week.lieutenants.items()) or 'none'}",
        "Sieges: " + (", ".join(f"{c} {n} token(s)" for c, n in week.sieges.items()) or "none")
        + "; razed: " + (", ".join(week.razed) or "none"),
        "Quest items: " + (", ".join(f"{i} with {h}" for i, h in week.items.items()) or "none"),
    ] + ([_dungeon_line(week.dungeon)] if week.dungeon is not None else []) + _hero_lines(week) + (
        [f"The campaign has ended: {week.ended}"] if week.ended else [])


def _dungeon_line(d: r.DungeonState) -> str:
    return (f"Dungeon {d.at}: {d.levels} level(s); fortified by {', '.join(d.fortified) or 'none'}"
            f"{' (' + ', '.join(d.power_cards) + ' in play)' if d.power_cards else ''}; threat {d.threat};"
            f" reinforcement marker {d.reinforcement or '-'} ({d.spawns} spawn(s), turned up {d.flips})")


def _hero_lines(week: r.WeekState) -> list[str]:
    """A line a hero: its dice per trait (B black, S silver, G gold) and skills."""
    colours = ("B", "S", "G")
    out = []
    for h, hs in week.heroes.items():
        dice = ", ".join(f"{t} " + "+".join(f"{n}{c}" for n, c in zip(d, colours) if n) for t, d in hs.dice.items() if any(d))
        out.append(f"Hero {h}: dice {dice or 'none'}; skills {', '.join(hs.skills) or 'none'}")
    return out


def render_state(checked: r.CheckedState, world: World, final_battle: int | None, *,
                 week: int | None = None, width: int = 960) -> Image.Image:
    """The world with the state after `week` (1-based; default the last recorded week, or
    nothing laid on it when the record is empty)."""
    weeks = checked.replay.weeks
    chosen: r.WeekState | None = None
    if weeks:
        chosen = weeks[-1] if week is None else weeks[max(1, min(week, len(weeks))) - 1]
    small, body = S.font(11), S.font(13)
    lines = panel_lines(chosen, checked.state, final_battle) if chosen is not None else []
    panel_h = 40 + LINE_H * (len(lines) + 3)
    image, px, top = world_canvas(world_picture(world), width=width, below=panel_h)
    draw = ImageDraw.Draw(image)
    title = f"Campaign state `{checked.state.id}`: " + (f"after week {chosen.week} of {len(weeks)}" if chosen else "no recorded week")
    draw.text((60, top + 4), S.drawable(title), fill=S.TEXT, font=S.font_for(16, title))
    y = top + 28
    if chosen is not None:
        for m in state_marks(chosen, checked.state, world, px):
            _draw_mark(draw, m, small)
        for line in lines:
            draw.text((60, y), S.drawable(line), fill=S.TEXT, font=S.font_for(13, line))
            y += LINE_H
    _legend(draw, (60, y + 6), body)
    return image


LEGEND: Mapping[str, str] = {"party": "the party", "lieutenant": "a lieutenant", "item": "a quest item",
                             "siege": "siege tokens/defense", "razed": "a razed city"}


def _legend(draw: ImageDraw.ImageDraw, at: tuple[int, int], fnt: S.Font) -> None:
    x, y = at
    sample = {"party": Mark("party", "", (0, 0), PARTY, "P"), "lieutenant": Mark("lieutenant", "", (0, 0), LIEUTENANT, "L"),
              "item": Mark("item", "", (0, 0), ITEM), "siege": Mark("siege", "", (0, 0), SIEGE, "1/3"),
              "razed": Mark("razed", "", (0, 0), RAZED)}
    for kind, words in LEGEND.items():
        m = sample[kind]
        _draw_mark(draw, Mark(m.kind, m.id, (x + 14, y + 10), m.colour, m.label), S.font(11))
        label_box(draw, (x + 32, y + 2), words, fnt, S.TEXT, S.BACKGROUND, pad=(1, 1))
        x += 48 + S.text_size(fnt, words)[2]

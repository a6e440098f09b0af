"""The app campaign's graph as a picture (`questc campaign PACK -o FILE.png`).

Acts are horizontal bands, top to bottom in play order; a quest is a box in its act's
band, its column the length of the longest chain of unlocks inside the act that leads to
it (so what a quest waits for stands to its left), its row its written order in the
column. An arrow runs from each quest a condition reads to the quest it unlocks,
coloured by the outcome it reads (won green, lost red, played grey); `act N` conditions
are written under the box. Box colours tell the kind; a quest no run plays is crossed.
Everything is placed by integer arithmetic from the written order, so the bytes are the
same on every run (tests/test_app_campaign.py).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from compiler.emit.images import style as S
from compiler.emit.images.primitives import text_centred
from compiler.model import app_campaign as ac

KIND_COLOURS: dict[str, S.RGB] = {
    "story": (205, 222, 245),
    "side": (232, 232, 226),
    "interlude": (240, 225, 200),
    "finale": (245, 205, 205),
    "stage": (215, 235, 215),  # the Delve's
}
OUTCOME_COLOURS: dict[str, S.RGB] = {"won": (40, 140, 60), "lost": (190, 40, 40), "played": (110, 110, 110)}
BAND_COLOURS: tuple[S.RGB, S.RGB] = ((244, 242, 234), (234, 238, 244))
BOX_W, BOX_H, GAP_X, GAP_Y, BAND_PAD, LEFT = 190, 46, 60, 22, 16, 90


def columns(camp: ac.Campaign) -> dict[str, int]:
    """Each quest's column: 0, or one more than the column of any quest of its own act
    that its condition reads (longest chain; a cycle is cut at the written order)."""
    col: dict[str, int] = {}
    for q in camp.quests:  # written order: a condition reading a quest below it gets it next round
        col[q.id] = 0
    for _ in range(len(camp.quests)):
        changed = False
        for q in camp.quests:
            for ref in ac.unlock_quests(q.after):
                i = camp.index(ref.name)
                if i is None or camp.quests[i].act != q.act or ref.name == q.id:
                    continue
                want = col[ref.name] + 1
                if want > col[q.id] and want < len(camp.quests):
                    col[q.id] = want
                    changed = True
        if not changed:
            break
    return col


def render_campaign(checked: ac.Checked) -> Image.Image:
    camp = checked.campaign
    col = columns(camp)
    places: dict[str, tuple[int, int, int, int]] = {}
    bands: list[tuple[int, int, int]] = []  # (act index, top, bottom)
    title_font = S.font_for(18, camp.name)
    top = 40
    width = LEFT + BOX_W + 40
    for at in range(len(camp.acts)):
        rows: dict[int, int] = {}
        band_top = top
        bottom = top + BAND_PAD + BOX_H
        for q in camp.quests:
            if q.act != at:
                continue
            c = col[q.id]
            r = rows.get(c, 0)
            rows[c] = r + 1
            x = LEFT + c * (BOX_W + GAP_X)
            y = band_top + BAND_PAD + r * (BOX_H + GAP_Y)
            places[q.id] = (x, y, x + BOX_W, y + BOX_H)
            bottom = max(bottom, y + BOX_H)
            width = max(width, x + BOX_W + 40)
        bands.append((at, band_top, bottom + BAND_PAD + 12))
        top = bottom + BAND_PAD + 12
    height = top + 10
    image = Image.new("RGB", (width, height), S.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), S.drawable(f"{camp.name} ({camp.id})"), fill=S.TEXT, font=title_font)
    small = S.font(11)
    for at, band_top, band_bottom in bands:
        draw.rectangle([0, band_top, width, band_bottom - 1], fill=BAND_COLOURS[at % 2])
        label = f"Act {camp.acts[at]}"
        draw.text((8, band_top + 6), label, fill=S.TEXT, font=S.font(14))
        title = camp.act_titles[at]
        if title:
            draw.text((8, band_top + 24), S.drawable(title)[:14], fill=S.TEXT, font=small)
        paid = checked.analysis.awards.get(at) if checked.analysis is not None else None
        if paid and any(high for _, high in paid.values()):  # the act's least..most pay, under its name
            for k, currency in enumerate(("gold", "xp")):
                draw.text((8, band_top + 40 + 14 * k), f"{currency} {paid[currency][0]}..{paid[currency][1]}", fill=S.TEXT, font=small)
    for q in camp.quests:  # arrows under the boxes
        for ref in ac.unlock_quests(q.after):
            if ref.name in places and ref.name != q.id:
                _arrow(draw, places[ref.name], places[q.id], OUTCOME_COLOURS.get(_outcome_of(q, ref.name), S.TEXT))
    played = checked.analysis.played if checked.analysis is not None else None
    for q in camp.quests:
        l, t, r, b = places[q.id]
        draw.rectangle([l, t, r, b], fill=KIND_COLOURS[q.kind], outline=S.TEXT, width=3 if q.kind == "finale" else 1)
        name = S.drawable(q.title or q.id)
        text_centred(draw, ((l + r) / 2, t + 14), name[:28], S.font_for(13, name), S.TEXT)
        chance = "" if played is None else f"  {float(played[q.id]) * 100:.1f}%"
        weeks = f", {q.weeks} wk" if q.weeks is not None else ""
        text_centred(draw, ((l + r) / 2, t + 32), f"{q.kind}{weeks}{chance}", small, S.TEXT)
        acts = [f"act {n} {o}" for n, o in _act_reads(q.after)]
        if acts:
            draw.text((l + 2, b + 2), ", ".join(acts)[:34], fill=S.TEXT, font=small)
        if played is not None and played[q.id] == 0:
            draw.line([l, t, r, b], fill=OUTCOME_COLOURS["lost"], width=2)
            draw.line([l, b, r, t], fill=OUTCOME_COLOURS["lost"], width=2)
    return image


def _outcome_of(q: ac.Quest, name: str) -> str:
    outcomes = {}
    stack = [q.after] if q.after is not None else []
    while stack:
        u = stack.pop()
        if u.op == "quest" and u.quest is not None and u.quest.name == name:
            outcomes[u.outcome] = True
        stack.extend(u.parts)
    return next(iter(sorted(outcomes))) if len(outcomes) == 1 else "played"


def _act_reads(u: object) -> list[tuple[int, str]]:
    from compiler.syntax import ast

    if not isinstance(u, ast.Unlock):
        return []
    if u.op == "act" and u.act is not None:
        return [(u.act, u.outcome)]
    return [x for p in u.parts for x in _act_reads(p)]


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[int, int, int, int], b: tuple[int, int, int, int], colour: S.RGB) -> None:
    """From the right (or bottom) of box a to the left (or top) of box b, with a head."""
    if a[2] <= b[0]:
        start, end = (a[2], (a[1] + a[3]) // 2), (b[0], (b[1] + b[3]) // 2)
    elif a[3] <= b[1]:
        start, end = ((a[0] + a[2]) // 2, a[3]), ((b[0] + b[2]) // 2, b[1])
    else:
        start, end = ((a[0] + a[2]) // 2, a[1]), ((b[0] + b[2]) // 2, b[3])
    draw.line([start, end], fill=colour, width=2)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = [
        end,
        (round(end[0] - 10 * math.cos(angle - 0.4)), round(end[1] - 10 * math.sin(angle - 0.4))),
        (round(end[0] - 10 * math.cos(angle + 0.4)), round(end[1] - 10 * math.sin(angle + 0.4))),
    ]
    draw.polygon(head, fill=colour)

"""The library at hand, as text: a tile's shape with numbered openings, a monster's size
and group limits. Pure functions of the checked catalog values (no I/O); the language
server's hovers use them, and a `questc tiles` / `questc monsters` listing can too.

A tile is drawn in its printed (unrotated) frame, one character per square as in the
catalog's `grid` ('.' plain, '~' water, '#' obstacle, …, ' ' where the tile has no
square), inside a frame of `-` and `|`. Each opening is a run of frame characters
replaced by its number; the legend gives the name a quest writes (`9A.north`,
`9A.north.1`) for each number.
"""

from __future__ import annotations

SIDES = ("north", "east", "south", "west")
NUMERALS = "123456789abcdefghijklmnopqrstuvwxyz"


def _numeral(i: int) -> str:
    return NUMERALS[i] if i < len(NUMERALS) else "*"


def tile_picture(tile) -> list[str]:
    """The tile's squares inside a frame whose openings carry their numbers (1, 2, …)."""
    w, h = tile.width, tile.height
    canvas = [[" "] * (w + 2) for _ in range(h + 2)]
    for x in range(1, w + 1):
        canvas[0][x] = canvas[h + 1][x] = "-"
    for y in range(1, h + 1):
        canvas[y][0] = canvas[y][w + 1] = "|"
    for corner in ((0, 0), (0, w + 1), (h + 1, 0), (h + 1, w + 1)):
        canvas[corner[0]][corner[1]] = "+"
    for y in range(h):
        for x in range(w):
            symbol = tile.squares.get((x, y))
            canvas[y + 1][x + 1] = " " if symbol in (None, "-") else str(symbol)[:1]
    for n, op in enumerate(tile.all_openings()):
        mark = _numeral(n)
        for c, r in tile.opening_cells(op):
            if op.side == "north":
                canvas[0][c + 1] = mark
            elif op.side == "south":
                canvas[h + 1][c + 1] = mark
            elif op.side == "west":
                canvas[r + 1][0] = mark
            else:
                canvas[r + 1][w + 1] = mark
    return ["".join(row).rstrip() for row in canvas]


def tile_text(tile) -> str:
    """Markdown: heading, the picture in a code block, and the legend of openings."""
    head = f"**tile {tile.id}**" + (f" — {tile.name}" if getattr(tile, "name", None) else "")
    facts = [f"{tile.kind}", f"piece {tile.piece}", f"{tile.width}×{tile.height} squares"]
    if getattr(tile, "copies", 1) != 1:
        facts.append(f"{tile.copies} copies")
    lines = [head, "", ", ".join(facts), "", "```", *tile_picture(tile), "```"]
    openings = tile.all_openings()
    if openings:
        lines.append("")
        for n, op in enumerate(openings):
            lines.append(f"- {_numeral(n)}: `{tile.id}.{op.label}` (offset {op.offset}, {op.width} wide)")
    else:
        lines += ["", "no openings"]
    if getattr(tile, "notes", None):
        lines += ["", str(tile.notes)]
    return "\n".join(lines)


def monster_text(monster) -> str:
    """Markdown: name, size, attack type, traits and group limits per hero count."""
    w, h = monster.size
    lines = [f"**monster {monster.id}** — {monster.name}", "", f"size {w}x{h}, {monster.attack_type}"]
    if monster.traits:
        lines[-1] += f"; traits: {', '.join(monster.traits)}"
    if monster.limits:
        source = f" ({monster.limits_source})" if monster.limits_source else ""
        lines += ["", f"group limits{source}:"]
        for heroes, limit in monster.limits:
            lines.append(f"- {heroes} heroes: {limit.masters} master{'s' if limit.masters != 1 else ''}, "
                         f"{limit.minions} minion{'s' if limit.minions != 1 else ''}")
    if monster.pack:
        lines += ["", f"from pack `{monster.pack}`"]
    return "\n".join(lines)

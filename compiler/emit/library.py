"""The library at hand: a tile's shape with numbered openings, a monster's size and group
limits, a terrain's rules, as text (Markdown for the language server's hovers, plain for
`questc tiles` / `questc monsters` / `questc terrain`) and as JSON values. Pure
functions of the checked catalog values (no I/O); the commands and the language server
(one layer up) both call them, so a hover and a listing always say the same.

A tile is drawn in its printed (unrotated) frame, one character per square as in the
catalog's `grid` ('.' plain, '~' water, '#' obstacle, …, ' ' where the tile has no
square), inside a frame of `-` and `|`. Each opening is a run of frame characters
replaced by its number; the legend gives the name a quest writes (`9A.north`,
`9A.north.1`) for each number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from compiler.catalogs.monsters import Limit, Monster
    from compiler.catalogs.terrain import TerrainRule
    from compiler.emit.shared import JSONObject
    from compiler.geometry.tiles import Tile

SIDES = ("north", "east", "south", "west")
NUMERALS = "123456789abcdefghijklmnopqrstuvwxyz"


def _numeral(i: int) -> str:
    return NUMERALS[i] if i < len(NUMERALS) else "*"


def tile_picture(tile: Tile) -> list[str]:
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


def tile_text(tile: Tile) -> str:
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


def monster_text(monster: Monster) -> str:
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
    if monster.lieutenant:
        lines += ["", "a lieutenant: one figure; speed, health and defense by hero count:"]
        for act, ranks in monster.acts:
            for _rank, st in ranks:
                lines += [f"- {act} {h} heroes: speed {x.speed}, health {x.health}, defense {'/'.join(x.defense) or '-'}"
                          for h, x in st.per_heroes]
    if monster.base:
        lines += ["", f"the quest's custom monster, based on `{monster.base}`" + (" (unique)" if monster.unique else "")]
    if monster.pack:
        lines += ["", f"from pack `{monster.pack}`"]
    return "\n".join(lines)



# ---------------------------------------------------------------- listings (questc tiles / monsters / terrain)
def natural_key(code: str) -> tuple[tuple[int, int, str], ...]:
    """`2A` before `10A`: digit runs compare as numbers."""
    import re

    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", code))


def faces(tiles: Mapping[str, Tile]) -> dict[str, tuple[str, ...]]:
    """Tile code -> every code printed on the same piece (itself included), in natural order:
    `9A` -> (`9A`, `9B`) when both faces are catalogued. The two faces of a piece may be of
    different kinds (9A outdoor, 9B dungeon), so a piece is its edition and number."""
    def piece(t: Tile) -> tuple[str | None, str]:
        return (getattr(t, "edition", ""), str(t.piece))
    by_piece: dict[tuple[str | None, str], list[str]] = {}
    for code, tile in tiles.items():
        by_piece.setdefault(piece(tile), []).append(code)
    return {code: tuple(sorted(by_piece[piece(t)], key=natural_key)) for code, t in tiles.items()}


def opening_rows(tile: Tile) -> list[JSONObject]:
    """The openings in the order the picture numbers them."""
    return [{"number": _numeral(n), "name": f"{tile.id}.{op.label}", "side": op.side, "offset": op.offset,
             "width": op.width} for n, op in enumerate(tile.all_openings())]


def tile_plain(tile: Tile, faces_of: tuple[str, ...] = (), pack: str = "") -> str:
    """A tile for a terminal: one heading line, the picture, the openings' names."""
    facts = [tile.kind, f"piece {tile.piece}", f"{tile.width}x{tile.height} squares",
             f"{tile.copies} cop{'y' if tile.copies == 1 else 'ies'}"]
    if len(faces_of) > 1:
        facts.append("faces " + "/".join(faces_of))
    if pack:
        facts.append(f"pack {pack}")
    head = tile.id + (f" ({tile.name})" if getattr(tile, "name", None) else "") + ": " + ", ".join(facts)
    lines = [head, *("  " + row for row in tile_picture(tile))]
    rows = opening_rows(tile)
    for r in rows:
        lines.append(f"  {r['number']}: {r['name']} (offset {r['offset']}, {r['width']} wide)")
    if not rows:
        lines.append("  no openings")
    return "\n".join(lines)


def tile_json(tile: Tile, faces_of: tuple[str, ...] = (), pack: str = "") -> JSONObject:
    return {
        "id": tile.id, "name": getattr(tile, "name", None), "kind": tile.kind, "piece": str(tile.piece),
        "copies": tile.copies, "faces": list(faces_of or (tile.id,)), "width": tile.width, "height": tile.height,
        "picture": tile_picture(tile), "openings": opening_rows(tile), "pack": pack,
    }


def _limits(monster: Monster) -> list[tuple[int, Limit]]:
    return list(monster.limits)


def monster_plain(monster: Monster) -> str:
    w, h = monster.size
    head = f"{monster.id} ({monster.name}): size {w}x{h}, {monster.attack_type}"
    if monster.traits:
        head += f", traits {', '.join(monster.traits)}"
    if monster.pack:
        head += f", pack {monster.pack}"
    lines = [head]
    if monster.limits:
        lines.append("  group limits: " + "; ".join(
            f"{heroes} heroes {limit.masters}+{limit.minions}" for heroes, limit in _limits(monster))
            + " (masters+minions)")
    for act, ranks in monster.acts:
        for rank, st in ranks:
            extra = f", {', '.join(st.abilities)}" if st.abilities else ""
            lines.append(f"  {act} {rank}: speed {st.speed}, health {st.health}, "
                         f"attack {'/'.join(st.attack) or '-'}, defense {'/'.join(st.defense) or '-'}{extra}")
            lines += [f"    {h} heroes: speed {x.speed}, health {x.health}, defense {'/'.join(x.defense) or '-'}"
                      for h, x in st.per_heroes]
    return "\n".join(lines)


def monster_json(monster: Monster) -> JSONObject:
    return {
        "id": monster.id, "name": monster.name, "size": list(monster.size), "attack_type": monster.attack_type,
        "traits": list(monster.traits),
        "limits": {str(heroes): {"masters": lim.masters, "minions": lim.minions} for heroes, lim in _limits(monster)},
        "acts": {act: {rank: {"speed": st.speed, "health": st.health, "attack": list(st.attack),
                              "defense": list(st.defense), "abilities": list(st.abilities),
                              "surges": list(st.surges)} for rank, st in ranks} for act, ranks in monster.acts},
        "pack": monster.pack,
    }


TERRAIN_FIELDS = ("symbol", "enter_cost", "leave_cost", "blocks_movement", "blocks_sight", "sight", "leave_action",
                  "on_enter_damage", "on_enter_condition", "on_enter_tokens", "elevated", "jumpable",
                  "defeat_end_of_turn")


def terrain_json(rule: TerrainRule, pack: str = "") -> JSONObject:
    out: JSONObject = {"id": rule.id, "name": rule.name or rule.id}
    out.update({f: getattr(rule, f) for f in TERRAIN_FIELDS})
    out["pack"] = pack
    return out


def terrain_plain(rule: TerrainRule, pack: str = "") -> str:
    """One line: symbol, costs, what it blocks, what entering it does."""
    facts = [f"symbol `{rule.symbol}`", f"enter {rule.enter_cost}" + (f", leave {rule.leave_cost}" if rule.leave_cost else "")]
    if rule.blocks_movement:
        facts.append("blocks movement")
    if rule.blocks_sight:
        facts.append("blocks sight")
    if rule.sight != "normal":
        facts.append(f"sight {rule.sight}")
    if rule.leave_action:
        facts.append("leaving takes an action")
    if rule.on_enter_damage:
        facts.append(f"{rule.on_enter_damage} damage on entering")
    if rule.on_enter_condition:
        facts.append(f"{rule.on_enter_condition} on entering")
    if rule.defeat_end_of_turn:
        facts.append("ending a turn here defeats")
    if rule.elevated:
        facts.append("elevated")
    if rule.jumpable:
        facts.append("may be jumped")
    name = f" ({rule.name})" if rule.name and rule.name != rule.id else ""
    return f"{rule.id}{name}: " + ", ".join(facts) + (f", pack {pack}" if pack else "")

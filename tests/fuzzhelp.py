"""Helpers of the whole-pipeline fuzzer (tests/test_pipeline_fuzz.py): a workspace holding
copies of the shipped packs and small hand-written seed packs, structural mutations of
`.quest` text and of catalog data, and the checks every compile must pass.

Mutations take a `draw(strategy)` function (hypothesis' `data.draw`), so hypothesis
chooses, replays and shrinks every decision. Run as a script for the hostile-size
timings of docs/robustness.md:

    .venv/bin/python tests/fuzzhelp.py
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import textwrap
import time
from pathlib import Path

from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # when run as a script
    sys.path.insert(0, str(REPO))

from compiler.diagnostics.catalogue import CATALOGUE  # noqa: E402
from compiler.options import Options  # noqa: E402

CONTENT = REPO / "content"
SHIPPED = ("core-1e", "core-2e", "d2e-base", "d2e-quests", "natures-ire", "terrinoth-1e")

# ---------------------------------------------------------------- seeds
# Small hand-written packs: every feature of the language in few lines, so a mutation
# of them compiles fast. They require the shipped catalogs (copied into the workspace).
SEEDS: dict[str, dict[str, str]] = {
    "seed-map": {
        "pack.yaml": "id: seed-map\nname: Seed map\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n",
        "q.quest": """\
            ## A small quest with doors, marks, areas and every event.
            quest seed_q "Seed" {
              heroes 2..4
              map {
                tile 21A
                tile 19A attach north to 21A.east
                tile 8A attach north to 19A.south hidden
                door gate on 19A.south red
                tile 2A attach north to 21A.west; edge 8A.east, 2A.south
                door hatch on 21A.west open
                mark altar at (2, 2)
              }
              start heroes at 21A(0,0), 21A(0,1)
              flavor "Flavour."
              setup "Setup."
              var keys = 0
              token search at 21A(1,1)
              token objective red "key" as key1 at 19A(1,1)
              token villager "friend" as pal at @altar
              hero_figure pal
              spawn goblin_archer at 19A(1,3) heroes 3+
              spawn zombie size 1x1 unique health +2 at 21A(2,2)
              spawn cave_spider {
                master at 19A(2,1)
                minion at 19A(0,2) heroes 4
              }
              on start { say "Go." }
              on open gate { reveal 8A; spawn ettin at 8A(1,1); activate ettin }
              on picked_up key1 { remove token key1; advance keys by 1 }
              on variable keys >= 1 { open hatch; set keys = 0 }
              on enters 8A { place token search at 8A(0,0); close gate }
              on enters @altar { win "Won." }
              on enters (1, 2) { say "Here." }
              on searched key1 { say "Found." }
              on defeated ettin { win }
              on morale_zero { lose }
              on round_end 9 { lose "Lost." }
            }
            """,
        "multi.quest": """\
            quest two_part "Two parts" {
              heroes 2+
              encounter 1 {
                map { tile 2A; tile 4A attach north to 2A.north; edge 2A.south, 4A.west }
                start heroes on 2A
                spawn merriod at 4A(3,3)
                on encounter start { say "One." }
                on defeated merriod { next }
              }
              encounter 2 {
                map { tile 6A at (0, 0) rotate 270; edge 6A.north, 6A.south }
                start heroes at 6A(0,0)
                spawn ettin at 6A(0,3)
                on defeated ettin { win }
                on round_end 5 { lose }
              }
            }
            """,
    },
    "seed-coop": {
        "pack.yaml": "id: seed-coop\nname: Seed coop\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n",
        "coop.quest": """\
            quest coop "Coop" {
              heroes 2..4
              exploration xdeck
              activation adeck
              peril pdeck
              track {
                spaces 8
                doom starts heroes
                fate starts top
                advance fate on fate_step
                draw peril on fate_step
                advance doom by 2 on defeated pal
                advance fate on hourglass first_card
                advance doom on round_end
                advance fate on peril_drawn
                advance doom on hero_defeated
              }
              on doom_reaches_fate { lose "Lost." }
            }

            encounter enc_a "A" {
              map { tile 21A; tile 19A attach north to 21A.east; edge 21A.west }
              exit 19A.south
              start heroes at 21A(0,0), 21A(0,1)
              token villager "friend" as pal at 21A(2,2)
              hero_figure pal
              spawn goblin_archer { master at 19A(1,3)
                minion at 19A(0,4) heroes 3+ }
            }
            encounter enc_b "B" {
              map { tile 8A }
              entrance 8A.north
              exit 8A.east
              token search at 8A(0,0)
            }
            encounter enc_c "C" {
              map { tile 4A; edge 4A.north }
              entrance 4A.west
              spawn villain at 4A(3,3)
              on defeated villain { win "Won." }
            }

            exploration_card first_card {
              encounter enc_a
              start
              rules "Rules."
              after_setup "After."
              overlord { "Text."
                hourglass 3 "Full." }
            }
            exploration_card mid_card { encounter enc_b
              rules "Mid." }
            exploration_card last_card { encounter enc_c
              main 1 }
            peril_card p1 { flavor "F."
              effect "E." }
            peril_card p2 { without_monsters "W."
              with_monsters "M." }
            activation_card a1 {
              group goblin_archer {
                effect "+1 range."
                master { spot closest hero; attack closest hero in sight }
                minion { engage furthest hero not attacked this activation; retreat }
              }
              group villain { all { toward exit; away from hero within 3 } }
            }
            deck exploration xdeck { start first_card
              stack 1 + main 1 }
            deck activation adeck { card a1 }
            deck peril pdeck { card p1, p2 }
            """,
        "villain.yaml": """\
            monsters:
              villain:
                name: Villain
                size: "2x2"
                attack: melee
                traits: [cave]
                group_limits:
                  "2": {masters: 1, minions: 0}
                  "3": {masters: 1, minions: 1}
                  "4": {masters: 1, minions: 2}
                act1:
                  minion: {speed: 3, health: 5, attack: [blue, red], defense: [grey]}
                  master: {speed: 3, health: 8, attack: [blue, red], defense: [black]}
                act2:
                  minion: {speed: 3, health: 7, attack: [blue, red], defense: [black]}
                  master: {speed: 3, health: 10, attack: [blue, red, yellow], defense: [black]}
            """,
    },
    "seed-cat": {
        "pack.yaml": "id: seed-cat\nname: Seed catalogs\nversion: 1.0.0\nlicence: MIT\nruleset: d1e\nrequires: [core-1e]\n",
        "cat.yaml": """\
            terrain:
              goo: {symbol: "G", name: Goo, kind: terrain, enter_cost: 3, description: Sticky.}
            dice:
              odd:
                name: Odd die
                colour: green
                kind: attack
                faces:
                  - {}
                  - {range: 1, damage: 1, surge: 1, pierce: 1}
                  - {miss: true}
                  - {range: 2}
                  - {damage: 2}
                  - {surge: 2}
            tiles:
              room:
                kind: dungeon
                grid: |
                  ..G.
                  .#..
                  ....
                openings: {north: [1], east: [{offset: 2, width: 1}], south: [2]}
              cap:
                kind: end_cap
                grid: |
                  ..
                openings: {north: [0]}
            monsters:
              rat:
                name: Rat
                size: "1x1"
                attack: melee
                traits: [cave]
                group_limits:
                  "2": {masters: 1, minions: 2}
                  "3": {masters: 1, minions: 3}
                  "4": {masters: 1, minions: 4}
                act1:
                  minion: {speed: 5, health: 2, attack: [odd], defense: []}
                  master: {speed: 5, health: 3, attack: [odd], defense: []}
            world:
              id: seedworld
              name: Seed world
              start: home
              locations:
                home: {name: Home, kind: city, defense: 2, pos: [0, 0], buildings: {market: 1, temple: 1, tavern: true}}
                hole: {name: Hole, kind: dungeon, pos: [5, 5]}
                peak: {name: Peak, kind: legendary, level: gold, pos: [9, 1]}
              trails:
                - {from: home, to: hole, type: normal, danger: green, traffic: 1}
                - {from: hole, to: peak, type: river, danger: red, traffic: 3}
            """,
        "room.quest": """\
            quest room_q "Room" {
              heroes 1..4
              map { tile room; tile cap attach north to room.south; edge room.north, room.east }
              start heroes at room(0,0)
              spawn rat at room(3,2)
              on defeated rat { win }
              on round_end 3 { lose }
            }
            """,
    },
}


def make_workspace(root: Path) -> Path:
    """Copies of the shipped packs and the seed packs under `root` (the pack search path)."""
    root.mkdir(parents=True, exist_ok=True)
    for pack in SHIPPED:
        if not (root / pack).exists():
            shutil.copytree(CONTENT / pack, root / pack)
    for pack, files in SEEDS.items():
        folder = root / pack
        folder.mkdir(exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def pack_files(root: Path, pack: str, suffix: str) -> list[str]:
    return sorted(p.name for p in (root / pack).iterdir() if p.suffix == suffix)


# ---------------------------------------------------------------- identifier pools
_WORD = re.compile(r"[A-Za-z_0-9]*[A-Za-z_][A-Za-z_0-9]*")


def grammar_keywords() -> frozenset[str]:
    text = (REPO / "compiler" / "syntax" / "grammar.lark").read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z_]+)"', text))


KEYWORDS = grammar_keywords()


def identifier_pool(root: Path) -> list[str]:
    """Every identifier the workspace defines or uses, plus a few that exist nowhere."""
    from ruamel.yaml import YAML

    pool: set[str] = {"nowhere", "x", "_", "A1", "0a"}
    yaml = YAML(typ="safe")
    for path in sorted(root.glob("*/*.yaml")):
        if path.name == "pack.yaml":
            continue
        try:
            data = yaml.load(path.read_text(encoding="utf-8"))
        except Exception:  # noqa: BLE001 - a mutated file may be broken
            continue
        if isinstance(data, dict):
            for kind, entries in data.items():
                if kind == "world" and isinstance(entries, dict):
                    pool.update(map(str, (entries.get("locations") or {})))
                elif isinstance(entries, dict):
                    pool.update(map(str, entries))
    for path in sorted(root.glob("*/*.quest")):
        text = _STRINGS.sub("", path.read_text(encoding="utf-8"))
        pool.update(w for w in _WORD.findall(text) if w not in KEYWORDS)
    return sorted(p for p in pool if _WORD.fullmatch(p))


# ---------------------------------------------------------------- .quest mutations
_STRINGS = re.compile(r'"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*')
_TOKEN = re.compile(r'"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\d+x\d+|-?\d+(?![A-Za-z_])|[A-Za-z_0-9]+|\s+|.')

NUMBERS = (0, 1, 2, 3, 4, 5, 7, 9, 12, 45, 90, 180, 270, 360, 450, 999, 65536, 10**6, 10**9, 2**63, 10**30,
           -1, -2, -90, -450, -(10**6), -(10**9))
SIDES = ("north", "east", "south", "west")

# Statements that are valid syntax where a statement of their block is allowed, with
# holes ({I} an identifier of the pack, {N} a number, {S} a side) for semantic trouble.
TEMPLATES = (
    "tile {I}", "tile {I} attach {S} to {I}.{S}", "tile {I} attach {S}.{N} to {I}.{S}.{N}",
    "tile {I} at ({N}, {N}) rotate {N}", "tile {I} as {I} at ({N}, {N})", "tile {I} hidden",
    "door {I} on {I}.{S}", "door {I} on {I}.{S}.{N} {I} open", "mark {I} at ({N}, {N})", "mark {I} at {I}({N},{N})",
    "start heroes on {I}", "start heroes at ({N}, {N}), {I}({N},{N})", "start heroes at @{I}",
    "entrance {I}.{S}", "exit {I}.{S}.{N}", "heroes {N}", "heroes {N}+", "heroes {N}..{N}",
    "token search at {I}({N},{N})", "token objective {I} \"t\" as {I} at ({N}, {N})", "token {I} as {I} at @{I}",
    "spawn {I}", "spawn {I} at {I}({N},{N})", "spawn {I} size {N}x{N} unique health +{N} at ({N}, {N})",
    "spawn {I} heroes {N}..{N} at {I}({N},{N})", "spawn {I} {{ master at {I}({N},{N}) heroes {N}+ }}",
    "spawn {I} {{ minion at ({N},{N}), ({N},{N}) }}", "var {I} = {N}", "hero_figure {I}",
    "on start {{ say \"s\" }}", "on encounter start {{ next }}", "on round_end {N} {{ lose }}",
    "on open {I} {{ reveal {I}, {I} }}", "on defeated {I} {{ win }}", "on searched {I} {{ close {I} }}",
    "on picked_up {I} {{ remove token {I} }}", "on enters {I} {{ open {I} }}", "on enters ({N}, {N}) {{ activate {I} }}",
    "on enters @{I} {{ place token search at {I}({N},{N}) }}", "on variable {I} >= {N} {{ set {I} = {N} }}",
    "on morale_zero {{ advance {I} by {N} }}", "on doom_reaches_fate {{ spawn {I} at ({N},{N}) }}",
    "on defeated {I} {{ }}", "encounter {N} {{ }}", "encounter {N} {{ map {{ tile {I} }} }}",
    "exploration {I}", "activation {I}", "peril {I}", "track {{ spaces {N} }}",
    "track {{ doom starts {N}; fate starts {N}; advance doom by {N} on hourglass {I}, {I} }}",
    "encounter {I} {{ map {{ tile {I} }} }}", "quest {I} \"q\" {{ heroes {N}..{N} }}",
    "exploration_card {I} {{ encounter {I}; main {N} }}", "exploration_card {I} {{ start; overlord {{ hourglass {N} \"h\" }} }}",
    "peril_card {I} {{ effect \"e\" }}", "activation_card {I} {{ group {I} {{ all {{ engage hero within {N} }} }} }}",
    "deck exploration {I} {{ start {I}; stack {N} + main {N} }}", "deck activation {I} {{ card {I}, {I} }}",
    "deck peril {I} {{ }}", "stack {N}", "stack {N} + main {N}", "card {I}", "start {I}", "main {N}",
    "hourglass {N} \"h\"", "group {I} {{ master {{ attack hero with highest {I} }} }}",
    "advance {I} on defeated {I}", "draw peril on round_end", "spaces {N}",
)


def fill(template: str, draw, pool: list[str]) -> str:
    out = []
    for part in re.split(r"(\{[INS]\})", template.replace("{{", "\x00").replace("}}", "\x01")):
        if part == "{I}":
            out.append(draw(st.sampled_from(pool)))
        elif part == "{N}":
            out.append(str(abs(draw(st.sampled_from(NUMBERS)))))
        elif part == "{S}":
            out.append(draw(st.sampled_from(SIDES)))
        else:
            out.append(part)
    return "".join(out).replace("\x00", "{").replace("\x01", "}")


def _blocks(text: str) -> list[tuple[int, int]]:
    """(index of `{`, index of its `}`) for every balanced block outside strings/comments."""
    masked = _STRINGS.sub(lambda m: " " * len(m.group()), text)
    stack, out = [], []
    for i, c in enumerate(masked):
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            out.append((stack.pop(), i))
    return sorted(out)


def mutate_quest(text: str, draw, pool: list[str]) -> str:
    """One structural mutation of .quest text."""
    op = draw(st.sampled_from(("swap_id", "number", "drop_line", "dup_line", "move_line", "swap_lines",
                               "empty_block", "drop_block", "dup_block", "move_block", "insert")))
    lines = text.split("\n")
    if op in ("swap_id", "number"):
        toks = _TOKEN.findall(text)
        if op == "swap_id":
            where = [i for i, t in enumerate(toks) if _WORD.fullmatch(t) and t not in KEYWORDS]
        else:
            where = [i for i, t in enumerate(toks) if re.fullmatch(r"-?\d+|\d+x\d+", t)]
        if not where:
            return text
        i = draw(st.sampled_from(where))
        if op == "swap_id":
            toks[i] = draw(st.sampled_from(pool))
        elif "x" in toks[i]:
            toks[i] = f"{abs(draw(st.sampled_from(NUMBERS)))}x{abs(draw(st.sampled_from(NUMBERS)))}"
        else:
            n = draw(st.sampled_from(NUMBERS))
            toks[i] = str(n if toks[i].startswith("-") or n >= 0 or _after_signed(toks, i) else -n)
        return "".join(toks)
    if op in ("drop_line", "dup_line", "move_line", "swap_lines", "insert"):
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        j = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "drop_line":
            del lines[i]
        elif op == "dup_line":
            lines.insert(j, lines[i])
        elif op == "move_line":
            lines.insert(j, lines.pop(i))
        elif op == "swap_lines":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, fill(draw(st.sampled_from(TEMPLATES)), draw, pool))
        return "\n".join(lines)
    blocks = _blocks(text)
    if not blocks:
        return text
    a, b = draw(st.sampled_from(blocks))
    head = text.rfind("\n", 0, a) + 1  # the block's header line starts here
    if op == "empty_block":
        return text[: a + 1] + text[b:]
    if op == "drop_block":
        return text[:head] + text[b + 1:]
    piece = text[head: b + 1]
    if op == "dup_block":
        return text[: b + 1] + "\n" + piece + text[b + 1:]
    # move_block: cut it and paste it inside another block (events between encounters)
    rest = text[:head] + text[b + 1:]
    targets = _blocks(rest)
    if not targets:
        return text
    c, _ = draw(st.sampled_from(targets))
    return rest[: c + 1] + "\n" + piece + "\n" + rest[c + 1:]


def _after_signed(toks: list[str], i: int) -> bool:
    """Whether a negative number is syntax at token i (coordinates, rotate, var, set, >=)."""
    k = i - 1
    while k >= 0 and toks[k].isspace():
        k -= 1
    return k >= 0 and toks[k] in ("(", ",", "rotate", "=", ">=", "by")


# ---------------------------------------------------------------- catalog mutations
GRIDS = ("-", "--\n--", "", ".", "#", "~" * 40, ("." * 30 + "\n") * 30, ".-.\n-.-", "..\n.", "?!", "a\tb", "..\n\n..")


def hostile_values(draw, pool: list[str]):
    """A value of any shape that may sit where a catalog field is expected."""
    return draw(st.one_of(
        st.sampled_from(NUMBERS),
        st.sampled_from([None, True, False, "", "9x9", "0x0", "1x0", "x", "huge", 0.5, -0.5, 1e308, [], {}, [[]], [{}]]),
        st.sampled_from(pool),
        st.sampled_from(GRIDS),
        st.lists(st.sampled_from(NUMBERS + (None, "x")), max_size=4),
        st.lists(st.sampled_from(pool), max_size=3),
        st.dictionaries(st.sampled_from(SIDES + ("up",)), st.lists(st.sampled_from(NUMBERS), max_size=3), max_size=3),
    ))


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for k in path:
        node = node[k]
    return node


def mutate_data(data, draw, pool: list[str]):
    """One mutation of a loaded catalog document (in place; returns it)."""
    paths = [p for p in _paths(data) if len(p) >= 2]
    if not paths:
        return data
    path = draw(st.sampled_from(paths))
    parent = _get(data, path[:-1])
    key = path[-1]
    op = draw(st.sampled_from(("replace", "replace", "replace", "drop", "dup", "rename", "copy", "empty")))
    if op == "replace":
        parent[key] = hostile_values(draw, pool)
    elif op == "drop":
        del parent[key]
    elif op == "empty":
        parent[key] = type(parent[key])() if isinstance(parent[key], (list, dict, str)) else None
    elif op == "dup":
        if isinstance(parent, list):
            parent.append(json.loads(json.dumps(parent[key])))
        else:
            parent[draw(st.sampled_from(pool + ["dup_" + str(key)]))] = json.loads(json.dumps(parent[key]))
    elif op == "rename" and isinstance(parent, dict):
        new = draw(st.sampled_from(pool))
        parent[new] = parent.pop(key)
    elif op == "copy":
        other = _get(data, draw(st.sampled_from(paths)))
        parent[key] = json.loads(json.dumps(other))
    return data


def _set(*path_and_value):
    *path, value = path_and_value

    def edit(doc):
        _get(doc, path[:-1])[path[-1]] = value
    return edit


def _limits(n: int):
    return {k: {"masters": n, "minions": n} for k in ("2", "3", "4")}


# Directed catalog mutations: name -> (pack holding the file, file, edit, pack compiled).
DIRECTED = {
    "tile grid only -": ("d2e-base", "tiles.yaml", _set("tiles", "21A", "grid", "--\n--\n"), "seed-map"),
    "tile grid empty": ("d2e-base", "tiles.yaml", _set("tiles", "21A", "grid", ""), "seed-map"),
    "tile grid ragged": ("d2e-base", "tiles.yaml", _set("tiles", "21A", "grid", "......\n..\n......\n"), "seed-map"),
    "tile grid unknown symbol": ("d2e-base", "tiles.yaml", _set("tiles", "21A", "grid", "..Z.\n....\n"), "seed-map"),
    "opening wider than side": ("d2e-base", "tiles.yaml", _set("tiles", "19A", "openings", {"north": [{"offset": 0, "width": 40}], "south": [2]}), "seed-map"),
    "opening offset off the side": ("d2e-base", "tiles.yaml", _set("tiles", "19A", "openings", {"north": [99], "south": [2]}), "seed-map"),
    "no openings": ("d2e-base", "tiles.yaml", _set("tiles", "19A", "openings", {}), "seed-map"),
    "end cap 3 wide": ("d2e-base", "tiles.yaml", _set("tiles", "endcap1A", "openings", {"north": [{"offset": 0, "width": 3}]}), "natures-ire"),
    "end cap without squares": ("d2e-base", "tiles.yaml", _set("tiles", "endcap1A", "grid", "--\n"), "natures-ire"),
    "monster size 9x9": ("d2e-base", "monsters.yaml", _set("monsters", "goblin_archer", "size", "9x9"), "seed-map"),
    "monster size 0x0": ("d2e-base", "monsters.yaml", _set("monsters", "goblin_archer", "size", "0x0"), "seed-map"),
    "group limits 0": ("d2e-base", "monsters.yaml", _set("monsters", "cave_spider", "group_limits", _limits(0)), "seed-map"),
    "group limits huge": ("d2e-base", "monsters.yaml", _set("monsters", "cave_spider", "group_limits", _limits(10**6)), "seed-map"),
    "group limits none": ("d2e-base", "monsters.yaml", _set("monsters", "cave_spider", "group_limits", {}), "seed-map"),
    "coop monster 9x9": ("seed-coop", "villain.yaml", _set("monsters", "villain", "size", "9x9"), "seed-coop"),
    "coop monster limits 0": ("seed-coop", "villain.yaml", _set("monsters", "villain", "group_limits", _limits(0)), "seed-coop"),
    "dice with no faces": ("core-2e", "dice.yaml", _set("dice", "blue", "faces", []), "d2e-quests"),
    "seed die with no faces": ("seed-cat", "cat.yaml", _set("dice", "odd", "faces", []), "seed-cat"),
    "1e power die with no faces": ("core-1e", "dice.yaml", _set("dice", "black_power", "faces", []), "terrinoth-1e"),
    "world trail to itself": ("terrinoth-1e", "world.yaml", lambda d: d["world"]["trails"].append(
        {"from": "tamalir", "to": "tamalir", "type": "normal", "danger": "green", "traffic": 1}), "terrinoth-1e"),
    "start is not a city": ("terrinoth-1e", "world.yaml", _set("world", "start", "starfall_forest"), "terrinoth-1e"),
    "start is nowhere": ("terrinoth-1e", "world.yaml", _set("world", "start", "nowhere"), "terrinoth-1e"),
    "world without trails": ("terrinoth-1e", "world.yaml", _set("world", "trails", []), "terrinoth-1e"),
    "world without locations": ("terrinoth-1e", "world.yaml", _set("world", "locations", {}), "terrinoth-1e"),
    "seed world trail to itself": ("seed-cat", "cat.yaml", lambda d: d["world"]["trails"].append(
        {"from": "home", "to": "home", "type": "river", "danger": "red", "traffic": 0}), "seed-cat"),
    "terrain symbol taken twice": ("core-2e", "terrain.yaml", _set("terrain", "water", "symbol", "."), "seed-map"),
    "terrain symbol of two chars": ("core-2e", "terrain.yaml", _set("terrain", "water", "symbol", "~~"), "seed-map"),
    "no terrain at all": ("core-2e", "terrain.yaml", _set("terrain", {}), "seed-map"),
    "seed tile only -": ("seed-cat", "cat.yaml", _set("tiles", "room", "grid", "----\n----\n"), "seed-cat"),
    "seed opening wider than side": ("seed-cat", "cat.yaml", _set("tiles", "room", "openings", {"north": [{"offset": 0, "width": 9}]}), "seed-cat"),
}


B = 10**30
# Directed text edits of the seeds: (pack, file, text, replacement). Huge, zero, negative
# and inverted numbers in every place a number is written.
DIRECTED_TEXT = [
 ("seed-coop","coop.quest","spaces 8", f"spaces {B}"),
 ("seed-coop","coop.quest","spaces 8", "spaces 0"),
 ("seed-coop","coop.quest","spaces 8", "spaces 100000"),
 ("seed-coop","coop.quest","advance doom by 2", f"advance doom by {B}"),
 ("seed-coop","coop.quest","doom starts heroes", f"doom starts {B}"),
 ("seed-coop","coop.quest","stack 1 + main 1", f"stack {B} + main 1"),
 ("seed-coop","coop.quest","stack 1 + main 1", f"stack 1 + main {B}"),
 ("seed-coop","coop.quest","stack 1 + main 1", "stack 100000 + main 1"),
 ("seed-coop","coop.quest","main 1 }", f"main {B} }}"),
 ("seed-coop","coop.quest","hourglass 3", f"hourglass {B}"),
 ("seed-coop","coop.quest","heroes 2..4", f"heroes 2..{B}"),
 ("seed-coop","coop.quest","heroes 2..4", f"heroes {B}+"),
 ("seed-coop","coop.quest","heroes 2..4", "heroes 0"),
 ("seed-coop","coop.quest","heroes 2..4", "heroes 4..2"),
 ("seed-coop","coop.quest","within 3", f"within {B}"),
 ("seed-map","q.quest","heroes 2..4", f"heroes 2..{B}"),
 ("seed-map","q.quest","heroes 2..4", "heroes 0..9"),
 ("seed-map","q.quest","heroes 2..4", "heroes 9"),
 ("seed-map","q.quest","on round_end 9", f"on round_end {B}"),
 ("seed-map","q.quest","var keys = 0", f"var keys = {B}"),
 ("seed-map","q.quest","advance keys by 1", f"advance keys by -{B}"),
 ("seed-map","q.quest","on variable keys >= 1", f"on variable keys >= {B}"),
 ("seed-map","q.quest","health +2", f"health +{B}"),
 ("seed-map","q.quest","size 1x1", f"size {B}x{B}"),
 ("seed-map","q.quest","size 1x1", "size 0x3"),
 ("seed-map","q.quest","21A(1,1)", f"21A({B},1)"),
 ("seed-map","q.quest","on enters (1, 2)", f"on enters ({B}, -{B})"),
 ("seed-map","q.quest","heroes 3+", f"heroes {B}+"),
 ("seed-map","q.quest","heroes 4\n", f"heroes {B}\n"),
 ("seed-map","q.quest","tile 21A\n", f"tile 21A rotate {B}\n"),
 ("seed-map","q.quest","tile 21A\n", "tile 21A rotate 450\n"),
 ("seed-map","q.quest","tile 21A\n", "tile 21A rotate -90\n"),
 ("seed-map","q.quest","tile 21A\n", "tile 21A rotate 45\n"),
 ("seed-map","q.quest","attach north to 21A.east", f"attach north.{B} to 21A.east.{B}"),
 ("seed-map","q.quest","attach north to 21A.east", "attach north.1 to 21A.east.0"),
 ("seed-map","multi.quest","encounter 2 {", f"encounter {B} {{"),
 ("seed-map","multi.quest","encounter 2 {", "encounter 1 {"),
 ("seed-map","multi.quest","encounter 2 {", "encounter 0 {"),
 ("seed-cat","cat.yaml","enter_cost: 3", f"enter_cost: {B}"),
 ("seed-cat","cat.yaml","enter_cost: 3", "enter_cost: -3"),
 ("seed-cat","cat.yaml","pos: [0, 0]", f"pos: [{B}, -{B}]"),
 ("seed-cat","cat.yaml","traffic: 3", f"traffic: {B}"),
 ("seed-cat","cat.yaml","defense: 2", f"defense: {B}"),
 ("seed-cat","cat.yaml","{range: 2}", f"{{range: {B}}}"),
 ("seed-cat","cat.yaml",'"4": {masters: 1, minions: 4}', f'"4": {{masters: 1, minions: {B}}}'),
 ("seed-cat","cat.yaml",'"4": {masters: 1, minions: 4}', '"9": {masters: 1, minions: 4}'),
 ("seed-cat","cat.yaml",'"4": {masters: 1, minions: 4}', '"0": {masters: 1, minions: 4}'),
 ("seed-cat","cat.yaml",'speed: 5, health: 2', f'speed: {B}, health: {B}'),
 ("seed-cat","cat.yaml",'"1x1"', '"200x200"'),
]


def dump_data(data) -> str:
    """JSON is YAML: a mutated catalog written back without any YAML library quirks."""
    return json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n"


def load_data(text: str):
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(text)


# ---------------------------------------------------------------- the checks
def options(root: Path, **kw) -> Options:
    return Options(pack_path=(str(root),), **kw)


def compile_and_emit(paths: list[str], opts: Options):
    """compile_paths then outputs_of for each model, as `questc build` does; returns
    (sink, outputs per pack id). Any exception escapes to the caller: that is a bug."""
    from compiler.emit.build import outputs_of
    from compiler.pipeline import compile_paths

    result = compile_paths(paths, opts)
    outputs = {}
    if result.sink.errors == 0:
        for model in result.models:
            outputs[model.pack.id] = outputs_of(model, result.sink)
    return result.sink, outputs


def assert_one_error_per_span(items) -> None:
    """One mistake, one diagnostic: no two errors at the same place (file, line, column)."""
    seen: dict = {}
    for d in items:
        if d.severity.value != "error":
            continue
        key = (d.span.file, d.span.line, d.span.column)
        assert key not in seen, f"two errors at one place: {seen[key]} and {d}"
        seen[key] = d


def assert_sound(sink, outputs) -> None:
    """Every diagnostic is catalogued and located; a clean compile yields a valid bundle."""
    for d in sink.items:
        assert d.code in CATALOGUE, d
        assert not d.code.startswith("I"), d  # I0001 crash, I0002 invalid bundle: bugs
        assert d.span.line >= 1 and d.span.column >= 1, d
        assert d.span.file, d
        assert d.message, d
    assert_one_error_per_span(sink.items)
    for pack_id, files in outputs.items():
        assert files is not None, f"{pack_id}: bundle did not validate: {[str(d) for d in sink.items]}"
        assert "bundle.json" in files


# ---------------------------------------------------------------- hostile sizes
ROOM = "tiles:\n  room:\n    kind: dungeon\n    copies: 1000\n    grid: |\n" + "      ......\n" * 6 + "    openings: {north: [2], south: [2]}\n"
ENDS = '  on start { say "Go." }\n  on round_end 9 { lose }\n  on round_end 8 { win }\n'


def chained_rooms(n: int) -> dict[str, str]:
    """A quest whose map is `n` 6x6 rooms attached in a line (36 n spaces)."""
    tiles = "\n".join(f"    tile room as t{i}" + ("" if i == 0 else f" attach south to t{i - 1}.north") for i in range(n))
    edges = f"    edge t0.south, t{n - 1}.north"  # the corridor's two ends are left open on purpose
    return {"room.yaml": ROOM, "q.quest": f'quest big "Big" {{\n  heroes 2..4\n  map {{\n{tiles}\n{edges}\n  }}\n  start heroes on t0\n{ENDS}}}\n'}


def hostile_inputs(size: float = 1.0) -> dict[str, dict[str, str]]:
    """Moderately large hostile packs (name -> files), each requiring d2e-base; `size`
    scales every count (the default test run uses a tenth; the timings the full size)."""

    def n(count: int) -> int:
        return max(3, int(count * size))

    head = "id: {id}\nname: Hostile\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n"
    out: dict[str, dict[str, str]] = {}
    room, ends = ROOM, ENDS
    out["chain-200-tiles"] = chained_rooms(n(200))
    tiles = "\n".join(f"    tile room as t{i} at ({(i % 20) * 7}, {(i // 20) * 7})" for i in range(n(200)))
    out["grid-200-tiles"] = {"room.yaml": room, "q.quest": f'quest big "Big" {{\n  heroes 2..4\n  map {{\n{tiles}\n  }}\n  start heroes on t0\n{ends}}}\n'}
    events = "\n".join(f"  on round_end {i % 50 + 1} {{ say \"e{i}\"; advance v by 1 }}" for i in range(n(2000)))
    out["events-2000"] = {"q.quest": f'quest ev "Ev" {{\n  heroes 2..4\n  map {{ tile 2B }}\n  var v = 0\n  start heroes on 2B\n{ends}{events}\n}}\n'}
    line = "; ".join(f'say "{"x" * 20}"' for _ in range(n(400)))
    out["line-10000-chars"] = {"q.quest": f'quest ln "Ln" {{\n  heroes 2..4\n  map {{ tile 2B }}\n  start heroes on 2B\n{ends}  on start {{ {line} }}\n}}\n'}
    nested = "encounter e {\n" + "spawn zombie {\n" * n(1000) + "}\n" * (n(1000) + 1)
    out["nested-blocks"] = {"q.quest": nested}
    cards = "\n".join(f"peril_card p{i} {{ effect \"E{i}.\" }}" for i in range(n(500)))
    deck = "deck peril many { card " + ", ".join(f"p{i}" for i in range(n(500))) + " }\n"
    out["deck-500-cards"] = {"q.quest": cards + "\n" + deck}
    encs = "\n".join(
        f'encounter e{i} "E" {{\n  map {{ tile 2B }}\n  entrance 2B.south\n  exit 2B.north\n}}\n'
        f"exploration_card c{i} {{ encounter e{i}{'; start' if i == 0 else ''}{'; main 1' if i == n(500) - 1 else ''} }}"
        for i in range(n(500)))
    xdeck = f"deck exploration many {{ start c0; stack {n(500) - 2} + main 1 }}\n"
    out["exploration-deck-500"] = {"q.quest": encs + "\n" + xdeck}
    locs = "\n".join(f"    l{i}: {{name: L{i}, kind: {'city, defense: 3' if i == 0 else 'dungeon'}, pos: [{i % 100}, {i // 100}]}}" for i in range(n(1000)))
    trails = "\n".join(f"    - {{from: l{i}, to: l{(i + 1) % n(1000)}, type: normal, danger: green, traffic: 1}}" for i in range(n(1000)))
    out["world-1000-locations"] = {"w.yaml": f"world:\n  id: big\n  name: Big\n  start: l0\n  locations:\n{locs}\n  trails:\n{trails}\n"}
    grid = "\n".join("." * n(60) for _ in range(n(60)))
    out["tile-60x60"] = {"t.yaml": "tiles:\n  huge:\n    kind: dungeon\n    grid: |\n" + textwrap.indent(grid, "      ") + "\n    openings: {north: [0]}\n",
                         "q.quest": 'quest h "H" {\n  heroes 2..4\n  map { tile huge }\n  start heroes at huge(0,0)\n' + ends + '}\n'}
    out["far-apart-tiles"] = {"q.quest": 'quest far "Far" {\n  heroes 2..4\n  map {\n    tile 2B at (0, 0)\n    tile 4A at (1000000000, -1000000000)\n  }\n  start heroes on 2B\n}\n'}
    return {name: {"pack.yaml": head.format(id=name), **files} for name, files in out.items()}


def time_hostile(root: Path) -> list[tuple[str, float, int]]:
    make_workspace(root)
    rows = []
    for name, files in hostile_inputs().items():
        folder = root / name
        folder.mkdir(exist_ok=True)
        for fname, text in files.items():
            (folder / fname).write_text(text, encoding="utf-8")
        t = time.perf_counter()
        sink, outputs = compile_and_emit([str(folder)], options(root))
        rows.append((name, time.perf_counter() - t, sink.errors))
        assert_sound(sink, outputs)
    return rows


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name, secs, errors in time_hostile(Path(tmp)):
            print(f"{name:24} {secs:7.2f} s  {errors} errors")

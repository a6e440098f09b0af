"""The terrain catalog: YAML entries -> `TerrainRule`s, with symbol checks.

Entry point: `read_terrain(entries, sink, dice=None) -> dict[str, TerrainRule]`, ids
sorted. `entries` is the merged terrain catalog of one pack and everything it requires
(id -> `compiler.catalogs.document.Entry`, already schema-valid). Symbols are checked
across the whole merged catalog: one symbol, one terrain; when two terrains claim one
symbol the terrain the fixed table names keeps it, else the one first in source order. A terrain with a broken symbol
is left out of the result (tiles using it then report an unknown symbol), everything
else is kept so later stages can still run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from compiler.catalogs.document import Entry
from compiler.diagnostics import Related, Sink
from compiler.diagnostics.hints import did_you_mean
from compiler import frozen

@frozen
class TerrainRule:
    """How one terrain behaves on the map (data from the core packs' terrain catalog)."""

    id: str
    symbol: str = "."
    enter_cost: int = 1
    leave_cost: int = 0
    blocks_movement: bool = False
    blocks_sight: bool = False
    sight: str = "normal"  # normal | adjacent_only (2e pit, fog) | pit_region (1e pit: the pit's spaces + those adjacent to it)
    # Optional behaviour (all defaults = plain); filled by compiler/catalogs/terrain.py.
    name: str = ""
    leave_action: bool = False  # leaving takes an action, never movement points (2e pit)
    on_enter_damage: int = 0  # damage / wounds suffered on entering (armour ignored)
    on_enter_condition: str = ""  # condition or token given on entering (burn, daze, bleed…)
    on_enter_tokens: int = 0  # how many of that condition's tokens
    on_enter_die: str = ""  # a die rolled on entering; the effect is avoided on `on_enter_avoid`
    on_enter_avoid: str = ""  # face property that avoids the effect (e.g. "surge")
    elevated: bool = False  # 1e beds/tables/thrones: attacking down +1 range/+1 damage
    jumpable: bool = False  # 1e: may be jumped across (pits; lava and mud when aware)
    defeat_end_of_turn: bool = False  # 2e hazard/lava: ending a turn here defeats the figure
    hazard: str = ""  # "lane" | "area" for a hazard placed with `hazard KIND at …` (compiler/geometry/hazards.py); "" none
    hazard_stops_in_pit: bool = False  # a lane ends on a pit holding its whole footprint (1e boulder)
    kind: str = ""  # what the rulebook calls it (obstacle, prop, …): Flying passes obstacles (geometry/templates.py)
    grants: tuple[str, ...] = ()  # abilities a figure here counts as having (1e trees: shadowcloak)


PLAIN = TerrainRule("plain")


NO_SQUARE = "-"
# The symbols every pack reads the same way (contracts: tile grids across rulesets).
FIXED_SYMBOLS: Mapping[str, str] = {".": "plain", "~": "water", "#": "obstacle", "o": "pit", "^": "lava"}


def read_terrain(
    entries: Mapping[str, Entry],
    sink: Sink,
    dice: Mapping[str, Any] | None = None,
) -> dict[str, TerrainRule]:
    """Check and convert every terrain entry; `dice` (id -> anything) enables the on_enter.roll check."""
    rules: dict[str, TerrainRule] = {}
    owner: dict[str, str] = {}  # symbol -> terrain id that claimed it first
    for tid in sorted(entries, key=lambda t: _claim_order(t, entries[t])):
        entry = entries[tid]
        data = entry.data if isinstance(entry.data, dict) else {}
        symbol = data.get("symbol")
        if not _symbol_ok(symbol, tid, entry, sink):
            continue
        expected = FIXED_SYMBOLS.get(symbol)
        if expected is not None and expected != tid and symbol not in owner:
            sink.report("Y0204", entry.span("symbol"), symbol=symbol, expected=expected, id=tid)
        if symbol in owner:
            other = owner[symbol]
            sink.report(
                "Y0201",
                entry.span("symbol"),
                related=(Related(entries[other].span("symbol"), f"`{symbol}` is first used by terrain `{other}` here"),),
                id=tid,
                symbol=symbol,
                other=other,
            )
            continue
        owner[symbol] = tid
        _check_consistency(tid, data, entry, sink, dice)
        rules[tid] = to_rule(tid, data)
    return dict(sorted(rules.items()))


def _claim_order(tid: str, entry: Entry) -> tuple[bool, str, int, int, str]:
    """Who keeps a contested symbol: the terrain the fixed table names, then the first in source order."""
    data = entry.data if isinstance(entry.data, dict) else {}
    symbol = data.get("symbol")
    fixed = isinstance(symbol, str) and FIXED_SYMBOLS.get(symbol) == tid
    span = entry.span("symbol")
    return (not fixed, span.file, span.line, span.column, tid)


def to_rule(tid: str, data: Mapping[str, Any]) -> TerrainRule:
    """The runtime form of one (schema-valid) terrain entry."""
    blocks = set(data.get("blocks") or ())
    on_enter = data.get("on_enter") or {}
    condition = on_enter.get("condition", "")
    return TerrainRule(
        id=tid,
        symbol=data["symbol"],
        enter_cost=int(data.get("enter_cost", 1)),
        leave_cost=int(data.get("leave_cost", 0)),
        blocks_movement="movement" in blocks,
        blocks_sight="sight" in blocks,
        sight=data.get("sight", "normal"),
        name=data.get("name", tid.replace("_", " ").capitalize()),
        leave_action=data.get("leave") == "action",
        on_enter_damage=int(on_enter.get("damage", 0)),
        on_enter_condition=condition,
        on_enter_tokens=int(on_enter.get("tokens", 1 if condition else 0)),
        on_enter_die=on_enter.get("roll", ""),
        on_enter_avoid=on_enter.get("avoid", ""),
        elevated=bool(data.get("elevated", False)),
        jumpable=bool(data.get("jumpable", False)),
        defeat_end_of_turn=bool(data.get("defeat_end_of_turn", False)),
        hazard=str((data.get("hazard") or {}).get("reach", "")),
        hazard_stops_in_pit=bool((data.get("hazard") or {}).get("stops_in_pit", False)),
        kind=str(data.get("kind", "")),
        grants=tuple(sorted(str(g) for g in data.get("grants") or ())),
    )


def symbol_table(rules: Mapping[str, TerrainRule]) -> dict[str, str]:
    """symbol -> terrain id, for reading tile grids."""
    return {rule.symbol: tid for tid, rule in sorted(rules.items())}


def _symbol_ok(symbol: Any, tid: str, entry: Entry, sink: Sink) -> TypeGuard[str]:
    """True when `symbol` (YAML data) is a usable one-character text; else it is reported."""
    if not isinstance(symbol, str) or len(symbol) != 1 or not symbol.isprintable() or symbol.isspace():
        sink.report("Y0203", entry.span("symbol"), id=tid, symbol=symbol)
        return False
    if symbol == NO_SQUARE:
        sink.report("Y0202", entry.span("symbol"), id=tid)
        return False
    return True


def _check_consistency(tid: str, data: Mapping[str, Any], entry: Entry, sink: Sink, dice: Mapping[str, Any] | None) -> None:
    blocks = set(data.get("blocks") or ())
    if "leave_cost" in data and data.get("leave") == "action":
        sink.report("Y0205", entry.span("leave_cost"), id=tid)
    if "movement" in blocks:
        for field in ("enter_cost", "leave_cost", "leave", "on_enter"):
            if field in data:
                sink.report("Y0206", entry.key_span(field), id=tid, field=field)
    on_enter = data.get("on_enter") or {}
    needs = (("avoid", "roll"), ("roll", "avoid"), ("tokens", "condition"))
    for field, need in needs:
        if field in on_enter and need not in on_enter:
            sink.report("Y0207", entry.span("on_enter", field), id=tid, field=field, needs=need)
    die = on_enter.get("roll")
    if die is not None and dice is not None and die not in dice:
        guess = did_you_mean(die, sorted(dice))
        sink.report(
            "Y0208",
            entry.span("on_enter", "roll"),
            fix=guess,
            id=tid,
            die=die,
            hint=f"; did you mean `{guess}`?" if guess else "",
        )

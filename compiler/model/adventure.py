"""Cooperative quests: the overlord track and the adventure plan the adventure pass resolves."""

from __future__ import annotations

from dataclasses import field
from typing import Mapping

from compiler.diagnostics import Span
from compiler import frozen
from compiler.model import quest as m
from compiler.syntax import ast

HERO_COUNTS = m.HERO_COUNTS
# which way each token moves on the track (docs/cards.md): they close on each other
MOVES = {"doom": "up", "fate": "down"}


# ---------------------------------------------------------------- results
@frozen
class TrackPlan:
    """The overlord track, resolved for each hero count the quest allows."""

    spaces: int
    doom_start: Mapping[int, int]  # hero count -> space (1 = bottom)
    fate_start: Mapping[int, int]
    doom_written: str  # heroes | top | fixed
    fate_written: str
    rules: tuple[ast.TrackRule, ...]
    closes: bool  # some rule that can happen moves doom or fate

    @property
    def margin(self) -> dict[int, int]:
        """Hero count -> how many single steps of doom or fate end the game."""
        return {h: self.fate_start[h] - self.doom_start[h] for h in self.doom_start}


@frozen
class AdventurePlan:
    id: str
    name: ast.Text
    heroes: tuple[int, int]
    decks: Mapping[str, str]  # kind -> deck id (only those that exist and are of their kind)
    track: TrackPlan | None
    events: tuple[m.Event, ...]
    start: str | None = None  # the exploration deck's start card
    finale: tuple[str, str, int] | None = None  # (card, encounter, main number)
    winnable: bool = False
    losable: bool = False
    doc: str | None = None
    span: Span = ast.NOWHERE
    hero_counts: tuple[int, ...] = field(default=HERO_COUNTS)

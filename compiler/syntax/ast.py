"""The typed AST of the quest language: small frozen dataclasses, each with a `span`.

Nodes are declared, not coded: behaviour lives in passes and emitters. Every node the
grammar can produce is here; `compiler/syntax/parse.py` is the only module that turns
Lark trees into these. Tuples, never lists, so nodes are hashable and immutable.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from compiler.diagnostics import Span
from compiler import frozen

NOWHERE = Span("<none>")


# ---------------------------------------------------------------- values
@frozen
class Text:
    """A player-facing string ("…" or a dedented \"\"\"…\"\"\" block)."""

    value: str
    span: Span = NOWHERE


@frozen
class HeroGuard:
    """`heroes 3+` (low=3, high=4), `heroes 2..3`, `heroes 4` (low=high=4)."""

    low: int
    high: int
    span: Span = NOWHERE


# ---------------------------------------------------------------- spaces
@frozen
class TileSpace:
    """`9A(3,1)`: column 3, row 1 of placed tile 9A's own printed grid (tile = placed name)."""

    tile: str
    col: int
    row: int
    span: Span = NOWHERE


@frozen
class WorldSpace:
    """`(12,4)`: world coordinates."""

    x: int
    y: int
    span: Span = NOWHERE


@frozen
class MarkRef:
    """`@name`: a named mark."""

    name: str
    span: Span = NOWHERE


SpaceRef = TileSpace | WorldSpace | MarkRef


@frozen
class OpeningRef:
    """`9A.north` (index 0), `9A.north.1` (the second opening on that side).

    `tile` is None for the local side in `attach SIDE to …`.
    """

    tile: str | None
    side: str  # north | east | south | west
    index: int = 0
    span: Span = NOWHERE


# ---------------------------------------------------------------- maps
@frozen
class Attach:
    side: OpeningRef  # on the tile being placed (tile=None)
    to: OpeningRef  # on an already named tile
    span: Span = NOWHERE


@frozen
class TilePlacement:
    """`tile CODE [as NAME] (at (x, y) | attach SIDE to OTHER.SIDE | nothing) [rotate R] [hidden]`.

    With neither `at` nor `attach` the tile sits at (0, 0).
    """

    code: str
    name: str  # = code unless `as NAME`
    at: WorldSpace | None = None
    rotate: int | None = None  # quarter turns in degrees, clockwise; None = infer / 0
    attach: Attach | None = None
    hidden: bool = False
    span: Span = NOWHERE


@frozen
class DoorDecl:
    """`door NAME on TILE.SIDE[.N] [COLOUR] [open] [rune] [divides AREA]`: a door on an attachment;
    or `door NAME on TILE(c,r).SIDE …`: a door inside a tile, across its own edge on SIDE of
    square (c, r) and of the next square along that side (`inside` is that square; `on` then
    names the tile and side with index -1, which is no opening)."""

    name: str
    on: OpeningRef
    colour: str | None = None
    open: bool = False
    span: Span = NOWHERE
    rune: bool = False  # rune-locked: opened only by a hero party holding the runekey of its colour
    divides: str | None = None  # the area it opens into (revealed when it opens)
    locked: bool = False  # heroes cannot open it until an `unlock` effect (an effect may `open` it)
    hidden: bool = False  # off the board until a `place door` effect puts it there (closed)
    inside: TileSpace | None = None  # a door inside a tile: the square it stands beside (docs/language.md, "Doors")


@frozen
class MarkDecl:
    """`mark NAME at SPACE`: names a space for `@NAME`."""

    name: str
    at: SpaceRef
    span: Span = NOWHERE


@frozen
class EdgeDecl:
    """`edge TILE.SIDE, …`: openings that join nothing on purpose (the edge of the map)."""

    openings: tuple[OpeningRef, ...]
    span: Span = NOWHERE


@frozen
class MarkerDecl:
    """`marker TERRAIN at SPACE [size WxH]`: a terrain or prop marker laid over squares."""

    terrain: str
    at: SpaceRef
    size: tuple[int, int] = (1, 1)
    span: Span = NOWHERE


@frozen
class HazardDecl:
    """`hazard KIND at SPACE [size WxH] [facing SIDE] [lane SPACE, …] [trigger SPACE, …]`:
    a hazard of the terrain catalog laid like a marker, with what it reaches: a lane
    (computed from `facing`, or the squares `lane` lists) or an area struck from `trigger`
    squares (docs/maps.md, "Hazards")."""

    kind: str
    at: SpaceRef
    size: tuple[int, int] = (1, 1)
    facing: str = ""  # north | east | south | west, in the frame of the tile `at` names; "" none
    lane: tuple[SpaceRef, ...] = ()  # explicit lane squares in order; () computes it
    trigger: tuple[SpaceRef, ...] = ()  # () means the hazard's own squares
    span: Span = NOWHERE
    kind_span: Span = field(default=NOWHERE, compare=False)  # the kind's word, where an unknown kind is reported


@frozen
class LineEdge:
    """One unit edge of a line: the side `side` of the square `at`."""

    at: SpaceRef
    side: str
    span: Span = NOWHERE


@frozen
class LineDecl:
    """`line KIND at SPACE.SIDE, …`: a line of the lines catalog (2nd-edition elevation)
    along square edges (docs/maps.md, "Lines")."""

    kind: str
    edges: tuple[LineEdge, ...]
    span: Span = NOWHERE
    kind_span: Span = field(default=NOWHERE, compare=False)  # the kind's word, where an unknown kind is reported


@frozen
class StairsDecl:
    """`stairs COLOUR at SPACE`: one end of a staircase; the two ends of a colour pair up."""

    colour: str
    at: SpaceRef
    span: Span = NOWHERE


@frozen
class GatewayDecl:
    """`gateway COLOUR at SPACE, SPACE`: one end (two adjacent squares) of a magic gateway."""

    colour: str
    at: tuple[SpaceRef, ...]
    span: Span = NOWHERE


@frozen
class GlyphDecl:
    """`glyph NAME at SPACE [size WxH] [active]`: a glyph of transport."""

    name: str
    at: SpaceRef
    size: tuple[int, int] = (1, 1)
    active: bool = False
    span: Span = NOWHERE


@frozen
class PortalDecl:
    """`portal TILE`: the placed tile that is the level's portal."""

    tile: str
    span: Span = NOWHERE


@frozen
class AreaDecl:
    """`area NAME tiles T, T…`: tiles hidden until a door that `divides NAME` opens."""

    name: str
    tiles: tuple[str, ...]
    span: Span = NOWHERE


@frozen
class ChestDecl:
    """`chest TIER [as NAME] at SPACE`: a copper, silver or gold chest."""

    tier: str
    at: SpaceRef
    name: str | None = None
    span: Span = NOWHERE


@frozen
class RunekeyDecl:
    """`runekey COLOUR carried by GROUP` or `runekey COLOUR at SPACE`."""

    colour: str
    carrier: str | None = None
    at: SpaceRef | None = None
    span: Span = NOWHERE


@frozen
class MapBlock:
    tiles: tuple[TilePlacement, ...] = ()
    doors: tuple[DoorDecl, ...] = ()
    marks: tuple[MarkDecl, ...] = ()
    span: Span = NOWHERE
    edges: tuple[EdgeDecl, ...] = ()
    markers: tuple[MarkerDecl, ...] = ()
    stairs: tuple[StairsDecl, ...] = ()
    gateways: tuple[GatewayDecl, ...] = ()
    glyphs: tuple[GlyphDecl, ...] = ()
    portals: tuple[PortalDecl, ...] = ()
    areas: tuple[AreaDecl, ...] = ()
    chests: tuple[ChestDecl, ...] = ()
    lines: tuple[LineDecl, ...] = ()
    hazards: tuple[HazardDecl, ...] = ()
    # a statement of it was dropped by syntax-error recovery (parse.py): its openings that
    # join nothing may be joined by that statement (`tile 13 attach …`), so none is reported
    incomplete: bool = False


# ---------------------------------------------------------------- setup statements
@frozen
class StartHeroes:
    """`start heroes on TILE` or `start heroes at SPACE, SPACE…`."""

    tile: str | None = None
    spaces: tuple[SpaceRef, ...] = ()
    span: Span = NOWHERE


@frozen
class TokenDecl:
    """`token KIND [COLOUR] ["label"] [as NAME] at SPACE`; kinds: search, unique_search, objective, villager…"""

    kind: str
    at: SpaceRef
    label: Text | None = None
    colour: str | None = None
    name: str | None = None
    span: Span = NOWHERE
    kind_span: Span = field(default=NOWHERE, compare=False)  # the kind's word, where an unknown kind is reported (Q0107); a position, not part of the meaning


@frozen
class SpawnPoint:
    """`master at A, B [heroes G]` / `minion at …` inside a spawn block."""

    rank: str  # master | minion
    at: tuple[SpaceRef, ...]
    heroes: HeroGuard | None = None
    span: Span = NOWHERE


@frozen
class SpawnDecl:
    """`spawn GROUP [as NAME] at SPACE [size WxH] [heroes G] [unique [health +N]]` or
    `spawn GROUP [as NAME] { points }`. NAME tells two spawns of one group apart in events."""

    group: str
    at: SpaceRef | None = None
    points: tuple[SpawnPoint, ...] = ()
    heroes: HeroGuard | None = None
    size: tuple[int, int] | None = None
    unique: bool = False
    extra_health: int = 0
    span: Span = NOWHERE
    name: str | None = None
    pool: tuple[str, ...] = ()  # `spawn open group traits A, B …`: the traits (group is then OPEN_GROUP)
    drawn: bool = False  # `spawn random group …`: the monster drawn at random (group is then RANDOM_GROUP)
    needs: tuple[str, ...] = ()  # `… with A, B`: traits a drawn monster has all of
    exclude: tuple[str, ...] = ()  # `… except M, N`: monsters never drawn

    @property
    def from_pool(self) -> bool:
        """Its monster is one of a pool (an open group, or a random group), not named."""
        return bool(self.pool) or self.drawn


OPEN_GROUP = "open_group"  # the group of a spawn drawn from a trait pool, and its default name
RANDOM_GROUP = "random_group"  # the group of a spawn whose monster is drawn at random, and its default name


@frozen
class CustomHealth:
    """`health N`, `health +N`, `health N per hero`, `health N + M per hero` of a custom monster:
    `added` (written with `+`: on top of the base monster's health), `base` and `per_hero`."""

    base: int
    per_hero: int = 0
    added: bool = False
    span: Span = NOWHERE


@frozen
class CustomMonster:
    """`monster ID based on BASE { … }` in a quest: the catalog monster BASE under a new id,
    with the changes written (None / () where the base's own value stands)."""

    id: str
    base: str
    name: Text | None = None
    unique: bool = False
    health: CustomHealth | None = None
    speed: int | None = None
    attack: tuple[str, ...] = ()
    defense: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    span: Span = NOWHERE
    base_span: Span = NOWHERE  # the base's name, where an unknown base is reported
    dice_spans: tuple[tuple[str, Span], ...] = ()  # (die, where written) for attack / defense
    activations: tuple[CustomActivation, ...] = ()  # `activation ID { … }`, in order


@frozen
class ItemSlot:
    """`item ID "Label" { named …; traits …; with …; except …; starting }` in a quest: one
    item the quest uses, chosen when it starts (docs/language.md, "Quest items and shops").
    `named`: the item itself, or another slot's (the first that exists); `any_of` (written
    `traits`): an item with one of these traits, drawn at random; `all_of` (written `with`):
    an item with all of them; `exclude`: never these items, nor the item these slots hold;
    `starting`: the party holds it from the start."""

    id: str
    label: Text | None = None
    named: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()
    all_of: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    starting: bool = False
    span: Span = NOWHERE
    name_spans: tuple[tuple[str, Span], ...] = ()  # (slot or item named, where) for `named` / `except`

    @property
    def drawn(self) -> bool:
        """Drawn at random by traits (not a named item)."""
        return bool(self.any_of or self.all_of)


@frozen
class CustomActivation:
    """`activation ID { ability T; master T; minion T; first master|minion }` in a custom
    monster: one of its turns, in words, as the Valkyrie app shows them (one drawn at random
    each round; who goes first at random unless `first` says)."""

    id: str
    ability: Text | None = None
    master: Text | None = None
    minion: Text | None = None
    first: str | None = None  # master | minion; None: at random
    span: Span = NOWHERE
    first_span: Span = NOWHERE


# ---------------------------------------------------------------- events
@frozen
class Trigger:
    """What fires an event.

    kind: start | encounter_start | round_start | round_end | open | defeated | searched |
          picked_up | enters | morale_zero | hero_defeated | all_heroes_defeated | variable |
          doom_reaches_fate (cooperative quests)
    subject: the door / group / token / variable / area named (None where none);
    number: N for round_start / round_end (None: every round), threshold for
    `variable X >= N`; space: for `enters SPACE`.
    """

    kind: str
    subject: str | None = None
    number: int | None = None
    space: SpaceRef | None = None
    span: Span = NOWHERE


@frozen
class Effect:
    """One statement in an event body.

    kind: reveal | spawn | place_token | remove_token | say | set | advance | add | subtract |
          ask | activate | next | next_quest | win | lose | end | open | close | remove_tile | remove_door |
          remove_spawn | place_door | unlock | random | if | repeat | again | give | shop | restock | take
    args: names (tiles, groups, tokens, variables, doors, item slots; next_quest: the quest id); number: for set / advance / add /
    subtract; text: for say / win / lose / end / ask (the question); spawn / token: the nested
    declaration (`place token NAME`, a declared token placed again, has args (NAME,) and
    no token); source: `set X = Y` (Y); random: `set X = random A..B` ((A, B));
    choices: `ask`'s choices, `random`'s options (choices without a text), or `if`'s arms
    (without a text; each with its condition, the `else` arm without one), in order, or
    `repeat`'s block (one choice without a text or condition). `repeat L { … }` and
    `again L`: args (L,), the loop's label.
    """

    kind: str
    args: tuple[str, ...] = ()
    number: int | None = None
    text: Text | None = None
    spawn: SpawnDecl | None = None
    token: TokenDecl | None = None
    span: Span = NOWHERE
    source: str | None = None
    random: tuple[int, int] | None = None
    choices: tuple[Choice, ...] = ()


@frozen
class Operand:
    """One side of a comparison: kind variable (`name`) | number (`value`) | heroes (the hero count)
    | round (the round under way, from 1 in each encounter)."""

    kind: str
    name: str | None = None
    value: int | None = None
    span: Span = NOWHERE


@frozen
class Condition:
    """`if COND` on an event or a choice.

    kind: or | and (`parts`, two or more) | not (`parts`, one) | compare (`left` `op`
    `right`, op one of == != < <= > >=) | on_board (`subject`) | heroes (`guard`:
    `heroes 3+`, `heroes 2..3`).
    """

    kind: str
    parts: tuple[Condition, ...] = ()
    op: str | None = None
    left: Operand | None = None
    right: Operand | None = None
    subject: str | None = None
    guard: HeroGuard | None = None
    span: Span = NOWHERE


@frozen
class Choice:
    """`choice "Label" [if COND] { effects }` inside `ask`; `option { effects }` inside
    `random` (no text, no condition)."""

    text: Text | None
    effects: tuple[Effect, ...]
    condition: Condition | None = None
    span: Span = NOWHERE


@frozen
class EventDecl:
    trigger: Trigger
    effects: tuple[Effect, ...]
    span: Span = NOWHERE
    condition: Condition | None = None
    quota: int | None = None  # `N times`: fires on its trigger's N-th occurrence
    quota_span: Span = NOWHERE


# ---------------------------------------------------------------- encounters and quests
@frozen
class EncounterBody:
    """Everything an encounter can say; used by inline `encounter N { … }` and top-level encounters."""

    map: MapBlock | None = None
    start: StartHeroes | None = None
    entrance: OpeningRef | None = None
    exit: OpeningRef | None = None
    flavor: Text | None = None
    setup: Text | None = None
    tokens: tuple[TokenDecl, ...] = ()
    spawns: tuple[SpawnDecl, ...] = ()
    events: tuple[EventDecl, ...] = ()
    variables: tuple["VarDecl", ...] = ()
    heroes_as: tuple[str, ...] = ()  # figures treated as heroes (`hero_figure desmond`)
    expectations: tuple["Expectation", ...] = ()
    runekeys: tuple[RunekeyDecl, ...] = ()
    span: Span = NOWHERE


@frozen
class Expectation:
    """`expect …`: a fact the designer states about the encounter, checked at compile time.

    kind: sight | range | cost | reachable | event.
    sight: `a` sees `b` (`negated`: `expect no sight`); range / cost: the counted range or
    the movement cost from `a` to `b` compared (`op`: == != <= >= < >) with `value`;
    reachable: `place` (a space, or the name of a tile, mark or token) is reachable from
    the heroes' start (`negated`: `unreachable`); event: event number `value` of the
    encounter can fire (`negated`: `never fires`). `open_doors`: `with open D, …`.
    """

    kind: str
    a: "SpaceRef | None" = None
    b: "SpaceRef | None" = None
    place: "SpaceRef | str | None" = None
    op: str | None = None
    value: int | None = None
    negated: bool = False
    open_doors: tuple[str, ...] = ()
    span: Span = NOWHERE


@frozen
class VarDecl:
    """`var NAME = N`, or `var NAME` (starts at 0, `given` False); `campaign var NAME = N`
    (`campaign` True): a campaign variable, whose value carries across `next` and `next
    quest` (docs/language.md, "Campaign variables")."""

    name: str
    value: int = 0
    span: Span = NOWHERE
    given: bool = True
    campaign: bool = False


@frozen
class InlineEncounter:
    number: int
    body: EncounterBody
    span: Span = NOWHERE
    number_span: Span = NOWHERE  # the number itself: where a wrong number is reported (S0212)


# ---------------------------------------------------------------- cooperative quests
@frozen
class DeckUse:
    """`exploration ID` / `activation ID` / `peril ID` in a quest: a deck the adventure plays."""

    kind: str  # exploration | activation | peril
    deck: str
    span: Span = NOWHERE


@frozen
class TrackStart:
    """`doom starts heroes` / `fate starts top` / `doom starts 3`."""

    marker: str  # doom | fate
    at: int | str  # a space number, "heroes" (the hero count) or "top" (the track's last space)
    span: Span = NOWHERE


@frozen
class TrackRule:
    """`advance fate [by N] on SOURCE` or `draw peril on SOURCE`: what moves the overlord track.

    action: advance | draw_peril; marker: doom | fate (for advance); amount: N (default 1).
    source: fate_step | round_end | hero_defeated | peril_drawn | defeated | hourglass;
    subjects: the figure for `defeated NAME`, the exploration cards for `hourglass A, B`.
    """

    action: str
    source: str
    marker: str | None = None
    amount: int = 1
    subjects: tuple[str, ...] = ()
    span: Span = NOWHERE


@frozen
class Track:
    """`track { spaces N; doom starts …; fate starts …; rules… }`: the overlord track."""

    spaces: int | None = None
    doom: TrackStart | None = None
    fate: TrackStart | None = None
    rules: tuple[TrackRule, ...] = ()
    span: Span = NOWHERE


@frozen
class Adventure:
    """What makes a quest cooperative: the decks it plays, its overlord track, and its
    adventure-wide events (`on doom_reaches_fate { lose … }`). Its encounters are the ones
    the exploration deck deals, so such a quest has no encounters of its own."""

    decks: tuple[DeckUse, ...] = ()
    track: Track | None = None
    events: tuple[EventDecl, ...] = ()
    span: Span = NOWHERE

    def deck(self, kind: str) -> DeckUse | None:
        return next((d for d in self.decks if d.kind == kind), None)


@frozen
class Quest:
    """A quest: a sequence of encounters. A single-encounter quest's statements form `encounters[0]`
    with number 1 (parse.py folds a body written directly in the quest into one InlineEncounter).

    A cooperative quest (`adventure` set: it names decks or a track) keeps its events in
    `adventure.events`; `encounters` then holds only statements that do not belong there
    (reported by compiler/passes/adventure.py), usually none."""

    id: str
    name: Text
    heroes: HeroGuard | None
    encounters: tuple[InlineEncounter, ...]
    doc: str | None = None
    span: Span = NOWHERE
    adventure: Adventure | None = None
    monsters: tuple[CustomMonster, ...] = ()  # `monster ID based on BASE { … }`: the quest's custom monsters
    items: tuple[ItemSlot, ...] = ()  # `item ID { … }`: the quest's item slots
    # a statement of it was dropped by syntax-error recovery (parse.py): whole-quest
    # verdicts (it can never be won or lost) are not said, the syntax error is the cause
    incomplete: bool = False


@frozen
class Encounter:
    """A top-level, reusable encounter (cooperative adventures)."""

    id: str
    name: Text | None
    body: EncounterBody
    doc: str | None = None
    span: Span = NOWHERE


# ---------------------------------------------------------------- cards
@frozen
class Hourglass:
    count: int
    text: Text
    span: Span = NOWHERE


@frozen
class ExplorationCard:
    id: str
    encounter: str | None  # `encounter NAME`
    role: str = "ordinary"  # start | main | ordinary
    main_number: int | None = None  # for `main N`
    rules: Text | None = None
    after_setup: Text | None = None
    overlord: tuple[Text | Hourglass, ...] = ()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class PerilCard:
    id: str
    flavor: Text | None = None
    effect: Text | None = None  # a single effect
    with_monsters: Text | None = None
    without_monsters: Text | None = None
    doc: str | None = None
    span: Span = NOWHERE


# A target's filter: its name, then its numbers (("in_sight",), ("within", 2)). The numbers
# are Any to the checker: readers take f[1] once f[0] says there is one, which it cannot follow.
TargetFilter = tuple[str, *tuple[Any, ...]]


@frozen
class Target:
    """`closest hero in sight`, `hero with highest might`, `exit`, `search token`, `hero within 2`.

    subject: hero | monster | exit | search_token | entrance | …
    order: closest | furthest | highest | lowest | most_damage | None
    attribute: for highest/lowest (might, knowledge, willpower, awareness, health…)
    filters: ("in_sight",), ("within", N), ("adjacent",), ("not_attacked",) …
    """

    subject: str
    order: str | None = None
    attribute: str | None = None
    filters: tuple[TargetFilter, ...] = ()
    span: Span = NOWHERE


@frozen
class Action:
    """verb: engage | spot | toward | away_from | retreat | attack | discard | special.

    target for the targeted verbs, condition for discard, text for special."""

    verb: str
    target: Target | None = None
    condition: str | None = None
    text: Text | None = None
    span: Span = NOWHERE


@frozen
class RankBox:
    """`master { … }`, `minion { … }` or `all { … }`."""

    rank: str  # master | minion | all
    actions: tuple[Action, ...]
    span: Span = NOWHERE


@frozen
class GroupActivation:
    group: str
    effect: Text | None
    boxes: tuple[RankBox, ...]
    span: Span = NOWHERE


@frozen
class ActivationCard:
    id: str
    groups: tuple[GroupActivation, ...]
    doc: str | None = None
    span: Span = NOWHERE


# ---------------------------------------------------------------- decks
@frozen
class DeckStack:
    """`stack 3 + main 1`: 3 cards dealt from the rest, main encounter 1 shuffled in."""

    size: int
    main: int | None = None
    span: Span = NOWHERE


@frozen
class Deck:
    """`deck exploration|activation|peril ID { start CARD; stack …; card A, B … }`."""

    kind: str
    id: str
    start: str | None = None
    stacks: tuple[DeckStack, ...] = ()
    cards: tuple[str, ...] = ()  # explicit card list (activation and peril decks; optional)
    doc: str | None = None
    span: Span = NOWHERE


# ---------------------------------------------------------------- campaign (1st edition)
# The Road to Legend declarations (docs/campaign.md). Names that are checked later carry
# their own span (`Ref`), so a diagnostic can point at the one misspelt word.
@frozen
class Ref:
    """A name written in a campaign declaration, with where it was written."""

    name: str
    span: Span = NOWHERE


@frozen
class Gate:
    """`level copper` (low = high) or `level silver..gold`: the campaign levels at which it is in play."""

    low: Ref
    high: Ref
    span: Span = NOWHERE


@frozen
class Common:
    """What every campaign declaration may say: its level gate, the expansion it needs, its source."""

    gate: Gate | None = None
    needs: Ref | None = None
    source: Ref | None = None  # rulebook | illustrative; None = illustrative


@frozen
class Leader:
    """`leader MONSTER ["Name"] [carries COLOUR] [at SPACE]`: a named monster of a kind."""

    monster: Ref
    name: Text | None = None
    carries: Ref | None = None  # a runekey colour; a dungeon level's leader carries red when not said
    at: SpaceRef | None = None
    span: Span = NOWHERE


@frozen
class MinionOption:
    """`3 beastman`: how many figures of which monster."""

    count: int
    monster: Ref
    span: Span = NOWHERE


@frozen
class MinionGroup:
    """`minions [GROUP] [needs EXPANSION] { 3 beastman; 2 skeleton }`."""

    group: Ref | None
    needs: Ref | None
    options: tuple[MinionOption, ...]
    span: Span = NOWHERE


@frozen
class Level:
    """A dungeon level: a Dungeon Level card (`dungeon_level`, with `number`) or a Quest
    Guide level that no card deals (`special_level`: a rumor's final level, a legendary
    area's fourth, a keep's fifth)."""

    id: str
    title: Text
    card: bool  # dungeon_level
    number: int | None = None
    leader: Leader | None = None
    leader_rules: Text | None = None
    minions: tuple[MinionGroup, ...] = ()
    special: Text | None = None
    description: Text | None = None
    no_minions: tuple[Ref, ...] = ()  # placed tiles where minions may not be set up
    portal: Ref | None = None  # the placed portal piece
    body: EncounterBody = EncounterBody()  # map, start heroes, tokens
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class Dungeon:
    """`dungeon ID "Name" { at LOCATION; levels A, B, C }`: levels joined by portals."""

    id: str
    name: Text
    at: Ref | None = None
    levels: tuple[Ref, ...] = ()
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class RumorCard:
    id: str
    title: Text
    distance: int | None = None
    distance_span: Span = NOWHERE
    instructions: Text | None = None
    rumor: Text | None = None
    reward: Text | None = None
    keep_card: bool = False
    final: Ref | None = None  # the rumor's own third level
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class LegendaryArea:
    id: str
    name: Text
    at: Ref | None = None
    final: Ref | None = None  # the fourth level
    treasure: Text | None = None
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class TreacheryLimit:
    """`treachery trap cost 10 max 4` on an avatar sheet: XP per point, most points held."""

    type: Ref
    cost: int
    max: int
    span: Span = NOWHERE


@frozen
class Avatar:
    """The overlord's Avatar: where its keep stands, the keep's fifth level, its treachery."""

    id: str
    name: Text
    keep: Ref | None = None
    final: Ref | None = None
    treachery: tuple[TreacheryLimit, ...] = ()
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class Ability:
    """`ability reinforce MONSTER cost N` (typed) or `ability "…" cost N` (text)."""

    cost: int
    reinforce: Ref | None = None
    text: Text | None = None
    span: Span = NOWHERE


@frozen
class IncidentCard:
    id: str
    title: Text
    shields: tuple[Ref, ...] = ()  # trail colours it may be drawn for
    ambush: tuple[Ref, ...] = ()  # black power die faces that make an ambush
    ambush_span: Span = NOWHERE
    non_combat: Text | None = None
    leader: Leader | None = None
    leader_rules: Text | None = None
    minions: tuple[MinionGroup, ...] = ()
    abilities: tuple[Ability, ...] = ()
    flavor: Text | None = None
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class Camp:
    """`camp on TILE { watch at S; bedrolls at S, S, S; dead_ends at S, S, S, S }`."""

    tile: Ref
    watch: tuple[SpaceRef, ...] = ()
    bedrolls: tuple[SpaceRef, ...] = ()
    dead_ends: tuple[SpaceRef, ...] = ()
    span: Span = NOWHERE


@frozen
class LocationCard:
    id: str
    title: Text
    rule: Text | None = None
    camp: Camp | None = None
    exits: tuple[Ref, ...] = ()
    body: EncounterBody = EncounterBody()  # the map
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class PlotCard:
    """`intro ID "Title" ["text"]`, `step ID "Title" cost 30 ["text"]`, `finale ID "Title" ["text"]`."""

    role: str  # intro | step | finale
    id: str
    title: Text
    cost: int | None = None
    text: Text | None = None
    span: Span = NOWHERE


@frozen
class Plot:
    id: str
    name: Text
    cards: tuple[PlotCard, ...] = ()
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class TreacheryCard:
    """An Overlord card with a treachery gem: `gem trap 3; kind trap; threat 2; rules "…"`."""

    id: str
    title: Text
    gem: Ref | None = None  # event | trap | monster
    cost: int | None = None  # treachery points
    kind: Ref | None = None  # event | trap | spawn | power
    threat: int | None = None
    rules: Text | None = None
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


@frozen
class TreacheryAmount:
    type: Ref
    points: int
    span: Span = NOWHERE


@frozen
class OverlordDeck:
    """`overlord_deck ID { avatar A; treachery event 2, trap 6; add X, Y }`: treachery spent on cards."""

    id: str
    avatar: Ref | None = None
    held: tuple[TreacheryAmount, ...] = ()
    add: tuple[Ref, ...] = ()
    common: Common = Common()
    doc: str | None = None
    span: Span = NOWHERE


CampaignDeclaration = (
    Level | Dungeon | RumorCard | LegendaryArea | Avatar | IncidentCard | LocationCard | Plot | TreacheryCard | OverlordDeck
)


# ---------------------------------------------------------------- campaign (2nd edition)
# The Road to Legend app's campaign (docs/campaign.md, "The app campaign (2nd edition)").
@frozen
class Unlock:
    """An unlock condition. op: quest (`ID won|lost|played`), act (`act N won|lost|played`),
    all (and), any (or), not; parts: the operands of all / any / not."""

    op: str
    parts: tuple[Unlock, ...] = ()
    quest: Ref | None = None
    act: int | None = None
    outcome: str = ""  # won | lost | played
    span: Span = NOWHERE


@frozen
class CampaignQuest:
    """`story ID ["Title"] [weeks N] [odds W/N] [after COND]` (or side, interlude, finale)."""

    kind: str  # story | side | interlude | finale
    quest: Ref
    title: Text | None = None  # a quest named by id (not one of the pack) has its title
    odds: tuple[int, int] | None = None  # the heroes' chance to win it, W/N
    odds_span: Span = NOWHERE
    after: Unlock | None = None
    span: Span = NOWHERE
    weeks: int | None = None  # "Begin in N weeks"
    weeks_span: Span = NOWHERE
    rewards: tuple[Reward, ...] = ()
    reveal: int | None = None  # a Delve stage: shop items revealed in the upgrade phase after it
    reveal_span: Span = NOWHERE


@frozen
class Reward:
    """`reward [won|lost] gold N xp N fame N`: what an outcome pays ("any": either)."""

    when: str  # any | won | lost
    gold: int = 0
    xp: int = 0
    fame: int = 0
    span: Span = NOWHERE


@frozen
class ShopItems:
    """`sells [fame N] ID, …` in a city: items of its shop, sold once fame reaches N."""

    items: tuple[Ref, ...]
    fame: int = 0
    span: Span = NOWHERE


@frozen
class City:
    """`city ID ["Name"] { sells …; stock N; … }`."""

    id: str
    name: Text | None = None
    sells: tuple[ShopItems, ...] = ()
    span: Span = NOWHERE
    stock: int | None = None  # items a visit finds on sale (drawn); None: all it sells
    stock_span: Span = NOWHERE


@frozen
class TravelAnswer:
    """`answer ID ["Text"] [odds W/N] [reward …]` in a travel event: one option the party
    may take; with `odds` a test passed with that chance (`reward won|lost`)."""

    id: str
    title: Text | None = None
    odds: tuple[int, int] | None = None
    odds_span: Span = NOWHERE
    rewards: tuple[Reward, ...] = ()
    span: Span = NOWHERE


@frozen
class CityVisits:
    """`visit odds W/N [spend N]`: after each quest the party visits a city with this chance."""

    odds: tuple[int, int]
    odds_span: Span = NOWHERE
    spend: int = 0
    span: Span = NOWHERE


@frozen
class TravelEvent:
    """`travel ID ["Title"] odds W/N [near CITY] [reward …]`: one journey's chance of it."""

    id: str
    title: Text | None = None
    odds: tuple[int, int] = (0, 1)
    odds_span: Span = NOWHERE
    near: Ref | None = None
    rewards: tuple[Reward, ...] = ()
    span: Span = NOWHERE
    answers: tuple[TravelAnswer, ...] = ()


@frozen
class CampaignAct:
    number: int
    title: Text | None = None
    quests: tuple[CampaignQuest, ...] = ()
    span: Span = NOWHERE
    items: tuple[Ref, ...] = ()  # the act's shop item deck
    prices: tuple[tuple[str, int], ...] = ()  # item -> gold, where written


@frozen
class AppCampaign:
    """`campaign ID "Name" { [source S]; [side_offer N]; act 1 { … } … }`."""

    id: str
    name: Text
    acts: tuple[CampaignAct, ...] = ()
    side_offer: int | None = None  # side quests the app offers at once; None: every one unlocked
    side_offer_span: Span = NOWHERE
    source: Ref | None = None  # rulebook | illustrative; None = illustrative
    doc: str | None = None
    span: Span = NOWHERE
    difficulty: Ref | None = None  # normal | hard; None = normal
    delve: bool = False
    delve_span: Span = NOWHERE
    cities: tuple[City, ...] = ()
    travel: tuple[TravelEvent, ...] = ()
    visit: CityVisits | None = None  # None: runs visit no city
    peril: int | None = None  # rounds between peril steps; None: the difficulty's
    peril_span: Span = NOWHERE


Declaration = Quest | Encounter | ExplorationCard | PerilCard | ActivationCard | Deck | CampaignDeclaration | AppCampaign


@frozen
class Module:
    """One parsed `.quest` file."""

    file: str
    declarations: tuple[Declaration, ...] = field(default_factory=tuple)

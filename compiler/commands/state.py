"""The activation state: figures, doors and tokens on a map (schemas/activation-state.schema.json,
docs/activation.md), read into a `Situation` for the reference executor.

Shared by `questc activate` (a state file, compiler/commands/activate.py) and `questc
test` (a state inline in an activation test, compiler/commands/test.py). The state's
parts are read each by its own method of `_Reader`, in the order of their diagnostics:
heroes, familiars, monsters, open doors, heroes already attacked, tokens, exit and entrance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, TypedDict

from compiler.diagnostics.hints import did_you_mean, hint

if TYPE_CHECKING:
    from compiler.catalogs.document import Document, Path as DocPath
    from compiler.catalogs.familiars import Familiar
    from compiler.catalogs.monsters import Monster as CatalogMonster
    from compiler.diagnostics import Sink, Span
    from compiler.geometry.board import Board
    from compiler.geometry.lattice import Cell
    from compiler.model import Model
    from compiler.model.activation import Hero, Monster, Situation

SCHEMA = "activation-state.schema.json"
# YAML nodes a state file may expand to: twice what 64 KiB of text can write without aliases
# (commands/activate.py MAX_STATE_BYTES), so a billion-laughs file of aliases stops here, not
# at the 400,000 of a catalog (4 to 10 s of expanding). docs/robustness.md
MAX_STATE_NODES = 64 << 10


class Defaults(TypedDict, total=False):
    """What the chosen map gives a state file that does not say (encounter_defaults)."""

    tokens: dict[str, list[Cell]]  # search_token / objective_token -> spaces
    places: dict[str, tuple[Cell, ...]]  # exit / entrance -> spaces


def _cell(doc: _View, path: DocPath) -> tuple[int, int]:
    v = doc.get(path)
    return int(v[0]), int(v[1])


def read_state(text: str, file: str, board: Board, monsters: Mapping[str, CatalogMonster], sink: Sink, *,
               label: str = "the map", defaults: Defaults | None = None,
               familiars: Mapping[str, Familiar] | None = None) -> Situation | None:
    """The state file as a `Situation` (rules "" when the file does not say), or None after located diagnostics.

    `monsters`: the pack's monster catalog (id -> catalogs.monsters.Monster)."""
    from compiler.catalogs.yamlload import load_yaml
    from compiler.diagnostics.render import accept_source

    accept_source(file, text)
    doc = load_yaml(text, file, sink, max_nodes=MAX_STATE_NODES)
    if doc is None:
        return None
    return read_state_at(doc, (), board, monsters, sink, label=label, defaults=defaults, familiars=familiars)


class _View:
    """A node of a Document seen as a document of its own (paths relative to `base`)."""

    def __init__(self, doc: Document, base: DocPath) -> None:
        self.doc, self.base = doc, tuple(base)
        self.data = doc.get(self.base)

    def get(self, path: Iterable[Any], default: Any = None) -> Any:
        return self.doc.get(self.base + tuple(path), default)

    def span(self, path: Iterable[Any] = ()) -> Span:
        return self.doc.span(self.base + tuple(path))

    def key_span(self, path: Iterable[Any]) -> Span:
        return self.doc.key_span(self.base + tuple(path))


def read_state_at(whole: Document, base: DocPath, board: Board, monsters: Mapping[str, CatalogMonster], sink: Sink, *,
                  label: str = "the map", defaults: Defaults | None = None,
                  familiars: Mapping[str, Familiar] | None = None) -> Situation | None:
    """`read_state` of the state at `base` in a loaded Document (an activation test holds
    its state inline): diagnostics located in that document."""
    from compiler.catalogs.schema import validate_node
    from compiler.model import activation as act

    if not validate_node(SCHEMA, whole, tuple(base), sink):
        return None
    defaults = defaults or {}
    state = _Reader(_View(whole, base), board, sink, label)
    heroes = state.heroes()
    loose = state.familiars(familiars or {}, heroes)
    mons = state.monsters(monsters)
    open_doors = state.open_doors()
    state.attacked(heroes)
    tokens = state.tokens(defaults.get("tokens", {}))
    places = state.places(defaults.get("places", {}))
    if not state.ok:
        return None
    return act.Situation(board, tuple(heroes), tuple(mons), open_doors,
                         {k: tuple(v) for k, v in tokens.items()}, places,
                         frozenset(state.data.get("attacked", [])), state.data.get("rules", ""), tuple(loose),
                         outdoor=bool(state.data.get("outdoor", False)))


class _Reader:
    """One state read against a board: each part by its own method, every problem a located
    diagnostic that makes `ok` False (the state is then no `Situation`)."""

    def __init__(self, doc: _View, board: Board, sink: Sink, label: str) -> None:
        self.doc, self.board, self.sink, self.label = doc, board, sink, label
        self.data = doc.data
        self.cells = set(board.spaces)
        self.xs = [c[0] for c in board.spaces] or [0]
        self.ys = [c[1] for c in board.spaces] or [0]
        self.ok = True
        self.taken: dict[tuple[int, int], tuple[str, Span]] = {}  # space -> the figure on it, where it is placed
        self.seen_ids: dict[str, object] = {}  # figure id (hero or monster) -> its path

    def place(self, name: str, fp: Iterable[Cell], path: DocPath) -> bool:
        """Put figure `name` on the spaces `fp`: each must be a free square it may stand on."""
        doc, board, sink = self.doc, self.board, self.sink
        xs, ys = self.xs, self.ys
        good = True
        for c in fp:
            if c not in self.cells:
                inside = min(xs) <= c[0] <= max(xs) and min(ys) <= c[1] <= max(ys)
                where = "no square there" if inside else f"the map spans x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}"
                sink.report("A0102", doc.span(path), figure=name, x=c[0], y=c[1], map=self.label, hint=where)
                good = False
            elif board.rule(c).blocks_movement:
                sink.report("A0103", doc.span(path), figure=name, x=c[0], y=c[1], terrain=board.rule(c).id)
                good = False
            elif c in self.taken:
                from compiler.diagnostics import Related

                other, span = self.taken[c]
                sink.report("A0104", doc.span(path), figure=name, other=other, x=c[0], y=c[1],
                            related=(Related(span, f"`{other}` is placed here"),))
                good = False
        if good:
            for c in fp:
                self.taken[c] = (name, doc.span(path))
        self.ok = self.ok and good
        return good

    def conditions(self, path: DocPath) -> frozenset[str]:
        from compiler.model.cards import CONDITION_ALIASES, CONDITIONS

        out: set[str] = set()
        for i, raw in enumerate(self.doc.get(path, []) or []):
            name = CONDITION_ALIASES.get(raw.lower(), raw.lower())
            if name not in CONDITIONS:
                self.sink.report("A0106", self.doc.span(path + (i,)), what="condition", name=raw,
                                 known=", ".join(CONDITIONS), hint=hint(raw, CONDITIONS), fix=did_you_mean(raw, CONDITIONS))
                self.ok = False
            out.add(name)
        return frozenset(out)

    def heroes(self) -> list[Hero]:
        from compiler.model import activation as act
        from compiler.model.cards import HERO_ATTRIBUTES

        doc, sink = self.doc, self.sink
        heroes: list[act.Hero] = []
        for i, h in enumerate(self.data.get("heroes", [])):
            path = ("heroes", i)
            hid = h["id"]
            if hid in self.seen_ids:
                sink.report("A0105", doc.span(path + ("id",)), id=hid)
                self.ok = False
            self.seen_ids[hid] = path
            attrs: dict[str, int] = {}
            for k, v in (h.get("attributes") or {}).items():
                if k not in HERO_ATTRIBUTES:
                    sink.report("A0106", doc.key_span(path + ("attributes", k)), what="hero attribute", name=k,
                                known=", ".join(HERO_ATTRIBUTES), hint=hint(k, HERO_ATTRIBUTES), fix=did_you_mean(k, HERO_ATTRIBUTES))
                    self.ok = False
                    continue
                attrs[k] = int(v)
            at = _cell(doc, path + ("at",))
            self.place(hid, (at,), path + ("at",))
            heroes.append(act.Hero(hid, (at,), attrs, int(h.get("damage", 0)), self.conditions(path + ("conditions",))))
        return heroes

    def monsters(self, catalog: Mapping[str, CatalogMonster]) -> list[Monster]:
        """The monsters, each of a group of the pack's `catalog`, with its act's and rank's stats."""
        from compiler.catalogs.monsters import parse_size
        from compiler.model import activation as act

        doc, sink = self.doc, self.sink
        mons: list[act.Monster] = []
        counters: dict[str, int] = {}
        act_name = self.data.get("act", "act1")
        for i, m in enumerate(self.data.get("monsters", [])):
            path = ("monsters", i)
            group = m["group"]
            cat = catalog.get(group)
            if cat is None:
                sink.report("A0101", doc.span(path + ("group",)), group=group, hint=hint(group, catalog),
                            fix=did_you_mean(group, catalog))
                self.ok = False
                continue
            counters[group] = counters.get(group, 0) + 1
            mid = m.get("id") or f"{group}{counters[group]}"
            if mid in self.seen_ids:
                sink.report("A0105", doc.span(path + ("id",) if "id" in m else path), id=mid)
                self.ok = False
            self.seen_ids[mid] = path
            size = cat.size
            if "size" in m:
                chosen = parse_size(m["size"])
                if chosen is None or chosen not in cat.footprints():
                    shown = " or ".join(f"{w}x{h}" for w, h in cat.footprints())
                    sink.report("A0107", doc.span(path + ("size",)), figure=mid, size=m["size"], group=group, allowed=shown)
                    self.ok = False
                    continue
                size = chosen
            at = _cell(doc, path + ("at",))
            fp = act.norm_cells((at[0] + dx, at[1] + dy) for dx in range(size[0]) for dy in range(size[1]))
            self.place(mid, fp, path + ("at",))
            stats = cat.stats(act_name, m["rank"])
            if stats is None:
                sink.report("A0108", doc.span(path + ("rank",)), group=group, rank=m["rank"], act=act_name)
                self.ok = False
                continue
            mons.append(act.Monster(mid, group, m["rank"], fp, stats.speed, cat.size, cat.attack_type,
                                    tuple(stats.abilities), tuple(stats.surges), self.conditions(path + ("conditions",)),
                                    int(getattr(stats, "health", 0) or 0), int(m.get("damage", 0))))
        return mons

    def familiars(self, catalog: Mapping[str, Familiar], heroes: list[Hero]) -> list[Hero]:
        """The familiars, each of a kind of the pack's familiars `catalog`: one treated as a
        figure (or targeted as a hero) joins `heroes` (a target; blocking only as a figure);
        the others are returned (on the map, minded by no monster). A figure holds its space
        alone; one that is not may share a space but still needs a square it may stand on."""
        from compiler.model import activation as act

        doc, sink = self.doc, self.sink
        loose: list[act.Hero] = []
        counters: dict[str, int] = {}
        for i, f in enumerate(self.data.get("familiars", []) or []):
            path = ("familiars", i)
            kind = f["kind"]
            cat = catalog.get(kind)
            if cat is None:
                known = ", ".join(catalog) or "none: the pack's catalogs hold no familiars"
                sink.report("A0106", doc.span(path + ("kind",)), what="familiar", name=kind, known=known,
                            hint=hint(kind, catalog), fix=did_you_mean(kind, catalog))
                self.ok = False
                continue
            counters[kind] = counters.get(kind, 0) + 1
            fid = f.get("id") or f"{kind}{counters[kind]}"
            if fid in self.seen_ids:
                sink.report("A0105", doc.span(path + ("id",) if "id" in f else path), id=fid)
                self.ok = False
            self.seen_ids[fid] = path
            at = _cell(doc, path + ("at",))
            if cat.figure:
                self.place(fid, (at,), path + ("at",))
            else:
                self.stand(fid, at, path + ("at",))
            attrs = {str(k): int(v) for k, v in (f.get("attributes") or {}).items()}
            fig = act.Hero(fid, (at,), attrs, int(f.get("damage", 0)), self.conditions(path + ("conditions",)), kind, cat.figure)
            (heroes if cat.figure or cat.targeted else loose).append(fig)
        return loose

    def stand(self, name: str, at: Cell, path: DocPath) -> None:
        """A figure that shares spaces: only a square of the map that does not block movement."""
        if at not in self.cells or self.board.rule(at).blocks_movement:
            taken, self.taken = self.taken, {}
            self.place(name, (at,), path)  # the same located A0102 / A0103
            self.taken = taken

    def open_doors(self) -> frozenset[str] | None:
        """The doors the state opens (None: as at the start of the map), each a door of the map."""
        if "open_doors" not in self.data:
            return None
        door_ids = {d.id for d in self.board.doors}
        for i, d in enumerate(self.data["open_doors"]):
            if d not in door_ids:
                self.sink.report("A0109", self.doc.span(("open_doors", i)), door=d, map=self.label,
                                 have=", ".join(sorted(door_ids)) or "none")
                self.ok = False
        return frozenset(self.data["open_doors"])

    def attacked(self, heroes: list[Hero]) -> None:
        """The heroes already attacked must be heroes of the state."""
        hero_ids = {h.id for h in heroes}
        for i, a in enumerate(self.data.get("attacked", [])):
            if a not in hero_ids:
                self.sink.report("A0110", self.doc.span(("attacked", i)), id=a, hint=hint(a, hero_ids),
                                 fix=did_you_mean(a, hero_ids))
                self.ok = False

    def tokens(self, default: dict[str, list[Cell]]) -> dict[str, list[Cell]]:
        """kind_token -> spaces: the state's tokens, else the map's (`default`)."""
        if "tokens" not in self.data:
            return dict(default)
        tokens: dict[str, list[Cell]] = {}
        for i, t in enumerate(self.data["tokens"]):
            at = _cell(self.doc, ("tokens", i, "at"))
            if at not in self.cells:
                self.sink.report("A0102", self.doc.span(("tokens", i, "at")), figure=f"{t['kind']} token", x=at[0], y=at[1],
                                 map=self.label, hint="no square there")
                self.ok = False
            tokens.setdefault(f"{t['kind']}_token", []).append(at)
        return tokens

    def places(self, default: dict[str, tuple[Cell, ...]]) -> dict[str, tuple[Cell, ...]]:
        """exit / entrance -> spaces: the state's, else the map's (`default`), each kind on its own."""
        places = dict(default)
        for kind in ("exit", "entrance"):
            if kind in self.data:
                pts: list[Cell] = []
                for i in range(len(self.data[kind])):
                    at = _cell(self.doc, (kind, i))
                    if at not in self.cells:
                        self.sink.report("A0102", self.doc.span((kind, i)), figure=kind, x=at[0], y=at[1], map=self.label,
                                         hint="no square there")
                        self.ok = False
                    pts.append(at)
                places[kind] = tuple(pts)
        return places


def encounter_defaults(model: Model, quest: str, number: int | None) -> Defaults:
    """Tokens, exit and entrance of the chosen map, for a state file that does not give them."""
    from compiler.geometry.lattice import cell_edges

    out: Defaults = {"tokens": {}, "places": {}}
    enc = None
    if number is None and model.encounters is not None:
        enc = model.encounters.get(quest)
    elif model.quests is not None and quest in model.quests:
        enc = next((e for e in model.quests[quest].encounters if e.number == number), None)
    if enc is not None:
        spaces = enc.map.board.spaces
        for t in enc.tokens:
            if t.when == "setup" and t.kind in ("search", "unique_search", "objective"):
                kind = "objective_token" if t.kind == "objective" else "search_token"
                out["tokens"].setdefault(kind, []).append(spaces[t.space])
    links = (model.encounter_links or {}).get(quest) if number is None else None
    if links is not None:
        for kind in ("entrance", "exit"):
            port = getattr(links, kind)
            if port is None:
                continue
            try:
                pt = links.by_name(port.tile)
            except StopIteration:
                continue
            edges = pt.opening_edges(port.opening)
            out["places"][kind] = tuple(c for c in pt.cells if set(cell_edges(c)) & set(edges))
    return out


def pack_familiars(model: Model) -> dict[str, Familiar]:
    """The familiars of the pack's catalogs (its core pack's), for placing them in a state."""
    from compiler.catalogs.familiars import read_familiars

    return read_familiars(model.catalogs.get("familiars") or {})


def cooperative(model: Model) -> bool:
    """Whether the pack plays a cooperative adventure: the default reading of the movement words is then `coop`."""
    return bool(model.adventures)

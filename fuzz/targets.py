"""What is fuzzed: one class per kind of input, with its seeds, how an input is made from
them, and how it is run in-process and judged.

Every target writes its input's files into the worker's workspace (a private copy of the
corpus), runs, and puts the files back. Most inputs run the cheap way ("fast": the
library function that reads the file, then every diagnostic rendered); a few run the
whole way ("full": the command line in-process, the bundle, the images), so the whole
pipeline is covered while 100,000 inputs still fit in well under an hour on two cores.

| target | seeds | fast | full |
|---|---|---|---|
| quest | every `.quest` of d2e-quests, natures-ire and the fuzzhelp seed packs | `compile_paths` of its pack | + `outputs_of` (bundle validated; images in a third of them) |
| catalog | the catalogs test_pipeline_fuzz mutates | `compile_paths` of a pack using it | + `outputs_of` |
| state | the `questc activate` cases' state files (YAML, or as JSON) | `questc activate … --state FILE` | same, human output |
| atest | `.activation-test` files | `questc test PACK` | same |
| po | tests/data/translated-pack's `.po` files (and the T01xx cases') | `compile_paths` of the pack | `questc check` / `build --no-images` |
| csv | translation spreadsheets (`strings extract`, the T040x cases) | `questc strings import PACK FILE.csv` | same |
| config | `questc.toml` / `pyproject.toml` | `questc check --config FILE` | found upward from the folder, `fmt --check` |
| tmj | Tiled maps `export tiled` wrote of three quests | `questc_tiled.read.import_tiled` (the pack compiled once) | `questc --plugin tiled import tiled FILE` |
| ini | the Valkyrie quests of tests/data/valkyrie (the two published ones and our own hand-made idioms: title screen, shared end, tolerances, door pair, transition, linked quests, alternative layouts, campaign names across a package, a no-map quest's buttons, shared activations, quota dialogs, a store-style quest of two encounters with `vartests`, a two-quest campaign, a store-style quest of a title screen with a rules screen, a three-button token, a puzzle and locked doors, a quest in three languages, arithmetic on variables with monster lists and MPlaces), folders or `.valkyrie` packages (whose entries are mutated too) | `questc_valkyrie.run.import_quest` | `check_quest` (compiled), or `questc --plugin valkyrie check` |
"""

from __future__ import annotations

import abc
import functools
import io
import json
import re
import shutil
import sys
import traceback
import warnings
import zipfile
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from fuzz import mutate as mu
from fuzz.harness import (OK, REPO, Input, Outcome, check_items, exception_signature, internal, judge_cli, put_back,
                          render_all, restore, run_cli, snapshot, write_files)

TESTS = REPO / "tests"


def fuzzhelp():
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    import fuzzhelp as fh

    return fh


# ---------------------------------------------------------------- the corpus
QUEST_PACKS = ("d2e-quests", "natures-ire", "seed-map", "seed-coop", "seed-cat")
CATALOG_FILES = (  # (pack holding the file, file, pack compiled): as tests/test_pipeline_fuzz.py
    ("d2e-base", "tiles.yaml", "seed-map"),
    ("d2e-base", "tiles.yaml", "d2e-quests"),
    ("d2e-base", "monsters.yaml", "seed-map"),
    ("core-2e", "dice.yaml", "d2e-quests"),
    ("core-2e", "terrain.yaml", "seed-map"),
    ("core-1e", "terrain.yaml", "seed-cat"),
    ("terrinoth-1e", "world.yaml", "terrinoth-1e"),
    ("seed-cat", "cat.yaml", "seed-cat"),
    ("seed-coop", "villain.yaml", "seed-coop"),
)
TILED_MAPS = (("d2e-quests", "first_blood", None), ("d2e-quests", "a_fat_goblin", 1), ("natures-ire", "beyond_the_fringes", None))
VALKYRIE = ("01_FirstBlood", "02_AFatGoblin")
# our own hand-made Valkyrie quests, one idiom each (tests/data/valkyrie, docs/valkyrie.md): small, so a
# mutation of a title screen, a shared end or a UI element is a large part of the quest
OWN_VALKYRIE = ("title_screen", "shared_end", "tolerances", "door_pair", "transition", "linked_quests", "alt_layouts",
                "campaign_names", "hub_buttons", "activation_names", "quota", "items", "drowned_mill", "ashen_road",
                "silent_chapel", "three_tongues", "tally_house", "flooded_quarry", "sunken_abbey", "old_keep",
                "crossroads_inn", "lone_tower")
CONFIG_EXAMPLE = """\
pack-path = ["vendor/packs"]
output = "build"
strict = false
format = "human"
ignore = ["Y0206"]
error = ["Y0302"]

[per-file-ignores]
"content/old-pack/**" = ["Y0206"]
[per-file-errors]
"**/*.quest" = ["Q0105"]
[per-pack-ignores]
seed-cat = ["I0005"]
[per-pack-errors]
seed-cat = ["Y0206"]

[images]
enabled = true

[fmt]
exclude = ["content/imported"]
"""


class Corpus:
    """The seeds, in a folder the supervisor makes once and every worker copies."""

    def __init__(self, root: Path) -> None:
        self.root = root
        index = json.loads((root / "index.json").read_text(encoding="utf-8"))
        self.pool: list[str] = index["pool"]
        self._bytes: dict[str, bytes] = {}
        self._trees: dict[bytes, str] = {}

    def tree(self, data: bytes):
        """A fresh copy of a seed's tree (JSON or YAML), read once."""
        if data not in self._trees:
            if len(self._trees) > 100:
                return mu.load_tree(data)
            self._trees[data] = json.dumps(mu.load_tree(data))
        return json.loads(self._trees[data])

    def data(self, rel: str) -> bytes:
        if rel not in self._bytes:
            self._bytes[rel] = (self.root / rel).read_bytes()
        return self._bytes[rel]

    def files(self, folder: str, suffixes: tuple[str, ...]) -> list[str]:
        base = self.root / folder
        if not base.is_dir():
            return []
        return sorted(p.relative_to(self.root).as_posix() for p in base.rglob("*") if p.is_file() and p.suffix in suffixes)

    @staticmethod
    def build(root: Path) -> "Corpus":
        """Copies of the shipped packs, the fuzzhelp seeds, the test cases the targets
        start from, and maps exported to Tiled (with the command line, once)."""
        fh = fuzzhelp()
        if root.exists():
            shutil.rmtree(root)
        packs = root / "packs"
        fh.make_workspace(packs)
        shutil.copytree(TESTS / "data" / "translated-pack", packs / "translated-pack")
        cases = TESTS / "cases"
        for case in sorted((cases / "activation").iterdir()):
            if (case / "state.yaml").is_file() and (case / "args").is_file():
                shutil.copytree(case, root / "activation" / case.name, ignore=shutil.ignore_patterns("expected.*"))
            elif (case / "args").read_text(encoding="utf-8").startswith("test"):
                shutil.copytree(case, root / "atest" / case.name, ignore=shutil.ignore_patterns("expected.*"))
        for case in sorted((cases / "translations").glob("T040*")):
            shutil.copytree(case, root / "csv" / case.name, ignore=shutil.ignore_patterns("expected.*"))
        for po in sorted((cases / "translations").glob("T01*/pack/translations/*.po")):
            target = root / "po-seeds" / f"{po.parts[-4]}.po"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(po, target)
        config = root / "config"
        config.mkdir(parents=True)
        for toml in sorted((cases / "config").glob("*/questc.toml")):
            shutil.copy(toml, config / f"{toml.parent.name}.toml")
        (config / "example.toml").write_text(CONFIG_EXAMPLE, encoding="utf-8")
        (config / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.questc]\n' + CONFIG_EXAMPLE.split("\n[")[0] + "\n", encoding="utf-8")
        for name in VALKYRIE + OWN_VALKYRIE:
            shutil.copytree(TESTS / "data" / "valkyrie" / name, root / "valkyrie" / name)
        crash = root / "crash"
        # made with the command line: a seed it cannot make is left out, said once (the run goes on)
        r = run_cli(["strings", "extract", packs / "translated-pack", "-o", root / "csv" / "translated.csv"], crash)
        if r.code != 0:
            print(f"fuzz: corpus: `strings extract` failed, its spreadsheet is left out:\n{r.err[-2000:]}", file=sys.stderr)
        for pack, quest, number in TILED_MAPS:
            argv = ["--plugin", "tiled", "export", "tiled", packs / pack, "--quest", quest, "-o", root / "tiled", "--isolated"]
            r = run_cli(argv + (["--encounter", number] if number else []), crash)
            if r.code != 0:
                print(f"fuzz: corpus: the Tiled export of {quest} failed, its map is left out:\n{r.err[-2000:]}", file=sys.stderr)
        shutil.rmtree(crash, ignore_errors=True)
        (root / "index.json").write_text(json.dumps({"pool": fh.identifier_pool(packs)}) + "\n", encoding="utf-8")
        return Corpus(root)


# ---------------------------------------------------------------- the worker's side
class Ctx:
    """A worker's workspace (its copy of the corpus) and what it keeps between inputs."""

    def __init__(self, ws: Path, corpus: Corpus, crash_dir: Path) -> None:
        self.ws, self.corpus, self.crash_dir = ws, corpus, crash_dir
        self.cache: dict = {}

    def plugins(self, *names: str) -> None:
        """Enable exactly these first-party plugins (the command line resets them on each call)."""
        from compiler.diagnostics import Sink, Span
        from compiler.plugins import loader

        if loader.enabled_names() != names:
            sink = Sink()
            if not loader.enable([(n, Span("<fuzz>")) for n in names], sink):
                raise RuntimeError(f"cannot enable plugins {names}: {[str(d) for d in sink.items]}")


def _mutations(ch: mu.Chooser, data: bytes, structural, others: list[bytes], p_struct: float = 0.6) -> bytes:
    """Structural mutations (when the seed reads), byte-level ones, or both."""
    how = ch.weighted((("struct", p_struct), ("bytes", (1 - p_struct) * 0.7), ("both", (1 - p_struct) * 0.3)))
    if how in ("struct", "both"):
        try:
            data = structural(data)
        except Exception as exc:  # noqa: BLE001 - a seed the structural mutation cannot read (a CSV field too long…): bytes only
            ch.note(f"structural mutation gave up: {type(exc).__name__}")
    if how in ("bytes", "both"):
        for _ in range(ch.int(1, 3)):
            data = mu.mutate_bytes(data, ch, others)
    return data


class Target(abc.ABC):
    """One kind of input: how to make one from the corpus and how to run it."""

    name = ""
    weight = 1.0

    def available(self, corpus: Corpus) -> bool:
        """False when the corpus could not be given its seeds (said when it was made)."""
        return True

    @abc.abstractmethod
    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        """A new input, its choices drawn from `ch`."""

    def run(self, ctx: Ctx, inp: Input) -> Outcome:
        saved = write_files(ctx.ws, inp.files)
        try:
            return self.execute(ctx, inp)
        finally:
            restore(saved)

    @abc.abstractmethod
    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        """Run `inp`, its files written into the workspace, and judge what came out."""


FORMATS = (("human",), ("human", "json", "sarif", "github"))  # rendered in fast and in full runs


def _exception(exc: BaseException, what: str) -> Outcome:
    return internal(f"{what}\n{''.join(traceback.format_exception(exc))}", exception_signature(exc))


def compile_judged(ctx: Ctx, pack_dir: Path, mode: str, *, options: dict | None = None) -> Outcome:
    """compile_paths of one pack as `questc check` does (+ `outputs_of` in full modes),
    every diagnostic checked and rendered."""
    from compiler.emit.build import outputs_of
    from compiler.options import Options
    from compiler.pipeline import compile_paths
    import compiler.passes.chain as chain

    opts = Options(pack_path=(str(ctx.ws / "packs"),), images=(mode == "images"), **(options or {}))
    orders = 200 if mode != "fast" else 8  # the fast runs deal 8 orders per exploration deck, as the test suite does
    try:
        with mock.patch.object(chain, "analyse", functools.partial(chain.analyse, orders=orders)):
            result = compile_paths([str(pack_dir)], opts)
            if mode != "fast" and result.sink.errors == 0:
                for model in result.models:
                    files = outputs_of(model, result.sink)
                    if files is None:
                        bad = check_items(result.sink.items)
                        return bad or internal("outputs_of gave no files with no I0002", "outputs_of None")
    except Exception as exc:  # noqa: BLE001 - the finding
        return _exception(exc, f"compile {pack_dir.name} ({mode})")
    return check_items(result.sink.items) or render_all(result.sink, FORMATS[mode != "fast"]) or OK


# ---------------------------------------------------------------- .quest
class QuestTarget(Target):
    name, weight = "quest", 24

    def seeds(self, corpus: Corpus) -> list[str]:
        return [f for pack in QUEST_PACKS for f in corpus.files(f"packs/{pack}", (".quest",))]

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        fh = fuzzhelp()
        seeds = self.seeds(corpus)
        rel = ch.pick(seeds)
        pool = corpus.pool

        def structural(data: bytes) -> bytes:
            text = data.decode("utf-8")
            if ch.chance(0.3):
                lines = text.split("\n")
                for _ in range(ch.int(1, 3)):
                    lines.insert(ch.int(0, len(lines)), fh.fill(ch.draw(_sampled(fh.TEMPLATES)), ch.draw, pool))
                ch.note("inserted statements")
                return "\n".join(lines).encode()
            for _ in range(ch.int(1, 4)):
                text = fh.mutate_quest(text, ch.draw, pool)
            ch.note("mutate_quest")
            return text.encode("utf-8", "surrogatepass")

        data = _mutations(ch, corpus.data(rel), structural, [corpus.data(s) for s in seeds[:8]])
        mode = ch.weighted((("fast", 96.5), ("full", 3), ("images", 0.5)))  # images cost about a second each
        return Input(self.name, rel, {rel: data}, mode, {"pack": rel.split("/")[1]})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        return compile_judged(ctx, ctx.ws / "packs" / inp.params["pack"], inp.mode)


def _sampled(seq):
    from hypothesis import strategies as st

    return st.sampled_from(seq)


# ---------------------------------------------------------------- catalogs (YAML)
class CatalogTarget(Target):
    name, weight = "catalog", 14

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        fh = fuzzhelp()
        holder, fname, compiled = ch.pick(CATALOG_FILES)
        rel = f"packs/{holder}/{fname}"

        def structural(data: bytes) -> bytes:
            doc = corpus.tree(data)
            for _ in range(ch.int(1, 3)):
                if ch.chance(0.6):
                    doc = fh.mutate_data(doc, ch.draw, corpus.pool)
                else:
                    doc = mu.mutate_tree(doc, ch, corpus.pool)
            if ch.chance(0.75):
                ch.note("written as JSON")
                return fh.dump_data(doc).encode("utf-8", "surrogatepass") if ch.chance(0.5) else mu.dump_json(doc, ch)
            ch.note("written as YAML")
            return mu.dump_yaml(doc, ch)

        others = [corpus.data(f"packs/{h}/{f}") for h, f, _ in CATALOG_FILES[:4]]
        data = _mutations(ch, corpus.data(rel), structural, others)
        mode = ch.weighted((("fast", 97), ("full", 2.5), ("images", 0.5)))
        return Input(self.name, rel, {rel: data}, mode, {"pack": compiled})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        return compile_judged(ctx, ctx.ws / "packs" / inp.params["pack"], inp.mode)


# ---------------------------------------------------------------- questc activate --state
STATE_KEYS = ("at", "id", "group", "rank", "heroes", "monsters", "size", "conditions", "attributes", "open_doors",
              "attacked", "tokens", "exit", "entrance", "act", "rules", "damage", "kind")


class StateTarget(Target):
    name, weight = "state", 12

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        cases = sorted(p.name for p in (corpus.root / "activation").iterdir())
        case = ch.pick(cases)
        seed = corpus.data(f"activation/{case}/state.yaml")
        as_json = ch.chance(0.5)

        def structural(_: bytes) -> bytes:
            doc = corpus.tree(seed)
            for _ in range(ch.int(1, 3)):
                doc = mu.mutate_tree(doc, ch, ["tomble", "zombie", "ettin", "minion", "master", "act1", "act2", "coop", "app",
                                                "door1", "search", "objective", "leoric", "cave_spider"], STATE_KEYS)
            data = mu.dump_json(doc, ch) if as_json else mu.dump_yaml(doc, ch)
            return mu.json_text_ops(data, ch) if as_json and ch.chance(0.2) else data

        base = mu.dump_json(corpus.tree(seed), ch) if as_json else seed
        data = _mutations(ch, base, structural, [corpus.data(f"activation/{c}/state.yaml") for c in cases[:6]])
        rel = f"activation/{case}/" + ("state.json" if as_json else "state.yaml")
        mode = ch.weighted((("fast", 90), ("full", 10)))
        return Input(self.name, f"activation/{case}/state.yaml", {rel: data}, mode, {"case": case, "file": rel})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        case = ctx.ws / "activation" / inp.params["case"]
        argv = (case / "args").read_text(encoding="utf-8").split()
        argv = [str(case / "pack") if a == "pack" else a for a in argv]
        argv[argv.index("--state") + 1] = str(ctx.ws / inp.params["file"])
        fmt = "json" if inp.mode == "fast" else "human"
        argv += ["--format", fmt]
        return judge_cli(run_cli(argv, ctx.crash_dir, cwd=case), argv, json_out=fmt == "json")


# ---------------------------------------------------------------- questc test (.activation-test)
class ActivationTestTarget(Target):
    name, weight = "atest", 6

    def seeds(self, corpus: Corpus) -> list[tuple[str, str]]:
        out = [(f, "packs/natures-ire") for f in corpus.files("packs/natures-ire", (".activation-test",))]
        for f in corpus.files("atest", (".activation-test",)):
            out.append((f, "/".join(f.split("/")[:3])))
        return out

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        seeds = self.seeds(corpus)
        rel, pack = ch.pick(seeds)
        as_json = ch.chance(0.5)

        def structural(data: bytes) -> bytes:
            doc = corpus.tree(data)
            for _ in range(ch.int(1, 3)):
                doc = mu.mutate_tree(doc, ch, ["leoric", "cave_spider", "cave_spider1", "ac_rampage", "nobody", "beyond_the_fringes",
                                                "minion", "master"], STATE_KEYS + ("tests", "expect", "every", "some", "none",
                                                                                 "ends_on", "attacks", "moves", "outcomes", "quest",
                                                                                 "card", "groups", "open", "encounter", "name"))
            return mu.dump_json(doc, ch) if as_json else mu.dump_yaml(doc, ch)

        data = _mutations(ch, corpus.data(rel), structural, [corpus.data(s) for s, _ in seeds])
        return Input(self.name, rel, {rel: data}, "fast", {"pack": pack})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        fmt = "json" if len(inp.seed) % 2 else "human"
        argv = ["test", ctx.ws / inp.params["pack"], "--format", fmt, "--isolated"]
        return judge_cli(run_cli(argv, ctx.crash_dir), argv, json_out=fmt == "json")


# ---------------------------------------------------------------- translations/*.po
class PoTarget(Target):
    name, weight = "po", 9
    PACK = "packs/translated-pack"

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        seeds = corpus.files(f"{self.PACK}/translations", (".po",)) + corpus.files("po-seeds", (".po",))
        src = ch.pick(seeds)
        lang = "fr" if "po-seeds" in src else Path(src).stem
        if ch.chance(0.05):
            lang = ch.pick(("xx", "fr_FR", "sr-Latn", "FR", "a" * 200, "fr.po", "-", "é", "fr fr"))
            ch.note(f"language {lang}")
        rel = f"{self.PACK}/translations/{lang}.po"

        def structural(data: bytes) -> bytes:
            text = data.decode("utf-8")
            for _ in range(ch.int(1, 3)):
                text = mu.mutate_po(text, ch, corpus.pool)
            return text.encode("utf-8", "surrogatepass")

        data = _mutations(ch, corpus.data(src), structural, [corpus.data(s) for s in seeds[:6]])
        mode = ch.weighted((("fast", 92), ("full", 5), ("cli", 3)))
        return Input(self.name, src, {rel: data}, mode, {})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        pack = ctx.ws / self.PACK
        if inp.mode == "cli":
            argv = ["check", pack, "--pack-path", ctx.ws / "packs", "--format", "sarif", "--isolated"]
            return judge_cli(run_cli(argv, ctx.crash_dir), argv)
        return compile_judged(ctx, pack, inp.mode)


# ---------------------------------------------------------------- questc strings import (CSV)
class CsvTarget(Target):
    name, weight = "csv", 5

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        seeds = corpus.files("csv", (".csv",))
        src = ch.pick(seeds)
        pack = "packs/translated-pack" if src == "csv/translated.csv" else f"{src.rsplit('/', 1)[0]}/pack"

        def structural(data: bytes) -> bytes:
            text = data.decode("utf-8")
            for _ in range(ch.int(1, 3)):
                text = mu.mutate_csv(text, ch, corpus.pool)
            return text.encode("utf-8", "surrogatepass")

        data = _mutations(ch, corpus.data(src), structural, [corpus.data(s) for s in seeds])
        lang = "fr" if ch.chance(0.9) else ch.pick(("pl", "de", "xx", "fr_FR", "../fr", "fr/x", "", "a" * 300))
        return Input(self.name, src, {src: data}, "fast", {"pack": pack, "lang": lang, "file": src})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        pack = ctx.ws / inp.params["pack"]
        before = snapshot(pack.parent if inp.params["pack"].startswith("csv/") else pack)
        argv = ["strings", "import", pack, ctx.ws / inp.params["file"], "--lang", inp.params["lang"], "--format", "json"]
        try:
            return judge_cli(run_cli(argv, ctx.crash_dir), argv, json_out=True)
        finally:
            put_back(pack.parent if inp.params["pack"].startswith("csv/") else pack, before)


# ---------------------------------------------------------------- questc.toml
class ConfigTarget(Target):
    name, weight = "config", 5

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        seeds = corpus.files("config", (".toml",))
        src = ch.pick(seeds)
        name = "pyproject.toml" if src.endswith("pyproject.toml") else "questc.toml"

        def structural(data: bytes) -> bytes:
            import tomllib

            doc = tomllib.loads(data.decode("utf-8"))
            for _ in range(ch.int(1, 3)):
                doc = mu.mutate_tree(doc, ch, ["Y0206", "Q0105", "I0005", "seed-cat", "tiled", "valkyrie", "tag", "nope", "human", "json",
                                                "**", "*.quest", "vendor/packs", ".", ".."], ("pack-path", "output", "strict", "format",
                                                                                             "ignore", "error", "plugins", "enabled", "exclude"))
            if not isinstance(doc, dict):
                doc = {"x": doc}
            if name == "pyproject.toml":
                doc = {"tool": {"questc": doc}} if ch.chance(0.8) else doc
            return mu.dump_toml(doc).encode("utf-8", "surrogatepass")

        data = _mutations(ch, corpus.data(src), structural, [corpus.data(s) for s in seeds], p_struct=0.5)
        command = ch.weighted((("check", 8), ("fmt", 2)))
        found = ch.chance(0.3)
        return Input(self.name, src, {f"config/run/{name}": data}, "fast", {"name": name, "command": command, "found": found})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        folder = ctx.ws / "config" / "run"
        pack = ctx.ws / "packs" / "seed-cat"
        argv = ["check", pack, "--format", "json"] if inp.params["command"] == "check" else ["fmt", "--check", pack]
        if not inp.params["found"]:
            argv += ["--config", folder / inp.params["name"]]
        return judge_cli(run_cli(argv, ctx.crash_dir, cwd=folder), argv, json_out=argv[-1] == "json")


# ---------------------------------------------------------------- Tiled .tmj
TMJ_KEYS = ("x", "y", "width", "height", "rotation", "gid", "id", "name", "type", "properties", "value", "objects", "layers",
            "firstgid", "tilesets", "source", "tilewidth", "tileheight", "orientation", "infinite", "visible", "nextobjectid")


class TiledTarget(Target):
    name, weight = "tmj", 12

    def available(self, corpus: Corpus) -> bool:
        return bool(corpus.files("tiled", (".tmj",)))

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        seeds = corpus.files("tiled", (".tmj",))
        src = ch.pick(seeds)

        def structural(data: bytes) -> bytes:
            doc = corpus.tree(data)
            for _ in range(ch.int(1, 3)):
                doc = mu.mutate_tree(doc, ch, ["questc.pack", "questc.quest", "questc.encounter", "questc.origin_x", "questc.square",
                                                "tiles", "doors", "starts", "tokens", "spawns", "objectgroup", "search", "zombie",
                                                "16A", "code", "hidden"], TMJ_KEYS)
            out = mu.dump_json(doc, ch)
            return mu.json_text_ops(out, ch) if ch.chance(0.2) else out

        data = _mutations(ch, corpus.data(src), structural, [corpus.data(s) for s in seeds], p_struct=0.7)
        mode = ch.weighted((("fast", 92), ("full", 8)))
        return Input(self.name, src, {src: data}, mode, {"file": src})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        path = ctx.ws / inp.params["file"]
        if inp.mode == "full":
            argv = ["--plugin", "tiled", "import", "tiled", path]
            return judge_cli(run_cli(argv, ctx.crash_dir), argv)
        from compiler.diagnostics import Sink
        import compiler.pipeline as pipeline
        from questc_tiled.read import import_tiled

        ctx.plugins("tiled")
        real = ctx.cache.setdefault("compile_paths", pipeline.compile_paths)

        def compiled(paths, options, sink=None, **kw):  # the map's pack is not changed by this target: compile it once
            key = (tuple(paths), options)
            if sink is None and not kw and key in ctx.cache:
                return ctx.cache[key]
            result = real(paths, options, sink, **kw)
            if sink is None and not kw:
                ctx.cache[key] = result
            return result

        sink = Sink()
        try:
            with mock.patch.object(pipeline, "compile_paths", compiled):
                import_tiled(SimpleNamespace(file=str(path), pack=None, in_place=False, output=None), sink)
        except Exception as exc:  # noqa: BLE001 - the finding
            return _exception(exc, f"import_tiled {inp.seed}")
        return check_items(sink.items) or render_all(sink, FORMATS[inp.mode != "fast"]) or OK


# ---------------------------------------------------------------- Valkyrie .ini
class ValkyrieTarget(Target):
    name, weight = "ini", 10

    def make(self, corpus: Corpus, ch: mu.Chooser) -> Input:
        quest = ch.pick(VALKYRIE if ch.chance(0.5) else OWN_VALKYRIE)
        files = corpus.files(f"valkyrie/{quest}", (".ini", ".txt"))
        # the quest's section names, across its files: a mutation may name any of them anywhere
        # (`add=UIBegin` in another event, `event1=` a token's section…)
        names = sorted({m.decode() for f in files if f.endswith(".ini") for m in re.findall(rb"(?m)^\[(\w+)\]", corpus.data(f))})
        names += ["mine/quest.ini", "part2/quest.ini", "../quest.ini", "quest.ini"]  # quests of a package (a link, or none)
        out: dict[str, bytes] = {}
        for _ in range(1 if ch.chance(0.8) else 2):
            rel = ch.pick(files)

            def structural(data: bytes) -> bytes:
                text = data.decode("utf-8")
                for _ in range(ch.int(1, 3)):
                    if rel.endswith(".ini") and names and ch.chance(0.2):
                        text = _cross_reference(text, ch, names)
                    else:
                        text = mu.mutate_ini(text, ch, corpus.pool) if rel.endswith(".ini") else _mutate_localization(text, ch)
                return text.encode("utf-8", "surrogatepass")

            out[rel] = _mutations(ch, out.get(rel, corpus.data(rel)), structural, [corpus.data(f) for f in files], p_struct=0.65)
        mode = ch.weighted((("fast", 90), ("full", 3), ("cli", 1), ("zip", 6)))
        if mode == "zip":  # the same quest as a .valkyrie package, its entries mutated too
            entries = _package_entries(quest, {f: out.get(f, corpus.data(f)) for f in files}, ch)
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as z, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an entry given twice is meant ("Duplicate name")
                for name, body in entries:
                    z.writestr(name, body)
            data = buf.getvalue()
            if ch.chance(0.3):
                data = mu.mutate_bytes(data, ch)
            out = {f"valkyrie/{quest}.valkyrie": data}
        return Input(self.name, quest, out, mode, {"quest": quest})

    def execute(self, ctx: Ctx, inp: Input) -> Outcome:
        from compiler.diagnostics import Sink

        path = ctx.ws / "valkyrie" / (inp.params["quest"] + (".valkyrie" if inp.mode == "zip" else ""))
        if inp.mode == "cli":
            argv = ["--plugin", "valkyrie", "check", path, "--format", "json", "--isolated"]
            return judge_cli(run_cli(argv, ctx.crash_dir), argv, json_out=True)
        ctx.plugins("valkyrie")
        import questc_valkyrie.run as vrun
        from compiler.options import Options

        if "library" not in ctx.cache:  # the d2e-base tiles and monsters: read once
            ctx.cache["library"] = vrun.library(Sink())
        sink = Sink()
        try:
            with mock.patch.object(vrun, "library", lambda s: ctx.cache["library"]):
                if inp.mode == "full":
                    sink.extend(vrun.check_quest(path, Options(images=False, sight=False), sink))
                    done = vrun.import_quest(path, Sink())  # and the other languages as translations/*.po, as the import writes them
                    if done is not None:
                        from questc_valkyrie.translations import translation_files

                        translation_files(done[1], sink)
                else:
                    done = vrun.import_quest(path, sink)
                    if done is not None:  # what the importer wrote must parse (or be reported)
                        from compiler.syntax.parse import parse_module

                        _, gen = done
                        for rel, text in sorted(gen.files.items()):
                            if rel.endswith(".quest"):
                                parse_module(text, rel, Sink())
        except Exception as exc:  # noqa: BLE001 - the finding
            return _exception(exc, f"valkyrie {inp.mode} {inp.params['quest']}")
        return check_items(sink.items) or render_all(sink, FORMATS[inp.mode != "fast"]) or OK


def _cross_reference(text: str, ch: mu.Chooser, names: list[str]) -> str:
    """A key naming sections of the quest's other files: an event adding a UI element or an
    item, a button naming a tile, a shared end reached from one more chain."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if line.strip().startswith("[")]
    if not heads:
        return text
    key = ch.pick(("event1", "event2", "add", "remove", "add", "event1", "buttons", "trigger", "operations", "audio"))
    if key == "buttons":
        value = ch.pick(("0", "2", "3", "64"))
    elif key == "trigger":
        value = ch.pick(("EventStart", "NoMorale", "EndRound", "StartRound", "EndRound2", f"Defeated{ch.pick(names)}"))
    elif key == "operations":
        value = ch.pick(("$end,=,1", "HeroesLost,=,1", "QuestWon,=,1", "$end,=,1 Won,=,1", "#rand3,=,1"))
    elif key == "audio":
        value = ch.pick(("AudioBLVictory", "AudioBLDefeat", "AudioWin", "x.ogg", ""))
    else:
        value = " ".join(ch.pick(names) for _ in range(ch.int(1, 4)))
    ch.note(f"ini cross {key}")
    lines.insert(ch.pick(heads) + 1, f"{key}={value}")
    return "\n".join(lines)


def _package_entries(quest: str, files: dict[str, bytes], ch: mu.Chooser) -> list[tuple[str, bytes]]:
    """The entries of a package of the quest: in a top folder (as the store's) or not, and
    sometimes changed: a file left out, an entry given twice, a Windows path, a folder entry,
    a second quest in a sub-folder (a multi-quest package), an entry outside the folder."""
    top = f"{quest}/" if ch.chance(0.7) else ""
    entries = [(f"{top}{f.split('/', 2)[2]}", body) for f, body in sorted(files.items())]  # `valkyrie/QUEST/…`: sub-folders kept
    op = ch.weighted((("none", 5), ("drop", 1), ("twice", 1), ("backslash", 1), ("folder", 1), ("sub_quest", 2), ("outside", 1)))
    ch.note(f"package {op}")
    if op == "drop" and entries:
        del entries[ch.int(0, len(entries) - 1)]
    elif op == "twice" and entries:
        entries.append(ch.pick(entries))
    elif op == "backslash" and entries:
        i = ch.int(0, len(entries) - 1)
        entries[i] = (entries[i][0].replace("/", "\\"), entries[i][1])
    elif op == "folder":
        entries.append((f"{top}sub/", b""))
    elif op == "sub_quest":
        entries += [(f"{top}part2/{n[len(top):]}", b) for n, b in entries]  # quest.ini among them
    elif op == "outside":
        entries.append(("../escape.ini", b"[EventX]\n"))
    return entries


def _mutate_localization(text: str, ch: mu.Chooser) -> str:
    lines = text.split("\n")
    i = ch.int(0, max(0, len(lines) - 1))
    op = ch.pick(("dup", "drop", "value", "key", "quote", "header"))
    ch.note(f"localization {op}")
    if op == "dup":
        lines.insert(i, lines[i])
    elif op == "drop":
        del lines[i]
    elif op == "value":
        value = ch.pick(("", '"', '"unclosed', "a,b,c", "\\n" * 50, "<b>", "{x}", "x" * 5000))
        lines[i] = lines[i].split(",", 1)[0] + "," + value
    elif op == "key":
        lines[i] = ch.pick(("", ",", ".,", "x", "quest.name", "\ufeff.,English")) + lines[i][lines[i].find(","):]
    elif op == "quote":
        lines[i] = lines[i].replace('"', "", 1)
    else:
        lines[0] = ch.pick((".,English", ".,Polish", "", ",", ".,", "F.,English", "x,English", "English", ".,English,German", '".",English'))
    return "\n".join(lines)


TARGETS: dict[str, Target] = {t.name: t for t in (QuestTarget(), CatalogTarget(), StateTarget(), ActivationTestTarget(), PoTarget(),
                                                  CsvTarget(), ConfigTarget(), TiledTarget(), ValkyrieTarget())}


# ---------------------------------------------------------------- the registry the harness uses
class Registry:
    """What the supervisor and the workers ask of a set of targets (see selftest.py for another)."""

    def __init__(self, corpus_root: Path, names: list[str] | None = None) -> None:
        self.corpus = Corpus(corpus_root)
        self.targets = {n: t for n, t in TARGETS.items() if (not names or n in names) and t.available(self.corpus)}
        self.weights = tuple((n, t.weight) for n, t in self.targets.items())

    def generate(self, seed: str, k: int) -> Input:
        ch = mu.Chooser(f"{seed}/{k}")
        target = self.targets[ch.weighted(self.weights)]
        inp = target.make(self.corpus, ch)
        inp.notes = ch.notes
        return inp

    def directed_names(self) -> list[str]:
        from fuzz.directed import DIRECTED

        return [d.name for d in DIRECTED if d.target in self.targets]

    def directed(self, name: str) -> Input:
        from fuzz.directed import DIRECTED

        d = next(d for d in DIRECTED if d.name == name)
        inp = d.make(self.corpus)
        inp.seed, inp.notes = d.name, [d.about]
        return inp

    def context(self, ws: Path, crash_dir: Path) -> Ctx:
        return Ctx(ws, self.corpus, crash_dir)

    def run(self, ctx: Ctx, inp: Input) -> Outcome:
        return TARGETS[inp.target].run(ctx, inp)

    @staticmethod
    def build(corpus_root: Path) -> None:
        Corpus.build(corpus_root)


def registry(corpus_root: Path, names: list[str] | None = None) -> Registry:
    return Registry(corpus_root, names)


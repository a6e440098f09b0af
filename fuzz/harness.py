"""What every target shares: inputs (files written into a worker's workspace), outcomes,
bounded capture of output, running `compiler.cli.main` in-process, and the judgement of
diagnostics (an internal code, an uncatalogued or unlocated diagnostic is a finding)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import stat
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INTERNAL_CODES = frozenset({"I0001", "I0002", "I0006", "E0103", "E0104", "VK0399"})  # a crash, an invalid bundle, sight disagreeing, a first-party plugin failing, the Valkyrie importer failing
MAX_OUTPUT = 16 * 1024 * 1024  # characters of output (diagnostics, stdout, stderr) any input may produce…
OUTPUT_PER_INPUT_BYTE = 64  # …and this many more per byte of the input: output linear in the input is fine
_limit = [MAX_OUTPUT]


def output_limit() -> int:
    return _limit[0]


def set_input_size(size: int) -> None:
    """The output bound of the input about to run (the worker calls this)."""
    _limit[0] = MAX_OUTPUT + OUTPUT_PER_INPUT_BYTE * size
_INTERNAL_TEXT = re.compile(r"\b(I0001|I0002|I0006|E0103|E0104|VK0399)\b|Traceback \(most recent call last\)")


# ---------------------------------------------------------------- inputs
@dataclass
class Special:
    """A file that is not plain bytes: a named pipe, a link, a folder."""

    kind: str  # "fifo" | "symlink" | "dir"
    target: str = ""  # the link's target

    def to_json(self) -> dict:
        return {"special": self.kind, "target": self.target}


@dataclass
class Input:
    target: str
    seed: str  # the seed it was made from (or the directed case's name)
    files: dict[str, bytes | Special]  # path relative to the worker's workspace -> content
    mode: str = "fast"  # how much of the pipeline runs (each target says what its modes do)
    params: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # the mutations that made it

    def digest(self) -> str:
        h = hashlib.sha256()
        h.update(json.dumps([self.target, self.seed, self.mode, self.params], sort_keys=True, default=str).encode())
        for name in sorted(self.files):
            body = self.files[name]
            h.update(name.encode("utf-8", "surrogateescape") + b"\0")
            h.update(body if isinstance(body, bytes) else json.dumps(body.to_json()).encode())
        return h.hexdigest()[:16]

    def size(self) -> int:
        return sum(len(b) for b in self.files.values() if isinstance(b, bytes))

    def save(self, folder: Path) -> None:
        """The input as files (under `files/`) and `input.json`, as `--replay` reads it."""
        (folder / "files").mkdir(parents=True, exist_ok=True)
        specials = {}
        for name, body in self.files.items():
            if isinstance(body, Special):
                specials[name] = body.to_json()
                continue
            path = folder / "files" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
        meta = {"target": self.target, "seed": self.seed, "mode": self.mode, "params": self.params,
                "files": sorted(self.files), "specials": specials, "notes": self.notes, "digest": self.digest()}
        (folder / "input.json").write_text(json.dumps(meta, indent=1, default=str) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> "Input":
        meta = json.loads((folder / "input.json").read_text(encoding="utf-8"))
        files: dict[str, bytes | Special] = {}
        for name in meta["files"]:
            s = meta["specials"].get(name)
            files[name] = Special(s["special"], s["target"]) if s else (folder / "files" / name).read_bytes()
        return cls(meta["target"], meta["seed"], files, meta["mode"], meta["params"], meta.get("notes", []))


@dataclass
class Outcome:
    status: str = "ok"  # ok | internal | output (the supervisor adds signal and hang)
    detail: str = ""
    signature: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


OK = Outcome()


def internal(detail: str, signature: str) -> Outcome:
    return Outcome("internal", detail, signature)


# ---------------------------------------------------------------- signatures
def _own(filename: str) -> str | None:
    """The path relative to the repository of a file of questc's own code (compiler, plugins)."""
    try:
        rel = Path(filename).resolve().relative_to(REPO)
    except (ValueError, OSError):
        return None
    return rel.as_posix() if rel.parts and rel.parts[0] in ("compiler", "plugins") else None


def where(frames: list[tuple[str, str]], recursion: bool = False, depth: int = 2) -> str:
    """Where a failure happened, for telling findings apart: the `depth` innermost frames of
    questc's own code ("hints.py:_closest < importer.py:missing"); for a RecursionError the
    frame of questc's that recurs, if one does. `frames`: (file, function), outermost first."""
    own = [(rel, func) for rel, func in ((_own(f), n) for f, n in frames) if rel]
    if recursion and own:
        counts: dict[tuple[str, str], int] = {}
        for frame in own:
            counts[frame] = counts.get(frame, 0) + 1
        top = max(counts, key=counts.__getitem__)
        if counts[top] > 2:
            return f"{top[0]}:{top[1]} (recursing)"
    if own:
        return " < ".join(f"{rel}:{func}" for rel, func in reversed(own[-depth:]))
    return f"{Path(frames[-1][0]).name}:{frames[-1][1]}" if frames else "?"


def exception_signature(exc: BaseException) -> str:
    frames = [(f.filename, f.name) for f in traceback.extract_tb(exc.__traceback__)]
    return f"{type(exc).__name__} in {where(frames, isinstance(exc, RecursionError), depth=1)}"  # an exception: where it was raised


_FRAME = re.compile(r'File "([^"]+)", line (\d+),? in (\S+)')


def text_signature(text: str, fallback: str, innermost_first: bool = False) -> str:
    """The signature of a traceback given as text: a crash report (innermost frame last)
    or faulthandler's dump (`innermost_first`)."""
    frames = [(m.group(1), m.group(3)) for m in _FRAME.finditer(text)]
    if innermost_first:
        frames.reverse()
    if not frames:
        return fallback
    crashed = not innermost_first  # a crash report's exception: where it was raised; a stack dump: the loop and its caller
    return f"{fallback} in {where(frames, 'RecursionError' in fallback or 'RecursionError' in text[-300:], depth=1 if crashed else 2)}"


def crash_exception(report: str) -> str:
    """The exception's type from a crash report's traceback."""
    for line in reversed(report.strip().splitlines()):
        m = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration))\b", line)
        if m:
            return m.group(1).rsplit(".", 1)[-1]
    return "crash"


# ---------------------------------------------------------------- bounded output
class _BoundedBytes:
    def __init__(self, owner: "Bounded") -> None:
        self.owner = owner

    def write(self, b) -> int:
        self.owner.count(len(b))
        return len(b)

    def flush(self) -> None:
        pass


class Bounded(io.TextIOBase):
    """A text stream that keeps the first `keep` characters and counts the rest."""

    def __init__(self, keep: int = 1 << 20) -> None:
        super().__init__()
        self.keep = keep
        self.parts: list[str] = []
        self.kept = 0
        self.total = 0
        self.buffer = _BoundedBytes(self)

    def count(self, n: int) -> None:
        self.total += n

    def write(self, s: str) -> int:
        n = len(s)
        self.total += n
        if self.kept < self.keep:
            piece = s[: self.keep - self.kept]
            self.parts.append(piece)
            self.kept += len(piece)
        return n

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def getvalue(self) -> str:
        return "".join(self.parts)

    @property
    def complete(self) -> bool:
        return self.total <= self.kept


# ---------------------------------------------------------------- judging diagnostics
def check_items(items) -> Outcome | None:
    """An internal code, or a diagnostic that is not catalogued or not located."""
    from compiler.diagnostics.catalogue import CATALOGUE

    for d in items:
        if d.code in INTERNAL_CODES:
            return internal(f"{d.code}: {d.message}\n  at {d.span}", f"{d.code} {_message_kind(d.message)}")
        if d.code not in CATALOGUE:
            return internal(f"uncatalogued code {d.code}: {d.message}", f"uncatalogued {d.code}")
        s = d.span
        if not s.file or s.line < 1 or s.column < 1:
            return internal(f"{d.code} without a place: {s!r}: {d.message}", f"unlocated {d.code}")
    return None


def check_dicts(diags: list) -> Outcome | None:
    """`check_items` for diagnostics read back from `--format json`."""
    from compiler.diagnostics.catalogue import CATALOGUE

    for d in diags:
        code = d.get("code", "")
        if code in INTERNAL_CODES:
            return internal(f"{code}: {d.get('message')}", f"{code} {_message_kind(d.get('message', ''))}")
        if code not in CATALOGUE:
            return internal(f"uncatalogued code {code}: {d.get('message')}", f"uncatalogued {code}")
        if not d.get("file") or (d.get("line") or 0) < 1 or (d.get("column") or 0) < 1:
            return internal(f"{code} without a place: {d}", f"unlocated {code}")
    return None


def _message_kind(message: str) -> str:
    """The first words of an internal error's message (its exception type)."""
    m = re.search(r"internal error: (\w+)", message or "")
    return m.group(1) if m else (message or "")[:40]


def render_all(sink, formats=("human", "json")) -> Outcome | None:
    """Render the diagnostics as the command line would: an exception is a finding, and
    so is output beyond `output_limit()` (more than linear in the input)."""
    from compiler.diagnostics.render import render

    for fmt in formats:
        try:
            text = render(sink, fmt)
        except Exception as exc:  # noqa: BLE001 - the finding
            return internal(f"rendering {fmt}:\n{traceback.format_exc()}", exception_signature(exc))
        if len(text) > output_limit():
            return Outcome("output", f"{fmt} rendering of {len(sink.items)} diagnostics is {len(text):,} characters",
                           f"output {fmt}")
    return None


# ---------------------------------------------------------------- the command line in-process
@dataclass
class CliRun:
    code: int
    out: str
    err: str
    total: int  # characters written to stdout and stderr
    complete: bool
    crash: str = ""


def run_cli(argv: list, crash_dir: Path, cwd: Path | None = None) -> CliRun:
    from compiler.cli import main

    out, err = Bounded(), Bounded()
    before = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            code = main([str(a) for a in argv])
    finally:
        os.chdir(before)
    crash = ""
    if crash_dir.is_dir():
        for report in sorted(crash_dir.iterdir()):
            try:
                crash = crash or report.read_text(encoding="utf-8", errors="replace")
                report.unlink()
            except OSError:
                pass
    return CliRun(code, out.getvalue(), err.getvalue(), out.total + err.total, out.complete and err.complete, crash)


def judge_cli(r: CliRun, argv: list, json_out: bool = False) -> Outcome:
    shown = " ".join(map(str, argv))[:400]
    if r.code == 3 or r.crash:
        exc = crash_exception(r.crash) if r.crash else "exit 3"
        return internal(f"questc {shown}\nexit {r.code}\n{r.crash or r.err[-4000:]}", text_signature(r.crash, exc) if r.crash else f"exit 3 {exc}")
    if r.total > output_limit():
        return Outcome("output", f"questc {shown}\nwrote {r.total:,} characters", "output cli")
    m = _INTERNAL_TEXT.search(r.out) or _INTERNAL_TEXT.search(r.err)
    if m:
        return internal(f"questc {shown}\nexit {r.code}\n{(r.out + r.err)[-4000:]}", f"{m.group(0)} in output")
    if r.code not in (0, 1, 2):
        return internal(f"questc {shown}\nexit {r.code}\n{r.err[-4000:]}", f"exit {r.code}")
    if json_out and r.complete and r.out.strip().startswith("{"):
        try:
            doc = json.loads(r.out)
        except ValueError as exc:
            return internal(f"questc {shown}\n--format json printed no JSON ({exc})\n{r.out[:2000]}", "json output unreadable")
        bad = check_dicts(doc.get("diagnostics", []) if isinstance(doc, dict) else [])
        if bad is not None:
            bad.detail = f"questc {shown}\n{bad.detail}"
            return bad
    return OK


# ---------------------------------------------------------------- the workspace
def write_files(root: Path, files: dict[str, bytes | Special]) -> dict[Path, bytes | None]:
    """Write an input's files under `root`; returns what to put back (None: remove)."""
    saved: dict[Path, bytes | None] = {}
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path not in saved:
            try:
                saved[path] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
            except OSError:
                saved[path] = None
        remove(path)
        if isinstance(body, bytes):
            path.write_bytes(body)
        elif body.kind == "fifo":
            os.mkfifo(path)
        elif body.kind == "symlink":
            os.symlink(body.target, path)
        elif body.kind == "dir":
            path.mkdir()
    return saved


def remove(path: Path) -> None:
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path, ignore_errors=True)
    else:
        os.unlink(path)


def restore(saved: dict[Path, bytes | None]) -> None:
    for path, body in saved.items():
        remove(path)
        if body is not None:
            path.write_bytes(body)


def snapshot(folder: Path) -> dict[Path, bytes]:
    """Every regular file under `folder` (a pack a command may write into)."""
    out = {}
    for here, _, names in os.walk(folder):
        for n in names:
            p = Path(here) / n
            if p.is_file() and not p.is_symlink():
                out[p] = p.read_bytes()
    return out


def put_back(folder: Path, before: dict[Path, bytes]) -> None:
    for here, dirs, names in os.walk(folder, topdown=False):
        for n in names:
            p = Path(here) / n
            if p not in before:
                remove(p)
        for d in dirs:
            p = Path(here) / d
            if p.is_symlink() or (p.is_dir() and not any(q.is_relative_to(p) for q in before)):
                remove(p)
    for p, body in before.items():
        try:
            same = p.read_bytes() == body
        except OSError:
            same = False
        if not same:
            p.parent.mkdir(parents=True, exist_ok=True)
            remove(p)
            p.write_bytes(body)

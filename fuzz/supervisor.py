"""The supervising parent of `make fuzz`: workers, jobs, findings and the summary.

The supervisor makes the corpus once, then keeps up to `--jobs` workers busy with jobs:
first one job per directed input, then ranges of `--chunk` random input numbers. A
worker announces each input before running it; one that dies by a signal (or exits) or
spends more than `--timeout` seconds of CPU on one input (or blocks for `--wall-factor`
times that on the clock, as a read of a FIFO would) is recorded against that input: its stack is asked
for (SIGUSR1, faulthandler) and it is killed, the input is made again from the seed
(and checked against the hash the worker announced) and written to the findings
folder, and a new worker carries on after it with the rest of the job.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

from fuzz.harness import REPO, Input

FINDING_KINDS = ("internal", "output", "signal", "hang", "harness")


@dataclass
class Stats:
    inputs: int = 0
    ms: float = 0.0
    max_ms: float = 0.0
    slow: int = 0  # inputs over a second
    kinds: Counter = field(default_factory=Counter)


class Findings:
    def __init__(self, folder: Path, registry, seed: str, per_signature: int) -> None:
        self.folder, self.registry, self.seed, self.per_signature = folder, registry, seed, per_signature
        self.by_signature: dict[tuple[str, str, str], list] = defaultdict(list)  # (kind, target, signature) -> [(item, folder or None)]

    def add(self, kind: str, target: str, item: str, signature: str, detail: str, digest: str, log: str = "") -> Path | None:
        key = (kind, target, signature)
        saved = None
        if len(self.by_signature[key]) < self.per_signature:
            saved = self._write(kind, target, item, signature, detail, digest, log)
        self.by_signature[key].append((item, saved))
        return saved

    def _write(self, kind, target, item, signature, detail, digest, log) -> Path:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", item.split(":", 1)[1] if item.startswith(("r:", "d:")) else Path(item[2:]).name)[:80]
        folder = self.folder / f"{kind}-{target}-{slug}"
        n = 2
        while folder.exists():
            folder = self.folder / f"{kind}-{target}-{slug}-{n}"
            n += 1
        folder.mkdir(parents=True)
        note = ""
        try:
            inp = self.input_of(item)
            inp.save(folder)
            if digest and inp.digest() != digest:
                note = f"WARNING: the input made again has hash {inp.digest()}, the worker announced {digest}\n"
        except Exception as exc:  # noqa: BLE001 - still write the report
            note = f"the input could not be made again: {type(exc).__name__}: {exc}\n"
        lines = [
            f"{kind} on {target} input {item} (run seed {self.seed})",
            f"signature: {signature}",
            note,
            "replay (runs it under the supervisor again):",
            f"    .venv/bin/python -m fuzz --replay {folder}",
            "",
            "what happened:",
            detail.rstrip(),
        ]
        if log.strip():
            lines += ["", "the worker's last words (faulthandler):", log.rstrip()]
        (folder / "report.txt").write_text("\n".join(lines) + "\n", encoding="utf-8", errors="replace")
        return folder

    def input_of(self, item: str) -> Input:
        kind, _, rest = item.partition(":")
        if kind == "r":
            return self.registry.generate(self.seed, int(rest))
        if kind == "d":
            return self.registry.directed(rest)
        return Input.load(Path(rest))

    def total(self) -> int:
        return sum(len(v) for v in self.by_signature.values())


class Worker:
    def __init__(self, sup: "Supervisor", wid: int) -> None:
        self.sup, self.wid = sup, wid
        self.incarnation = 0
        self.proc: subprocess.Popen | None = None
        self.fd = -1
        self.buf = b""
        self.ready = False
        self.job: list[str] = []  # items of the job in hand not yet done
        self.current: tuple[str, float, str, str] | None = None  # (item, started, digest, target)
        self.cpu_at_start = 0.0  # the worker's CPU seconds when the current input began
        self.recycling = False
        self.setup_failures = 0
        self.started = 0.0

    def start(self) -> None:
        self.incarnation += 1
        r, w = os.pipe()
        env = dict(os.environ)
        env.pop("QUESTC_PATH", None)
        env.update(PYTHONHASHSEED="0", PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
                   XDG_CACHE_HOME=str(self.sup.work / f"cache-{self.wid}"), PYTHONUNBUFFERED="1")
        self.log = self.sup.work / f"worker-{self.wid}-{self.incarnation}.log"
        argv = [sys.executable, "-m", "fuzz.worker", "--work", str(self.sup.work), "--id", str(self.wid), "--seed", self.sup.seed,
                "--registry", self.sup.registry_name, "--targets", ",".join(self.sup.target_names), "--report-fd", str(w),
                "--memory-mb", str(self.sup.memory_mb)]
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(w,), cwd=self.sup.work,
                                         env=env, start_new_session=True)
        os.close(w)
        self.fd, self.buf, self.ready, self.current, self.recycling = r, b"", False, None, False
        self.started = time.monotonic()
        self.sup.sel.register(r, selectors.EVENT_READ, self)

    def send(self, job: list[str]) -> None:
        self.job = list(job)
        try:
            self.proc.stdin.write((json.dumps(job) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it died: the exit is noticed on its report pipe

    def quit(self) -> None:
        try:
            self.proc.stdin.write(b'"quit"\n')
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    def log_tail(self, size: int = 12000) -> str:
        try:
            data = self.log.read_bytes()
        except OSError:
            return ""
        return data[-size:].decode("utf-8", "replace")

    def close(self) -> int:
        self.sup.sel.unregister(self.fd)
        os.close(self.fd)
        self.fd = -1
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.wait()
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return code

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Supervisor:
    def __init__(self, args) -> None:
        self.args = args
        self.seed = str(args.seed)
        self.registry_name = args.registry
        self.target_names = [t for t in (args.targets or "").split(",") if t]
        self.memory_mb = args.memory_mb
        self.timeout = args.timeout
        self.sel = selectors.DefaultSelector()
        self.stats: dict[str, Stats] = defaultdict(Stats)
        self.queue: deque[list[str]] = deque()
        self.done = 0
        self.expected = 0
        self.interrupted = False  # Ctrl-C: the summary says how far the run got, the exit code is 130
        self.events: list[str] = []  # one line per finding, in order
        self.slowest: list[tuple[float, str, str]] = []  # (ms, target, item) of the slowest inputs that passed
        self.workers: list[Worker] = []

    # ------------------------------------------------------------ the run
    def run(self) -> int:
        args = self.args
        module = importlib.import_module(self.registry_name)
        self.work = Path(tempfile.mkdtemp(prefix="questc-fuzz-"))
        try:
            return self._run(module, args)
        finally:
            for w in self.workers:  # an interrupted run leaves no worker behind
                if w.proc is not None and w.proc.poll() is None:
                    w.kill()
            if not args.keep_work:
                shutil.rmtree(self.work, ignore_errors=True)
            else:
                print(f"work folder kept: {self.work}")

    def _run(self, module, args) -> int:
        t0 = time.monotonic()
        module.Registry.build(self.work / "corpus")
        self.registry = module.registry(self.work / "corpus", self.target_names or None)
        self.out = Path(args.findings)
        if self.out.exists() and not args.replay:
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.findings = Findings(self.out, self.registry, self.seed, args.per_signature)
        if args.replay:
            for path in args.replay:
                self.queue.append([f"x:{Path(path).resolve()}"])
        elif args.only:
            for item in args.only.split(","):
                self.queue.append([item if item.startswith(("r:", "d:")) else f"r:{int(item)}"])
        else:
            if not args.no_directed:
                for name in self.registry.directed_names():
                    if not args.directed or re.search(args.directed, name):
                        self.queue.append([f"d:{name}"])
            for a in range(0, args.n, args.chunk):
                self.queue.append([f"r:{k}" for k in range(a, min(args.n, a + args.chunk))])
        self.expected = sum(len(j) for j in self.queue)
        setup = time.monotonic() - t0
        what = f"{len(args.replay)} saved input(s)" if args.replay else f"{self.expected:,} inputs" + ("" if args.only else f" ({args.n:,} random)")
        self.t_start = time.monotonic()
        try:
            print(f"fuzz: seed {self.seed}, {what}, {args.jobs} workers, "
                  f"{self.timeout:g} s per input ({args.directed_timeout:g} s per directed one); corpus made in {setup:.1f} s; findings in {self.out}",
                  flush=True)
            workers = self.workers = [Worker(self, i) for i in range(min(args.jobs, max(1, len(self.queue))))]
            for w in workers:
                w.start()
            last = self.t_start
            alive = set(workers)
            while alive:
                for key, _ in self.sel.select(timeout=0.25):
                    self._readable(key.data, alive)
                now = time.monotonic()
                for w in list(alive):
                    if w.current is not None and self._over_time(w, now):
                        self._stuck(w, alive)
                    elif w.current is None and not w.ready and now - w.started > args.setup_timeout:
                        self._died(w, alive, reason=f"no `ready` within {args.setup_timeout} s")
                if now - last >= args.progress:
                    last = now
                    self._progress()
        except KeyboardInterrupt:  # Ctrl-C: the summary of what ran, not a traceback (`run` stops the workers)
            self.interrupted = True
        self.wall = time.monotonic() - self.t_start
        code = self._summary()
        return code if code or not self.interrupted else 130

    def _over_time(self, w: Worker, now: float) -> bool:
        """Whether the input in hand has run too long: by the worker's own CPU time, so that a
        loaded machine (a build beside the run) cannot turn a slow-but-linear input into a
        "hang"; by the clock only past `--wall-factor` times the limit (a blocked read)."""
        item, started, _, _ = w.current
        limit = self._timeout_of(item)
        if now - started > limit * self.args.wall_factor:
            return True
        cpu = _cpu_seconds(w.proc.pid)
        return (cpu - w.cpu_at_start if cpu is not None else now - started) > limit

    def _timeout_of(self, item: str) -> float:
        """The directed inputs are huge on purpose (a 221 KB line, 20,000 sections): they get longer."""
        return self.args.directed_timeout if item.startswith("d:") else self.timeout

    def _readable(self, w: Worker, alive: set) -> None:
        try:
            data = os.read(w.fd, 1 << 16)
        except OSError:
            data = b""
        if not data:
            self._died(w, alive)
            return
        w.buf += data
        while b"\n" in w.buf:
            line, w.buf = w.buf.split(b"\n", 1)
            self._event(w, json.loads(line), alive)

    def _event(self, w: Worker, ev: dict, alive: set) -> None:
        kind = ev["ev"]
        if kind == "ready":
            w.ready = True
            w.setup_failures = 0
            self._next_job(w, alive)
        elif kind == "start":
            w.current = (ev["item"], time.monotonic(), ev["digest"], ev["target"])
            w.cpu_at_start = _cpu_seconds(w.proc.pid) or 0.0
        elif kind == "done":
            item, _, digest, target = w.current or (ev["item"], 0, "", "?")
            w.current = None
            if item in w.job:
                w.job.remove(item)
            self._record(target, ev["status"], ev["ms"])
            if ev["status"] == "ok" and ev["ms"] > 1000:
                self.slowest = sorted(self.slowest + [(ev["ms"], target, item)], reverse=True)[:8]
            if ev["status"] != "ok":
                self._finding(ev["status"], target, item, ev["signature"], ev["detail"], digest)
        elif kind == "job-done":
            w.job = []
            self._next_job(w, alive)
        elif kind == "recycle":
            w.recycling = True

    def _next_job(self, w: Worker, alive: set) -> None:
        if self.queue:
            w.send(self.queue.popleft())
        else:
            w.quit()

    def _record(self, target: str, status: str, ms: float) -> None:
        s = self.stats[target]
        s.inputs += 1
        s.ms += ms
        s.max_ms = max(s.max_ms, ms)
        s.slow += ms > 1000
        s.kinds[status] += 1
        self.done += 1

    def _finding(self, kind, target, item, signature, detail, digest, log="") -> None:
        folder = self.findings.add(kind, target, item, signature, detail, digest, log)
        line = f"{kind:8} {target:8} {item:40} {signature}" + (f"  -> {folder}" if folder else "")
        self.events.append(line)
        print(f"FINDING  {line}", flush=True)

    def _stuck(self, w: Worker, alive: set) -> None:
        item, started, digest, target = w.current
        cpu = (_cpu_seconds(w.proc.pid) or w.cpu_at_start) - w.cpu_at_start
        clock = time.monotonic() - started
        try:
            os.kill(w.proc.pid, signal.SIGUSR1)  # faulthandler: every thread's stack into the log
        except ProcessLookupError:
            pass
        time.sleep(1.0)
        w.kill()
        tail = w.log_tail()
        from fuzz.harness import text_signature

        signature = text_signature(_current_thread(tail), "timeout", innermost_first=True)
        self._record(target, "hang", (time.monotonic() - started) * 1000)
        self._finding("hang", target, item, signature,
                      f"over {self._timeout_of(item):g} s (CPU {cpu:.1f} s, clock {clock:.1f} s); killed", digest, tail)
        w.current = None
        if item in w.job:
            w.job.remove(item)
        self._restart(w, alive)

    def _died(self, w: Worker, alive: set, reason: str = "") -> None:
        if w.proc.poll() is None and reason:
            w.kill()
        code = w.close() if w.fd >= 0 else w.proc.wait()
        if w.current is not None:
            item, started, digest, target = w.current
            tail = w.log_tail()
            from fuzz.harness import text_signature

            if code < 0:
                name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else f"signal {-code}"
                kind, what = "signal", f"killed by {name}"
            else:
                name, kind, what = f"exit {code}", "internal", f"the worker exited ({code}) in the middle of the input"
            signature = text_signature(_current_thread(tail), name, innermost_first=True)
            self._record(target, kind, (time.monotonic() - started) * 1000)
            self._finding(kind, target, item, signature, what, digest, tail)
            w.current = None
            if item in w.job:
                w.job.remove(item)
            self._restart(w, alive, closed=True)
            return
        if w.recycling or w.job:
            if not w.recycling:  # died between inputs: not any input's fault, but say so
                w.setup_failures += 1
                print(f"fuzz: worker {w.wid} exited ({code}) between inputs {reason}\n{w.log_tail(3000)}", file=sys.stderr, flush=True)
                if w.setup_failures > 3:
                    print("fuzz: a worker failed 4 times in a row outside any input; giving up", file=sys.stderr)
                    alive.discard(w)
                    return
            self._restart(w, alive, closed=True)
            return
        if not w.ready and code != 0:
            w.setup_failures += 1
            print(f"fuzz: worker {w.wid} failed to start ({code}) {reason}\n{w.log_tail(3000)}", file=sys.stderr, flush=True)
            if w.setup_failures <= 3:
                self._restart(w, alive, closed=True)
                return
        alive.discard(w)

    def _restart(self, w: Worker, alive: set, closed: bool = False) -> None:
        if not closed:
            w.close()
        if w.job:
            self.queue.appendleft(w.job)
            w.job = []
        if self.queue:
            w.start()
        else:
            alive.discard(w)

    # ------------------------------------------------------------ reporting
    def _progress(self) -> None:
        elapsed = time.monotonic() - self.t_start
        found = Counter(k[0] for k, v in self.findings.by_signature.items() for _ in v)
        print(f"[{int(elapsed) // 60:02d}:{int(elapsed) % 60:02d}] {self.done:,}/{self.expected:,} inputs, "
              f"{self.done / max(elapsed, 1e-9):.1f}/s, findings: " + (", ".join(f"{n} {k}" for k, n in sorted(found.items())) or "none"),
              flush=True)

    def _summary(self) -> int:
        rows = []
        total = Stats()
        for name in sorted(self.stats):
            s = self.stats[name]
            rows.append((name, s))
            total.inputs += s.inputs
            total.ms += s.ms
            total.max_ms = max(total.max_ms, s.max_ms)
            total.slow += s.slow
            total.kinds.update(s.kinds)
        head = "| target | inputs | internal errors | huge output | signals | hangs | mean ms | max ms | over 1 s |"
        lines = [head, "|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
        for name, s in rows + [("**all**", total)]:
            lines.append(f"| {name} | {s.inputs:,} | {s.kinds['internal'] + s.kinds['harness']} | {s.kinds['output']} | {s.kinds['signal']} | "
                         f"{s.kinds['hang']} | {s.ms / max(s.inputs, 1):.1f} | {s.max_ms:,.0f} | {s.slow} |")
        rate = total.inputs / max(self.wall, 1e-9)
        lines.append("")
        lines.append(f"{total.inputs:,} inputs in {self.wall:,.0f} s with {self.args.jobs} workers: {rate:.1f} inputs/s (seed {self.seed})")
        if self.interrupted:
            lines.append(f"interrupted by the user after {self.done:,} of {self.expected:,} inputs")
        if self.slowest:
            lines.append("slowest inputs that passed: " + ", ".join(f"{item} ({target}) {ms / 1000:.1f} s" for ms, target, item in self.slowest))
        found = [(k, v) for k, v in sorted(self.findings.by_signature.items())]
        if found:
            lines += ["", f"{self.findings.total()} findings, {len(found)} distinct:", ""]
            for (kind, target, sig), hits in found:
                first = next((str(p) for _, p in hits if p), "")
                lines.append(f"- {kind} / {target}: {sig} ({len(hits)}x; {', '.join(i for i, _ in hits[:3])})" + (f": `{first}`" if first else ""))
        else:
            lines += ["", "no findings"]
        text = "\n".join(lines) + "\n"
        print("\n" + text, flush=True)
        (self.out / "summary.md").write_text(text, encoding="utf-8")
        summary = {"seed": self.seed, "wall_s": round(self.wall, 1), "rate": round(rate, 2), "jobs": self.args.jobs,
                   "targets": {n: {"inputs": s.inputs, **dict(s.kinds), "mean_ms": round(s.ms / max(s.inputs, 1), 2),
                                   "max_ms": round(s.max_ms)} for n, s in rows},
                   "slowest": [{"ms": round(ms), "target": t, "item": i} for ms, t, i in self.slowest],
                   "findings": [{"kind": k, "target": t, "signature": sig, "count": len(h), "items": [i for i, _ in h],
                                 "saved": [str(p) for _, p in h if p]} for (k, t, sig), h in found]}
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        return 1 if found else 0


def _cpu_seconds(pid: int) -> float | None:
    """A process's user+system CPU seconds from /proc (None where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: fields 14, 15 of stat(5)


def _current_thread(log: str) -> str:
    """The stack of the thread that was running, from the last faulthandler dump in a log."""
    dump = log.rsplit("Current thread", 1)
    if len(dump) == 1:
        return log
    return dump[1].split("\n\n", 1)[0]


def parse_args(argv: list[str] | None = None):
    p = argparse.ArgumentParser(prog="python -m fuzz", description="Fuzz questc in-process under a supervisor (docs/robustness.md).")
    p.add_argument("-n", type=int, default=100_000, help="random inputs (default 100,000; the directed ones come first)")
    p.add_argument("--seed", default=None, help="the run's seed (default: random, printed)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--timeout", type=float, default=10.0, help="CPU seconds one input may take before the worker is killed (default 10)")
    p.add_argument("--wall-factor", type=float, default=4.0, help="an input also fails past this many times its limit on the clock (default 4)")
    p.add_argument("--directed-timeout", type=float, default=30.0, help="seconds a directed input may take (default 30)")
    p.add_argument("--setup-timeout", type=float, default=180.0, help="seconds a worker may take to start")
    p.add_argument("--chunk", type=int, default=250, help="random inputs per job")
    p.add_argument("--targets", default="", help="comma-separated targets (default: all)")
    p.add_argument("--directed", default="", help="only the directed inputs whose name matches this regular expression")
    p.add_argument("--no-directed", action="store_true", help="skip the directed inputs")
    p.add_argument("--findings", default=str(REPO / "build" / "fuzz"), help="findings folder (emptied first; default build/fuzz)")
    p.add_argument("--per-signature", type=int, default=3, help="inputs written per distinct finding (all are counted)")
    p.add_argument("--memory-mb", type=int, default=3072, help="address-space limit of a worker (0: none)")
    p.add_argument("--progress", type=float, default=30.0, help="seconds between progress lines")
    p.add_argument("--registry", default="fuzz.targets", help=argparse.SUPPRESS)  # fuzz.selftest tests the harness
    p.add_argument("--keep-work", action="store_true", help="keep the temporary work folder (corpus, workspaces, logs)")
    p.add_argument("--replay", nargs="+", metavar="FINDING", help="run these saved inputs again (finding folders)")
    p.add_argument("--only", default="", metavar="ITEMS", help="run only these inputs of the seed: `r:47101,d:tmj-fifo` (or bare numbers)")
    args = p.parse_args(argv)
    if args.seed is None:
        args.seed = str(int.from_bytes(os.urandom(4), "big"))
    if args.replay:
        args.findings = str(Path(tempfile.gettempdir()) / f"questc-fuzz-replay-{os.getpid()}")
        args.jobs = 1
    args.jobs = max(1, args.jobs)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    code = Supervisor(args).run()
    if args.replay:
        for report in sorted(Path(args.findings).glob("*/report.txt")):
            print(report.read_text(encoding="utf-8"))
        shutil.rmtree(args.findings, ignore_errors=True)
    return code

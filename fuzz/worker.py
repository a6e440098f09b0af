"""A fuzz worker: runs inputs one after another in its own process, told which by the
supervisor on standard input, and reports on a pipe of its own (`--report-fd`).

Before each input it reports `start` with the input's id and hash, after it `done` with
the outcome, so the supervisor always knows which input a dead or stuck worker was on.
faulthandler writes every thread's stack to the worker's log (its standard error) on a
fatal signal, and on SIGUSR1, which the supervisor sends before killing a stuck worker.

    python -m fuzz.worker --work DIR --id N --seed S --registry fuzz.targets --report-fd FD
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import os
import resource
import shutil
import signal
import sys
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

RECYCLE_RSS = 1536 * 1024 * 1024  # past this resident size the worker asks to be replaced (not a finding)


def _rss() -> int:
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _clip(text: str, head: int = 4000, tail: int = 16000) -> str:
    """A report's start and end (a RecursionError's traceback is a thousand frames long)."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n[… {len(text) - head - tail:,} characters left out …]\n{text[-tail:]}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz.worker")
    p.add_argument("--work", required=True)
    p.add_argument("--id", type=int, required=True)
    p.add_argument("--seed", required=True)
    p.add_argument("--registry", default="fuzz.targets")
    p.add_argument("--targets", default="")
    p.add_argument("--report-fd", type=int, required=True)
    p.add_argument("--memory-mb", type=int, default=3072)
    args = p.parse_args(argv)

    faulthandler.enable(file=sys.stderr, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
    if args.memory_mb > 0:  # a runaway allocation is a MemoryError (a finding), not the machine's OOM killer
        limit = args.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    report = os.fdopen(args.report_fd, "w", buffering=1, encoding="utf-8")

    def say(**event) -> None:
        report.write(json.dumps(event) + "\n")
        report.flush()

    work = Path(args.work)
    module = importlib.import_module(args.registry)
    reg = module.registry(work / "corpus", [t for t in args.targets.split(",") if t] or None)
    ws = work / f"w{args.id}"
    if ws.exists():
        shutil.rmtree(ws)
    shutil.copytree(work / "corpus", ws, symlinks=True)
    crash_dir = ws / ".crash"
    crash_dir.mkdir()
    os.environ["QUESTC_CRASH_DIR"] = str(crash_dir)
    os.chdir(ws)
    ctx = reg.context(ws, crash_dir)
    say(ev="ready", pid=os.getpid())

    from fuzz.harness import Bounded, Input, Outcome, output_limit, set_input_size

    for line in sys.stdin:
        job = json.loads(line)
        if job == "quit":
            break
        for item in job:
            kind, _, rest = item.partition(":")
            try:
                if kind == "r":
                    inp = reg.generate(args.seed, int(rest))
                elif kind == "d":
                    inp = reg.directed(rest)
                else:
                    inp = Input.load(Path(rest))
            except Exception:  # noqa: BLE001 - a bug of the fuzzer itself
                say(ev="start", item=item, digest="", target="?", size=0)
                say(ev="done", item=item, status="harness", detail=traceback.format_exc(), signature="input could not be made", ms=0)
                continue
            say(ev="start", item=item, digest=inp.digest(), target=inp.target, size=inp.size())
            set_input_size(inp.size())
            t0 = time.perf_counter()
            out, err = Bounded(1 << 16), Bounded(1 << 16)
            try:
                with redirect_stdout(out), redirect_stderr(err):
                    outcome = reg.run(ctx, inp)
                if outcome.ok and out.total + err.total > output_limit():
                    outcome = Outcome("output", f"printed {out.total + err.total:,} characters", "output printed")
            except BaseException as exc:  # noqa: BLE001 - escaped the target's own judgement: a harness bug or a SystemExit
                if isinstance(exc, KeyboardInterrupt):
                    raise
                outcome = Outcome("internal", traceback.format_exc(), f"{type(exc).__name__} escaped the target")
            ms = (time.perf_counter() - t0) * 1000
            say(ev="done", item=item, status=outcome.status, detail=_clip(outcome.detail), signature=outcome.signature, ms=round(ms, 2))
            if _rss() > RECYCLE_RSS:
                say(ev="recycle", rss=_rss())
                return 0
        say(ev="job-done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

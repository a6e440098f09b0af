"""Targets that misbehave on purpose, to test the harness (tests/test_fuzz_harness.py):

    .venv/bin/python -m fuzz --registry fuzz.selftest -n 30 --timeout 2

Input K is `ok` except: K = 3 kills its worker with SIGSEGV, K = 7 sleeps for a minute
(a hang found by the clock), K = 11 raises, K = 13 ends the worker with `os._exit(5)`,
K = 17 prints 20 MB, K = 19 spins for a minute (a hang found by its CPU time), K = 23
sleeps 3 s (past a 2 s limit on the clock but not in CPU: `ok`, as on a loaded machine);
the directed input `abort` calls `os.abort()` (SIGABRT). The supervisor must record
each against exactly that input and carry on with the others.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from fuzz.harness import OK, Input, Outcome, exception_signature, internal

MARKERS = {3: "segv", 7: "sleep", 11: "raise", 13: "exit", 17: "print", 19: "spin", 23: "slow"}


class Registry:
    def __init__(self, corpus_root: Path, names=None) -> None:
        self.corpus_root = corpus_root

    @staticmethod
    def build(corpus_root: Path) -> None:
        corpus_root.mkdir(parents=True, exist_ok=True)

    def generate(self, seed: str, k: int) -> Input:
        marker = MARKERS.get(k, "ok")
        return Input("selftest", "selftest", {"input.txt": f"{marker} {seed} {k}\n".encode()})

    def directed_names(self) -> list[str]:
        return ["abort"]

    def directed(self, name: str) -> Input:
        return Input("selftest", name, {"input.txt": b"abort\n"})

    def context(self, ws: Path, crash_dir: Path):
        return ws

    def run(self, ctx, inp: Input) -> Outcome:
        marker = inp.files["input.txt"].split()[0].decode()
        if marker == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif marker == "abort":
            os.abort()
        elif marker == "sleep":
            time.sleep(60)
        elif marker == "spin":
            _spin(60)
        elif marker == "slow":
            time.sleep(3)
        elif marker == "exit":
            os._exit(5)
        elif marker == "print":
            sys.stdout.write("x" * (20 << 20))
        elif marker == "raise":
            try:
                raise ValueError("marker")
            except ValueError as exc:
                return internal("raised on purpose", exception_signature(exc))
        return OK


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def registry(corpus_root: Path, names=None) -> Registry:
    return Registry(corpus_root, names)

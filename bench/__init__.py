"""Benchmarks: one module per topic, each with a `main()` that prints figures and a baseline
measured in the same run. `python -m bench` runs them all; `python -m bench.<name>` runs one."""

import time


def best_of(fn, repeat: int = 5) -> float:
    """The fastest of `repeat` runs of `fn()`, in seconds (the least disturbed by other work)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best

"""`make fuzz`: the whole toolchain fuzzed in-process, 100,000 inputs at a time (docs/robustness.md).

    .venv/bin/python -m fuzz [-n 100000] [--seed S] [--jobs 2] [--timeout 10] [--targets quest,tmj]
    .venv/bin/python -m fuzz --replay build/fuzz/<run>/<finding>

A supervising parent (`supervisor.py`) runs up to two worker processes (`worker.py`),
hands each a range of input numbers at a time and watches them: a worker killed by a
signal or silent past the per-input timeout is recorded with the exact input it was
on (regenerated from the seed, checked against the hash the worker announced, written
to the findings folder), then a new worker takes over after that input. Each worker
runs its inputs in its own process, one after another, calling the library (or
`compiler.cli.main`) directly, so an input costs milliseconds, not a process start.

Modules:

- `targets.py`: what is fuzzed (quests, catalogs, activation state files, activation
  tests, `.po` files, translation spreadsheets, `questc.toml`, Tiled `.tmj` maps,
  Valkyrie quests), each with its seeds, how an input is made, and how it is run and
  judged (internal errors: an exception, an I-code, exit 3, an unlocated or
  uncatalogued diagnostic; output beyond a bound);
- `mutate.py`: byte-level mutations (flips, inserts, deletes, splices, repeats, huge
  repeats, NUL, CR, BOM, invalid UTF-8) and structure-aware ones (`.quest` through
  tests/fuzzhelp.py, JSON/YAML trees, `.ini`, `.po`, CSV, TOML);
- `directed.py`: the reproductions of issue 38 (and more), run before the random inputs;
- `selftest.py`: targets that crash, hang or raise on a marker, to test the harness itself.

Deterministic: input number K of seed S is always the same bytes.
"""

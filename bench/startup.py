"""Start-up: a fresh `questc check` process, with and without the parser cache.

The LALR tables of grammar.lark are either loaded from the private per-user cache
(compiler/syntax/parser_cache.py) or built from the grammar. Measured: the whole
`questc check content/d2e-quests` process, the cache warmed first; then the same with
the cache made unusable (XDG_CACHE_HOME below a file, so no folder can be made), the
way it runs when no private folder can be trusted. Baseline, in the same run:
`questc --version`, the interpreter start-up alone. Also, in this process: building
the parser from the grammar against loading it from the cache.

Run: .venv/bin/python -m bench.startup
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from bench import best_of

REPO = Path(__file__).resolve().parents[1]


def run(argv: list[str], cache_home: str) -> float:
    env = {**os.environ, "XDG_CACHE_HOME": cache_home, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compiler.cli", *argv], env=env, cwd=REPO, capture_output=True, check=False)
    return time.perf_counter() - t0


def main() -> None:
    from lark import Lark

    from compiler.syntax import parser_cache
    from compiler.syntax.parse import lark_options

    check = ["check", str(REPO / "content" / "d2e-quests")]
    with tempfile.TemporaryDirectory() as tmp:
        private = str(Path(tmp) / "cache")
        unusable = Path(tmp) / "file"
        unusable.write_text("not a folder\n")
        run(check, private)  # warm the private cache
        cached = best_of(lambda: run(check, private))
        built = best_of(lambda: run(check, str(unusable / "cache")))
        version = best_of(lambda: run(["--version"], private))
        grammar = resources.files("compiler.syntax").joinpath("grammar.lark").read_text(encoding="utf-8")
        saved = os.environ.get("XDG_CACHE_HOME")
        os.environ["XDG_CACHE_HOME"] = private
        try:
            load = best_of(lambda: parser_cache.load_or_build(grammar, lark_options()))
        finally:
            if saved is None:
                del os.environ["XDG_CACHE_HOME"]
            else:
                os.environ["XDG_CACHE_HOME"] = saved
        build = best_of(lambda: Lark(grammar, **lark_options()))
        saved_by_lark = io.BytesIO()
        Lark(grammar, **lark_options()).save(saved_by_lark)
        lark_load = best_of(lambda: Lark.load(io.BytesIO(saved_by_lark.getvalue())))
    print(f"questc check d2e-quests, fresh process: {cached:.2f} s with the private cache, "
          f"{built:.2f} s building the parser; questc --version: {version:.2f} s")
    print(f"parser alone: {load * 1000:.0f} ms loaded from the cache, {build * 1000:.0f} ms built from the grammar, "
          f"{lark_load * 1000:.0f} ms with Lark's public save/load (the baseline the private cache is kept against)")


if __name__ == "__main__":
    main()

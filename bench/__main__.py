"""Run every benchmark module's `main()` in name order: `.venv/bin/python -m bench [NAME ...]`."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    wanted = set(argv if argv is not None else sys.argv[1:])
    folder = Path(__file__).resolve().parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if not m.name.startswith("_"))
    unknown = wanted - set(names)
    if unknown:
        print(f"unknown benchmark(s): {', '.join(sorted(unknown))}; available: {', '.join(names)}", file=sys.stderr)
        return 2
    for name in names:
        if wanted and name not in wanted:
            continue
        module = importlib.import_module(f"bench.{name}")
        if not hasattr(module, "main"):
            continue
        print(f"== bench.{name}")
        module.main()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

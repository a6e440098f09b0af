"""questc schema: print the bundle JSON Schema (one self-contained document)."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--catalog", metavar="KIND", help="print the schema of a catalog kind instead (terrain, tiles, …)")
    group.add_argument("--diagnostics", action="store_true", help="print the schema of `--format json` diagnostics")


def run(args: argparse.Namespace) -> int:
    from compiler.catalogs.schema import catalog_kinds, load_schema
    from compiler.emit.schema import bundled_schema

    if args.catalog:
        if args.catalog not in catalog_kinds():
            from compiler.diagnostics.render import visible

            sys.stderr.write(f"questc schema: unknown catalog kind `{visible(args.catalog)}` (known: {', '.join(catalog_kinds())})\n")
            return 2
        schema = bundled_schema(f"catalogs/{args.catalog}.schema.json")
    elif args.diagnostics:
        schema = load_schema("diagnostics.schema.json")
    else:
        schema = bundled_schema("bundle.schema.json")
    sys.stdout.write(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    return 0

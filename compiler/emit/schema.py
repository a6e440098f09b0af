"""Publish a schema as one self-contained document: every file it `$ref`s is inlined
under `$defs`, so a front end needs a single file."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from compiler.catalogs.schema import load_schema

if TYPE_CHECKING:
    from compiler.emit.shared import JSON, JSONObject


def _key(name: str) -> str:
    return name.removesuffix(".schema.json").replace("/", "_")


def bundled_schema(name: str) -> JSONObject:
    root: JSONObject = copy.deepcopy(load_schema(name))
    defs: dict[str, JSONObject] = {}
    pending: list[str] = []

    def rewrite(node: JSON, base: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                file, _, frag = ref.partition("#")
                target = _resolve(base, file)
                if target not in defs and target not in pending:
                    pending.append(target)
                node["$ref"] = f"#/$defs/{_key(target)}{frag}"
            elif isinstance(ref, str) and base != name:  # a local ref inside an inlined file
                node["$ref"] = f"#/$defs/{_key(base)}{ref[1:]}"
            for v in node.values():
                rewrite(v, base)
        elif isinstance(node, list):
            for v in node:
                rewrite(v, base)

    rewrite(root, name)
    while pending:
        target = pending.pop(0)
        doc = copy.deepcopy(load_schema(target))
        doc.pop("$schema", None)
        doc.pop("$id", None)
        rewrite(doc, target)
        defs[target] = doc
    if defs:
        root.setdefault("$defs", {}).update({_key(k): v for k, v in sorted(defs.items())})
    return root


def _resolve(base: str, file: str) -> str:
    if "/" in base and not file.startswith(("catalogs/", "bundle/")):
        return base.rsplit("/", 1)[0] + "/" + file
    return file

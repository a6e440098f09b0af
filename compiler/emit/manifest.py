"""manifest.json: every output file with its sha256 and the compiler version."""

from __future__ import annotations

import hashlib

from compiler import __version__


def manifest_of(files: dict[str, bytes], pack_id: str) -> dict:
    return {
        "compiler": {"name": "questc", "version": __version__},
        "pack": pack_id,
        "files": {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)} for name, data in sorted(files.items())},
    }

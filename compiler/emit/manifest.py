"""manifest.json: every output file with its sha256 and the compiler version."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from compiler import __version__

if TYPE_CHECKING:
    from compiler.emit.shared import JSONObject


def manifest_of(files: dict[str, bytes], pack_id: str) -> JSONObject:
    return {
        "compiler": {"name": "questc", "version": __version__},
        "pack": pack_id,
        "files": {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)} for name, data in sorted(files.items())},
    }

"""The web player as a folder of static files (`questc view`, `questc serve`).

    site_files(bundle, serve=False) -> {name: bytes}

The player's files are package data (compiler/player/: index.html, style.css and plain
JavaScript modules, docs/player.md); beside them go the bundle (`bundle.json`, the bytes
given: a broken one is shown as such by the page), the bundle's JSON Schema
(`bundle.schema.json`, which the page checks the bundle against) and `version.json`, a
digest of the bundle. Under `questc serve` the page asks for `version.json` every second
and reloads itself when it changes. Nothing is fetched from anywhere else.
"""

from __future__ import annotations

import hashlib
import json

from compiler.resources import packaged_bytes, player_dir

ASSETS = ("index.html", "style.css", "app.js", "sight.js", "moves.js", "play.js", "deal.js", "validate.js", "labels.js", "hazards.js", "templates.js", "campaign.js", "campaign_panel.js", "rtl_state.js")


def player_files(*, serve: bool = False) -> dict[str, bytes]:
    """The static files; `serve` marks the page to watch `version.json`."""
    folder = player_dir()
    files = {name: packaged_bytes(folder / name) for name in ASSETS}
    if serve:
        files["index.html"] = files["index.html"].replace(b'<body data-state="loading">', b'<body data-state="loading" data-serve="1">')
    return files


def schema_bytes() -> bytes:
    from compiler.emit.schema import bundled_schema

    return (json.dumps(bundled_schema("bundle.schema.json"), sort_keys=True, separators=(",", ":")) + "\n").encode()


def version_of(bundle: bytes) -> bytes:
    return (json.dumps({"bundle": hashlib.sha256(bundle).hexdigest()[:16]}) + "\n").encode()


def site_files(bundle: bytes, *, serve: bool = False) -> dict[str, bytes]:
    files = player_files(serve=serve)
    files["bundle.json"] = bundle
    files["bundle.schema.json"] = schema_bytes()
    files["version.json"] = version_of(bundle)
    return files

"""Write a pack's outputs atomically: all files are prepared in memory, written to a
temporary sibling folder, then swapped in with renames. A failed or interrupted build
leaves the last good `DIR/<pack>/` untouched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from compiler.diagnostics import Sink, Span
from compiler.emit.bundle import bundle_of, validate_bundle
from compiler.emit.shared import dumps
from compiler.emit.manifest import manifest_of
from compiler.model import Model

# Extra outputs besides bundle.json: name -> function(model) -> {relative path: bytes}.
# The image renderer registers here (maps/<id>.png).
def _maps(model: Model) -> dict[str, bytes]:
    from compiler.emit.images.outputs import render_outputs  # Pillow is imported only when building

    return render_outputs(model)


OUTPUTS: dict[str, Callable[[Model], dict[str, bytes]]] = {"maps": _maps}


def outputs_of(model: Model, sink: Sink) -> dict[str, bytes] | None:
    bundle = bundle_of(model)
    where = f"{model.pack.id}/bundle.json"
    if not validate_bundle(bundle, sink, where):
        return None
    files = {"bundle.json": dumps(bundle)}
    for produce in OUTPUTS.values():
        files.update(produce(model))
    files["manifest.json"] = dumps(manifest_of(files, model.pack.id))
    return files


def write_atomically(out_dir: Path, pack_id: str, files: dict[str, bytes], sink: Sink) -> bool:
    final = out_dir / pack_id
    try:  # an output folder that cannot be made (`-o /proc/x`) was a crash, I0001
        out_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{pack_id}.", dir=out_dir))
    except OSError as exc:
        sink.report("I0003", Span.whole_file(str(final)), path=str(final), problem=exc.strerror or str(exc))
        return False
    try:
        for name, data in files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
    except OSError as exc:
        return _failed(exc, final, staging, sink)
    old = out_dir / f".{pack_id}.old"
    try:
        if old.exists():
            shutil.rmtree(old)
        if final.exists():
            os.replace(final, old)
        os.replace(staging, final)
    except OSError as exc:
        if old.exists() and not final.exists():  # put the last good output back
            os.rename(old, final)
        return _failed(exc, final, staging, sink)
    shutil.rmtree(old, ignore_errors=True)
    return True


def _failed(exc: OSError, final: Path, staging: Path, sink: Sink) -> bool:
    sink.report("I0003", Span.whole_file(str(final)), path=str(final), problem=exc.strerror or str(exc))
    shutil.rmtree(staging, ignore_errors=True)
    return False

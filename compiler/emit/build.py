"""Write a pack's outputs atomically: all files are prepared in memory, written to a
temporary sibling folder, then swapped in with renames. A failed or interrupted build
leaves the last good `DIR/<pack>/` untouched, or, when killed between the two renames,
leaves it as `DIR/.<pack>.old` for the next build to put back. One build writes into a
folder at a time (compiler/emit/lock.py).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from compiler.diagnostics import Sink, Span
from compiler.emit.bundle import bundle_of, validate_bundle
from compiler.emit.files import new_folder_mode
from compiler.emit.lock import LockTimeout, writer_lock
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


def write_packs(out_dir: Path, packs: dict[str, dict[str, bytes] | None], sink: Sink) -> None:
    """Swap each pack's new files into `out_dir/<pack>/` (None: nothing to write for it),
    one writer at a time, after tidying what a killed build of these packs left behind.

    A build with nothing to write does not touch the folder unless there is something to
    tidy, so a failed build still puts back the last good output a killed one moved aside.
    """
    if not any(files is not None for files in packs.values()) and not _leftovers(out_dir, packs):
        return
    try:  # an output folder that cannot be made (`-o /proc/x`) was a crash, I0001
        out_dir.mkdir(parents=True, exist_ok=True)
        with writer_lock(out_dir):
            for pack_id, files in packs.items():
                _write_pack(out_dir, pack_id, files, sink)
    except LockTimeout as exc:
        sink.report("I0004", Span.whole_file(str(exc.lock)), path=str(out_dir), seconds=f"{exc.seconds:g}")
    except OSError as exc:
        if isinstance(exc, FileExistsError) and not out_dir.is_dir():  # mkdir's "File exists" said little
            exc = OSError(exc.errno, "it is a file, not a folder")
        _cannot_write(out_dir, exc, sink)


def _write_pack(out_dir: Path, pack_id: str, files: dict[str, bytes] | None, sink: Sink) -> None:
    final = out_dir / pack_id
    try:
        done = recover(out_dir, pack_id)
        if done:
            sink.report("I0005", Span.whole_file(str(final)), path=str(final), what=done)
        if files is not None:
            _swap_in(out_dir, pack_id, files)
    except OSError as exc:
        _cannot_write(final, exc, sink)


def _cannot_write(path: Path, exc: OSError, sink: Sink) -> None:
    sink.report("I0003", Span.whole_file(str(path)), path=str(path), problem=exc.strerror or str(exc))


def _old(out_dir: Path, pack_id: str) -> Path:
    return out_dir / f".{pack_id}.old"


def _staging_folders(out_dir: Path, pack_id: str) -> list[Path]:
    """Folders named as `tempfile.mkdtemp(prefix=".<pack>.")` names them: only ours."""
    pattern = re.compile(rf"\.{re.escape(pack_id)}\.[a-z0-9_]{{8}}")
    try:
        names = os.listdir(out_dir)
    except OSError:
        return []
    return [out_dir / n for n in sorted(names) if pattern.fullmatch(n) and _is_real_dir(out_dir / n)]


def _is_real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _leftovers(out_dir: Path, packs: Iterable[str]) -> bool:
    return any(_is_real_dir(_old(out_dir, p)) or _staging_folders(out_dir, p) for p in packs)


def recover(out_dir: Path, pack_id: str) -> str:
    """Undo what a build of `pack_id` killed mid-way left in `out_dir` (the caller holds the
    lock, so no live build owns these folders); says what it did, "" when nothing.

    Killed between the two renames of the swap, the pack folder is missing and `.old` is
    the last good output: it is put back. Otherwise `.old` is a finished build's rubbish,
    and a staging folder is a build that never reached its swap: both are removed.
    """
    final, old = out_dir / pack_id, _old(out_dir, pack_id)
    done = []
    if _is_real_dir(old):
        if final.exists() or final.is_symlink():
            shutil.rmtree(old)
            done.append(f"removed {old.name}")
        else:
            os.rename(old, final)
            done.append(f"put back the last good output from {old.name}")
    staging = _staging_folders(out_dir, pack_id)
    for folder in staging:
        shutil.rmtree(folder)
    if staging:
        done.append(f"removed {len(staging)} unfinished staging folder(s)")
    return "; ".join(done)


def _swap_in(out_dir: Path, pack_id: str, files: dict[str, bytes]) -> None:
    """Write `files` to a fresh staging folder, then rename it into place. On any failure
    or interruption the last good output is put back and the staging folder removed
    (a kill -9 leaves both for `recover`), and the exception goes on."""
    final, old = out_dir / pack_id, _old(out_dir, pack_id)
    staging = Path(tempfile.mkdtemp(prefix=f".{pack_id}.", dir=out_dir))
    try:
        for name, data in files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            # "x": a new file (O_CREAT | O_EXCL, which never follows a link), 0666 less the umask
            with open(target, "xb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        # mkdtemp makes the folder 0700 whatever the umask: the output gets what any new folder would
        os.chmod(staging, new_folder_mode())
        if final.exists() or final.is_symlink():  # a link in the pack's place is moved aside, not followed
            os.replace(final, old)
        os.replace(staging, final)
    except BaseException:
        try:
            if old.exists() and not final.exists():  # moved aside but not replaced: put it back
                os.rename(old, final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    if old.is_symlink():
        old.unlink()
    else:
        shutil.rmtree(old, ignore_errors=True)

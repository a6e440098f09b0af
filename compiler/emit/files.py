"""Writing one output file whole or not at all: a temporary file beside the target, then a
rename, so a reader sees the old file or the new one, never half of either, and an
interrupted run leaves the old file."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Replace `path` with `data` (text is written as UTF-8, byte for byte). The file keeps
    its permissions when it exists; a new one is readable by everyone (0644), like any
    file an editor writes, not private as a bare temporary file would be."""
    target = Path(path).resolve()  # a symlinked file is replaced where it really is
    target.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target

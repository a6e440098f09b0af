"""Writing one output file whole or not at all: a temporary file beside the target, then a
rename, so a reader sees the old file or the new one, never half of either, and an
interrupted run leaves the old file.

Never through a link (issue 38): an output folder may be shared, and a symbolic link
someone planted there under the name of a file questc writes (`map.png -> ~/.bashrc`)
sent the write to the link's target. The rename replaces the link itself; the folder
the file goes into may be a link of the user's choosing. New files and folders get the
permissions the umask gives (0644 and 0755 under the usual 022, 0600 and 0700 under 077).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def current_umask() -> int:
    """The process's umask (set and put back at once: there is no call that only reads it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    return 0o666 & ~current_umask()


def new_folder_mode() -> int:
    return 0o777 & ~current_umask()


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, follow_link: bool = False) -> Path:
    """Replace `path` with `data` (text is written as UTF-8, byte for byte); the path
    written is returned (absolute). A symbolic link at `path` is replaced by the file, not
    written through; `follow_link=True` writes where the link points instead, for a file
    of a pack the reader accepted (inside the pack: `questc fmt`). The file keeps its
    permissions when it exists; a new one gets 0666 less the umask (0644 usually),
    like any file an editor writes, not private as a bare temporary file would be."""
    target = Path(path)
    target = target.resolve() if follow_link else target.parent.resolve() / target.name
    target.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        st = os.lstat(target)
        mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else new_file_mode()
    except FileNotFoundError:
        mode = new_file_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            if hasattr(os, "fchmod"):  # on the descriptor: the name could be swapped in a shared folder
                os.fchmod(fh.fileno(), mode)
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        if not hasattr(os, "fchmod"):  # Windows
            os.chmod(tmp, mode)
        os.replace(tmp, target)  # rename(2) replaces a link at `target`, never follows it
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def linked_folder(root: Path, target: Path) -> Path | None:
    """The first folder between `root` (excluded: the user's choice) and `target` that is
    a symbolic link, or None: a file is not written into a linked folder inside an output
    folder, where someone else may have planted the link."""
    try:
        rel = target.relative_to(root)
    except ValueError:
        return None
    here = root
    for part in rel.parts[:-1]:
        here = here / part
        if here.is_symlink():
            return here
    return None

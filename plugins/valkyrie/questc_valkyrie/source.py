"""A Valkyrie quest's files, from its folder or its `.valkyrie` package, read into memory.

A package is a zip of the quest folder (docs/valkyrie.md). It is read with the standard
library's zipfile, never extracted: every entry name is checked first (no absolute
paths, drive letters, `..` parts, links or folders outside the quest), and sizes are
capped before anything is decompressed (MAX_ENTRY_BYTES per file, MAX_TOTAL_BYTES in
all, MAX_ENTRIES files), reading each entry in bounded chunks so a lying header cannot
exhaust memory. Files are named in diagnostics as `<folder or package>/<file>`, so a
folder and its package give the same diagnostics up to that prefix. Both the package and
a folder's files are read by the guarded reader (compiler/reader.py): regular files
only, bounded, UTF-8 without NUL.
"""

from __future__ import annotations

import io
import os
import posixpath
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from compiler.plugins.api import LINE_BREAK, Refused, Related, Sink, Span, accept_source, read_bytes, refuse, text_of
from questc_valkyrie.ini import IniFile, Localization, Value, read_ini, read_localization

MAX_ENTRY_BYTES = 8 * 1024 * 1024
MAX_TOTAL_BYTES = 64 * 1024 * 1024
MAX_ENTRIES = 2000
MAX_LISTED = MAX_ENTRIES  # files quest.ini may list ([QuestData] and [QuestText], each name once): no more than a package may hold
MAX_PACKAGE_BYTES = MAX_TOTAL_BYTES + 16 * 1024 * 1024  # the package itself: its files, stored, and the zip's own records


@dataclass
class QuestFiles:
    """The quest as read: quest.ini, its data files in the listed order, its texts."""

    root: str  # the folder or package as given, the prefix of every file name shown
    name: str  # the folder's name or the package's stem
    quest: IniFile
    data: list[IniFile] = field(default_factory=list)
    texts: list[Localization] = field(default_factory=list)
    # a quest in a sub-folder of a package of several (docs/valkyrie.md, "Packages of several
    # quests"): that folder, relative to the package ("" for the package's own quest.ini)
    folder: str = ""
    source: "_FolderFiles | _ZipFiles | None" = field(default=None, repr=False, compare=False)

    def shown(self, file: str) -> str:
        return f"{self.root}/{self.folder}/{file}" if self.folder else f"{self.root}/{file}"

    def link(self, name: str) -> str | None:
        """The folder (relative to the package) of the quest an event name such as
        `q2/quest.ini` or `../quest.ini` starts, or None when it names none. The app takes an
        event name that is no event of the quest but a file next to its quest.ini for a
        StartQuestEvent (EventManager.QueueEvent): the path is relative to the folder of the
        quest being played. questc takes only a `quest.ini` inside the package."""
        rel = name.replace("\\", "/")
        if posixpath.basename(rel) != "quest.ini" or rel.startswith("/") or ":" in rel or self.source is None:
            return None
        target = posixpath.normpath(posixpath.join(self.folder, rel))
        if target == ".." or target.startswith("../") or not self.source.has(target):
            return None
        return posixpath.dirname(target)


def linked_quest(q: QuestFiles, folder: str, sink: Sink) -> QuestFiles | None:
    """The quest in `folder` of the package `q` belongs to (a folder `q.link` gave)."""
    if q.source is None:
        return None
    return _read_quest(q.source, q.root, posixpath.basename(folder) or q.name, folder, sink)


def load_quest(path: str | Path, sink: Sink) -> QuestFiles | None:
    """Read a quest folder (holding quest.ini), a quest.ini file, or a `.valkyrie` package."""
    p = Path(path)
    if p.is_file() and p.name == "quest.ini":
        p = p.parent
    files: _FolderFiles | _ZipFiles | None
    if p.is_dir():
        files = _FolderFiles(p)
        root, name = str(p), p.name
    elif os.path.lexists(p):  # a package; anything but a regular file is refused by the reader, by kind
        files = _zip_files(p, sink)
        if files is None:
            return None
        root, name = str(p), p.stem
    else:
        sink.report("VK0201", Span.whole_file(str(p)), path=str(p), problem="no such folder or file")
        return None
    if not files.has("quest.ini"):
        sink.report("VK0203", Span.whole_file(str(p)), path=str(p), problem="it holds no quest.ini")
        return None
    return _read_quest(files, root, name, "", sink)


def _read_quest(files: "_FolderFiles | _ZipFiles", root: str, name: str, folder: str, sink: Sink) -> QuestFiles | None:
    """The quest whose quest.ini lies in `folder` of the package ("": its top)."""
    at = f"{folder}/" if folder else ""
    shown_folder = f"{root}/{folder}" if folder else root
    text = files.read(f"{at}quest.ini", sink, f"{shown_folder}/quest.ini")
    if text is None:
        return None
    quest = read_ini(text, f"{shown_folder}/quest.ini", sink)
    if quest.section("Quest") is None:
        sink.report("VK0203", Span.whole_file(f"{shown_folder}/quest.ini"), path=shown_folder, problem="quest.ini has no [Quest] section")
        return None
    # quest.ini is a data file too: QuestData reads its sections as components before those of
    # the files [QuestData] lists (a single-file quest of an old editor keeps them all there)
    out = QuestFiles(root, name, quest, data=[quest], folder=folder, source=files)
    listed = 0
    for list_name, read_as in (("QuestData", "ini"), ("QuestText", "text")):
        sec = quest.section(list_name)
        # The app keeps each list as a dictionary keyed by the line: a name listed again
        # is ignored (its loader logs a warning), so the file is read once. So here: one
        # VK0205 per repeated name, at its first repeat, counting the others.
        first: dict[str, Value] = {}
        repeats: dict[str, tuple[Value, int]] = {}  # name -> its first repeat, how many repeats
        for entry in (sec.names if sec else []):
            if entry.key in first:
                again, n = repeats.get(entry.key, (entry, 0))
                repeats[entry.key] = (again, n + 1)
                continue
            first[entry.key] = entry
            listed += 1
            if listed > MAX_LISTED:  # the app has no limit; memory and time would have none either
                sink.report("VK0202", entry.span, entry=entry.key,
                            problem=f"quest.ini lists more than {MAX_LISTED} files (a package holds at most {MAX_ENTRIES}); "
                                    "this one and those after it are not read")
                break
            _read_listed(entry, read_as, files, shown_folder, at, out, sink)
        for key, (again, n) in repeats.items():
            sink.report("VK0205", again.span, name=key, times=n + 1,
                        related=(Related(first[key].span, "first listed here"),))
        if listed > MAX_LISTED:
            break
    return out


def _read_listed(entry: Value, read_as: str, files: "_FolderFiles | _ZipFiles", root: str, at: str, out: QuestFiles, sink: Sink) -> None:
    """One file quest.ini lists; `root`: the quest's folder as shown, `at`: its folder inside the package ("" or `sub/`)."""
    rel = entry.key.replace("\\", "/")
    if not _safe(rel):
        sink.report("VK0202", entry.span, entry=entry.key, problem="a data file must lie inside the quest folder")
        return
    if not files.has(at + rel):
        sink.report("VK0204", entry.span, name=entry.key)
        return
    body = files.read(at + rel, sink, f"{root}/{rel}")
    if body is None:
        return
    if read_as == "ini":
        out.data.append(read_ini(body, f"{root}/{rel}", sink))
    else:
        loc = read_localization(body, f"{root}/{rel}", sink)
        if loc is not None:
            out.texts.append(loc)


def _safe(name: str) -> bool:
    pure = PurePosixPath(name)
    return bool(name) and not name.startswith("/") and ":" not in name and ".." not in pure.parts


def _decode(data: bytes, shown: str, sink: Sink) -> str | None:
    text = text_of(data)  # UTF-8 without NUL, or a refusal located at the bad byte
    if isinstance(text, Refused):
        refuse(shown, text, sink, "VK0201", "problem", path=shown)
        return None
    text = LINE_BREAK.sub("\n", text.removeprefix("\ufeff"))
    accept_source(shown, text)  # the renderer shows lines only of accepted text
    return text


class _FolderFiles:
    def __init__(self, root: Path):
        self.root = root
        self._real_root: Path | None = None
        self._found: dict[str, Path | None] = {}  # each name looked up once (has, then read)

    def _path(self, rel: str) -> Path | None:
        if rel not in self._found:
            self._found[rel] = self._lookup(rel)
        return self._found[rel]

    def _lookup(self, rel: str) -> Path | None:
        p = self.root / rel
        try:
            if self._real_root is None:
                self._real_root = self.root.resolve()
            real = p.resolve()
            if self._real_root not in real.parents:
                return None
            # a folder is no file of the quest; a pipe or a device is, and the reader refuses it by kind
            return None if stat.S_ISDIR(real.stat().st_mode) else real
        except OSError:
            return None

    def has(self, rel: str) -> bool:
        return self._path(rel) is not None

    def read(self, rel: str, sink: Sink, shown: str) -> str | None:
        real = self._path(rel)
        if real is None:
            return None
        # the guarded reader, at the resolved path (no link followed there): a regular
        # file, kind and size checked on the open descriptor, at most MAX_ENTRY_BYTES read
        data = read_bytes(real, max_bytes=MAX_ENTRY_BYTES, links=False)
        if isinstance(data, Refused):
            if data.why == "size":
                sink.report("VK0202", Span.whole_file(shown), entry=rel, problem=f"larger than {MAX_ENTRY_BYTES} bytes")
            else:
                refuse(shown, data, sink, "VK0201", "problem", path=shown)
            return None
        return _decode(data, shown, sink)


class _ZipFiles:
    def __init__(self, entries: dict[str, bytes]):
        self.entries = entries

    def has(self, rel: str) -> bool:
        return rel in self.entries

    def read(self, rel: str, sink: Sink, shown: str) -> str | None:
        data = self.entries.get(rel)
        return None if data is None else _decode(data, shown, sink)


def _zip_files(p: Path, sink: Sink) -> _ZipFiles | None:
    shown = str(p)
    # The package is read whole by the guarded reader (a regular file of at most
    # MAX_PACKAGE_BYTES: a FIFO or a device is refused at once), then opened in memory.
    packed = read_bytes(p, max_bytes=MAX_PACKAGE_BYTES)
    if isinstance(packed, Refused):
        refuse(shown, packed, sink, "VK0201", "problem", path=shown)
        return None
    try:
        zf = zipfile.ZipFile(io.BytesIO(packed))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        problem = "not a zip file" if isinstance(exc, zipfile.BadZipFile) else (getattr(exc, "strerror", None) or str(exc))
        sink.report("VK0203", Span.whole_file(shown), path=shown, problem=f"a .valkyrie package is a zip file, and this is {problem}")
        return None
    entries: dict[str, bytes] = {}
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            sink.report("VK0202", Span.whole_file(shown), entry=f"({len(infos)} entries)", problem=f"a package holds at most {MAX_ENTRIES} files")
            return None
        names = [i.filename for i in infos if not i.is_dir()]
        prefix = _common_folder(names)
        total = 0
        refused = False
        for info in infos:
            name = info.filename.replace("\\", "/")
            if info.is_dir():
                continue
            mode = info.external_attr >> 16
            if not _safe(name) or (mode and stat.S_ISLNK(mode)):
                sink.report("VK0202", Span.whole_file(shown), entry=info.filename,
                            problem="it would leave the quest folder" if not _safe(name) else "it is a link")
                refused = True
                continue
            if info.file_size > MAX_ENTRY_BYTES or total + info.file_size > MAX_TOTAL_BYTES:
                sink.report("VK0202", Span.whole_file(shown), entry=info.filename,
                            problem=f"it unpacks to {info.file_size} bytes (limits: {MAX_ENTRY_BYTES} a file, {MAX_TOTAL_BYTES} in all)")
                refused = True
                continue
            try:
                with zf.open(info) as fh:
                    data = fh.read(MAX_ENTRY_BYTES + 1)
            except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError) as exc:
                sink.report("VK0202", Span.whole_file(shown), entry=info.filename, problem=f"it cannot be unpacked ({exc})")
                refused = True
                continue
            if len(data) > MAX_ENTRY_BYTES:
                sink.report("VK0202", Span.whole_file(shown), entry=info.filename, problem=f"it unpacks to more than {MAX_ENTRY_BYTES} bytes")
                refused = True
                continue
            total += len(data)
            entries[name[len(prefix):]] = data
    if refused:
        return None
    return _ZipFiles(entries)


def _common_folder(names: list[str]) -> str:
    """`Quest/` when every entry lies in one top folder (some zip tools add it), else ``."""
    if "quest.ini" in names:
        return ""
    tops = {n.split("/", 1)[0] for n in names if "/" in n}
    if len(tops) == 1 and all("/" in n for n in names):
        top = tops.pop() + "/"
        if top + "quest.ini" in names:
            return top
    return ""

"""questc strings extract|update PACK: the pack's texts for translators, and back.

    questc strings extract PACK -o FILE.pot|FILE.csv   every text: id, source text, where it
                                                       is, the designer's note, the source hash
    questc strings update PACK [--lang L…]             merge the texts into every
                                                       translations/<lang>.po of the pack
                                                       (--lang also creates that file)
    questc strings import PACK FILE.csv --lang L       a filled spreadsheet (the CSV that
                                                       extract writes) into translations/L.po

Both compile the pack first (no images, no sight) and write nothing when it has errors
(a broken quest would look like removed texts). Entries (docs/translations.md):

    #. <the declaration's ## doc comment>
    #. questc-source: <first 12 hex digits of the SHA-256 of the source text>
    #: first_blood.quest:18
    msgctxt "quest.first_blood.e1.flavor"
    msgid "<source text>"
    msgstr "<translation>"

`update` never loses a translation: a text whose source changed keeps its translation,
marked `fuzzy`, with the old source as `#| msgid`; a text that is gone becomes an
obsolete `#~` entry (revived if the id comes back); new texts arrive untranslated. PO
files are read with `sources.read_source`, like all pack content. Exit 0 written, 1 the
pack (or a PO file) has errors, 2 usage.
"""

from __future__ import annotations

import argparse
import bisect
import csv
import io
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from compiler.commands.common import add_conventions, add_pack_arguments, compile_args

if TYPE_CHECKING:
    import polib

    from compiler.diagnostics import Sink, Span
    from compiler.model import Model
    from compiler.model.texts import PlayerText
    from compiler.packs import Pack

CSV_COLUMNS = ("id", "source", "translation", "note", "location", "source_hash")
MAX_SPREADSHEET_BYTES = 16 * 1024 * 1024  # `strings import`: a pack's texts, with room to spare


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    ex = sub.add_parser("extract", help="write every text of a pack to a PO template (.pot) or a CSV file",
                        description="write every text of a pack to a PO template (.pot) or a CSV file")
    add_pack_arguments(ex, many=False)
    add_conventions(ex)
    ex.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.pot (gettext template) or FILE.csv (spreadsheet); `-` writes a template to stdout")
    up = sub.add_parser("update", help="merge new and changed texts into each translations/<lang>.po of the pack",
                        description="merge new and changed texts into each translations/<lang>.po of the pack")
    add_pack_arguments(up, many=False)
    add_conventions(up)
    up.add_argument("--lang", action="append", default=[], metavar="LANG", help="also create translations/LANG.po if it does not exist (repeatable)")
    im = sub.add_parser("import", help="bring the translations of a filled CSV (from `strings extract -o FILE.csv`) into translations/<lang>.po",
                        description="bring the translations of a filled CSV (from `strings extract -o FILE.csv`) into translations/<lang>.po")
    add_pack_arguments(im, many=False)
    add_conventions(im)
    im.add_argument("csv", metavar="FILE.csv", help="the filled spreadsheet: columns id and translation, and source_hash to tell stale rows")
    im.add_argument("--lang", required=True, metavar="LANG", help="the language of the translations (fr, pl, pt_BR)")


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.model import Severity
    from compiler.diagnostics.render import print_diagnostics

    if args.action == "extract" and args.output != "-" and Path(args.output).suffix not in (".pot", ".po", ".csv"):
        sys.stderr.write(f"questc strings extract: error: -o must name a .pot or .csv file, got {args.output!r}\n")
        return 2
    if args.action in ("update", "import"):
        from compiler.catalogs.translations import LANGUAGE

        bad = [lang for lang in ([args.lang] if args.action == "import" else args.lang) if not LANGUAGE.match(lang)]
        if bad:
            sys.stderr.write(f"questc strings {args.action}: error: --lang {bad[0]!r} is not a language code (fr, pl, pt_BR)\n")
            return 2
    result = compile_args(args, images=False, sight=False)
    model = result.model
    errors = [d for d in result.sink.items if d.severity == Severity.ERROR]
    if args.action == "extract":  # a broken translations/*.po does not change the texts
        errors = [d for d in errors if not d.code.startswith("T")]
    if errors or model is None:
        result.sink.items[:] = errors
        print_diagnostics(result.sink, args.format)
        return 1
    texts = texts_in_order(model)
    if args.action == "extract":
        return _extract(texts, model, args)
    if args.action == "import":
        return _import(texts, model, args)
    return _update(texts, model, args)


def texts_in_order(model: Model) -> list[PlayerText]:
    """The pack's texts in the order the PO files and the template list them: by file and
    line, then id."""
    from compiler.model.texts import player_texts

    return sorted(player_texts(model), key=lambda t: (_where(t, model.pack.root), t.id))


def _where(t: PlayerText, root: Path) -> tuple[str, int, int]:
    from compiler.emit.strings import location

    file, line, col = location(t.span, root).rsplit(":", 2)
    return file, int(line), int(col)


# ---------------------------------------------------------------- extract
def _entry(t: PlayerText, root: Path) -> polib.POEntry:
    import polib

    from compiler.catalogs.translations import join_note, source_hash

    file, line, _ = _where(t, root)
    return polib.POEntry(
        msgctxt=t.id, msgid=t.text, msgstr="", occurrences=[(file, str(line))], comment=join_note(t.note, source_hash(t.text))
    )


def _header(po: polib.POFile, pack: Pack, lang: str | None = None) -> None:
    from compiler import __version__

    po.metadata = {
        "Project-Id-Version": f"{pack.id} {pack.version}",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Generator": f"questc {__version__}",
        **({"Language": lang} if lang else {}),
    }


def template(texts: Iterable[PlayerText], model: Model) -> str:
    """The PO template (.pot) of the pack's texts, in source order."""
    import polib

    po = polib.POFile(wrapwidth=78)
    po.header = f"Texts of the questc pack {model.pack.id} for translators (docs/translations.md)."
    _header(po, model.pack)
    for t in texts:
        po.append(_entry(t, model.pack.root))
    return str(po) + "\n" if not str(po).endswith("\n") else str(po)


# Spreadsheet formulas (CSV injection, OWASP's advice): a cell that starts with `=`,
# `+`, `-` or `@` is read by a spreadsheet as a formula, and one that starts with a tab
# or a carriage return can be; such a cell is written with a `'` before it. A text that
# starts with `'` itself gets one more, so that `import` reverses exactly this: it takes
# the `'` off a cell that starts with `'` and then one of these (docs/translations.md).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")
# What a translation cell may not bring into a PO file: NUL (no text file of a pack holds
# one), and the line separators besides LF that polib cuts a line at when it reads the file
# back (FS, GS, RS, NEL, LS, PS): the translation would come back cut short, silently, at
# every later check. CR and CRLF in a cell are line ends, made LF as in every file questc
# reads (written raw, a CR became a new line of the PO file when it was read back).
UNFIT = {"\x00": "NUL", "\x1c": "U+001C (a file separator)", "\x1d": "U+001D (a group separator)",
         "\x1e": "U+001E (a record separator)", "\x85": "U+0085 (a next-line control)",
         "\u2028": "U+2028 (a line separator)", "\u2029": "U+2029 (a paragraph separator)"}


def cell(text: str) -> str:
    """`text` as a spreadsheet cell no spreadsheet reads as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def uncell(text: str) -> str:
    """The text a cell written by `cell` holds (a cell `cell` did not write is left as it is)."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


def spreadsheet(texts: Iterable[PlayerText], model: Model) -> str:
    from compiler.emit.strings import location
    from compiler.catalogs.translations import source_hash

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for t in texts:
        w.writerow(tuple(map(cell, (t.id, t.text, "", t.note or "", location(t.span, model.pack.root), source_hash(t.text)))))
    return out.getvalue()


def _extract(texts: Sequence[PlayerText], model: Model, args: argparse.Namespace) -> int:
    text = spreadsheet(texts, model) if args.output.endswith(".csv") else template(texts, model)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    _write(Path(args.output), text)
    if not args.quiet:
        from compiler.diagnostics.render import visible  # a file name may hold control characters

        sys.stderr.write(f"{len(texts)} texts of {model.pack.id} written to {visible(args.output)}\n")
    return 0


def _write(path: Path, text: str, newline: str = "\n", follow_link: bool = False) -> None:
    """Write `text` whole or not at all (a temporary file beside it, then a rename); a link
    at `path` is replaced unless `follow_link` (a pack file the reader accepted)."""
    from compiler.emit.files import write_atomic

    write_atomic(path, text.replace("\n", newline), follow_link=follow_link)


# ---------------------------------------------------------------- update
def merge(old_text: str | None, texts: Iterable[PlayerText], model: Model, lang: str) -> tuple[str, dict[str, int]]:
    """The PO file of `lang` with the pack's current texts merged in, and counts of what changed."""
    from compiler.catalogs.translations import pofile

    root = model.pack.root
    old = pofile(old_text, wrapwidth=78) if old_text is not None else None
    po = _po_start(old, model, lang)
    live, gone, kept = _old_entries(old)
    counts = {"new": 0, "stale": 0, "obsolete": 0, "revived": 0}
    for t in texts:
        po.append(_merged(t, live, gone, root, counts))
    for e in kept:
        po.append(e)
    for _sid, e in live.items():  # texts that are gone: kept, commented out
        e.obsolete = 1
        e.occurrences = []
        counts["obsolete"] += 1
        po.append(e)
    for _sid, e in gone.items():
        po.append(e)
    text = str(po)
    return (text if text.endswith("\n") else text + "\n"), counts


def _po_start(old: polib.POFile | None, model: Model, lang: str) -> polib.POFile:
    """An empty PO file with the old file's header and metadata (the language and the
    charset added when missing), or a new file's."""
    import polib

    po = polib.POFile(wrapwidth=78)
    if old is not None:
        po.header = old.header
        po.metadata = dict(old.metadata)
        po.metadata.setdefault("Language", lang)
        po.metadata.setdefault("Content-Type", "text/plain; charset=UTF-8")
    else:
        po.header = f"{lang} translation of the questc pack {model.pack.id} (docs/translations.md)."
        _header(po, model.pack, lang)
    return po


def _old_entries(old: polib.POFile | None) -> tuple[dict[str, polib.POEntry], dict[str, polib.POEntry], list[polib.POEntry]]:
    """The old file's entries sorted out: live (by text id), obsolete (by text id), and those
    update does not own (no msgctxt, plurals, duplicates), kept as they are."""
    live: dict[str, polib.POEntry] = {}
    gone: dict[str, polib.POEntry] = {}
    kept: list[polib.POEntry] = []
    for e in old or ():
        if e.obsolete:
            if e.msgctxt is not None:
                gone.setdefault(e.msgctxt, e)
        elif e.msgctxt is None or e.msgid_plural or e.msgctxt in live:
            kept.append(e)
        else:
            live[e.msgctxt] = e
    return live, gone, kept


def _merged(t: PlayerText, live: dict[str, polib.POEntry], gone: dict[str, polib.POEntry], root: Path,
            counts: dict[str, int]) -> polib.POEntry:
    """The entry of text `t`: its live entry (taken out of `live`), else its obsolete one
    revived (out of `gone`), updated to the text (a translation of a changed text marked
    fuzzy); else a new entry. Counted in `counts`."""
    from compiler.catalogs.translations import source_hash, split_note

    fresh = _entry(t, root)
    e = live.pop(t.id, None)
    if e is None and t.id in gone:
        e = gone.pop(t.id)
        e.obsolete = 0
        counts["revived"] += 1
    if e is None:
        counts["new"] += 1
        return fresh
    _, recorded = split_note(e.comment)
    changed = e.msgid != t.text or (recorded is not None and recorded != source_hash(t.text))
    if changed and e.msgstr:
        if "fuzzy" not in e.flags:
            e.flags.append("fuzzy")
            counts["stale"] += 1
        if e.msgid != t.text:
            e.previous_msgid = e.msgid
    e.msgid = t.text
    e.occurrences = fresh.occurrences
    e.comment = fresh.comment
    return e


def _po_path(model: Model, lang: str) -> Path:
    """Where the pack keeps (or will keep) the translation file of `lang`."""
    from compiler.catalogs.translations import FOLDER, language_of

    for tf in model.translation_files:
        if language_of(Path(tf.name)) == lang:
            return model.pack.root / FOLDER / Path(tf.name).name
    return model.pack.root / FOLDER / f"{lang}.po"


def _update(texts: Sequence[PlayerText], model: Model, args: argparse.Namespace) -> int:
    from compiler.diagnostics import Sink
    from compiler.diagnostics.render import print_diagnostics
    from compiler.sources import read_source
    from compiler.catalogs.translations import FOLDER, language_of

    root = model.pack.root
    folder = root / FOLDER
    files = {language_of(Path(tf.name)): Path(tf.name) for tf in model.translation_files}
    paths = {lang: folder / f"{lang}.po" for lang in args.lang}
    paths.update({lang: (root / FOLDER / Path(p).name) for lang, p in files.items()})
    if not paths:
        sys.stderr.write(f"questc strings update: {model.pack.id} has no translations/*.po yet: name a language with --lang (e.g. --lang fr)\n")
        return 2
    folder.mkdir(exist_ok=True)
    sink = Sink()
    for lang, path in sorted(paths.items()):
        newline = "\n"
        old_text = None
        if path.exists():
            src = read_source(root, path, sink, max_bytes=model.options.max_file_bytes)
            if src is None:
                continue
            old_text, newline = src.text, src.newline
        text, counts = merge(old_text, texts, model, lang)
        if text != old_text:
            _write(path, text, newline, follow_link=old_text is not None)  # a file read inside the pack
        if not args.quiet:
            rel = path.relative_to(root).as_posix()
            sys.stderr.write(
                f"{rel}: {counts['new']} new, {counts['stale']} marked fuzzy, {counts['obsolete']} obsolete"
                + (f", {counts['revived']} revived" if counts["revived"] else "")
                + ("" if text != old_text else " (unchanged)") + "\n"
            )
    if sink.items:
        print_diagnostics(sink, args.format)
        return 1
    return 0


# ---------------------------------------------------------------- import
def read_spreadsheet(path: Path, texts: Iterable[PlayerText], sink: Sink) -> dict[str, tuple[str, str | None, Span]] | None:
    """id -> (translation, source hash of the row or None, span of the row) for every row
    of the CSV with a translation, or None when the file cannot be read (T0401). Rows
    naming no text of the pack (T0402) or an id a row before already gave (T0403) are
    reported and left out; an empty translation is no row (it never erases one)."""
    from compiler.diagnostics import Span
    from compiler.diagnostics.hints import did_you_mean

    name = str(path)
    text = _spreadsheet_text(path, sink)
    if text is None:
        return None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None or not {"id", "translation"} <= set(header):
            sink.report("T0401", Span(name, 1, 1), problem="its first row must name the columns, with at least `id` and `translation` "
                        "(the columns `questc strings extract -o FILE.csv` writes: " + ", ".join(CSV_COLUMNS) + ")")
            return None
        col = {c: header.index(c) for c in CSV_COLUMNS if c in header}
        known = {t.id for t in texts}
        rows: dict[str, tuple[str, str | None, Span]] = {}
        unfit = 0
        before = reader.line_num  # the line before the row read next
        for fields in reader:
            span = Span(name, reader.line_num, 1)
            cell = {c: uncell(fields[i] if i < len(fields) else "") for c, i in col.items()}
            bad = next((ch for ch in cell["translation"] if ch in UNFIT), None)
            if bad is not None:
                unfit += 1
                line, column = _cell_place(text, before, col["translation"], bad)
                sink.report("T0401", Span(name, line, column, line, column + 1),
                            problem=f"the translation of row {line} holds {UNFIT[bad]}, which a translation file "
                                    "cannot keep: the text would be cut there when it is read back")
            before = reader.line_num
            cell["translation"] = cell["translation"].replace("\r\n", "\n").replace("\r", "\n")
            sid, translation = cell["id"].strip(), cell["translation"]
            if not sid and not translation:
                continue
            if sid not in known:
                guess = did_you_mean(sid, known, sink=sink)  # the sink's budget: 50,000 misspelt rows took 19 s (make fuzz)
                sink.report("T0402", span, id=sid, hint=f"; did you mean `{guess}`?" if guess else "")
                continue
            if sid in rows:
                sink.report("T0403", span, id=sid, first=rows[sid][2].line)
                continue
            if translation:
                rows[sid] = (translation, cell.get("source_hash", "").strip() or None, span)
    except csv.Error as exc:
        sink.report("T0401", Span(name, reader.line_num or 1, 1), problem=f"it is not well-formed CSV ({exc})")
        return None
    return None if unfit else rows  # nothing is imported from a file with a cell it cannot keep


def _spreadsheet_text(path: Path, sink: Sink) -> str | None:
    """The CSV's text (a byte order mark dropped), or None after T0401. The guarded reader:
    a regular file (a FIFO or /dev/zero is refused at once), at most MAX_SPREADSHEET_BYTES
    of UTF-8 without NUL; line ends kept (a cell may hold one). The text accepted is
    registered, so a row's diagnostic shows the row."""
    from compiler.diagnostics.render import accept_source
    from compiler.reader import Refused, read_text, refuse

    name = str(path)
    got = read_text(path, max_bytes=MAX_SPREADSHEET_BYTES, newlines=False)
    if isinstance(got, Refused):
        advice = " (save it from the spreadsheet as CSV UTF-8)" if got.why in ("utf8", "nul") else ""
        refuse(name, Refused(got.why, got.problem + advice, got.line, got.column), sink, "T0401")
        return None
    text = got.removeprefix("\ufeff")
    accept_source(name, text)  # so that a row's diagnostic shows the row
    return text


_LINE_END = re.compile(r"\r\n|\r|\n")  # where the csv module counts its lines (newline="")
_FIELD = re.compile(r'"(?:[^"]|"")*"|[^,\r\n]*')


def _field_at(text: str, pos: int) -> re.Match[str]:
    m = _FIELD.match(text, pos)
    assert m is not None  # the pattern matches the empty field too
    return m


def _cell_place(text: str, before: int, column: int, ch: str) -> tuple[int, int]:
    """(line, column) of `ch` in field `column` of the row that starts after line `before`
    of `text` (as the csv module counts lines). The csv module gives no positions; the
    row is split again here, which the module's strict reading already accepted."""
    starts = [0] + [m.end() for m in _LINE_END.finditer(text)]
    pos = starts[min(before, len(starts) - 1)]
    for _ in range(column):
        pos = _field_at(text, pos).end() + 1  # over the field and its comma
    field = _field_at(text, pos)
    at = field.start() + max(field.group().find(ch), 0)
    line = bisect.bisect_right(starts, at)
    return line, at - starts[line - 1] + 1


def _import(texts: Sequence[PlayerText], model: Model, args: argparse.Namespace) -> int:
    """Merge the pack's texts into translations/<lang>.po (as `update` does), then set the
    CSV's translations: current when the row's source hash is the text's, fuzzy when the
    row was translated from an older wording (T0404)."""
    from compiler.catalogs.translations import source_hash
    from compiler.diagnostics import Sink
    from compiler.diagnostics.model import Severity
    from compiler.diagnostics.render import print_diagnostics
    from compiler.sources import read_source

    sink = Sink()
    rows = read_spreadsheet(Path(args.csv), texts, sink)
    if rows is None:
        print_diagnostics(sink, args.format)
        return 1
    path = _po_path(model, args.lang)
    old_text, newline = None, "\n"
    if path.exists():
        src = read_source(model.pack.root, path, sink, max_bytes=model.options.max_file_bytes)
        if src is None:
            print_diagnostics(sink, args.format)
            return 1
        old_text, newline = src.text, src.newline
    merged, _ = merge(old_text, texts, model, args.lang)
    from compiler.catalogs.translations import pofile

    po = pofile(merged, wrapwidth=78)
    current = {t.id: t.text for t in texts}
    counts = {"current": 0, "fuzzy": 0}
    for e in po:
        row = rows.get(e.msgctxt) if not e.obsolete else None
        if row is None:
            continue
        translation, recorded, span = row
        e.msgstr = translation
        stale = recorded is not None and recorded != source_hash(current[e.msgctxt])
        if stale:
            if "fuzzy" not in e.flags:
                e.flags.append("fuzzy")
            sink.report("T0404", span, id=e.msgctxt)
            counts["fuzzy"] += 1
        else:
            if "fuzzy" in e.flags:
                e.flags.remove("fuzzy")
            e.previous_msgid = None
            counts["current"] += 1
    text = str(po)
    text = text if text.endswith("\n") else text + "\n"
    path.parent.mkdir(exist_ok=True)
    if text != old_text:
        _write(path, text, newline, follow_link=old_text is not None)  # a file read inside the pack
    if not args.quiet:
        rel = path.relative_to(model.pack.root).as_posix()
        sys.stderr.write(f"{rel}: {counts['current']} translations imported, {counts['fuzzy']} of them marked fuzzy\n")
    if sink.items:
        print_diagnostics(sink, args.format)
    return 1 if any(d.severity == Severity.ERROR for d in sink.items) else 0

"""A Valkyrie quest's texts in its other languages as the imported pack's translations
(docs/valkyrie.md, "Other languages").

A quest lists one `Localization.<Language>.txt` per language in `[QuestText]`; the texts of
its `defaultlanguage` are the quest's (importer.py), and each other language becomes
`translations/<code>.po` of the pack (`German` -> `de.po`, the inverse of the export's table).
The file is the one `questc strings update PACK --lang <code>` writes for the imported pack
(the string ids come from compiling it), with the msgstr of a text filled in when the text is
that of a localisation key the importer read and the key has a text in that language:

- a questc text is matched to the keys the importer read whose default-language text it is,
  exactly (a text the importer built, a joined `say` or a label of its own, matches none
  and stays untranslated);
- when several such keys have different texts in the language (or one has none), the key
  of the Valkyrie section the text's line comes from decides; if none does, the text stays
  untranslated rather than take a guess;
- a key the language lacks (or gives as white space) leaves the text untranslated: the app
  shows the default language's text then (DictionaryI18n.GetValue: the current language,
  then the default one), and so does questc's bundle.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compiler.plugins.api import Sink, Span

if TYPE_CHECKING:
    from questc_valkyrie.importer import Generated
    from questc_valkyrie.ini import Section
    from questc_valkyrie.source import QuestFiles


_EVENT_KEY = re.compile(r"event\d+")


class ReadKeys(dict[str, str]):
    """The importer's texts by localisation key, remembering which keys it read."""

    def __init__(self, texts: dict[str, str]) -> None:
        super().__init__(texts)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:  # noqa: ANN401 - dict.get's own contract
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.read.add(key)
        return super().__getitem__(key)


def language_codes() -> dict[str, str]:
    """Valkyrie's language names -> questc's language codes (the export's table, inverted)."""
    from questc_valkyrie.exporter import LANGUAGES

    return {name: code for code, name in LANGUAGES.items()}


def default_language(q: QuestFiles) -> str:
    section = q.quest.section("Quest")
    return (section.get("defaultlanguage") or "English") if section is not None else "English"


def other_languages(q: QuestFiles, sink: Sink | None) -> dict[str, str]:
    """The quest's languages other than its default one that questc has a code for:
    Valkyrie name -> code. A language with no code: VK0303 at its file's header (`sink`)."""
    codes = language_codes()
    default = default_language(q)
    out: dict[str, str] = {}
    for loc in q.texts:
        for lang in loc.languages:
            if lang == default or lang in out:
                continue
            code = codes.get(lang)
            if code is not None:
                out[lang] = code
            elif sink is not None:
                sink.report("VK0303", Span(loc.path, 1), section="QuestText", key=loc.path.rsplit("/", 1)[-1],
                            what=f"the texts in `{lang}` as a translation (questc names a translation by its "
                                 f"language code and has one for {', '.join(sorted(codes))} only)")
    return out


def check_languages(gen: Generated, sink: Sink) -> None:
    """What `questc --plugin valkyrie check` says of the other languages: a language the
    import would leave out (VK0303)."""
    for q, _ in gen.sources.values():
        other_languages(q, sink)


def _belongs(origin: Span | None, section: Section | None) -> bool:
    """Whether the Valkyrie line `origin` is the header or a line of `section`."""
    if origin is None or section is None or origin.file != section.span.file:
        return False
    return origin.line == section.span.line or any(v.span.line == origin.line for v in section.values.values())


def _texts(q: QuestFiles, lang: str) -> dict[str, str]:
    """Key -> text in `lang` (the first file giving a key wins, as the importer reads them);
    a text of white space alone is none: the app's DictionaryI18n.GetValue passes over it to
    the default language's."""
    out: dict[str, str] = {}
    for loc in q.texts:
        for key, t in loc.texts.get(lang, {}).items():
            if t.text.strip():
                out.setdefault(key, t.text)
    return out


def translation_files(gen: Generated, sink: Sink) -> dict[str, str]:
    """`translations/<code>.po` (relative path -> text) for each language of the imported
    quests other than their default one; {} when they have none. Never raising: an
    exception is a bug of questc's, VK0399 (run.report_failure), and no translation."""
    from questc_valkyrie.run import report_failure

    try:
        return _translation_files(gen, sink)
    except Exception as exc:  # noqa: BLE001 - an importer bug is a located diagnostic, never a crash
        first = next(iter(gen.sources.values()), None)
        report_failure(exc, first[0].shown("quest.ini") if first is not None else gen.quest_id, sink)
        return {}


def _translation_files(gen: Generated, sink: Sink) -> dict[str, str]:
    from compiler.plugins.api import Options, compile_paths, player_texts, translation_file
    from questc_valkyrie.run import write_pack

    langs: dict[str, str] = {}
    for q, _ in gen.sources.values():
        langs.update(other_languages(q, sink))
    if not langs:
        return {}
    with tempfile.TemporaryDirectory(prefix="questc-valkyrie-") as tmp:
        pack = Path(tmp) / gen.quest_id
        if not write_pack(gen, pack, Sink()):
            return {}
        result = compile_paths([str(pack)], Options(images=False, sight=False), Sink())
        model = result.model
        if model is None:
            q = next(iter(gen.sources.values()))[0]
            section = q.quest.section("QuestText")
            sink.report("VK0303", section.span if section is not None else Span.whole_file(q.shown("quest.ini")),
                        section="QuestText", key="Localization",
                        what="the texts in the other languages (the imported pack does not compile, so its texts have no ids)")
            return {}
        chosen: dict[str, dict[str, str]] = {code: {} for code in langs.values()}  # code -> string id -> translation
        root = pack.resolve()
        tables = {rel: _Tables(q, read) for rel, (q, read) in gen.sources.items()}
        for t in player_texts(model):
            try:
                rel = Path(t.span.file).resolve().relative_to(root).as_posix()
            except ValueError:
                continue
            if rel not in gen.sources:
                continue
            origins = gen.parts[rel][0] if rel in gen.parts else gen.origins
            for lang, code in langs.items():
                found = tables[rel].translation(lang, t.text, origins.get(t.span.line))
                if found is not None:
                    chosen[code][t.id] = found
        return {f"translations/{code}.po": translation_file(model, code, chosen[code]) for code in sorted(chosen)}


class _Tables:
    """One imported quest's texts as `_translation` looks them up, built on first use."""

    def __init__(self, q: QuestFiles, read: frozenset[str]) -> None:
        self.q = q
        base = _texts(q, default_language(q))
        self.by_text: dict[str, list[str]] = {}  # a default-language text -> the keys read that hold it
        for key in sorted(read):
            if key in base:
                self.by_text.setdefault(base[key], []).append(key)
        self.sections = {s.name: s for ini in q.data for s in ini.sections}
        # a line `event<i>=A B` (file, line) -> the sections it names: the line of a `choice` or
        # `option` written on one line with its branch names the branch's first section
        self.leads: dict[tuple[str, int], frozenset[str]] = {
            (v.span.file, v.span.line): frozenset(v.text.split())
            for sec in self.sections.values() for key, v in sec.values.items() if _EVENT_KEY.fullmatch(key)}
        self.langs: dict[str, dict[str, str]] = {}

    def shown(self, name: str) -> str:
        """The first section of the chain from `name` that shows a dialog: past sections of
        `display=false` that lead to one section alone (the export's head of a choice's chain)."""
        for _ in range(16):
            sec = self.sections.get(name)
            nxt = (sec.get("event1") or "").split() if sec is not None else []
            if sec is None or (sec.get("display") or "true").lower() != "false" or len(nxt) != 1:
                return name
            name = nxt[0]
        return name

    def translation(self, lang: str, text: str, origin: Span | None) -> str | None:
        """The text in `lang` of the key the importer took `text` from, or None (no such key,
        no text in `lang`, or keys that disagree and no section to decide)."""
        other = self.langs.get(lang)
        if other is None:
            other = self.langs[lang] = _texts(self.q, lang)
        keys = self.by_text.get(text, [])
        values = {other.get(k) for k in keys}
        if len(values) > 1:  # keys of one text translated differently: the section of the text's line decides
            mine = [k for k in keys if _belongs(origin, self.sections.get(k.rsplit(".", 1)[0]))]
            if not mine and origin is not None:  # else the section the line's `event<i>` names
                named = {self.shown(n) for n in self.leads.get((origin.file, origin.line), frozenset())}
                mine = [k for k in keys if k.rsplit(".", 1)[0] in named]
            values = {other.get(k) for k in mine}
        return values.pop() if len(values) == 1 else None

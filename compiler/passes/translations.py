"""The translations pass: the pack's `translations/<lang>.po` files against its string table.

Reads the quests, encounters, cards and cooperative quests (their texts, by the ids the
bundle gives them: compiler/model/texts.py) and the parsed PO files (compiler/catalogs/translations.py,
read in the load stage). Per language it reports, as warnings (`--strict` makes them
count as errors):

- T0201 an entry whose id is no text of the pack (with the closest id);
- T0202 a stale entry: marked fuzzy, or translated from another wording than the
  current source (its msgid, or its recorded source hash, differs);
- T0203 a translation whose placeholders or markup differ from the source's;
- T0204 the texts with no translation yet, once per language;

and, as an error, T0205 a translation longer than the cap of the text it translates (a
name 200 characters, any other text 10,000: compiler/syntax/lengths.py).

It writes `languages`: language -> string id -> translation, only the translations a
front end can show (current, non-empty, placeholders intact). Every language with a file
is there, even when none of its entries is usable, so a build never drops a language
silently; texts left out fall back to the source text in the bundle's `strings`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from compiler.diagnostics import Sink, Span
from compiler.diagnostics.hints import did_you_mean
from compiler.model import Model
from compiler.model.texts import player_texts
from compiler.catalogs.translations import placeholders, source_hash
from compiler.syntax.lengths import limit_of

SHOWN = 5  # ids named in a T0204 message


def translations_pass(model: Model, sink: Sink) -> Model:
    texts = {t.id: t for t in player_texts(model)}
    languages = {}
    for tf in model.translation_files:
        usable: dict[str, str] = {}
        for e in tf.entries:
            current = texts.get(e.id)
            if current is None:
                guess = did_you_mean(e.id, texts)
                sink.report("T0201", e.span, id=e.id, lang=tf.lang, hint=f"; did you mean `{guess}`?" if guess else "")
                continue
            if not e.text:
                continue
            limit = limit_of(e.id.rsplit(".", 1)[-1])  # a name's cap or a text's (syntax/lengths.py)
            if len(e.text) > limit:
                sink.report("T0205", e.span, lang=tf.lang, id=e.id, length=len(e.text), limit=limit)
                continue
            if e.fuzzy or e.source != current.text or (e.source_hash is not None and e.source_hash != source_hash(current.text)):
                why = "marked fuzzy" if e.fuzzy else "the source text changed since it was translated"
                sink.report("T0202", e.span, id=e.id, lang=tf.lang, why=why)
                continue
            want, got = placeholders(current.text), placeholders(e.text)
            if want != got:
                sink.report("T0203", e.span, id=e.id, lang=tf.lang, expected=_listed(want), found=_listed(got))
                continue
            usable[e.id] = e.text
        translated = {e.id for e in tf.entries if e.text}
        missing = [sid for sid in texts if sid not in translated]
        if missing:
            shown = ", ".join(f"`{m}`" for m in sorted(missing)[:SHOWN]) + (", …" if len(missing) > SHOWN else "")
            sink.report("T0204", Span.whole_file(tf.name), lang=tf.lang, count=len(missing), total=len(texts), ids=shown)
        languages[tf.lang] = MappingProxyType(dict(sorted(usable.items())))
    return model.with_(languages=MappingProxyType(languages))


def _listed(found: Mapping[str, int]) -> str:
    return ", ".join(f"`{p}`" + (f" ×{n}" if n > 1 else "") for p, n in sorted(found.items())) or "none"

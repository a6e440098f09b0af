"""Finding, checking, enabling and guarding plugins (docs/plugins.md).

    installed() -> {name: entry point}        what could be enabled (reads metadata only)
    enable(requests, sink) -> bool           load exactly these plugins for this run
    active() / importers() / exporters() / commands()
    run_plugin_passes(model, sink) -> model  every enabled plugin's passes, guarded
    guard(loaded, what, sink, span, fn, *a)  run plugin code: an exception becomes E0103

A plugin's code is imported only when the user enabled it; a failure to load is one
diagnostic (E0101 not installed, E0102 broken) and the command stops with exit 2.
While it runs, an exception (E0103) or a diagnostic code outside its prefix (E0104) is
reported with its name and questc carries on.
"""

from __future__ import annotations

import re
import traceback
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Mapping, TypeVar, cast

from compiler.diagnostics import Sink, Span
from compiler.diagnostics.model import Diagnostic
from compiler import frozen
from compiler.plugins import GROUP, SHARED_CODES, Command, Exporter, Importer, Plugin

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from compiler.diagnostics.catalogue import Entry
    from compiler.model import Model

PREFIX = re.compile(r"[A-Z]{2,4}")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@frozen
class Loaded:
    name: str
    plugin: Plugin
    codes: frozenset[str]  # its catalogue entries (under its prefix)
    origin: str  # "package version" of the distribution that registered it

    def owns(self, code: str) -> bool:
        return code in self.codes or code in SHARED_CODES


_ACTIVE: dict[str, Loaded] = {}


def installed() -> dict[str, metadata.EntryPoint]:
    """The plugins any installed package registers, by name (no plugin code is imported)."""
    found: dict[str, metadata.EntryPoint] = {}
    for ep in sorted(metadata.entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        found.setdefault(ep.name, ep)
    return found


def active() -> tuple[Loaded, ...]:
    return tuple(_ACTIVE.values())


def enabled_names() -> tuple[str, ...]:
    return tuple(_ACTIVE)


def reset() -> None:
    """Disable every plugin (and forget their catalogue entries)."""
    from compiler.diagnostics.catalogue import forget_plugin_codes

    for loaded in _ACTIVE.values():
        forget_plugin_codes(loaded.codes)
    _ACTIVE.clear()
    _ENTRIES.clear()


def enable(requests: list[tuple[str, Span]], sink: Sink, builtin_commands: Collection[str] = ()) -> bool:
    """Enable exactly the plugins named (each with where it was asked for), in order, in
    place of those enabled before. False when one could not be enabled (reported).
    `builtin_commands`: the names a plugin's command may not take (the command line
    passes its own, so this layer never imports it)."""
    reset()
    return add(requests, sink, builtin_commands)


def add(requests: list[tuple[str, Span]], sink: Sink, builtin_commands: Collection[str] = ()) -> bool:
    """Enable these plugins as well (those already enabled stay)."""
    ok = True
    available: dict[str, metadata.EntryPoint] | None = None
    for name, span in requests:
        if name in _ACTIVE:
            continue
        if available is None:
            available = installed()
        ep = available.get(name)
        if ep is None:
            from compiler.diagnostics.hints import did_you_mean

            guess = did_you_mean(name, list(available))
            hint = f"; did you mean `{guess}`?" if guess else (f" (installed: {', '.join(available)})" if available else " (no plugin is installed)")
            sink.report("E0101", span, name=name, hint=hint, fix=guess)
            ok = False
            continue
        loaded = _load(name, ep, span, sink, builtin_commands)
        if loaded is None:
            ok = False
            continue
        from compiler.diagnostics.catalogue import register_plugin_codes

        register_plugin_codes(loaded_entries(loaded))
        _ACTIVE[name] = loaded
    return ok


_ENTRIES: dict[str, dict[str, Entry]] = {}  # plugin name -> its catalogue entries, kept while enabled


def loaded_entries(loaded: Loaded) -> dict[str, Entry]:
    return _ENTRIES[loaded.name]


def _load(name: str, ep: metadata.EntryPoint, span: Span, sink: Sink, builtin_commands: Collection[str]) -> Loaded | None:
    def broken(problem: str) -> None:
        sink.report("E0102", span, name=name, problem=problem)

    try:
        obj = ep.load()
        plugin = obj() if callable(obj) and not isinstance(obj, Plugin) else obj
    except Exception as exc:  # noqa: BLE001 - any failure of a plugin's own code is its problem, reported
        broken(_problem(exc))
        return None
    if not isinstance(plugin, Plugin):
        broken(f"its entry point `{ep.value}` gives {type(plugin).__name__}, not a compiler.plugins.Plugin")
        return None
    dist = getattr(ep, "dist", None)
    origin = f"{dist.name} {dist.version}" if dist is not None else ep.value
    try:
        entries = _entries(plugin)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        broken(f"its diagnostic catalogue cannot be read: {_problem(exc)}")
        return None
    problem = _declaration_problem(name, plugin, entries, builtin_commands)
    if problem:
        broken(problem)
        return None
    _ENTRIES[name] = entries
    return Loaded(name, plugin, frozenset(entries), origin)


def _entries(plugin: Plugin) -> dict[str, Entry]:
    from compiler.diagnostics.catalogue import entry_of

    raw = plugin.codes
    if isinstance(raw, (str, Path)) or hasattr(raw, "read_text"):
        from compiler.catalogs.yamlload import load_plain  # nested too deep: TooDeep, a ValueError
        from compiler.resources import packaged_text  # a plugin's own table: part of the installed plugin

        raw = load_plain(packaged_text(Path(raw) if isinstance(raw, (str, Path)) else cast("Traversable", raw))) or {}
    if not isinstance(raw, Mapping):
        raise ValueError("it is not a mapping of code -> entry")
    return {str(code): entry_of(str(code), entry) for code, entry in raw.items()}


def _declaration_problem(name: str, plugin: Plugin, entries: dict[str, Entry], builtin_commands: Collection[str]) -> str | None:
    from compiler.diagnostics.catalogue import CATALOGUE

    if not NAME.fullmatch(name):
        return f"`{name}` is not a plugin name (letters, digits, `-`, `_`, `.`)"
    if plugin.api:  # the plugin API version it needs (docs/plugins.md, "The API and its version")
        from compiler.plugins.api import version_problem

        wrong = version_problem(str(plugin.api))
        if wrong:
            return wrong
    if entries or plugin.passes:
        if not PREFIX.fullmatch(plugin.prefix or ""):
            return f"its code prefix `{plugin.prefix}` is not two to four capital letters"
    for code, entry in entries.items():
        if not re.fullmatch(re.escape(plugin.prefix) + r"[0-9]{4}", code):
            return f"its catalogue entry {code} is not `{plugin.prefix}` and four digits"
        try:
            entry.format(**{f: "" for f in entry.fields})
        except (KeyError, ValueError, IndexError):
            return f"the message of {code} is not a valid template"
        if code in dict.keys(CATALOGUE) and not any(code in other.codes for other in _ACTIVE.values()):
            return f"its code {code} is a built-in code"
    for other in _ACTIVE.values():
        if other.plugin.prefix and other.plugin.prefix == plugin.prefix:
            return f"its prefix `{plugin.prefix}` is already the prefix of plugin `{other.name}`"
    for kind, mine, theirs in (
        ("importer", plugin.importers, importers()),
        ("exporter", plugin.exporters, exporters()),
        ("command", plugin.commands, commands()),
    ):
        names = [x.name for x in mine]
        if len(set(names)) != len(names):
            return f"it declares two {kind}s of one name"
        for x in mine:
            if x.name in theirs:
                return f"its {kind} `{x.name}` is already given by plugin `{theirs[x.name][0].name}`"
    for c in plugin.commands:
        if c.name in builtin_commands:
            return f"its command `{c.name}` is a built-in command"
    return None


def _problem(exc: BaseException) -> str:
    """An exception in one line: its type and message, and the plugin's line that raised."""
    text = f"{type(exc).__name__}: {exc}".rstrip(": ").splitlines()[0] if str(exc) else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {Path(last.filename).name}:{last.lineno})"
    return text


def importers() -> dict[str, tuple[Loaded, Importer]]:
    return {x.name: (p, x) for p in _ACTIVE.values() for x in p.plugin.importers}


def exporters() -> dict[str, tuple[Loaded, Exporter]]:
    return {x.name: (p, x) for p in _ACTIVE.values() for x in p.plugin.exporters}


def commands() -> dict[str, tuple[Loaded, Command]]:
    return {x.name: (p, x) for p in _ACTIVE.values() for x in p.plugin.commands}


T = TypeVar("T")


def guard(loaded: Loaded, what: str, sink: Sink, span: Span, fn: Callable[..., T], *args: object) -> tuple[bool, T | None]:
    """Run plugin code. Its diagnostics are checked against its codes (E0104 for one that
    is not its own); an exception is E0103 at `span`. Returns (finished, result)."""
    local = Sink()
    result: T | None
    try:
        result = fn(*args, local)
        finished = True
    except Exception as exc:  # noqa: BLE001 - a plugin never takes questc down
        result, finished = None, False
        sink.report("E0103", span, name=loaded.name, what=what, problem=_problem(exc))
    for d in local.items:
        if loaded.owns(d.code):
            sink.items.append(d)
        else:
            out = sink.report("E0104", d.span, name=loaded.name, code=d.code, prefix=loaded.plugin.prefix, message=d.message)
            if d.related:
                sink.items[-1] = Diagnostic(out.code, out.severity, out.message, out.span, d.related, out.fix)
    return finished, result


def run_plugin_passes(model: Model, sink: Sink) -> Model:
    """The passes of the plugins `model.options.plugins` names, in order, after the
    built-in ones. A plugin named there but not enabled yet is enabled now (library use);
    one that cannot be is reported once at the pack."""
    names = getattr(model.options, "plugins", ())
    if not names:
        return model
    span = model.pack.span
    missing = [n for n in names if n not in _ACTIVE]
    if missing:
        add([(n, span) for n in missing], sink)
    for name in names:
        loaded = _ACTIVE.get(name)
        if loaded is None:
            continue
        for p in loaded.plugin.passes:
            if p.needs and not any(model.has(n) for n in p.needs):
                continue
            guard(loaded, f"pass `{p.name}`", sink, span, p.function, model)
    return model


def asked_for(model: Model, sink: Sink) -> None:
    """E0105 for each plugin a pack of the closure asks for (pack.yaml `plugins:`) that
    is not enabled."""
    enabled = set(getattr(model.options, "plugins", ())) | set(_ACTIVE)
    have = installed() if any(n not in enabled for pack in model.packs for n in pack.plugins) else {}
    for pack in model.packs:
        for i, name in enumerate(pack.plugins):
            if name in enabled:
                continue
            hint = "" if name in have else " (and it is not installed)"
            sink.report("E0105", pack.doc.span(("plugins", i)), pack=pack.id, name=name, hint=hint,
                        fix=f"questc --plugin {name} …, or plugins = [\"{name}\"] in questc.toml")


"""`questc lsp`: the Language Server Protocol over stdio, on pygls 2.

Every request is answered by compiler/commands/editor/engine.py; this module only converts between
LSP's types and the engine's, publishes diagnostics and keeps the server alive:

- diagnostics: an opened document's pack is checked at once; after an edit the check
  waits `debounce` seconds for the next edit (one check per burst of typing). The
  check reads the editor's text of every open document (the source overlay) and
  publishes the diagnostics of the documents opened, edited, saved or closed since the
  pack's last check, and of every other file of the pack and its required packs only
  when they differ from what was last published for it (an empty list for a file
  whose last ones went away). Opening N documents is N messages, not N²/2. A document
  outside any pack gets none, and no error. An unsaved text is held to a file's rules
  (size limit, NUL: P0107, P0106; engine.py).
- every handler is guarded: an exception is logged (stderr and window/logMessage) and
  the request answered with nothing (null / empty list); the server keeps serving.
- any bytes on standard input: messages are read by framing.py (bounded headers and
  bodies, a lying Content-Length passed over) and a body that is not UTF-8 or not JSON
  is refused and logged, and answered with a JSON-RPC parse error when it is a request
  whose id can be read (`QuestServer.take`).

Everything runs on the event loop's thread, one message at a time, so the engine, the
overlay and the remembered results (compiler/memo.py) need no locks.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
import threading
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, TypeVar, cast
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from compiler import __version__
from compiler.diagnostics import Severity
from compiler.commands.editor.engine import CHECKED_SUFFIXES, Checked, Engine, Place, Preview, natural_key, pack_root

if TYPE_CHECKING:
    from compiler.commands.editor.framing import Framer

log = logging.getLogger("questc.lsp")

DEBOUNCE = 0.03  # seconds of quiet after an edit before the pack is checked again
PREVIEW_COMMAND = "questc.previewMap"
PREVIEW_NOTIFICATION = "questc/previewUpdated"

SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTE: types.DiagnosticSeverity.Information,
}

KIND = {
    "keyword": types.CompletionItemKind.Keyword,
    "tile": types.CompletionItemKind.Module,
    "monster": types.CompletionItemKind.Class,
    "terrain": types.CompletionItemKind.Constant,
    "variable": types.CompletionItemKind.Variable,
    "door": types.CompletionItemKind.Field,
    "token": types.CompletionItemKind.Field,
    "mark": types.CompletionItemKind.Reference,
}


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    try:
        return Path(unquote(parsed.path)).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def path_to_uri(path: Path) -> str:
    return Path(path).resolve().as_uri()


def lsp_range(place: Place) -> types.Range:
    return types.Range(types.Position(place.line, place.char), types.Position(place.end_line, place.end_char))


class _Unreadable:
    """A message that could not be read: its request was already answered with an error."""

    jsonrpc = "unreadable"


class QuestProtocol(LanguageServerProtocol):
    """pygls 2 logs a request whose params it cannot read (a negative position, a missing
    field) and never answers it, so the client waits forever: answer it with the
    JSON-RPC error InvalidParams instead."""

    def structure_message(self, data: dict[str, Any]) -> object:
        try:
            return super().structure_message(data)
        except Exception as exc:  # noqa: BLE001
            if isinstance(data, dict) and "id" in data and "method" in data:
                error = exc if isinstance(exc, JsonRpcInvalidParams) else JsonRpcInvalidParams()
                self._send_response(data["id"], error=error.to_response_error())
            return _Unreadable()


class QuestServer(LanguageServer):
    def __init__(self, debounce: float = DEBOUNCE, pack_path: tuple[str, ...] = ()) -> None:
        super().__init__("questc", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=QuestProtocol)
        self.engine = Engine(pack_path)
        self.debounce = debounce
        self.pending: dict[Path, asyncio.Handle] = {}
        self.published: dict[Path, set[Path]] = {}  # pack root -> files given diagnostics last time
        self.sent: dict[Path, list[types.Diagnostic]] = {}  # file -> the diagnostics last published for it
        self.touched: dict[Path, set[Path]] = {}  # pack root -> documents opened, edited or closed since its check
        self.previews: dict[tuple[Path, str], Preview] = {}  # (pack root, map id) -> the preview shown
        self.saved: set[Path] = set()  # packs with a save since their last check: previews are redrawn

    # ---- reporting
    def log_error(self, what: str, exc: BaseException) -> None:
        text = f"questc lsp: {what} failed: {exc!r}\n" + "".join(traceback.format_exception(exc))
        log.error(text)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=text))
        except Exception:  # noqa: BLE001 - the client may be gone; stderr has it
            pass

    # ---- diagnostics
    def schedule(self, path: Path, delay: float) -> None:
        root = pack_root(path)
        if root is None or path.suffix not in (*CHECKED_SUFFIXES,):
            return
        self.touched.setdefault(root, set()).add(Path(path).resolve())
        old = self.pending.pop(root, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        if delay <= 0:
            self.pending[root] = loop.call_soon(self.publish, root)
        else:
            self.pending[root] = loop.call_later(delay, self.publish, root)

    def publish(self, root: Path) -> None:
        self.pending.pop(root, None)
        touched = self.touched.pop(root, set())
        try:
            checked = self.engine.check(root)
            files = set(checked.by_file)
            mine = {p for p in self.engine.texts if p.suffix in CHECKED_SUFFIXES and pack_root(p) == root}
            lines: dict[Path, list[str]] = {}
            for path in sorted(files | mine | self.published.get(root, set())):
                diags: list[types.Diagnostic] = []
                for d in checked.by_file.get(path, []):
                    place = self.engine.place(d.span, lines)
                    if place is None:
                        continue
                    diags.append(types.Diagnostic(
                        range=lsp_range(place),
                        message=d.message + (f"\nhelp: {d.fix}" if d.fix and " " in d.fix else ""),
                        severity=SEVERITY.get(d.severity, types.DiagnosticSeverity.Error),
                        code=d.code,
                        source="questc",
                        data={"fix": d.fix} if d.fix else None,
                    ))
                # the document the user touched always (its squiggles may have moved with the
                # edit), any other file only when its diagnostics changed
                if path in touched or self.sent.get(path) != diags:
                    self.sent[path] = diags
                    self.text_document_publish_diagnostics(
                        types.PublishDiagnosticsParams(uri=path_to_uri(path), diagnostics=diags))
            self.published[root] = files
        except Exception as exc:  # noqa: BLE001 - a failed check must not end the server
            self.log_error(f"checking {root}", exc)
            return
        if root in self.saved:
            self.saved.discard(root)
            self.refresh_previews(root, checked)

    # ---- reading messages (framing.py)
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """pygls's stdio loop with questc's reader: any bytes, never an exit or a hang
        on a message it cannot read."""
        from pygls.io_ import StdoutWriter

        from compiler.commands.editor.framing import Framer

        self._stop_event = stop = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self._read_messages(Framer(stdin or sys.stdin.buffer), stop))
        except BrokenPipeError:
            log.error("questc lsp: the client closed the connection")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]  # pygls 2.1 leaves LanguageServer.shutdown unannotated

    async def _read_messages(self, framer: Framer, stop: threading.Event) -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            if framer.buffered():  # arrived while the server was busy: taken with the others, one check for all
                got = framer.next()
            else:
                got = await loop.run_in_executor(self.thread_pool, framer.next)
            if framer.skipped:
                self.refuse(f"{framer.skipped:,} bytes that were no message header were passed over")
                framer.skipped = 0
            if got[0] == "end":
                return
            if got[0] == "rejected":
                self.refuse(str(got[1]))
            else:
                self.take(got[1])

    def take(self, body: bytes) -> None:
        """Handle one message's body: refused (and answered with a parse error when it is a
        request whose id can be read) when it is not UTF-8 or not JSON."""
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            why = f"it is not UTF-8 (byte 0x{body[exc.start]:02x} at offset {exc.start})"
            self.refuse(f"a message of {len(body):,} bytes was refused: {why}", body.decode("utf-8", "replace"), why)
            return
        try:
            message = json.loads(text, object_hook=self.protocol.structure_message)
        except (ValueError, RecursionError) as exc:
            self.refuse(f"a message of {len(body):,} bytes was refused: it is not JSON ({exc})")
            return
        try:
            self.protocol.handle_message(message)
        except (AttributeError, TypeError) as exc:  # JSON, but no JSON-RPC message (a list, a number, no "jsonrpc")
            self.refuse(f"a message of {len(body):,} bytes was refused: it is no JSON-RPC message ({exc!r})",
                        text, "it is no JSON-RPC 2.0 message", JsonRpcInvalidRequest)
        except Exception as exc:  # noqa: BLE001 - one message must not end the server
            self.log_error("handling a message", exc)

    def refuse(self, what: str, text: str | None = None, why: str = "",
               error_cls: type[JsonRpcException] = JsonRpcParseError) -> None:
        """Log a message that could not be read; answer it with a JSON-RPC error (a parse
        error unless said) when `text` (what was read of it) is a request with an id."""
        log.warning("questc lsp: %s", what)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=f"questc lsp: {what}"))
        except Exception:  # noqa: BLE001 - the client may be gone; stderr has it
            pass
        if text is None:
            return
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return
        if isinstance(data, dict) and isinstance(data.get("method"), str) and isinstance(data.get("id"), (int, str)) \
                and not isinstance(data.get("id"), bool):
            error = error_cls(f"questc lsp cannot read this message: {why}")
            self.protocol._send_response(data["id"], error=error.to_response_error())

    # ---- previews
    def preview_params(self, preview: Preview, stale: str = "") -> dict[str, object]:
        out: dict[str, object] = {"uri": path_to_uri(preview.png), "map": preview.map_id, "quest": preview.quest,
               "encounter": preview.encounter}
        if stale:
            out["stale"] = stale
        return out

    def refresh_previews(self, root: Path, checked: Checked) -> None:
        """Draw again every map shown from this pack, after a save; a map that no longer
        assembles keeps its last picture and is reported `stale`."""
        from compiler.commands.editor.engine import render_preview

        for (r, map_id), old in sorted(self.previews.items(), key=lambda kv: kv[0][1]):
            if r != root:
                continue
            try:
                got = None
                if checked.model is not None:
                    got = render_preview(checked.model, root, map_id, old.quest, old.encounter, old.png.parent.parent)
                params = self.preview_params(got) if got is not None else self.preview_params(
                    old, stale="the map has errors; this is its last good picture")
                self.protocol.notify(PREVIEW_NOTIFICATION, params)
            except Exception as exc:  # noqa: BLE001
                self.log_error(f"redrawing {map_id}", exc)


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed: the request was understood but cannot be done (a rename the
    pack does not allow); the message says why and the editor shows it."""

    CODE = -32803
    MESSAGE = "Request failed"


Handler = TypeVar("Handler", bound=Callable[[QuestServer, Any], object])


def guarded(default: Callable[[], object] | None = None) -> Callable[[Handler], Handler]:
    """Log any exception of a handler and answer `default`: one bad request never ends the server.
    `default` makes the handler's own nothing (None, or `list` for a handler answering a list)."""

    def wrap(fn: Handler) -> Handler:
        @functools.wraps(fn)
        def run(ls: QuestServer, params: Any) -> object:
            try:
                return fn(ls, params)
            except JsonRpcException:
                raise  # a deliberate error answer (pygls sends it)
            except Exception as exc:  # noqa: BLE001
                ls.log_error(fn.__name__, exc)
                return default() if callable(default) else default

        # the same signature; the answer after an exception is the handler's own nothing
        return cast(Handler, run)

    return wrap


def create_server(debounce: float = DEBOUNCE, pack_path: tuple[str, ...] = ()) -> QuestServer:
    """A server with its handlers registered, each a function of its own below: the
    documents' life (open, change, save, close: each schedules a check), the map preview
    command, and one handler per language feature."""
    server = QuestServer(debounce, pack_path)
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.command(PREVIEW_COMMAND)(preview_map)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(types.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(types.TEXT_DOCUMENT_REFERENCES)(references)
    server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)(prepare_rename)
    server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))(rename)
    server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", "."]))(completion)
    server.feature(types.TEXT_DOCUMENT_FORMATTING)(formatting)
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                   types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))(code_action)
    return server


# ---------------------------------------------------------------- handlers
@guarded()
def did_open(ls: QuestServer, params: types.DidOpenTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return
    ls.engine.open(path, params.text_document.text)
    ls.schedule(path, 0)


@guarded()
def did_change(ls: QuestServer, params: types.DidChangeTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return
    doc = ls.workspace.get_text_document(params.text_document.uri)  # pygls applied the changes
    ls.engine.change(path, doc.source)
    ls.schedule(path, ls.debounce)


@guarded()
def did_save(ls: QuestServer, params: types.DidSaveTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is not None:
        root = pack_root(path)
        if root is not None and any(r == root for r, _ in ls.previews):
            ls.saved.add(root)
        ls.schedule(path, 0)


def preview_map(ls: QuestServer, *args: object) -> dict[str, object]:
    """Arguments: the document's URI and a position ({line, character}) inside a quest or
    encounter, optionally a folder for the PNG. Answers {uri, map, quest, encounter}
    and, after each save of the pack, sends questc/previewUpdated with the same."""
    try:
        uri = args[0] if args else None
        where = args[1] if len(args) > 1 else {}
        folder = args[2] if len(args) > 2 else None
        path = uri_to_path(uri) if isinstance(uri, str) else None
        position = where if isinstance(where, dict) else {}
        line = position.get("line")
        if path is None or not isinstance(line, int) or line < 0 or (folder is not None and not isinstance(folder, str)):
            raise JsonRpcInvalidParams(f"{PREVIEW_COMMAND} takes a document URI, a position and optionally a folder")
        got = ls.engine.preview(path, line, position.get("character", 0), Path(folder) if folder else None)
    except JsonRpcException:
        raise
    except Exception as exc:  # noqa: BLE001
        ls.log_error(PREVIEW_COMMAND, exc)
        raise RequestFailed(f"the preview failed: {exc}") from None
    if isinstance(got, str):
        raise RequestFailed(got)
    ls.previews[(got.root, got.map_id)] = got
    return ls.preview_params(got)


@guarded()
def did_close(ls: QuestServer, params: types.DidCloseTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return
    ls.engine.close(path)
    ls.schedule(path, 0)  # the file on disk counts again


@guarded()
def hover(ls: QuestServer, params: types.HoverParams) -> types.Hover | None:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return None
    text = ls.engine.hover(path, params.position.line, params.position.character)
    if not text:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@guarded(list)
def definition(ls: QuestServer, params: types.DefinitionParams) -> list[types.Location]:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return []
    places = ls.engine.definition(path, params.position.line, params.position.character)
    return [types.Location(uri=path_to_uri(p.path), range=lsp_range(p)) for p in places]


@guarded(list)
def references(ls: QuestServer, params: types.ReferenceParams) -> list[types.Location]:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return []
    places = ls.engine.references(path, params.position.line, params.position.character,
                                  params.context.include_declaration)
    return [types.Location(uri=path_to_uri(p.path), range=lsp_range(p)) for p in places]


@guarded()
def prepare_rename(ls: QuestServer, params: types.PrepareRenameParams) -> types.Range | None:
    from compiler.commands.editor.symbols import RenameError

    path = uri_to_path(params.text_document.uri)
    if path is None:
        return None
    try:
        return lsp_range(ls.engine.prepare_rename(path, params.position.line, params.position.character))
    except RenameError as exc:
        raise RequestFailed(str(exc)) from None


@guarded()
def rename(ls: QuestServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    from compiler.commands.editor.symbols import RenameError

    path = uri_to_path(params.text_document.uri)
    if path is None:
        return None
    try:
        edits = ls.engine.rename(path, params.position.line, params.position.character, params.new_name)
    except RenameError as exc:
        raise RequestFailed(str(exc)) from None
    return types.WorkspaceEdit(changes={
        path_to_uri(p): [types.TextEdit(range=lsp_range(place), new_text=text) for place, text in items]
        for p, items in edits.items()})


@guarded(list)
def completion(ls: QuestServer, params: types.CompletionParams) -> types.CompletionList | list[types.CompletionItem]:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return []
    items = ls.engine.completion(path, params.position.line, params.position.character)
    return types.CompletionList(is_incomplete=False, items=[
        types.CompletionItem(label=label, kind=KIND.get(kind, types.CompletionItemKind.Value),
                             detail=detail or kind, sort_text=natural_key(label))  # `1A` before `10A`
        for label, kind, detail in items
    ])


@guarded(list)
def formatting(ls: QuestServer, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return []
    text = ls.engine.text(path)
    formatted = ls.engine.format(path)
    if text is None or formatted is None or formatted == text:
        return []
    lines = text.split("\n")
    end = types.Position(len(lines) - 1, len(lines[-1].encode("utf-16-le")) // 2)
    return [types.TextEdit(range=types.Range(types.Position(0, 0), end), new_text=formatted)]


@guarded(list)
def code_action(ls: QuestServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return []
    wanted = params.range
    actions: list[types.CodeAction] = []
    for d, fix, place in ls.engine.fixes(path):
        diag_place = ls.engine.place(d.span)
        if diag_place is None or not _overlaps(lsp_range(diag_place), wanted):
            continue
        sent = [c for c in params.context.diagnostics if c.code == d.code and c.range == lsp_range(diag_place)]
        edit = types.TextEdit(range=lsp_range(place), new_text=fix.text)
        title = f"Replace with `{fix.text}`" if fix.text == d.fix else (d.fix or f"Insert `{fix.text.strip()}`")
        actions.append(types.CodeAction(
            title=f"{title} ({d.code})",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=sent or None,
            is_preferred=True,
            edit=types.WorkspaceEdit(changes={params.text_document.uri: [edit]}),
        ))
    return actions


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def serve(stdin: BinaryIO, stdout: BinaryIO, debounce: float = DEBOUNCE, pack_path: tuple[str, ...] = ()) -> None:
    create_server(debounce, pack_path).start_io(stdin, stdout)

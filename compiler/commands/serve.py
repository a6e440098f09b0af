"""questc serve PACK [--port N] [-o DIR]: play a pack in the browser, rebuilt on every save.

Builds PACK into DIR (default: build) and serves the web player on 127.0.0.1:N
(default 8000; 0 takes any free port) with the pack's latest good bundle. Rebuilding
is `questc watch` (compiler/commands/watch.py): one build per burst of saves, --poll
where file-system events do not arrive. The page asks for `version.json` (a digest of
the bundle, with the outcome of the last build: `status.json`) every second and reloads
itself when a rebuild changed the bundle; a build with errors prints its diagnostics here,
leaves the last good bundle in play and shows its diagnostics in the page (an overlay,
gone with the next good build).
Only the loopback address is used: nothing is reachable from other machines. Stop with
Ctrl-C (exit 0).

A web page elsewhere can still point a name of its own at 127.0.0.1 (DNS rebinding) and
read what is served: a request is answered only when its `Host:` header is 127.0.0.1,
localhost or [::1] with the port served (403 otherwise). A connection idle for
IDLE_SECONDS is closed, and a browser that goes away mid-answer ends its connection
quietly (it printed a traceback per disconnect).
"""

from __future__ import annotations

import argparse
import http.server
import json
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compiler.commands import watch
from compiler.commands.common import settle

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink

HOST = "127.0.0.1"
HOST_NAMES = ("127.0.0.1", "localhost", "[::1]")  # what a browser on this machine calls the server
IDLE_SECONDS = 30.0  # a connection that sends nothing for this long is closed
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json"}
SHOWN = 100  # the most diagnostics status.json carries (the terminal has them all)


def port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535; got `{text}`")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    watch.configure(parser)
    for action in parser._actions:
        if action.dest == "paths":  # one pack, not a list (watch takes many)
            action.nargs, action.default, action.metavar, action.help = 1, None, "PACK", "the pack to play"
    parser.add_argument("--port", type=port, default=8000, metavar="N", help="port on 127.0.0.1 (default 8000; 0: any free port)")


class Site:
    """What the server hands out: the player's files, and the bundle as last built."""

    def __init__(self, bundle_path: Path) -> None:
        from compiler.emit.site import player_files, schema_bytes

        self.bundle_path = bundle_path
        self.static = player_files(serve=True)
        self.static["bundle.schema.json"] = schema_bytes()
        # the last build's outcome: ok None while the first build runs (one assignment per
        # build, read by the server's threads: a dict replaced whole, never changed)
        self.builds = 0
        self.outcome: dict[str, object] = {"build": 0, "ok": None, "diagnostics": [], "summary": {}, "more": 0}

    def built(self, code: int, sink: Sink) -> None:
        """watch's report: the outcome of one build, for status.json."""
        from compiler.diagnostics.render import render_json, summary_of

        diagnostics = json.loads(render_json(sink.sorted(), summary_of(sink)))["diagnostics"]
        self.builds += 1
        self.outcome = {"build": self.builds, "ok": code == 0, "diagnostics": diagnostics[:SHOWN],
                        "summary": summary_of(sink), "more": max(0, len(diagnostics) - SHOWN)}

    def status(self, version: bytes | None) -> bytes:
        """status.json: the bundle's version (as version.json, null when there is no
        bundle) and the last build's outcome."""
        text = json.loads(version) if version is not None else None
        return (json.dumps({**self.outcome, "version": text}, sort_keys=True) + "\n").encode()

    def get(self, name: str) -> bytes | None:
        from compiler.emit.site import version_of

        if name in ("", "index.html"):
            return self.static["index.html"]
        if name in ("bundle.json", "version.json", "status.json"):
            from compiler import reader
            from compiler.commands.view import MAX_BUNDLE_BYTES

            data = reader.read_bytes(self.bundle_path, max_bytes=MAX_BUNDLE_BYTES)  # the guarded reader
            if name == "status.json":
                return self.status(None if isinstance(data, reader.Refused) else version_of(data))
            if isinstance(data, reader.Refused):
                return None  # not built (yet), or not a file: the page says it cannot load the bundle
            return data if name == "bundle.json" else version_of(data)
        return self.static.get(name)


def host_allowed(values: list[str], port: int) -> bool:
    """Whether the `Host:` header values of a request name this server: exactly one, a
    loopback name with the port served (without a port only when it is 80)."""
    if len(values) != 1:
        return False
    host = values[0].strip().lower()
    return any(host == f"{name}:{port}" or (port == 80 and host == name) for name in HOST_NAMES)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that closed its connection or sat idle is nobody's error: no
        traceback (socketserver prints one for each)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def handler_for(site: Site) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        timeout = IDLE_SECONDS  # on the socket: an idle connection is closed, not kept for ever

        def do_GET(self) -> None:  # noqa: N802 - the http.server API
            address = self.server.server_address
            port = address[1] if isinstance(address, tuple) else -1
            if not host_allowed(self.headers.get_all("Host") or [], port):
                self.send_error(403, "Forbidden", "this server answers only to 127.0.0.1, localhost or [::1] with its port")
                return
            name = self.path.split("?", 1)[0].lstrip("/")
            body = site.get(name)
            if body is None:
                self.send_error(404, "not found")
                return
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(Path(name or "index.html").suffix, "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet: the terminal shows builds
            pass

    return Handler


def pack_id(args: argparse.Namespace) -> str | None:
    """The id of the pack given (its pack.yaml), or None after printing why there is none."""
    from compiler.commands.common import finish
    from compiler.diagnostics import Sink
    from compiler.options import Options
    from compiler.packs import discover

    sink = Sink()
    found = discover(list(args.paths), tuple(args.pack_path), sink, max_bytes=Options().max_file_bytes)
    if sink.errors or not found.targets:
        finish(sink, args)
        return None
    return found.targets[0].id


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics import Sink
    from compiler.commands.common import finish
    from compiler.commands.mapquery import arg_span

    settle(args)
    pid = pack_id(args)
    if pid is None:
        return 1
    site = Site(Path(args.output) / pid / "bundle.json")
    try:
        server = Server((HOST, args.port), handler_for(site))
    except OSError as exc:
        sink = Sink()
        sink.report("X0109", arg_span(args, "--port"), port=str(args.port), reason=exc.strerror or str(exc))
        finish(sink, args)
        return 1
    thread = threading.Thread(target=server.serve_forever, name="questc-serve", daemon=True)
    thread.start()
    from compiler.diagnostics.render import visible  # the pack's id is text of its pack.yaml

    sys.stderr.write(f"[questc serve] playing {visible(pid)} at http://{HOST}:{server.server_address[1]}/ (Ctrl-C stops)\n")
    sys.stderr.flush()
    try:
        return watch.watch(args, report=site.built)
    except KeyboardInterrupt:
        return 0
    finally:
        server.shutdown()
        server.server_close()

"""A tiny Language Server Protocol client for the tests and the benchmark: spawns
`questc lsp` and speaks JSON-RPC with Content-Length framing over its stdin/stdout.

A reader thread parses every message into a queue; every wait has a timeout, so a
server that hangs fails a test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0


class LspError(AssertionError):
    pass


class Client:
    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from compiler.cli import main; sys.exit(main(['lsp', *sys.argv[1:]]))", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd or REPO,
        )
        self.messages: queue.Queue = queue.Queue()
        self.notifications: list[dict] = []
        self.next_id = 0
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    # ---- framing
    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = out.read(length or 0)
            self.messages.put(json.loads(body))

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _next(self, deadline: float) -> dict:
        left = deadline - time.monotonic()
        if left <= 0:
            raise LspError("no answer from the server in time")
        try:
            msg = self.messages.get(timeout=left)
        except queue.Empty:
            raise LspError("no answer from the server in time") from None
        if msg is None:
            raise LspError("the server closed its output: " + b"".join(self.stderr).decode(errors="replace")[-2000:])
        return msg

    # ---- requests and notifications
    def request(self, method: str, params=None, timeout: float = TIMEOUT):
        """The result of a request (LspError for an error answer)."""
        self.next_id += 1
        my_id = self.next_id
        self.send({"jsonrpc": "2.0", "id": my_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            msg = self._next(deadline)
            if msg.get("id") == my_id and "method" not in msg:
                if "error" in msg:
                    raise LspError(f"{method}: {msg['error']}")
                return msg.get("result")
            self._other(msg)

    def notify(self, method: str, params=None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _other(self, msg: dict) -> None:
        if "method" in msg and "id" in msg:  # a request from the server: answer null
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        else:
            self.notifications.append(msg)

    def diagnostics(self, uri: str, timeout: float = TIMEOUT, after: int = 0) -> list[dict]:
        """The diagnostics of the first publishDiagnostics for `uri` among the notifications
        from index `after` on, waiting for it if need be."""
        deadline = time.monotonic() + timeout
        while True:
            for n in self.notifications[after:]:
                if n.get("method") == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri:
                    return n["params"]["diagnostics"]
            self._other(self._next(deadline))

    # ---- conveniences
    def initialize(self, root: Path) -> dict:
        result = self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "quest", "version": 1, "text": text}})
        return uri

    def close(self, timeout: float = 10.0) -> int:
        try:
            self.request("shutdown", None, timeout=timeout)
            self.notify("exit", None)
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=5)

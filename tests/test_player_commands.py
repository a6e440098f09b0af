"""questc view and questc serve: the site's files, bad arguments, and a page that reloads
itself after a save (docs/player.md)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

from compiler.emit.site import ASSETS
from tests.conftest import REPO, questc, write_pack, QUEST


def test_view_writes_a_self_contained_site(tmp_path):
    r = questc("view", str(REPO / "content" / "d2e-quests"), "-o", str(tmp_path / "site"))
    assert r.code == 0, r.err
    names = {p.name for p in (tmp_path / "site").iterdir()}
    assert names == set(ASSETS) | {"bundle.json", "bundle.schema.json", "version.json"}
    first = {n: (tmp_path / "site" / n).read_bytes() for n in names}
    r = questc("view", str(REPO / "content" / "d2e-quests"), "-o", str(tmp_path / "site"))
    assert {n: (tmp_path / "site" / n).read_bytes() for n in names} == first  # deterministic
    for name in ASSETS:  # nothing is fetched from elsewhere
        text = first[name].decode()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, name
    built = questc("build", str(REPO / "content" / "d2e-quests"), "-o", str(tmp_path / "build"), "--no-images")
    assert built.code == 0
    assert first["bundle.json"] == (tmp_path / "build" / "d2e-quests" / "bundle.json").read_bytes()
    assert "wrote the player" in r.err
    quiet = questc("view", str(REPO / "content" / "d2e-quests"), "-o", str(tmp_path / "site"), "-q")
    assert quiet.code == 0 and quiet.out == "" and quiet.err == ""  # -q prints errors only (new-user trial)


def test_view_of_a_bundle_copies_it_and_a_pack_with_errors_writes_nothing(tmp_path):
    bundle = tmp_path / "b" / "bundle.json"
    bundle.parent.mkdir()
    bundle.write_bytes(b'{"format": "questc-bundle", "format_version": "9.0.0"}')
    r = questc("view", str(bundle), "-o", str(tmp_path / "s1"))
    assert r.code == 0
    assert (tmp_path / "s1" / "bundle.json").read_bytes() == bundle.read_bytes()  # the page judges it
    pack = write_pack(tmp_path, "broken", requires=["d2e-base"], files={"q.quest": QUEST.replace("11A", "99Z")})
    r = questc("view", str(pack), "-o", str(tmp_path / "s2"))
    assert r.code == 1 and not (tmp_path / "s2").exists()
    r = questc("view", str(tmp_path / "missing.json"), "-o", str(tmp_path / "s3"))
    assert r.code == 1 and "X0108" in r.out + r.err and not (tmp_path / "s3").exists()


def test_serve_rejects_a_bad_port():
    r = questc("serve", "d2e-quests", "--port", "70000")
    assert r.code == 2 and "65535" in r.err


def test_serve_on_a_port_already_taken_is_one_located_error(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = questc("serve", str(REPO / "content" / "d2e-quests"), "--port", str(port), "-o", str(tmp_path / "out"))
    assert r.code == 1
    assert f"error[X0109]: cannot serve on 127.0.0.1:{port}" in r.err and "--port" in r.err
    assert r.err.count("error[") == 1


def test_serve_rebuilds_on_save_and_the_page_reloads(tmp_path, page):
    pack = tmp_path / "d2e-quests"
    shutil.copytree(REPO / "content" / "d2e-quests", pack)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "compiler", "serve", str(pack), "--port", "0", "-o", str(tmp_path / "out"),
                             "--poll", "--interval", "0.2"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "[questc serve] playing d2e-quests at http://127.0.0.1:" in line, line
        url = line.split(" at ", 1)[1].split()[0]
        for _ in range(100):  # the first build
            if (tmp_path / "out" / "d2e-quests" / "bundle.json").exists():
                break
            time.sleep(0.1)
        version = urllib.request.urlopen(url + "version.json").read()
        page.open(url + "?quest=first_blood")
        assert page.page.evaluate("document.body.dataset.state") == "ready"
        page.page.evaluate("window.stillHere = true")
        quest = pack / "first_blood.quest"
        quest.write_text(quest.read_text(encoding="utf-8").replace("Get them to the entrance", "Carry them to the gate"), encoding="utf-8")
        page.page.wait_for_function("window.stillHere === undefined && document.body.dataset.state === 'ready'", timeout=30000)
        assert "Carry them to the gate" in page.page.locator("#log").inner_text()
        assert urllib.request.urlopen(url + "version.json").read() != version
        assert not page.errors
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def test_a_missing_chromium_fails_with_one_clear_message(tmp_path):
    env = {**os.environ, "QUESTC_CHROMIUM": str(tmp_path / "no-chromium"), "PYTHONPATH": str(REPO)}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "tests/test_player_site.py::test_first_blood_played_to_a_win"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert "The browser tests need Chromium, which is missing" in r.stdout
    assert "skipped" not in r.stdout


# ---------------------------------------------------------------- issue 38: questc serve's server
def _serving(tmp_path, idle: float = 30.0):
    """The server `questc serve` runs, on a free port, in a thread, over a bundle of 16 MB."""
    import threading

    from compiler.commands import serve

    bundle = tmp_path / "bundle.json"
    bundle.write_bytes(b"[" + b"0," * (8 * 1024 * 1024) + b"0]")
    saved = serve.IDLE_SECONDS
    serve.IDLE_SECONDS = idle
    try:
        server = serve.Server((serve.HOST, 0), serve.handler_for(serve.Site(bundle)))
    finally:
        serve.IDLE_SECONDS = saved
    server.daemon_threads = False  # server_close() then waits for every connection's thread
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _ask(port: int, host: str | None, path: str = "/version.json") -> bytes:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\n".encode() + (f"Host: {host}\r\n".encode() if host is not None else b"")
                  + b"Connection: close\r\n\r\n")
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out.split(b"\r\n", 1)[0]


def test_serve_answers_only_to_its_own_host_names(tmp_path):
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends
    `Host: evil.example:PORT`; only loopback names with the served port are answered."""
    server = _serving(tmp_path)
    port = server.server_address[1]
    try:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
            assert _ask(port, host) == b"HTTP/1.0 200 OK", host
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", "127.0.0.1", f"127.0.0.2:{port}",
                     f"localhost.evil.example:{port}", None):
            assert _ask(port, host) == b"HTTP/1.0 403 Forbidden", host
    finally:
        server.shutdown()
        server.server_close()


def test_serve_closes_an_idle_connection_and_a_disconnect_prints_nothing(tmp_path, capsys):
    import socket
    import struct

    server = _serving(tmp_path, idle=0.3)
    port = server.server_address[1]
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            assert s.recv(100) == b""  # closed by the server (before: held open for ever, one thread each)
        for _ in range(5):  # ask for the 16 MB bundle and hang up at once (a reset): the answer cannot be written
            s = socket.create_connection(("127.0.0.1", port), timeout=20)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.sendall(f"GET /bundle.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            s.recv(10)
            s.close()
    finally:
        server.shutdown()
        server.server_close()  # waits for the connections' threads
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Exception" not in err, err

"""The progress line (compiler/console.py): on a terminal, a command still running after
PROGRESS_AFTER seconds shows its current stage on one line of stderr, rewritten in place
and erased before anything else is printed; never with -q, never for machine formats,
never when stderr is not a terminal. No test here measures time: the delay is set to
zero and the test waits (bounded) for the first drawing."""

from __future__ import annotations

import io
import threading

import pytest

from compiler import console


class FakeTerminal(io.StringIO):
    def __init__(self, tty: bool = True) -> None:
        super().__init__()
        self.tty = tty
        self.written = threading.Event()

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        n = super().write(text)
        if "questc:" in text:
            self.written.set()
        return n


def test_the_stage_is_drawn_then_erased_with_spaces_only(monkeypatch):
    # patched in the test itself: pytest sets sys.stderr again between a fixture and the test
    terminal = FakeTerminal()
    monkeypatch.setattr(console.sys, "stderr", terminal)
    monkeypatch.setattr(console, "PROGRESS_AFTER", 0.0)
    console.begin()
    with console.stage("passes d2e-quests"):
        for _ in range(200):  # bounded: the drawing thread shows the current stage
            if "passes d2e-quests" in terminal.getvalue():
                break
            terminal.written.clear()
            terminal.written.wait(0.05)
        console.erase_progress()
    out = terminal.getvalue()
    drawn = [piece for piece in out.split("\r") if piece.strip()]
    assert drawn and all(p.startswith("questc: ") and p.rstrip().endswith(" s") for p in drawn)
    assert any(p.startswith("questc: passes d2e-quests… ") for p in drawn)
    widest = max(len(p) for p in drawn)
    assert out.endswith("\r" + " " * widest + "\r")  # erased: the widest line's width in spaces
    assert "\x1b" not in out  # no escape sequences: nothing for NO_COLOR to object to


def test_a_shorter_line_covers_the_longer_one_drawn_before():
    assert console.progress_line("load natures-ire", 1.25) == "questc: load natures-ire… 1.2 s"
    state = console._State()
    state.drawn = len("questc: load natures-ire… 1.2 s")
    line = console.progress_line("write", 2.0)
    assert len(line.ljust(state.drawn)) == state.drawn  # padded to what is on the screen


@pytest.mark.parametrize("kw, tty", [({"quiet": True}, True), ({"machine": True}, True), ({}, False)])
def test_no_progress_when_quiet_for_machine_formats_or_off_a_terminal(monkeypatch, kw, tty):
    fake = FakeTerminal(tty)
    monkeypatch.setattr(console.sys, "stderr", fake)
    monkeypatch.setattr(console, "PROGRESS_AFTER", 0.0)
    console.begin(**kw)
    assert console._S.thread is None
    with console.stage("passes x"):
        pass
    console.end()
    assert fake.getvalue() == ""


def test_verbose_prints_timings_per_stage(monkeypatch, capsys):
    monkeypatch.setattr(console.sys, "stderr", FakeTerminal(False))
    console.begin(verbose=True)
    for label in ("packs", "load p", "passes p"):
        with console.stage(label):
            pass
    console.end()
    lines = capsys.readouterr().err.splitlines() or console.sys.stderr.getvalue().splitlines()
    assert [line.split()[1] for line in lines] == ["packs", "load", "passes", "total"]

"""The harness of `make fuzz` (fuzz/, docs/robustness.md) tested with targets that misbehave
on purpose (fuzz/selftest.py): a worker killed by a signal, one stuck past the timeout
(spinning, by its CPU time; blocked, by the clock) but not one merely slow on the clock,
one that exits, an exception and a flood of output are each recorded against exactly the
input that did it, with that input written to the findings folder, and every other input
still runs."""

from __future__ import annotations

import json

from fuzz import mutate as mu
from fuzz.supervisor import main


def test_the_supervisor_records_crashes_and_hangs_with_their_inputs_and_carries_on(tmp_path):
    out = tmp_path / "findings"
    code = main(["--registry", "fuzz.selftest", "-n", "30", "--seed", "7", "--timeout", "2", "--jobs", "2",
                 "--findings", str(out), "--progress", "1000", "--chunk", "10"])
    assert code == 1
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    counts = summary["targets"]["selftest"]
    assert counts["inputs"] == 31  # 30 random and the directed `abort`: none lost to a restart
    assert (counts["ok"], counts["signal"], counts["hang"], counts["internal"], counts["output"]) == (24, 2, 2, 2, 1)
    found = {(f["kind"], tuple(f["items"])) for f in summary["findings"]}
    assert found == {("signal", ("r:3",)), ("signal", ("d:abort",)), ("hang", ("r:7",)), ("hang", ("r:19",)), ("internal", ("r:11",)),
                     ("internal", ("r:13",)), ("output", ("r:17",))}
    # the exact input is in the finding, made again from the seed and matching what the worker ran
    assert (out / "signal-selftest-3" / "files" / "input.txt").read_text() == "segv 7 3\n"
    assert (out / "hang-selftest-7" / "files" / "input.txt").read_text() == "sleep 7 7\n"
    assert (out / "signal-selftest-abort" / "files" / "input.txt").read_text() == "abort\n"
    segv = (out / "signal-selftest-3" / "report.txt").read_text()
    assert "killed by SIGSEGV" in segv and "selftest.py" in segv and "WARNING" not in segv  # faulthandler's stack
    hang = (out / "hang-selftest-7" / "report.txt").read_text()
    assert "over 2 s (CPU 0.0 s" in hang and "time.sleep" not in hang and "selftest.py" in hang
    spin = (out / "hang-selftest-19" / "report.txt").read_text()
    assert "over 2 s (CPU 2." in spin and "selftest.py" in spin
    assert json.loads((out / "hang-selftest-7" / "input.json").read_text())["target"] == "selftest"


def test_mutations_are_the_same_bytes_for_the_same_seed():
    seed = b"quest q \"Q\" {\n  map { tile 2A }\n}\n"
    for k in range(40):
        a, b = mu.Chooser(f"s/{k}"), mu.Chooser(f"s/{k}")
        assert mu.mutate_bytes(seed, a, [seed]) == mu.mutate_bytes(seed, b, [seed])
        doc = {"tiles": {"x": {"grid": "..", "openings": {"north": [0]}}}}
        assert mu.dump_json(mu.mutate_tree(json.loads(json.dumps(doc)), a, ["y"]), a) == \
            mu.dump_json(mu.mutate_tree(json.loads(json.dumps(doc)), b, ["y"]), b)


def test_a_run_stopped_with_ctrl_c_prints_its_summary_not_a_traceback(tmp_path):
    """Ctrl-C (SIGINT to the supervisor) ends the run with the summary of what ran, written to
    the findings folder too, the line saying how far it got, and exit code 130; no traceback,
    and no worker left behind (the selftest's `slow` input sleeps 3 s a time)."""
    import signal
    import subprocess
    import sys

    from conftest import REPO

    out = tmp_path / "findings"
    proc = subprocess.Popen([sys.executable, "-m", "fuzz", "--registry", "fuzz.selftest", "--only", ",".join(["23"] * 20),
                             "--timeout", "10", "--jobs", "1", "--findings", str(out), "--progress", "1000"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # a shell running the tests in the background ignores SIGINT, and the
                            # child would inherit that (Python then installs no KeyboardInterrupt)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    head = proc.stdout.readline()
    assert head.startswith("fuzz: seed"), head
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (proc.returncode, rest, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "interrupted by the user after" in rest and "of 20 inputs" in rest, rest
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["seed"]

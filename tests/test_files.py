"""compiler/emit/files.py: every output file is written whole, with ordinary permissions."""

from __future__ import annotations

import os
import stat

from compiler.emit.files import write_atomic


def test_a_new_file_is_readable_by_everyone_and_an_old_one_keeps_its_mode(tmp_path):
    new = write_atomic(tmp_path / "a" / "out.txt", "é\n")
    assert new.read_bytes() == "é\n".encode("utf-8")
    assert stat.S_IMODE(new.stat().st_mode) == 0o644  # not 0600, as a bare temporary file is
    os.chmod(new, 0o600)
    write_atomic(new, b"two")
    assert new.read_bytes() == b"two" and stat.S_IMODE(new.stat().st_mode) == 0o600
    assert sorted(p.name for p in new.parent.iterdir()) == ["out.txt"]  # no temporary file left


def test_a_symlinked_file_is_replaced_where_it_lies(tmp_path):
    real = tmp_path / "real.quest"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.quest"
    link.symlink_to(real)
    write_atomic(link, "new", follow_link=True)  # `questc fmt`: a pack file the reader accepted
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


# ---------------------------------------------------------------- issue 38: links inside output folders, the umask
import contextlib  # noqa: E402

import pytest  # noqa: E402

from conftest import REPO, questc  # noqa: E402


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def plant(tmp_path):
    """A shared output folder with a link someone else put there, to a file of the user's."""
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "shared-out"
    out.mkdir()
    return out, victim


def test_a_link_planted_at_an_outputs_name_is_replaced_not_written_through(tmp_path):
    out, victim = plant(tmp_path)
    (out / "map.png").symlink_to(victim)
    (out / "new.png").symlink_to(tmp_path / "home" / "made-by-the-link")  # dangling: O_CREAT would make it
    assert write_atomic(out / "map.png", b"png") == out / "map.png"
    write_atomic(out / "new.png", b"png")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert not (tmp_path / "home" / "made-by-the-link").exists()
    for name in ("map.png", "new.png"):
        assert not (out / name).is_symlink() and (out / name).read_bytes() == b"png"
    # an output folder that is itself a link is the user's choice: written into
    (tmp_path / "mine").symlink_to(out, target_is_directory=True)
    write_atomic(tmp_path / "mine" / "b.png", b"b")
    assert (out / "b.png").read_bytes() == b"b"


def test_render_and_build_never_write_through_a_link_in_the_output_folder(tmp_path):
    out, victim = plant(tmp_path)
    (out / "map.png").symlink_to(victim)
    r = questc("render", REPO / "content" / "d2e-quests", "--quest", "first_blood", "-o", out / "map.png")
    assert r.code == 0, r.err
    assert victim.read_text(encoding="utf-8") == "precious\n" and (out / "map.png").read_bytes()[:4] == b"\x89PNG"
    # build: a link in the pack's place and under the lock's name
    elsewhere = tmp_path / "home" / "docs"
    elsewhere.mkdir()
    (out / "d2e-quests").symlink_to(elsewhere, target_is_directory=True)
    r = questc("build", REPO / "content" / "d2e-quests", "-o", out)
    assert r.code == 0, r.err
    assert not any(elsewhere.iterdir()) and not (out / "d2e-quests").is_symlink()
    assert (out / "d2e-quests" / "bundle.json").is_file() and sorted(p.name for p in out.iterdir() if p.name.startswith(".d2e")) == []
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / ".questc.lock").symlink_to(tmp_path / "home" / "made-by-the-lock")
    r = questc("build", REPO / "content" / "d2e-quests", "-o", locked)
    assert r.code == 1 and "I0003" in r.err and not (tmp_path / "home" / "made-by-the-lock").exists()


@pytest.mark.plugins
def test_the_tiled_export_never_writes_through_a_link_in_the_output_folder(tmp_path):
    out, victim = plant(tmp_path)
    (out / "first_blood.tmj").symlink_to(victim)
    args = ("--plugin", "tiled", "export", "tiled", REPO / "content" / "d2e-quests", "--quest", "first_blood", "--isolated")
    r = questc(*args, "-o", out)
    assert r.code == 0, r.err
    assert victim.read_text(encoding="utf-8") == "precious\n" and not (out / "first_blood.tmj").is_symlink()
    # a linked folder inside the output folder (tiles/): refused, one I0003, nothing written there
    out2 = tmp_path / "out2"
    out2.mkdir()
    (out2 / "tiles").symlink_to(victim.parent, target_is_directory=True)
    r = questc(*args, "-o", out2)
    assert r.code == 1 and r.err.count("error[I0003]") == 1 and "symbolic link" in r.err
    assert sorted(p.name for p in victim.parent.iterdir()) == [".bashrc"]


@pytest.mark.parametrize("mask, folder, file", [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_outputs_honour_the_umask(tmp_path, mask, folder, file):
    """mkdtemp makes the staging folder 0700: the pack's output folder was 0700 whatever the umask."""
    with umask(mask):
        r = questc("build", REPO / "content" / "d2e-quests", "-o", tmp_path / "out")
        assert r.code == 0, r.err
        new = write_atomic(tmp_path / "one" / "x.txt", "x")
    pack = tmp_path / "out" / "d2e-quests"
    assert stat.S_IMODE(pack.stat().st_mode) == folder
    assert stat.S_IMODE((pack / "maps").stat().st_mode) == folder
    assert stat.S_IMODE((pack / "bundle.json").stat().st_mode) == file
    assert stat.S_IMODE(new.stat().st_mode) == file

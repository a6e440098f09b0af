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
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"

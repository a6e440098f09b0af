"""Every malformed input is a located diagnostic and exit 1: never a traceback or a hang."""

import os


from conftest import questc, write_pack


def check(pack):
    r = questc("check", pack, "--format", "json")
    assert r.code in (0, 1), r.err
    return r


def test_binary_file(tmp_path):
    pack = write_pack(tmp_path, "a")
    (pack / "tiles.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    r = check(pack)
    assert r.code == 1 and r.codes == ["P0106"]


def test_non_utf8_file_is_located(tmp_path):
    pack = write_pack(tmp_path, "a")
    (pack / "terrain.yaml").write_bytes(b"terrain:\n  caf\xe9: {symbol: 'c'}\n")
    r = check(pack)
    assert r.code == 1
    [d] = r.json()["diagnostics"]
    assert d["code"] == "P0106" and d["line"] == 2 and d["column"] == 6


def test_empty_file_is_a_warning(tmp_path):
    pack = write_pack(tmp_path, "a", files={"empty.yaml": ""})
    r = check(pack)
    assert r.code == 0 and r.codes == ["P0108"]
    assert questc("check", pack, "--strict", "--format", "json").code == 1


def test_huge_file_is_refused_without_reading(tmp_path):
    pack = write_pack(tmp_path, "a")
    with open(pack / "big.yaml", "wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    r = check(pack)
    assert r.code == 1 and r.codes == ["P0107"]


def test_symlink_out_of_the_pack(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("terrain: {}\n")
    pack = write_pack(tmp_path, "a")
    os.symlink(secret, pack / "terrain.yaml")
    r = check(pack)
    assert r.code == 1 and r.codes == ["P0105"]


def test_symlinked_folder_out_of_the_pack(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("terrain: {}\n")
    pack = write_pack(tmp_path, "a")
    os.symlink(outside, pack / "more")
    r = check(pack)
    assert r.code == 1 and "P0105" in r.codes


def test_dotdot_path_escape(tmp_path):
    from compiler.diagnostics import Sink
    from compiler.sources import read_source

    pack = write_pack(tmp_path, "a")
    (tmp_path / "other.yaml").write_text("x: 1\n")
    sink = Sink()
    assert read_source(pack, pack / ".." / "other.yaml", sink, max_bytes=1000) is None
    assert [d.code for d in sink.items] == ["P0105"]


def test_malformed_yaml_and_unknown_kind(tmp_path):
    pack = write_pack(tmp_path, "a", files={"a.yaml": "terrain: [\n", "b.yaml": "terain: {}\n", "c.yaml": "- 1\n"})
    r = check(pack)
    assert r.code == 1
    assert sorted(r.codes) == ["Y0001", "Y0004", "Y0005"]
    unknown = [d for d in r.json()["diagnostics"] if d["code"] == "Y0005"][0]
    assert "terrain" in unknown["message"]


def test_duplicate_key_in_catalog(tmp_path):
    pack = write_pack(tmp_path, "a", files={"a.yaml": "dice:\n  x: {}\n  x: {}\n"})
    r = check(pack)
    assert r.code == 1 and r.codes == ["Y0002"]
    assert r.json()["diagnostics"][0]["line"] == 3

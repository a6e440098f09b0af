"""Pack discovery and dependency resolution: given packs, search path, cycles, missing ids."""


from conftest import questc, write_pack


def codes_of(run):
    return run.codes


def test_missing_dependency_is_located_with_did_you_mean(tmp_path):
    pack = write_pack(tmp_path, "a", requires=["core-2f"])
    r = questc("check", pack, "--format", "json")
    assert r.code == 1
    [d] = r.json()["diagnostics"]
    assert d["code"] == "P0103"
    assert d["file"].endswith("pack.yaml") and d["line"] == 6
    assert "core-2e" in d["message"]


def test_pack_requiring_itself(tmp_path):
    pack = write_pack(tmp_path, "a", requires=["a"])
    r = questc("check", pack, "--format", "json")
    assert r.code == 1 and r.codes == ["P0110"]


def test_cycle_is_detected(tmp_path):
    a = write_pack(tmp_path, "a", requires=["b"])
    b = write_pack(tmp_path, "b", requires=["a"])
    r = questc("check", a, b, "--format", "json")
    assert r.code == 1
    assert "P0104" in r.codes
    assert any("a -> b -> a" in d["message"] or "b -> a -> b" in d["message"] for d in r.json()["diagnostics"])


def test_same_id_twice_among_given(tmp_path):
    a = write_pack(tmp_path / "x", "a")
    a2 = write_pack(tmp_path / "y", "a")
    r = questc("check", a, a2, "--format", "json")
    assert r.code == 1 and "P0102" in r.codes


def test_folder_of_packs_and_dependency_among_given(tmp_path):
    write_pack(tmp_path, "base")
    write_pack(tmp_path, "top", requires=["base"])
    r = questc("check", tmp_path, "--format", "json")
    assert r.code == 0, r.out


def test_given_pack_wins_over_search_path(tmp_path, monkeypatch):
    # a local core-2e without a terrain catalog shadows the shipped one
    local = write_pack(tmp_path, "core-2e")
    user = write_pack(tmp_path / "u", "mine", requires=["core-2e"])
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(user), str(local)], Options())
    assert not result.sink.errors
    mine = result.models[0]
    assert [p.root for p in mine.packs][0] == local.resolve()


def test_pack_path_and_environment(tmp_path, monkeypatch):
    lib = tmp_path / "lib"
    write_pack(lib, "extra")
    user = write_pack(tmp_path / "u", "mine", requires=["extra"])
    assert questc("check", user, "--format", "json").code == 1
    assert questc("check", user, "--pack-path", lib, "--format", "json").code == 0
    monkeypatch.setenv("QUESTC_PATH", str(lib))
    assert questc("check", user, "--format", "json").code == 0


def test_shipped_packs_are_on_the_search_path(tmp_path):
    user = write_pack(tmp_path, "mine", requires=["core-2e"])
    r = questc("check", user, "--format", "json")
    assert r.code == 0, r.out


def test_missing_pack_yaml_and_missing_path(tmp_path):
    (tmp_path / "empty").mkdir()
    r = questc("check", tmp_path / "empty", "--format", "json")
    assert r.code == 1 and r.codes == ["P0101"]
    r = questc("check", tmp_path / "nope", "--format", "json")
    assert r.code == 2 and r.codes == ["P0111"]  # a missing PATH is a usage error (docs/cli.md)


def test_bad_pack_yaml_is_a_schema_diagnostic(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: Bad_Id\nname: x\nversion: one\nlicence: MIT\nruleset: d3e\nreqiures: []\n")
    r = questc("check", folder, "--format", "json")
    assert r.code == 1
    diags = r.json()["diagnostics"]
    assert {d["code"] for d in diags} == {"Y0101", "Y0102"}
    unknown = [d for d in diags if d["code"] == "Y0102"][0]
    assert "requires" in unknown["message"] and unknown["line"] == 6


def test_a_folder_name_too_long_for_the_system_is_no_crash(tmp_path):
    # make fuzz: `pack-path = ["veééé…"]` (5,000 characters) made Path.is_dir() raise
    # OSError (ENAMETOOLONG), I0001; likewise a pack given by such a name
    user = write_pack(tmp_path, "mine", requires=["core-2e"])
    long = str(tmp_path / ("é" * 5000))
    r = questc("check", user, "--pack-path", long, "--format", "json")
    assert r.code == 0, r.out + r.err
    r = questc("check", long, "--format", "json")
    assert r.code == 2 and r.codes == ["P0111"], r.out + r.err

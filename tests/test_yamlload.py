from hypothesis import given, settings, strategies as st

from compiler.catalogs.yamlload import MAX_NODES, load_yaml
from compiler.diagnostics import Sink


def load(text):
    sink = Sink()
    return load_yaml(text, "f.yaml", sink), sink


def test_spans_for_keys_values_and_items():
    doc, sink = load("tiles:\n  9A:\n    kind: dungeon\n    list: [a, b]\n")
    assert not sink.items
    assert doc.data == {"tiles": {"9A": {"kind": "dungeon", "list": ["a", "b"]}}}
    s = doc.span(("tiles", "9A", "kind"))
    assert (s.line, s.column, s.end_column) == (3, 11, 18)
    k = doc.key_span(("tiles", "9A", "kind"))
    assert (k.line, k.column) == (3, 5)
    item = doc.span(("tiles", "9A", "list", 1))
    assert (item.line, item.column) == (4, 15)
    # unknown paths fall back to the nearest ancestor
    assert doc.span(("tiles", "9A", "nope", 3)) == doc.span(("tiles", "9A"))


def test_keys_become_strings():
    doc, _ = load("limits:\n  2: {masters: 1}\n  true: 1\n")
    assert set(doc.data["limits"]) == {"2", "true"}


def test_duplicate_key_is_located():
    doc, sink = load("terrain:\n  water: 1\n  water: 2\n")
    assert doc is None
    [d] = sink.items
    assert d.code == "Y0002" and "water" in d.message
    assert d.span.line == 3


def test_syntax_error_is_located():
    doc, sink = load("a: [1, 2\nb: 3\n")
    assert doc is None
    assert sink.items[0].code == "Y0001"
    assert sink.items[0].span.line >= 2


def test_alias_bomb_is_rejected_not_expanded():
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        refs = ", ".join([f"*a{i-1}"] * 10)
        levels.append(f"a{i}: &a{i} [{refs}]")
    doc, sink = load("\n".join(levels) + "\n")
    assert doc is None
    assert sink.items[0].code == "Y0003"
    assert str(MAX_NODES) in sink.items[0].message


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_random_text_never_raises(text):
    doc, sink = load(text)
    assert doc is not None or sink.errors >= 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", ":", " ", "\n", "- ", "[", "]", "{", "}", "&x", "*x", "'", '"', "!!str", "?", "#", "\t", "|", ">", ","]), max_size=60))
def test_yaml_token_soup_never_raises(tokens):
    doc, sink = load("".join(tokens))
    assert doc is not None or sink.errors >= 1

import pytest
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


MALFORMED = [
    ("a:\n\tb: 1\n", 2, 1, "a tab: YAML indents with spaces only"),
    ('a: "open\n', 2, 1, "a quote that is never closed"),
    ("a: b: c\n", 1, 5, "a `:` where a value was expected"),
    ("a:\n  b: 1\n c: 2\n", 3, 2, "not indented like the keys around it"),
    ('a: 1\nb: "x" 3\n', 2, 8, "something follows the value on this line"),
    ("a:\n  - 1\n  x: 2\n", 3, 3, "an item of a sequence is not indented like the others"),
    ("a: *nope\n", 1, 4, "an alias (`*name`) with no anchor"),
]


@pytest.mark.parametrize("text,line,column,words", MALFORMED)
def test_malformed_yaml_is_explained_in_the_designers_words_at_its_line(text, line, column, words):
    sink = Sink()
    assert load_yaml(text, "t.yaml", sink) is None
    [d] = sink.items
    assert (d.code, d.span.line, d.span.column) == ("Y0001", line, column)
    assert words in d.message


@pytest.mark.parametrize(
    "entry,words",
    [
        ("    grid:\n    kind: dungeon\n", "tiles.X1.grid: expected a text, got nothing (an empty value)"),
        ("    grid: '..'\n    kind: dungeon\n    openings: 3\n", "expected a mapping (`key: value` lines), got a whole number, `3`"),
        ("    grid: '..'\n    kind: dungeon\n    copies: -1\n", "-1 is below the least allowed, 1"),
        ("    grid: '..'\n", "`kind` is required"),
        ("    grid: [1]\n    kind: dungeon\n", "expected a text, got a sequence"),
    ],
)
def test_schema_messages_name_yaml_types_not_python_ones(entry, words):
    from compiler.catalogs.schema import validate_node

    sink = Sink()
    doc = load_yaml("tiles:\n  X1:\n" + entry, "t.yaml", sink)
    assert not validate_node("catalogs/tiles.schema.json", doc, ("tiles",), sink)
    messages = " | ".join(d.message for d in sink.items)
    assert words in messages
    for python in ("NoneType", "dict", "list", " str ", "int "):
        assert python not in messages

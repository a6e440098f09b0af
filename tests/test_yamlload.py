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


# ---------------------------------------------------------------- nesting (issue 38, docs/robustness.md)
def _depth(text):
    """How deep the parser's events nest (the composer recurses once per level)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = deepest = 0
    for event in YAML(typ="safe").parse(text):
        if isinstance(event, CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
    return deepest


def _nested(form, n):
    """`n` collections nested in one another, written in one of the ways YAML allows."""
    return {
        "flow": "[" * n + "]" * n + "\n",
        "flow-map": "{a: " * n + "1" + "}" * n + "\n",
        "block-map": "".join(" " * i + "k:\n" for i in range(n - 1)) + " " * (n - 1) + "k: 1\n",
        "block-seq": "".join(" " * i + "-\n" for i in range(n)) + " " * n + "1\n",
        "compact": "- " * n + "1\n",
        "complex-keys": "? " * n + "1\n",
        "indentless": "k:\n" + "".join(" " * (2 * i) + "- k:\n" for i in range(n // 2)) + " " * n + "- 1\n",
        "bom-lines": "\ufeff" + "- " * n + "1\n",
        "after-ls": "a:\u2028 " + "- " * (n - 1) + "1\n",
    }[form]


FORMS = ("flow", "flow-map", "block-map", "block-seq", "compact", "complex-keys", "indentless", "bom-lines", "after-ls")


@pytest.mark.parametrize("form", FORMS)
def test_the_cheap_bound_is_never_below_the_real_depth(form):
    from compiler.catalogs.yamlload import bound_at_most, cheap_bound

    for n in (1, 2, 5, 40, 101):
        text = _nested(form, n)
        assert _depth(text) >= min(n, 2) and cheap_bound(text) >= _depth(text), (form, n)
        assert not bound_at_most(text, _depth(text) - 1), (form, n)


def test_data_nested_up_to_the_limit_loads_and_one_more_level_is_y0010_where_it_starts():
    from compiler.catalogs.yamlload import MAX_DEPTH

    doc, sink = load("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n")
    assert doc is not None and not sink.items
    doc, sink = load("a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")
    [d] = sink.items
    assert doc is None and d.code == "Y0010" and str(MAX_DEPTH) in d.message
    assert (d.span.line, d.span.column) == (1, 4 + MAX_DEPTH - 1)  # the bracket that opens level MAX_DEPTH + 1


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("n", [150, 250, 5_000])  # below COMPOSABLE the nodes are measured, above it the events
def test_every_form_of_deep_nesting_is_y0010_at_the_first_level_too_deep(form, n):
    from ruamel.yaml import YAML
    from ruamel.yaml.events import CollectionStartEvent

    from compiler.catalogs.yamlload import MAX_DEPTH

    text = _nested(form, n)
    starts = (e for e in YAML(typ="safe").parse(text) if isinstance(e, CollectionStartEvent))
    where = next(e for k, e in enumerate(starts, 1) if k == MAX_DEPTH + 1).start_mark
    doc, sink = load(text)
    assert doc is None and [(d.code, d.span.line, d.span.column) for d in sink.items] == [("Y0010", where.line + 1, where.column + 1)]


def test_aliases_nesting_too_deep_are_y0010_at_the_node():
    chain = "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 150))
    doc, sink = load(chain)
    assert doc is None and [d.code for d in sink.items] == ["Y0010"]
    doc, sink = load("loop: &a [*a]\n")  # an alias inside its own anchor
    assert doc is None and [(d.code, d.span.line, d.span.column) for d in sink.items] == [("Y0010", 1, 7)]


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.one_of(st.integers(), st.sampled_from(["x", "a: b", "[", "]]", "{", "'", '"', "# c", "- y", "\t"])),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["k", "[k", "{"]), inner, max_size=3)),
                    max_leaves=40),
       st.sampled_from([None, True, False]), st.integers(2, 6), st.integers(0, 4))
def test_the_cheap_bound_holds_for_whatever_the_dumper_writes(data, flow, indent, offset):
    """The bound is what skips the exact count: it must never be below the parser's depth,
    whatever the style (block, flow, compact sequences) and whatever the strings hold."""
    import io

    from ruamel.yaml import YAML

    from compiler.catalogs.yamlload import bound_at_most, cheap_bound, nested_too_deep

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    yaml.indent(mapping=indent, sequence=indent + offset, offset=min(offset, indent + offset - 2))
    out = io.StringIO()
    yaml.dump(data, out)
    text = out.getvalue()
    depth = _depth(text)
    assert cheap_bound(text) >= depth
    assert all(bound_at_most(text, ok) == (cheap_bound(text) <= ok) for ok in range(depth - 2, depth + 12))
    assert nested_too_deep(text, limit=max(depth - 1, 1)) is not None or depth <= 1
    assert nested_too_deep(text, limit=depth) is None

"""Mutations: byte-level ones for any file and structure-aware ones per format.

Every choice comes from a `Chooser`, seeded per input, so an input is the same bytes on
every run. The `.quest` and catalog mutators of tests/fuzzhelp.py take a hypothesis
`draw(strategy)`; `Chooser.draw` answers it from the same seed (hypothesis' own
ConjectureData driven by a seeded `random.Random`).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import random
import re
from typing import Any

# ---------------------------------------------------------------- choices


class Chooser:
    """Every random decision of one input."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)
        self._data = None
        self.notes: list[str] = []  # what was done, for the finding's report

    def note(self, text: str) -> None:
        if len(self.notes) < 40:
            self.notes.append(text)

    def draw(self, strategy):
        """A value of a hypothesis strategy (fuzzhelp's mutators ask this way)."""
        from hypothesis.internal.conjecture.data import ConjectureData

        for _ in range(3):
            if self._data is None:
                self._data = ConjectureData(random=random.Random(self.rng.getrandbits(64)))
            try:
                return self._data.draw(strategy)
            except Exception:  # noqa: BLE001 - an overrun of the choice sequence: start a fresh one
                self._data = None
        raise RuntimeError("hypothesis could not draw from the strategy")

    # plain helpers
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, pairs):
        """One name of (name, weight) pairs."""
        total = sum(w for _, w in pairs)
        x = self.rng.random() * total
        for name, w in pairs:
            x -= w
            if x < 0:
                return name
        return pairs[-1][0]

    def int(self, a: int, b: int) -> int:
        return self.rng.randint(a, b)

    def size(self) -> int:
        """A count for a repeat or a nesting: mostly small, sometimes large, rarely huge."""
        r = self.rng.random()
        if r < 0.7:
            return self.rng.randint(2, 16)
        if r < 0.95:
            return self.rng.randint(17, 500)
        return self.rng.randint(501, 20000)


# ---------------------------------------------------------------- byte level
BOM = b"\xef\xbb\xbf"
INVALID_UTF8 = (b"\xff", b"\xfe", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82")
TOKENS = (
    b"\x00", b"\r", b"\r\n", b"\n\n", BOM, b"\t", b"\x0b", b"\x0c", b"\x1b[2J", b"\x07", b"\x7f", b"\xc2\x85",
    "\u2028".encode(), "\u202e".encode(), "\u200f".encode(), "\ufffd".encode(), "\U0001f600".encode(), "é".encode(), "Ł".encode(),
    b'"', b"'", b"\\", b"{", b"}", b"[", b"]", b"(", b")", b":", b",", b"=", b"-", b"#", b";", b"|", b"@", b".", b"..",
    b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400", b"-0", b"0x1F", b"1_000", b"9" * 400, b"9" * 5000,
    b"2147483648", b"9223372036854775808", b"-9223372036854775809", b"1e-400", b"0.0000001",
    b"null", b"true", b"false", b"~", b"&a", b"*a", b"!!python/object:os.system", b"<<: *a", b"!!binary", b"? ", b"- ",
    b"%s", b"%d", b"{0}", b"{x}", b"${x}", b"\\u0000", b"\\ud800", b"\\x", b'\\"', b'"""', b"\\",
    b"msgid", b"msgctxt", b"msgstr", b"#~ ", b"#, fuzzy", b"[Quest]", b"\n[Quest]\n", b"[", b"event1=", b"=",
    b"quest", b"encounter", b"tile", b"spawn", b"map {", b"on start {", b"}", b"\"\"", b"x" * 300,
)


def mutate_bytes(data: bytes, ch: Chooser, others: list[bytes] | None = None) -> bytes:
    """One byte-level mutation."""
    op = ch.weighted((("flip", 6), ("set", 4), ("insert", 10), ("delete", 6), ("dup", 4), ("huge", 1), ("splice", 4),
                      ("line", 6), ("bom", 2), ("cr", 2), ("nul", 3), ("utf8", 3), ("truncate", 2), ("longline", 1)))
    n = len(data)
    at = ch.int(0, n)
    if op == "flip" and n:
        buf = bytearray(data)
        for _ in range(ch.int(1, 8)):
            i = ch.int(0, n - 1)
            buf[i] ^= 1 << ch.int(0, 7)
        ch.note("flip bits")
        return bytes(buf)
    if op == "set" and n:
        buf = bytearray(data)
        for _ in range(ch.int(1, 4)):
            buf[ch.int(0, n - 1)] = ch.pick(b"\x00\xff\x7f\x80\"\\{[:\n\r\t #;=.-0")
        ch.note("set bytes")
        return bytes(buf)
    if op == "insert":
        tok = ch.pick(TOKENS)
        ch.note(f"insert {tok[:20]!r} at {at}")
        return data[:at] + tok + data[at:]
    if op == "delete" and n:
        length = ch.int(1, max(1, min(64, n)) if ch.chance(0.8) else max(1, n // 4))
        ch.note(f"delete {length} at {at}")
        return data[:at] + data[at + length:]
    if op == "dup" and n:
        a = ch.int(0, n - 1)
        chunk = data[a: a + ch.int(1, 80)]
        k = ch.int(2, 16) if ch.chance(0.9) else ch.int(17, 400)
        ch.note(f"repeat {chunk[:20]!r} x{k}")
        return data[:a] + chunk * k + data[a:]
    if op == "huge":
        a = ch.int(0, max(0, n - 1))
        chunk = data[a: a + ch.int(1, 24)] or b"x"
        total = ch.pick((65536, 262144, 1 << 20))
        ch.note(f"huge repeat {chunk[:20]!r} to {total} bytes")
        return data[:a] + chunk * (total // len(chunk)) + data[a:]
    if op == "splice" and others:
        other = ch.pick(others)
        if other:
            b = ch.int(0, len(other) - 1)
            piece = other[b: b + ch.int(1, 400)]
            end = at + (ch.int(0, 200) if ch.chance(0.5) else 0)
            ch.note(f"splice {len(piece)} bytes at {at}")
            return data[:at] + piece + data[end:]
    if op == "line":
        lines = data.split(b"\n")
        i, j = ch.int(0, len(lines) - 1), ch.int(0, len(lines) - 1)
        how = ch.pick(("drop", "dup", "swap", "move", "empty"))
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(j, lines[i])
        elif how == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "move":
            lines.insert(j, lines.pop(i))
        else:
            lines[i] = b""
        ch.note(f"line {how} {i} {j}")
        return b"\n".join(lines)
    if op == "bom":
        ch.note("BOM")
        return BOM + data if ch.chance(0.6) else data[:at] + BOM + data[at:]
    if op == "cr":
        how = ch.pick(("crlf", "cr", "one", "mixed"))
        ch.note(f"line ends {how}")
        if how == "crlf":
            return data.replace(b"\n", b"\r\n")
        if how == "cr":
            return data.replace(b"\n", b"\r")
        if how == "one":
            i = data.find(b"\n", at)
            return data if i < 0 else data[:i] + b"\r" + data[i + 1:]
        return b"".join(line + (b"\r\n" if k % 2 else b"\n") for k, line in enumerate(data.split(b"\n")))
    if op == "nul":
        ch.note(f"NUL at {at}")
        return data[:at] + b"\x00" * ch.pick((1, 1, 2, 100)) + data[at:]
    if op == "utf8":
        bad = ch.pick(INVALID_UTF8)
        ch.note(f"invalid UTF-8 {bad!r} at {at}")
        return data[:at] + bad + data[at:]
    if op == "truncate":
        ch.note(f"truncate at {at}")
        return data[:at]
    if op == "longline":
        length = ch.pick((5000, 60000, 250000))
        ch.note(f"a {length}-character line at {at}")
        return data[:at] + (ch.pick((b"x", b"ab ", b"\xc3\xa9", b"\t", b"{", b"a\x1b")) * length)[:length] + data[at:]
    return data + b"\n"


def text_of(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# ---------------------------------------------------------------- trees (JSON, YAML, TOML)
RAW = "\x00raw:"  # a string holding RAW + text is written as the bare text (1e400, NaN…)
HOSTILE_SCALARS = (
    0, 1, -1, 2, 3, 7, 255, 65536, 10**6, 10**9, 2**31, 2**53, 2**63, 10**30, -(10**9), -(2**63), 10**400,
    0.5, -0.0, 1e308, -1e308, 5e-324, float("nan"), float("inf"), float("-inf"),
    RAW + "1e400", RAW + "-1e400", RAW + "NaN", RAW + "Infinity", RAW + "-Infinity", RAW + "1" + "0" * 5000,
    None, True, False, "", " ", "x", "0", "1x1", "9x9", "0x0", "-1", "NaN", "null", "\x00", "\r", "\u202e", "\ud800",
    "a\nb", "é", "<b>", "{x}", "%s", "../../etc/passwd", "/dev/zero", "~", "*", "**", "x" * 1000,
)


def hostile_scalar(ch: Chooser, pool: list[str]):
    if pool and ch.chance(0.3):
        return ch.pick(pool)
    if ch.chance(0.02):
        return ch.pick(("x", "é", "\u202e", "ab\n")) * ch.pick((10000, 70000))
    return ch.pick(HOSTILE_SCALARS)


def nested(ch: Chooser, depth: int | None = None):
    depth = depth or ch.size()
    leaf: Any = ch.pick((1, "x", None, [], {}))
    for _ in range(depth):
        leaf = [leaf] if ch.chance(0.5) else {"a": leaf}
    return leaf


def paths(node, prefix=(), max_depth: int = 40):
    """Every path into a tree, breadth first, down to `max_depth` (a mutated tree may nest 20,000 deep)."""
    out = [prefix]
    stack = [(node, prefix)]
    while stack:
        n, p = stack.pop()
        if len(p) >= max_depth:
            continue
        items = n.items() if isinstance(n, dict) else enumerate(n) if isinstance(n, list) else ()
        for k, v in items:
            out.append(p + (k,))
            if len(out) > 20000:
                return out
            stack.append((v, p + (k,)))
    return out


def get(node, path):
    for k in path:
        node = node[k]
    return node


def mutate_tree(doc, ch: Chooser, pool: list[str], keys: tuple[str, ...] = ()):
    """One structural mutation of a JSON-like tree (returns the new tree)."""
    all_paths = paths(doc)
    inner = [p for p in all_paths if p]
    if not inner:
        return nested(ch) if ch.chance(0.5) else hostile_scalar(ch, pool)
    if keys and ch.chance(0.5):  # prefer the fields the target cares about
        wanted = [p for p in inner if p[-1] in keys]
        if wanted:
            inner = wanted
    path = ch.pick(inner)
    parent, key = get(doc, path[:-1]), path[-1]
    op = ch.weighted((("replace", 8), ("swap", 3), ("drop", 3), ("dup", 3), ("many", 1), ("rename", 2), ("copy", 2),
                      ("empty", 2), ("nest", 2), ("type", 2)))
    ch.note(f"tree {op} at {'/'.join(map(str, path))[:80]}")
    if op == "replace":
        parent[key] = hostile_scalar(ch, pool)
    elif op == "swap":
        other = ch.pick(inner)
        if other[: len(path)] != path and path[: len(other)] != other:
            a, b = get(doc, path), get(doc, other)
            parent[key] = copy.deepcopy(b)
            get(doc, other[:-1])[other[-1]] = copy.deepcopy(a)
    elif op == "drop":
        del parent[key]
    elif op in ("dup", "many"):
        k = 1 if op == "dup" else ch.size()
        value = get(doc, path)
        if isinstance(parent, list):
            parent.extend(copy.deepcopy(value) for _ in range(k))
        else:
            for i in range(k):
                parent[f"{key}_{i}" if not pool or ch.chance(0.5) else ch.pick(pool)] = copy.deepcopy(value)
    elif op == "rename" and isinstance(parent, dict):
        new = ch.pick(pool) if pool and ch.chance(0.5) else ch.pick(("", " ", "x", "id", "0", "\u202e", "a" * 300, str(key).upper()))
        parent[new] = parent.pop(key)
    elif op == "copy":
        parent[key] = copy.deepcopy(get(doc, ch.pick(all_paths)))
    elif op == "empty":
        v = parent[key]
        parent[key] = type(v)() if isinstance(v, (list, dict, str)) else None
    elif op == "nest":
        v = parent[key]
        for _ in range(ch.size()):
            v = [v] if ch.chance(0.6) else {"a": v}
        parent[key] = v
    elif op == "type":
        v = parent[key]
        parent[key] = [v] if not isinstance(v, list) else (v[0] if v else {})
    return doc


def _raw_fix(text: str) -> str:
    # a RAW string was written quoted ("\u0000raw:1e400" in JSON, "\0raw:1e400" in YAML): unquote it
    text = re.sub(r'"\\u0000raw:([^"]*)"', r"\1", text)
    return re.sub(r'"\\0raw:([^"]*)"', r"\1", text)


def dump_json(doc, ch: Chooser) -> bytes:
    indent = ch.pick((None, None, 1, 2, 4))
    text = json.dumps(doc, indent=indent, ensure_ascii=ch.chance(0.3), allow_nan=True, default=str)
    return _raw_fix(text).encode("utf-8", "surrogatepass") + b"\n"


def dump_yaml(doc, ch: Chooser) -> bytes:
    from ruamel.yaml import YAML

    y = YAML(typ="safe")  # libyaml's emitter: four times faster than the pure one
    y.default_flow_style = ch.pick((False, None, True))
    y.allow_unicode = True
    out = io.StringIO()
    try:
        y.dump(_yamlable(doc), out)
    except Exception:  # noqa: BLE001 - a value ruamel cannot write: JSON is YAML too
        return dump_json(doc, ch)
    return _raw_fix(out.getvalue()).encode("utf-8", "surrogatepass")


def _yamlable(v):
    if isinstance(v, dict):
        return {str(k) if not isinstance(k, (int, bool)) or isinstance(k, bool) else k: _yamlable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_yamlable(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**18:
        return RAW + str(v)
    return v


def load_tree(data: bytes):
    """A seed's tree: JSON first, YAML after; None when neither reads it."""
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        pass
    try:
        from ruamel.yaml import YAML

        return YAML(typ="safe").load(data.decode("utf-8"))
    except Exception:  # noqa: BLE001
        return None


def json_text_ops(data: bytes, ch: Chooser) -> bytes:
    """Mutations that a tree cannot say: a duplicate key, a bare 1e400, a trailing comma."""
    text = data.decode("utf-8", "surrogateescape")
    op = ch.pick(("dupkey", "number", "comma", "comment"))
    ch.note(f"json text {op}")
    if op == "dupkey":
        keys = list(re.finditer(r'"([^"\\]{1,40})"\s*:\s*', text))
        if keys:
            m = ch.pick(keys)
            return (text[: m.start()] + m.group(0) + ch.pick(("null", "1e400", "NaN", '"x"', "[]", "{}")) + ", " + text[m.start():]).encode("utf-8", "surrogateescape")
    if op == "number":
        nums = list(re.finditer(r"(?<![\w.\"])-?\d+(?:\.\d+)?(?![\w.\"])", text))
        if nums:
            m = ch.pick(nums)
            new = ch.pick(("1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1e-400", "-0", "0.5", "9" * 400, "1" + "0" * 30, "0x10", "+1", "01"))
            return (text[: m.start()] + new + text[m.end():]).encode("utf-8", "surrogateescape")
    if op == "comma":
        i = text.rfind("}")
        if i > 0:
            return (text[:i] + "," + text[i:]).encode("utf-8", "surrogateescape")
    return ("// c\n" + text).encode("utf-8", "surrogateescape")


# ---------------------------------------------------------------- .ini (Valkyrie)
NUMERIC_INI_KEYS = frozenset({"xposition", "yposition", "rotation", "buttons", "format", "uniquehealth", "uniquehealthhero",
                              "minhero", "maxhero", "quota", "x", "y", "size"})
def mutate_ini(text: str, ch: Chooser, pool: list[str]) -> str:
    lines = text.split("\n")
    heads = [i for i, l in enumerate(lines) if l.strip().startswith("[")]
    keyed = [i for i, l in enumerate(lines) if "=" in l and not l.strip().startswith((";", "["))]
    names = [lines[i].strip()[1:-1] for i in heads if lines[i].strip().endswith("]")]
    op = ch.weighted((("dup_section", 3), ("dup_key", 3), ("empty_section", 2), ("empty_value", 3), ("drop_line", 2),
                      ("swap_values", 3), ("rename_section", 2), ("bom", 1), ("value", 6), ("chain", 2), ("list", 2),
                      ("garbage", 1)))
    ch.note(f"ini {op}")

    def section_range(h):
        end = next((j for j in heads if j > h), len(lines))
        return h, end

    if op == "dup_section" and heads:
        a, b = section_range(ch.pick(heads))
        at = ch.pick(heads + [len(lines)])
        return "\n".join(lines[:at] + lines[a:b] + lines[at:])
    if op == "dup_key" and keyed:
        i = ch.pick(keyed)
        k, _, _ = lines[i].partition("=")
        lines.insert(i + 1, f"{k}={ch.pick(('', 'x', '0', '-1', '99999999999999999999', lines[i].partition('=')[2]))}")
        return "\n".join(lines)
    if op == "empty_section" and heads:
        a, b = section_range(ch.pick(heads))
        return "\n".join(lines[: a + 1] + lines[b:])
    if op == "empty_value" and keyed:
        i = ch.pick(keyed)
        lines[i] = lines[i].partition("=")[0] + "="
        return "\n".join(lines)
    if op == "drop_line" and lines:
        del lines[ch.int(0, len(lines) - 1)]
        return "\n".join(lines)
    if op == "swap_values" and len(keyed) > 1:
        i, j = ch.pick(keyed), ch.pick(keyed)
        ki, _, vi = lines[i].partition("=")
        kj, _, vj = lines[j].partition("=")
        lines[i], lines[j] = f"{ki}={vj}", f"{kj}={vi}"
        return "\n".join(lines)
    if op == "rename_section" and heads and names:
        lines[ch.pick(heads)] = f"[{ch.pick(names + ['', ' ', 'Quest', 'QuestData', 'Event', 'Tile', 'x' * 300])}]"
        return "\n".join(lines)
    if op == "bom":
        i = ch.int(0, max(0, len(lines) - 1))
        lines[i] = "\ufeff" + lines[i]
        return "\n".join(lines)
    if op == "value" and keyed:
        numeric = [k for k in keyed if lines[k].partition("=")[0].strip() in NUMERIC_INI_KEYS]
        i = ch.pick(numeric if numeric and ch.chance(0.5) else keyed)
        k = lines[i].partition("=")[0]
        v = ch.pick(("", "0", "-1", "1.5", "NaN", "1e400", "99999999999999999999", "2147483648", "-2147483649", "x",
                     "Tile18A", "True", "False", ",", ",,,", " ", "a b c", "#heroes,==,2", "x,=,", "\\", "..\\..\\x",
                     "\u202e", "\x00", "é", "-90", "450", "45", "1000000000"))
        if pool and ch.chance(0.3):
            v = " ".join(ch.pick(pool) for _ in range(ch.int(1, 4)))
        lines[i] = f"{k}={v}"
        return "\n".join(lines)
    if op == "chain" and names:
        i = ch.pick(heads)
        targets = " ".join(ch.pick(names) for _ in range(ch.int(1, 5)))
        lines.insert(i + 1, f"{ch.pick(('event1', 'event2', 'add', 'remove', 'trigger'))}={targets}")
        return "\n".join(lines)
    if op == "list":
        i = next((k for k in heads if lines[k].strip() in ("[QuestData]", "[QuestText]")), None)
        if i is not None:
            lines.insert(i + 1, ch.pick(("..\\..\\etc\\passwd", "/etc/passwd", "missing.ini", "quest.ini", "tiles.ini", "", "x" * 300,
                                         "sub/../../x.ini", "C:\\x.ini", "Localization.English.txt")))
            return "\n".join(lines)
    if op == "garbage":
        lines.insert(ch.int(0, len(lines)), ch.pick(("[", "]", "[]", "=", "==", "x", "[x", ";", "[Quest", "=x")))
        return "\n".join(lines)
    return text + "\n[Extra]\nx=1\n"


# ---------------------------------------------------------------- .po
def mutate_po(text: str, ch: Chooser, pool: list[str]) -> str:
    blocks = text.split("\n\n")
    op = ch.weighted((("dup_entry", 3), ("drop_entry", 2), ("swap_ctxt", 3), ("no_ctxt", 2), ("plural", 1), ("quote", 3),
                      ("escape", 2), ("header", 2), ("fuzzy", 2), ("obsolete", 2), ("placeholder", 3), ("hash", 2),
                      ("long", 1), ("continuation", 2), ("keyword", 2)))
    ch.note(f"po {op}")
    entries = [i for i, b in enumerate(blocks) if "msgctxt" in b]
    if op == "dup_entry" and entries:
        i = ch.pick(entries)
        blocks.insert(ch.int(0, len(blocks)), blocks[i])
    elif op == "drop_entry" and entries:
        del blocks[ch.pick(entries)]
    elif op == "swap_ctxt" and len(entries) > 1:
        i, j = ch.pick(entries), ch.pick(entries)
        ci = re.search(r"^msgctxt .*$", blocks[i], re.M)
        cj = re.search(r"^msgctxt .*$", blocks[j], re.M)
        if ci and cj:
            a, b = ci.group(0), cj.group(0)
            blocks[i] = blocks[i].replace(a, b, 1)
            blocks[j] = blocks[j].replace(b, a, 1)
    elif op == "no_ctxt" and entries:
        i = ch.pick(entries)
        blocks[i] = re.sub(r"^msgctxt .*\n", "", blocks[i], count=1, flags=re.M)
    elif op == "plural" and entries:
        i = ch.pick(entries)
        blocks[i] = blocks[i].replace("msgstr ", 'msgid_plural "many"\nmsgstr[0] ', 1)
    elif op == "quote" and blocks:
        i = ch.int(0, len(blocks) - 1)
        qs = [m.start() for m in re.finditer('"', blocks[i])]
        if qs:
            q = ch.pick(qs)
            blocks[i] = blocks[i][:q] + blocks[i][q + 1:]
    elif op == "escape" and entries:
        i = ch.pick(entries)
        blocks[i] = blocks[i].replace('msgstr "', 'msgstr "' + ch.pick(("\\q", "\\", "\\x41", "\\u00e9", "\\0", "\\\\\\", '\\"', "\\n\\t")), 1)
    elif op == "header":
        blocks[0] = re.sub(r"charset=[^\\\"]*", "charset=" + ch.pick(("ISO-8859-1", "", "utf8", "x" * 100, "UTF-16", "\u202e")), blocks[0])
        if ch.chance(0.5):
            blocks[0] = re.sub(r"Language: [^\\\"]*", "Language: " + ch.pick(("pl", "", "fr_FR", "x y", "../..", "\x00")), blocks[0])
    elif op == "fuzzy" and entries:
        i = ch.pick(entries)
        blocks[i] = ch.pick(("#, fuzzy\n", "#, fuzzy, c-format\n", "#,\n", "#, \n")) + blocks[i]
    elif op == "obsolete" and entries:
        i = ch.pick(entries)
        blocks[i] = "\n".join(("#~ " + l if not l.startswith("#") else l) for l in blocks[i].split("\n"))
    elif op == "placeholder" and entries:
        i = ch.pick(entries)
        blocks[i] = re.sub(r'(msgstr ")', r"\1" + ch.pick(("{x}", "[TileExit]", "<b>", "%s", "{", "}", "</i>", "{0}{1}", "%1$s")), blocks[i], count=1)
    elif op == "hash" and entries:
        i = ch.pick(entries)
        blocks[i] = re.sub(r"questc-source: \S*", "questc-source: " + ch.pick(("", "x", "0" * 12, "g" * 12, "0" * 400)), blocks[i])
    elif op == "long" and entries:
        i = ch.pick(entries)
        blocks[i] = blocks[i].replace('msgstr "', 'msgstr "' + "x" * ch.pick((5000, 100000)), 1)
    elif op == "continuation" and entries:
        i = ch.pick(entries)
        blocks[i] = blocks[i] + "\n" + ch.pick(('"more"', '"', '"\\"', "more", '"a" "b"', '""'))
    elif op == "keyword" and blocks:
        i = ch.int(0, len(blocks) - 1)
        blocks[i] = blocks[i] + "\n" + ch.pick(("msgid", "msgstr", 'msgctxt "quest.x"', "msgid_plural", "msgstr[1] \"\"", "msgfoo \"x\"",
                                               'msgctxt ""', 'msgid "x" "y"', "#| msgid \"old\"", "#~ msgid"))
    return "\n\n".join(blocks)


# ---------------------------------------------------------------- CSV
def mutate_csv(text: str, ch: Chooser, pool: list[str]) -> str:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    op = ch.weighted((("swap_cells", 3), ("empty_cell", 2), ("nul", 2), ("extra", 2), ("short", 2), ("dup_row", 2),
                      ("header", 2), ("cell", 4), ("long", 1), ("delim", 1)))
    ch.note(f"csv {op}")
    if not rows:
        rows = [["id", "translation"]]
    r = ch.int(0, len(rows) - 1)
    row = rows[r]
    if op == "swap_cells" and row:
        i, j = ch.int(0, len(row) - 1), ch.int(0, len(row) - 1)
        row[i], row[j] = row[j], row[i]
    elif op == "empty_cell" and row:
        row[ch.int(0, len(row) - 1)] = ""
    elif op == "nul" and row:
        i = ch.int(0, len(row) - 1)
        row[i] = row[i] + "\x00"
    elif op == "extra":
        row.extend(["x"] * ch.int(1, 50))
    elif op == "short" and row:
        del row[ch.int(0, len(row) - 1):]
    elif op == "dup_row":
        rows.insert(ch.int(0, len(rows)), list(row))
    elif op == "header" and rows:
        rows[0] = [ch.pick(("id", "translation", "", "ID", "source_hash", "x")) if ch.chance(0.3) else c for c in rows[0]]
    elif op == "cell" and row:
        row[ch.int(0, len(row) - 1)] = ch.pick(("", "x", "{x}", "[TileExit]", "\u202e", "\r", "\n", '"', "a,b", "é", "0" * 12,
                                               "quest.x", "%s", "<b>")) if not pool or ch.chance(0.7) else ch.pick(pool)
    elif op == "long" and row:
        row[ch.int(0, len(row) - 1)] = "x" * ch.pick((5000, 200000))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", delimiter=";" if op == "delim" else ",").writerows(rows)
    return out.getvalue()


# ---------------------------------------------------------------- TOML (questc.toml)
def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str) and v.startswith(RAW):
        return v[len(RAW):]
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    return '""'  # None has no TOML form


def dump_toml(doc: dict) -> str:
    top = [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in doc.items() if not isinstance(v, dict)]
    tables = []
    for k, v in doc.items():
        if isinstance(v, dict):
            tables.append(f"[{json.dumps(str(k))}]")
            tables += [f"{json.dumps(str(kk))} = {toml_value(vv)}" for kk, vv in v.items()]
    return "\n".join(top + tables) + "\n"

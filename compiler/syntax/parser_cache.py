"""The built Lark parser, kept between runs in the private cache (compiler/diskcache.py).

Building the LALR tables from grammar.lark takes about 0.3 s, more than a whole cold
check of a small pack, so a fresh `questc check` loads them from a file instead. That
file is a pickle, and unpickling runs whatever code the file names; so it is read only
through `diskcache.load`, which trusts a file only in a directory nobody but the current
user can write, opened without following links and checked on the descriptors, and
only when its first line is a hash of everything the tables depend on (grammar text,
Lark options, Lark and Python versions): a stale file is rebuilt instead of trusted.

When any check fails the parser is built from the grammar, slower but never unsafe.
Lark's own `cache=True` is not used: it keeps its pickle in the shared temp folder
(`/tmp/.lark_cache_*`), where any local user can plant one, and it unpickles part of
the file before comparing hashes.

The file holds the built parser object itself, less the grammar it was built from (as a
parser `Lark.load` makes), rather than what `Lark.save` writes: unpickling it takes 4-5 ms,
where `Lark.load` takes 17 (it remakes every rule, symbol and parse state one object at a
time), and every check that parses a file pays it. Two
things of Lark's are named rather than copied: modules (the lexer holds `re`) and the
`Shift`/`Reduce` actions, which the parser tells apart by identity. A parser is kept
only when its copy, loaded back, parses a probe into the very same tree; the tests
compare a loaded copy with the built parser on every quest file they have.
"""

from __future__ import annotations

import importlib
import io
import pickle
import types
from collections.abc import Callable
from typing import Any

import lark
from lark import Lark
from lark.parsers import lalr_analysis

from compiler import cachekeys, diskcache

FORMAT = b"questc-parser-cache 2"  # bump when the file layout changes


def key_of(grammar: str, options: dict[str, Any]) -> str:
    """What the built tables depend on: the grammar, the options and the environment
    (compiler/cachekeys.py: Lark's version among the libraries'). `options` must have a
    stable repr (no objects whose repr holds an address: the postlexer is named by its
    class)."""
    described = {k: (type(v).__qualname__ if k == "postlex" else v) for k, v in sorted(options.items())}
    return cachekeys.persistent(FORMAT, grammar, repr(described), lark.__version__)


def file_name(key: str) -> str:
    return f"parser-{key[:32]}.pickle"


def load_or_build(grammar: str, options: dict[str, Any]) -> Lark:
    """The parser for `grammar` with `options`: from the private cache when a trusted
    file for exactly this key is there, otherwise built (and saved for the next run)."""
    key = key_of(grammar, options)
    header = FORMAT + b" " + key.encode()
    data = diskcache.load(file_name(key), header)
    if data is not None:
        try:
            parser = pickle.loads(data)  # reached only through the checks of diskcache
            if isinstance(parser, lark.Lark):
                return parser
        except Exception:  # a truncated or damaged file: rebuild it
            pass
    parser = Lark(grammar, **options)
    data = dumps(parser)
    if data is not None:
        diskcache.save(file_name(key), header, data)
    return parser


# A text the probe parses: a little of every kind of rule (blocks, lists, options, numbers).
PROBE = """\
## probe
quest probe "Probe" {
  heroes 2..4
  map {
    tile entrance1A at (0, 0)
    tile 11A attach west to entrance1A.north
  }
  start heroes on entrance1A; token search at 11A(1,1)
  on round_end 6 { lose "Late." }
}
"""


def dumps(parser: Lark) -> bytes | None:
    """The parser as a pickle that loads back into an equal parser, or None when the
    copy parses the probe differently (a Lark this code does not know: then every run
    builds the tables, slower but right)."""
    # what a parser that Lark.load made holds: not the grammar it was built from, its text
    # or its ignored tokens, which parsing does not read
    kept = object.__new__(type(parser))
    kept.__dict__.update((k, v) for k, v in vars(parser).items() if k not in ("grammar", "source_grammar", "ignore_tokens"))
    buffer = io.BytesIO()
    try:
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(kept)
        data = buffer.getvalue()
        if pickle.loads(data).parse(PROBE) == parser.parse(PROBE):
            return data
    except Exception:  # something of Lark's that does not pickle
        pass
    return None


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: object) -> tuple[Callable[..., object], tuple[object, ...]]:
        if isinstance(obj, types.ModuleType):
            return importlib.import_module, (obj.__name__,)
        if obj is lalr_analysis.Shift or obj is lalr_analysis.Reduce:
            return getattr, (lalr_analysis, obj.name)
        # pickle's own reduction for everything else; typeshed derives NotImplemented's type
        # from Any, so mypy takes this for returning Any
        return NotImplemented  # type: ignore[no-any-return]

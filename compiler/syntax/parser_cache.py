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
"""

from __future__ import annotations

import hashlib
import io
import sys

import lark
from lark import Lark

from compiler import diskcache

FORMAT = b"questc-parser-cache 1"  # bump when the file layout changes


def key_of(grammar: str, options: dict) -> str:
    """What the built tables depend on. `options` must have a stable repr (no objects
    whose repr holds an address: the postlexer is named by its class)."""
    described = {k: (type(v).__qualname__ if k == "postlex" else v) for k, v in sorted(options.items())}
    text = "\n".join([FORMAT.decode(), grammar, repr(described), lark.__version__, sys.version])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_name(key: str) -> str:
    return f"parser-{key[:32]}.pickle"


def load_or_build(grammar: str, options: dict) -> Lark:
    """The parser for `grammar` with `options`: from the private cache when a trusted
    file for exactly this key is there, otherwise built (and saved for the next run)."""
    key = key_of(grammar, options)
    header = FORMAT + b" " + key.encode()
    data = diskcache.load(file_name(key), header)
    if data is not None:
        try:
            return Lark.load(io.BytesIO(data))  # a pickle: reached only through the checks of diskcache
        except Exception:  # a truncated or damaged file: rebuild it
            pass
    parser = Lark(grammar, **options)
    buffer = io.BytesIO()
    parser.save(buffer)
    diskcache.save(file_name(key), header, buffer.getvalue())
    return parser

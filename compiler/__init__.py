"""questc: a compiler for tile-based dungeon-crawler content packs."""

__version__ = "0.1.0"

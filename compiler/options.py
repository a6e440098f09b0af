"""One frozen Options value passed everywhere; hashable, so it can key caches."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Options:
    strict: bool = False  # warnings count as errors for the exit code
    pack_path: tuple[str, ...] = ()  # extra pack search folders (--pack-path, QUESTC_PATH)
    images: bool = True  # render maps on build
    max_file_bytes: int = 4 * 1024 * 1024
    sight: bool = True  # compute static sight tables
    quests: bool = True  # read the packs' .quest files (False: catalogs only, for the library listings)
    sourced_only: bool = False  # every illustrative fact reaching a bundle is an error (K0301)
    plugins: tuple[str, ...] = ()  # enabled plugins whose passes run after the built-in ones (compiler/plugins)
    # an importer's own `questc check` options (Importer.configure_check), (dest, value), e.g.
    # ("packs", frozenset({"LoR"})) for the Valkyrie plugin's --packs
    plugin_options: tuple[tuple[str, Hashable], ...] = ()

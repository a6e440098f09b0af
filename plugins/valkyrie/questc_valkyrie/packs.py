"""`--packs`: the app's content packs the user has (docs/valkyrie.md, "Expansion packs").

The app sets the quest variable `#<id>` to 1 for every content pack it has loaded
(Quest.cs, the quest's start: `GetLoadedPackIDs`), where `<id>` is the `id=` of the pack's
content_pack.ini; quests test it (`#LoR,==,1`) to offer an expansion's monster or tile
only to those who own it. `--packs base,lor` names the packs the user has: their flags are
1 for the import and the check, every other flag 0. The base game has no `id=` (no flag).
"""

from __future__ import annotations

import argparse

# the command line's name -> the app's pack id (`id=` of the D2E boxed expansions'
# content_pack.ini, NPBruce/valkyrie content/D2E/boxed/*); `base` is the base game
APP_PACKS: dict[str, str] = {
    "lor": "LoR",    # Labyrinth of Ruin
    "lotw": "LotW",  # Lair of the Wyrm
    "tt": "TT",      # The Trollfens
    "son": "SoN",    # Shadow of Nerekhall
    "mor": "MoR",    # Manor of Ravens
    "mob": "MoB",    # Mists of Bilehall
    "tctr": "TCTR",  # The Chains That Rust
    "ll": "LL",      # Lost Legends
}
BASE = "base"


def parse_packs(text: str) -> frozenset[str]:
    """`base,lor` -> the app ids of the packs named ({"LoR"}); names are matched without
    regard to case. An unknown name is a usage error (argparse's) with a did-you-mean."""
    from compiler.plugins.api import did_you_mean

    ids: set[str] = set()
    names = [n.strip() for n in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError(f"no pack named: give a comma list of {', '.join([BASE, *APP_PACKS])}")
    for name in names:
        key = name.lower()
        if key == BASE:
            continue
        if key not in APP_PACKS:
            guess = did_you_mean(key, [BASE, *APP_PACKS])
            hint = f"; did you mean `{guess}`?" if guess else ""
            raise argparse.ArgumentTypeError(f"unknown pack `{name}`{hint} (the app's packs: {', '.join([BASE, *APP_PACKS])})")
        ids.add(APP_PACKS[key])
    return frozenset(ids)


def add_packs_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--packs", type=parse_packs, default=frozenset(), metavar="PACK,…",
                        help="the app's content packs you have (default: base): their `#<pack>` flags are 1, e.g. base,lor")

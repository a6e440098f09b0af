"""What the provenance pass (compiler/passes/provenance.py) finds: the facts that reach the
bundle without a published source. Apart from the campaign's types, so that a pack with
monsters or tiles but no campaign does not load them."""

from __future__ import annotations


from compiler.diagnostics import Span
from compiler import frozen


@frozen
class Fact:
    """A fact that reaches the bundle without a published source (`questc check --sourced-only`)."""

    where: str  # its place in the bundle: worlds.terrinoth.locations.forge.defense
    span: Span

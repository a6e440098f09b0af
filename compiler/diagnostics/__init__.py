"""Diagnostics are data: a code from the catalogue, a severity, a message and a span."""

from compiler.diagnostics.model import Diagnostic, Related, Severity, Span, Sink, fold_same_place

__all__ = ["Diagnostic", "Related", "Severity", "Span", "Sink", "fold_same_place"]

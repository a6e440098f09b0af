"""Diagnostics are data: a code from the catalogue, a severity, a message and a span."""

from compiler.diagnostics.model import Diagnostic, Edit, Related, Severity, Span, Sink, fold_same_place

__all__ = ["Diagnostic", "Edit", "Related", "Severity", "Span", "Sink", "fold_same_place"]

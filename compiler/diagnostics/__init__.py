"""Diagnostics are data: a code from the catalogue, a severity, a message and a span."""

from compiler.diagnostics.model import Diagnostic, Related, Severity, Span, Sink

__all__ = ["Diagnostic", "Related", "Severity", "Span", "Sink"]

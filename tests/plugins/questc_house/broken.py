"""Plugins broken in one way each (tests/test_plugins.py)."""

from __future__ import annotations

from compiler.plugins import Command, Plugin, PluginPass


def missing_module():
    import questc_no_such_module  # noqa: F401 - the failure under test

    return Plugin()


not_a_plugin = "a string, not a Plugin"

bad_prefix = Plugin(prefix="house", codes={"house0001": {"message": "x"}})


def _crash(model, sink):
    raise ZeroDivisionError("the house rule divided by zero")


crashy = Plugin(prefix="CR", passes=(PluginPass("crash", _crash),))


def _rogue(model, sink):
    from compiler.diagnostics import Span

    sink.report("M0201", Span(str(model.pack.root / "pack.yaml"), 1, 1), tile="99Z", hint="")
    return model


rogue = Plugin(prefix="RG", passes=(PluginPass("rogue", _rogue),))


def _never(args) -> int:
    return 0


too_new = Plugin(api="2.0")  # written for a plugin API this questc does not give

squatter = Plugin(commands=(Command("check", "a command under a built-in name", lambda parser: None, _never),))

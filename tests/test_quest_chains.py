"""Quest chains: `next quest NAME` between quests of one pack (compiler/passes/quest_chains.py)."""

from __future__ import annotations

from compiler.emit.quests import effects_json
from compiler.emit.strings import StringTable
from compiler.model import quest as m
from quest_helpers import MAP, codes, run


def chain(hub: str, mine: str, *, names: tuple[str, str] = ("hub", "mine")) -> str:
    a, b = names
    return f'quest {a} "Hub" {{\n{MAP}{hub}}}\nquest {b} "Mine" {{\n{MAP}{mine}}}\n'


def test_next_quest_parses_and_lowers_with_its_target():
    model, sink = run(chain("  on round_end 2 { next quest mine }\n",
                            '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n'))
    assert codes(sink) == []
    ev = model.quests["hub"].encounters[0].events[1]
    assert [(f.kind, f.args) for f in ev.effects] == [("next_quest", ("mine",))]
    assert ev.ends == ("next_quest",)
    assert effects_json(ev.effects, ("quest", "hub"), StringTable(), m.TextNumbers()) == [{"kind": "next_quest", "quest": "mine"}]


def test_unknown_quest_is_located_with_a_did_you_mean():
    text = chain('  on round_end 2 { ask "Go?" { choice "Yes" { next quest mien }; choice "No" { lose } } }\n',
                 '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0801"]
    d = sink.items[0]
    assert "did you mean `mine`?" in d.message and d.fix == "mine"
    line = next(i for i, ln in enumerate(text.splitlines(), start=1) if "mien" in ln)
    assert (d.span.line, d.span.column) == (line, text.splitlines()[line - 1].index("next quest mien") + 1)


def test_a_quest_that_hands_on_is_judged_with_its_chain():
    # the hub has neither win nor lose itself: the mine it leads to has both
    _, sink = run(chain("  on round_end 2 { next quest mine }\n",
                        '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n'))
    assert "Q0305" not in codes(sink) and "Q0306" not in codes(sink) and codes(sink) == []


def test_a_chain_that_can_never_be_won():
    # the mine, where the chain ends, is the fault: Q0305 there, not also at the hub
    _, sink = run(chain("  on round_end 2 { next quest mine }\n", '  on round_end 9 { lose "late" }\n'))
    assert [(d.code, d.span.line) for d in sink.items] == [("Q0305", 13)]  # `quest mine`
    # a chain that never ends (each quest leads only to the other) and never wins: at each quest
    _, sink = run(chain("  on round_end 2 { next quest mine }\n",
                        '  on round_end 2 { next quest hub }\n  on round_end 1 { lose "late" }\n'))
    assert codes(sink) == ["Q0802", "Q0802"]
    assert "(`mine`)" in sink.items[0].message and "quest `hub`" in sink.items[0].message


def test_a_chain_that_can_never_be_lost():
    _, sink = run(chain("  on round_end 2 { next quest mine }\n",
                        '  on round_end 2 { next quest hub }\n  on round_end 1 { win "won" }\n'))
    assert codes(sink) == ["Q0803", "Q0803"]


def test_a_loop_of_quests_is_fine():
    # hub -> mine -> hub: a hub the party comes back to; the mine can be won and lost
    _, sink = run(chain("  on round_end 2 { next quest mine }\n",
                        '  on round_end 1 { ask "Back?" { choice "Yes" { next quest hub }; choice "No" { say "on" } } }\n'
                        '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n'))
    assert codes(sink) == []


def test_a_next_quest_in_an_if_arm_never_taken_leads_nowhere():
    # hub <-> mine loop; the only way out, to `won` (which can be won and lost), is an `if` arm
    # whose condition never holds (Q0325): the chain never ends and is never won nor lost
    arm = '  var gate = 0\n  on round_end 2 {{ if gate > 5 {{ next quest won }} else {{ next quest {0} }} }}\n'
    text = (f'quest hub "Hub" {{\n{MAP}{arm.format("mine")}}}\nquest mine "Mine" {{\n{MAP}{arm.format("hub")}}}\n'
            f'quest won "Won" {{\n{MAP}  on round_end 3 {{ win "won" }}\n  on round_end 9 {{ lose "late" }}\n}}\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0325", "Q0325", "Q0802", "Q0802"]
    assert "it can never be lost either" in sink.items[2].message
    # the arm can be taken (something raises the gate): the chain ends in `won`, nothing to say
    live = text.replace("  var gate = 0\n", "  var gate = 0\n  on open hall { set gate = 9 }\n")
    _, sink = run(live)
    assert codes(sink) == []


def test_next_quest_in_an_event_that_cannot_fire_leads_nowhere():
    # the only `next quest` waits for a door that never opens: the hub is judged alone
    text = chain("  on open nothing_here { next quest mine }\n", '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n')
    _, sink = run(text)
    assert "Q0301" in codes(sink)  # the unknown door; the broken event may be the ending: no Q0305 piled on
    assert "Q0305" not in codes(sink) and "Q0802" not in codes(sink)


def test_the_language_server_follows_next_quest_to_its_quest(tmp_path):
    """References, definition and rename of a quest id reach `next quest ID` (compiler/commands/editor/symbols.py)."""
    from lsp_client import Client

    pack = tmp_path / "chain"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: chain\nname: Chain\nversion: 1.0.0\nlicence: MIT\nruleset: d2e\nrequires: [d2e-base]\n",
                                    encoding="utf-8")
    text = chain("  on round_end 2 { next quest mine }\n", '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n')
    (pack / "q.quest").write_text(text, encoding="utf-8")
    lines = text.split("\n")
    use = next(i for i, s in enumerate(lines) if "next quest mine" in s)
    decl = next(i for i, s in enumerate(lines) if s.startswith("quest mine"))
    c = Client("--debounce", "0.02")
    try:
        c.initialize(tmp_path)
        uri = c.open(pack / "q.quest")
        where = {"textDocument": {"uri": uri}, "position": {"line": use, "character": lines[use].index("mine") + 1}}
        found = c.request("textDocument/definition", where)
        assert [(d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in found] == [(decl, 6)]
        refs = c.request("textDocument/references", {**where, "context": {"includeDeclaration": True}})
        assert sorted(r["range"]["start"]["line"] for r in refs) == sorted([decl, use])
        after = {"textDocument": {"uri": uri}, "position": {"line": use, "character": lines[use].index("mine")}}
        offered = c.request("textDocument/completion", after)
        items = offered["items"] if isinstance(offered, dict) else offered
        assert sorted(i["label"] for i in items) == ["hub", "mine"]  # the pack's quests, nothing else
        edit = c.request("textDocument/rename", {**where, "newName": "shaft"})
        assert sorted(e["range"]["start"]["line"] for e in next(iter(edit["changes"].values()))) == sorted([decl, use])
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait(timeout=5)


def test_on_a_pack_the_valkyrie_app_plays_a_chain_never_won_is_a_warning_quoting_the_rule(tmp_path):
    """Q0802 carries the rule Q0305 carries (every quest gives both sides a way to win): an error
    in a questc pack, a warning quoting it in a pack of `origin: valkyrie` (docs/valkyrie.md)."""
    import shutil

    from conftest import REPO, questc

    pack = tmp_path / "pack"
    shutil.copytree(REPO / "tests" / "cases" / "quests" / "Q0802_chain_never_won" / "pack", pack)
    r = questc("check", pack)
    assert r.code == 1 and r.err.count("error[Q0802]") == 2
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text(encoding="utf-8") + "origin: valkyrie\n", encoding="utf-8")
    r = questc("check", pack)
    assert r.code == 0 and r.err.count("warning[Q0802]") == 2 and '"Winning the Game"' in r.err, r.err


def test_a_party_the_next_quest_is_not_written_for_is_a_warning():
    mine = '  on round_end 3 { win "won" }\n  on round_end 9 { lose "late" }\n'
    hub = "  on round_end 2 { next quest mine }\n"
    text = chain(hub, mine).replace('quest mine "Mine" {\n', 'quest mine "Mine" {\n  heroes 3..4\n')
    _, sink = run(text)
    assert codes(sink) == ["Q0804"]
    d = sink.items[0]
    assert d.message == "quest `hub` (2..4 heroes) goes on in quest `mine`, written for 3..4 heroes: a party of 2 cannot play it"
    assert "next quest mine" in text.splitlines()[d.span.line - 1] and d.related[0].span.line == text.splitlines().index("  heroes 3..4") + 1
    # a condition on the hero count on the way: the designer has seen to it
    for guarded in ("  on round_end 2 if heroes 3+ { next quest mine }\n",
                    '  on round_end 2 { ask "Go?" { choice "Down" if heroes >= 3 { next quest mine }; choice "No" { lose } } }\n',
                    "  on round_end 2 { if heroes 2 { lose } else { next quest mine } }\n"):
        _, sink = run(chain(guarded, mine).replace('quest mine "Mine" {\n', 'quest mine "Mine" {\n  heroes 3..4\n'))
        assert "Q0804" not in codes(sink), guarded
    # the other way (3..4 to 2..4): every party of the first can play the second
    _, sink = run(chain(hub, mine).replace('quest hub "Hub" {\n', 'quest hub "Hub" {\n  heroes 3..4\n'))
    assert codes(sink) == []

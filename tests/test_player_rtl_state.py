"""The web player shows the 1st-edition campaign state (the bundle's `campaign.state`) of
content/rtl-campaign in Chromium, week by week: the slider and the buttons choose a week,
and what the page shows is the bundle's replayed state for it (docs/player.md, "The
1st-edition campaign state"; the view's logic under node: tests/player/rtl_state.test.mjs)."""

from __future__ import annotations

import json

from tests.conftest import REPO

PACK = str(REPO / "content" / "rtl-campaign")


def shown(page) -> dict[str, object]:
    p = page.page
    return {
        "week": int(p.get_attribute("#rtl-state", "data-week") or 0),
        "heroes": int(p.inner_text('#rtl-state [data-total="heroes"]')),
        "overlord": int(p.inner_text('#rtl-state [data-total="overlord"]')),
        "coins": int(p.inner_text('#rtl-state [data-total="coins"]')),
        "hero_xp": int(p.inner_text('#rtl-state [data-total="hero-xp"]')),
        "party": p.get_attribute("#rtl-state [data-party]", "data-party"),
        "lieutenants": dict(p.eval_on_selector_all("#rtl-state [data-lieutenant]", "els => els.map((e) => [e.dataset.lieutenant, e.dataset.at])")),
        "sieges": dict(p.eval_on_selector_all("#rtl-state [data-siege]", "els => els.map((e) => [e.dataset.siege, Number(e.dataset.tokens)])")),
        "razed": p.eval_on_selector_all("#rtl-state [data-razed]", "els => els.map((e) => e.dataset.razed)"),
        "items": dict(p.eval_on_selector_all("#rtl-state [data-item]", "els => els.map((e) => [e.dataset.item, e.dataset.with])")),
        "upgrades": p.eval_on_selector_all("#rtl-state [data-upgrade]", "els => els.map((e) => e.dataset.upgrade)"),
    }


def want(week: dict) -> dict[str, object]:
    return {"week": week["week"], "heroes": week["conquest"]["heroes"], "overlord": week["conquest"]["overlord"], "coins": week["treasury"],
            "hero_xp": week["xp"]["each_hero"], "party": week["party_at"], "lieutenants": week["lieutenants"], "sieges": week["sieges"],
            "razed": week["razed"], "items": week["items"], "upgrades": week["upgrades"]}


def test_the_player_steps_through_the_recorded_weeks_of_the_rtl_campaign(page, sites):
    out = sites.view("rtl-campaign", PACK)
    weeks = json.loads((out / "bundle.json").read_text(encoding="utf-8"))["campaign"]["state"]["road_to_legend"]["weeks"]
    assert len(weeks) >= 17
    page.open(sites.url("rtl-campaign"))
    p = page.page
    assert p.get_attribute("body", "data-state") == "ready"  # a pack of catalogs: the state is what is shown
    assert p.is_visible('[data-testid="rtl"]') and not p.is_visible('[data-testid="map"]')
    assert shown(page) == want(weeks[-1])  # the state after the record first
    assert shown(page)["razed"] == ["dawnsmoor"] and shown(page)["coins"] == 250
    assert p.get_attribute('#rtl-state [data-hero="varikas"]', "data-skills") == "2"  # Tough, and Mighty learnt in week 17
    assert "ranged 4 black" in p.inner_text('#rtl-state [data-hero="jain"]')
    p.click('[data-testid="rtl-first"]')
    assert shown(page) == want(weeks[0])
    assert "The Hollow Stair cleared in one week" in p.inner_text("#rtl-record")
    dungeon = weeks[0]["dungeon"]  # the Hollow Stair's three levels: threat, spawns, the marker
    assert (dungeon["levels"], dungeon["threat"], dungeon["reinforcement"]) == (3, 12, "faceup")
    assert p.get_attribute("#rtl-state [data-dungeon]", "data-dungeon") == "thelsvan_highway"
    assert p.get_attribute("#rtl-state [data-dungeon]", "data-threat") == "12"
    assert p.get_attribute("#rtl-state [data-dungeon]", "data-reinforcement") == "faceup"
    for k in range(1, len(weeks)):  # every week, one Next at a time
        p.click('[data-testid="rtl-next"]')
        assert shown(page) == want(weeks[k]), k + 1
    p.click('[data-testid="rtl-previous"]')
    assert shown(page)["week"] == len(weeks) - 1
    p.fill('[data-testid="rtl-week"]', "5")  # the slider: Dawnsmoor's siege full, not yet razed
    assert shown(page) == want(weeks[4])
    assert shown(page)["sieges"] == {"dawnsmoor": 3} and shown(page)["razed"] == []
    assert "Dawnsmoor 3/3" in p.inner_text('#rtl-state [data-row="sieges"]')
    p.click('[data-testid="rtl-last"]')
    assert shown(page)["week"] == len(weeks)
    assert not page.errors

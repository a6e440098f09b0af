"""The web player walks the shipped app campaign (content/d2e-quests, The Goblin Road) in
Chromium: choose a quest, play it or record its outcome, see what unlocks, reach a finale
(docs/player.md, "Campaigns"; docs/campaign.md). The campaign logic itself is tested
against the compiler in tests/test_app_campaign.py; here the page drives it."""

from __future__ import annotations

import json

from tests.conftest import REPO

PACK = str(REPO / "content" / "d2e-quests")


def click(page, testid):
    page.page.click(f'[data-testid="{testid}"]')


def open_quests(page) -> list[str]:
    return page.page.eval_on_selector_all("#campaign-open li", "els => els.map((e) => e.dataset.quest)")


def unlocked(page) -> list[str]:
    return page.page.eval_on_selector_all("#campaign-unlocked [data-quest]", "els => els.map((e) => e.dataset.quest)")


def state(page, key: str) -> str:
    return page.page.get_attribute("#campaign-state", f"data-{key}") or ""


def test_the_campaign_walked_to_the_finale_won_with_first_blood_played_on_the_page(page, sites):
    sites.view("d2e-quests", PACK)
    page.open(sites.url("d2e-quests"))
    assert page.page.is_visible('[data-testid="campaign"]')
    assert state(page, "act") == "1" and state(page, "ending") == ""
    assert open_quests(page) == ["first_blood"]  # the other quests wait for it
    click(page, "campaign-play-first_blood")  # the pack's own quest is played on the page
    assert page.page.evaluate("document.getElementById('quest').value") == "first_blood"
    click(page, "pickup-grain_west")
    click(page, "defeat-goblin_archer")
    click(page, "pickup-grain_north")
    assert page.page.get_attribute("#outcome", "data-result") == "win"
    click(page, "campaign-record")  # the page's outcome goes to the campaign
    assert unlocked(page) == ["a_fat_goblin", "hollow_farm"]
    # side_offer 1 and a pool of one: the farm is offered beside A Fat Goblin
    assert open_quests(page) == ["hollow_farm", "a_fat_goblin"]
    assert page.page.locator("#campaign-history li").first.get_attribute("data-outcome") == "won"
    click(page, "campaign-won-a_fat_goblin")  # act 1 is over, won 2 to 0
    # two wins paid fame 1 each (and a travel event may have paid more): Tamalir's
    # fame-2 items are on sale now
    assert "chain_mail" in (page.page.get_attribute('[data-city="tamalir"] [data-items]', "data-items") or "").split()
    assert state(page, "act") == "2"
    assert unlocked(page) == ["warren_gate", "goblin_market", "tunnel_rats", "goblin_bridge"]
    assert "burning_granary" not in open_quests(page)  # only after act 1 lost
    click(page, "campaign-won-warren_gate")
    click(page, "campaign-won-goblin_market")
    assert unlocked(page) == ["chiefs_throne"]
    assert "last_stand" not in open_quests(page)
    click(page, "campaign-won-chiefs_throne")
    assert state(page, "ending") == "won"
    assert "won the campaign" in page.page.locator("#campaign-state").inner_text()
    assert page.page.locator("#campaign-open").count() == 0
    assert [h for h in page.page.eval_on_selector_all("#campaign-history li", "els => els.map((e) => e.dataset.quest)")] == [
        "first_blood", "a_fat_goblin", "warren_gate", "goblin_market", "chiefs_throne"]
    # the totals shown are what the bundle's rewards pay for these outcomes and the travel
    # events the page drew on the way (named in the history)
    bundle = json.loads((sites.made["d2e-quests"] / "bundle.json").read_text(encoding="utf-8"))["app_campaigns"]["goblin_road"]
    events = {t["id"]: t for t in bundle["travel"]}
    want = {"gold": 0, "xp": 0, "fame": 0}
    for quest, travel in page.page.eval_on_selector_all("#campaign-history li", "els => els.map((e) => [e.dataset.quest, e.dataset.travel])"):
        for r in bundle["quests"][quest].get("rewards", []) + (events[travel].get("rewards", []) if travel else []):
            if r["when"] in ("any", "won"):
                for k in want:
                    want[k] += r.get(k, 0)
    shown = {k: int(page.page.inner_text(f'#campaign-state [data-total="{k}"]')) for k in want}
    assert shown == want and want["gold"] >= 50 + 50 + 75
    assert page.page.get_attribute("#campaign-difficulty", "data-setting") == "normal"
    assert not page.errors


def test_the_campaign_walked_to_the_finale_lost_through_act_1_lost(page, sites):
    sites.view("d2e-quests", PACK)
    page.open(sites.url("d2e-quests", "?quest=a_fat_goblin"))
    click(page, "campaign-lost-first_blood")
    assert unlocked(page) == ["a_fat_goblin", "hollow_farm", "lost_cart"]
    offered = [q for q in open_quests(page) if q in ("hollow_farm", "lost_cart")]
    assert len(offered) == 1  # side_offer 1: the app shows one of the two
    click(page, f"campaign-lost-{offered[0]}")  # a week passes: A Fat Goblin (weeks 1) is due
    assert state(page, "weeks") == "1"
    assert open_quests(page) == ["a_fat_goblin"]
    assert "due now" in page.page.locator("#campaign-open").inner_text()
    click(page, "campaign-lost-a_fat_goblin")
    assert state(page, "act") == "2"
    assert unlocked(page) == ["warren_gate", "burning_granary", "tunnel_rats", "goblin_bridge"]  # act 1 lost
    click(page, "campaign-won-warren_gate")
    click(page, "campaign-lost-burning_granary")
    assert unlocked(page) == ["last_stand"]
    click(page, "campaign-lost-last_stand")
    assert state(page, "ending") == "lost"
    # a new campaign starts over
    click(page, "campaign-restart")
    assert state(page, "ending") == "" and open_quests(page) == ["first_blood"]
    assert not page.errors


def test_the_delve_walked_stage_by_stage_to_a_win(page, sites):
    sites.view("d2e-quests", PACK)
    page.open(sites.url("d2e-quests"))
    page.page.select_option('[data-testid="campaign-id"]', "the_delve")
    assert page.page.get_attribute("#campaign-difficulty", "data-setting") == "normal"
    assert "1 XP" in page.page.inner_text("#campaign-difficulty")  # the Delve's starting XP on normal
    stages = ["mossy_steps", "bone_gallery", "sunken_shrine", "ember_hall", "glass_maze", "keepers_door"]
    for k, stage in enumerate(stages):
        assert open_quests(page) == [stage]  # one stage at a time, in order
        assert state(page, "act") == ("1" if k < 3 else "2")  # Act II after the third stage
        click(page, f"campaign-won-{stage}")
    assert state(page, "ending") == "won"
    assert page.page.inner_text('#campaign-state [data-total="xp"]') == "8"
    click(page, "campaign-restart")
    click(page, "campaign-won-mossy_steps")
    click(page, "campaign-lost-bone_gallery")  # a stage lost ends the Delve
    assert state(page, "ending") == "lost"
    assert not page.errors

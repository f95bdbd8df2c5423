"""Issue 30 at the table (app/table/seat.js): a seated person lets a bot play for it and takes its seat back,
on a phone's screen; the lobby offers every bot level, expert included."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.browser


def test_the_lobby_offers_every_bot_level(api, open_page, table_server):
    game = api.post("/games", {"seats": 3})["id"]  # no seat taken yet: the lobby offers people and bots
    page = open_page(f"{table_server}/table/#lobby={game}", width=390, height=844)
    page.wait_for_selector("#seat-form[data-game]")
    levels = page.eval_on_selector_all("#seat-bot option", "os => os.map(o => o.value)")
    assert levels[:2] == ["heuristic", "random"] and "expert" in levels


def test_a_person_hands_its_seat_to_a_bot_at_the_table_and_takes_it_back(api, open_page, table_server):
    game, tokens = api.game(3, seed="hand-over-table", options={"flares": False, "edicts": False},
                            bots={2: "heuristic"})
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=390, height=844)
    page.wait_for_selector("#seat-control[data-state='person']")
    page.click("#seat-control summary")
    levels = page.eval_on_selector_all("#seat-level option", "os => os.map(o => o.value)")
    assert levels == [b["level"] for b in sorted(api.get("/catalogue")["bots"],
                                                 key=lambda b: ["heuristic", "random"].index(b["level"])
                                                 if b["level"] in ("heuristic", "random") else 9)]
    page.select_option("#seat-level", "random")
    page.click("#seat-hand-over")
    page.wait_for_selector("#seat-control[data-state='bot']")
    assert "random bot plays your seat" in page.locator("#seat-control").inner_text()
    board = api.get(f"/games/{game}")
    assert board["players"]["red"]["bot"] == "random" and board["players"]["red"]["handed_over"] == "asked"
    assert page.locator("#prompts fieldset.prompt").count() == 0  # the bot decides for the seat now
    page.wait_for_selector("#log li:has-text('hands the red seat to a random bot')")
    box = page.locator("#seat-take-back").bounding_box()
    assert box["height"] >= 44 and box["width"] <= 390  # a thumb's button, on the phone's screen

    deadline = time.monotonic() + 60  # blue plays on; the worker answers red's decisions
    while not [e for e in api.get(f"/games/{game}/events?after=0&limit=1000")["events"]
               if e["actor"] == "red" and e["type"] != "SeatHandedToBot"]:
        assert time.monotonic() < deadline, "the bot never played red's seat"
        if any(p["player"] == "blue" for p in api.get(f"/games/{game}")["pending"]):
            api.answer(game, tokens["blue"], seed=str(time.monotonic()))
        time.sleep(0.1)

    page.click("#seat-take-back")
    page.wait_for_selector("#seat-control[data-state='person']")
    assert api.get(f"/games/{game}")["players"]["red"]["bot"] is None
    page.wait_for_selector("#log li:has-text('takes the red seat back from its bot')")

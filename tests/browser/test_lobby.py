"""The lobby page: create a game, take seats (a person and bots), start it, open the seat's table."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_the_lobby_creates_a_game_seats_a_person_and_bots_and_starts_it(api, open_page, table_server):
    page = open_page(f"{table_server}/table/")
    assert page.locator("body").get_attribute("data-view") == "lobby"
    page.fill("#seats", "3")
    page.locator("input[data-option='flares']").uncheck()
    page.click("#create-game")
    page.wait_for_selector("#seat-form[data-game]")
    game = page.locator("#seat-form").get_attribute("data-game")
    created = api.get(f"/games/{game}")
    assert (created["status"], created["seats"], created["options"]["flares"]) == ("lobby", 3, False)

    page.fill("#seat-name", "Ann")
    page.click("#take-seat")
    page.wait_for_selector("#seat-form li[data-colour='red'] a.seat-link")
    for _ in range(2):
        page.select_option("#seat-bot", "random")
        page.click("#take-seat")
        page.wait_for_function("(n) => document.querySelectorAll('#seat-form li[data-colour]').length === n",
                               arg=len(api.get(f"/games/{game}")["players"]) + 0)
    players = api.get(f"/games/{game}")["players"]
    assert {c: (p["name"], p["bot"]) for c, p in players.items()} == {
        "red": ("Ann", None), "blue": ("random bot", "random"), "yellow": ("random bot", "random")}
    page.click("#start-game")
    page.wait_for_function("() => !document.querySelector('#start-game')")
    assert api.get(f"/games/{game}")["status"] in ("playing", "finished")

    page.click("#seat-form li[data-colour='red'] a.seat-link")
    page.wait_for_selector("body[data-ready='1'][data-view='table'] #board svg[data-version]")
    assert page.locator("#who").get_attribute("data-player") == "red"
    page.wait_for_selector("#hand li.card")
    token = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))["token"]
    assert api.get(f"/games/{game}/prompts", token)["player"] == "red"  # the link holds red's own token

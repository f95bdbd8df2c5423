"""The web table's board: the page draws what GET /games/{id} says, in the edition's words."""

from __future__ import annotations

import pytest

from tests.browser.conftest import board_at, drawn_board, expected_board

pytestmark = pytest.mark.browser

TOKENS = {"red-0": {"red": 2}, "blue-0": {"blue": 4, "red": 2}, "blue-1": {"blue": 1},
          "yellow-3": {"yellow": 1, "blue": 3}}


def test_the_board_page_draws_the_api_board(api, open_page, table_server):
    game, _ = api.game(3, setup={"tokens": TOKENS, "first": "red"}, options={"flares": False})
    board = api.get(f"/games/{game}")
    page = open_page(f"{table_server}/table/#game={game}")
    page.wait_for_selector(board_at(board["version"]))
    assert drawn_board(page) == expected_board(board)
    assert drawn_board(page)["planets"]["blue-0"] == "blue:4,red:2"
    assert drawn_board(page)["planets"]["red-0"] == "red:2"
    for colour, seat in board["players"].items():
        system = page.locator(f"#board .system[data-owner='{colour}']")
        assert system.locator("[data-hand-size]").get_attribute("data-hand-size") == str(seat["hand_size"])
        assert system.locator(".powers").inner_text() == (", ".join(seat["powers"]) or "no power")
        assert system.locator(".system-name").inner_text() == seat["name"]
    red = page.locator("#board .system[data-owner='red'] [data-bases]")
    assert (red.get_attribute("data-bases"), red.get_attribute("data-external")) == ("6", "1")
    assert page.locator("#decide").is_hidden() and page.locator("#hand").is_hidden()  # no token: no hand, no decisions
    assert page.locator("#who").inner_text() == "watching"


def test_an_ffg_board_speaks_the_editions_words(api, open_page, table_server):
    game, tokens = api.game(3, ruleset="ffg", seed="words")
    board = api.get(f"/games/{game}")
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}")
    page.wait_for_selector(board_at(board["version"]))
    facts = page.locator("#board .system[data-owner='red'] .system-facts").inner_text()
    assert board["terms"]["bases"] in facts and board["terms"]["bases"] != "bases" and "bases" not in facts
    assert page.locator("#board .warp h3").text_content().lower() == board["terms"]["warp"]
    # the first decision of an ffg game, titled in its words, made by clicking
    prompt = api.get(f"/games/{game}/prompts", tokens["red"])["prompts"][0]
    assert prompt["kind"] == "choose_power"
    box = page.locator(f"fieldset[data-prompt='{prompt['id']}']")
    assert box.locator(":scope > legend").inner_text() == prompt["title"]
    option = box.locator(".option").first
    chosen = option.locator("label.pick").first.get_attribute("data-value")
    option.locator("label.pick").first.click()
    option.locator("button.do").click()
    box.wait_for(state="detached")
    power_chosen = [e for e in api.get(f"/games/{game}/events?after=0&limit=1000", tokens["red"])["events"]
                    if e["type"] == "PowerChosen"]
    assert [e["payload"]["powers"] for e in power_chosen] == [[chosen]]  # red's own choice, seen by red


def test_the_table_files_are_served_and_nothing_else(api):
    assert api.call("GET", "/table/").headers["Content-Type"].startswith("text/html")
    assert api.call("GET", "/table/main.js").headers["Content-Type"].startswith("text/javascript")
    missing = api.call("GET", "/table/..%2Fopenapi.yaml")
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
    assert api.call("GET", "/table/nothing.js").status_code == 404


@pytest.mark.parametrize("width,height", [(390, 844), (1440, 900)])
def test_the_board_fits_a_phone_and_a_desktop(api, open_page, table_server, width, height):
    game, tokens = api.game(3, setup={"first": "red"}, seed="sizes")
    version = api.get(f"/games/{game}")["version"]
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=width, height=height)
    page.wait_for_selector(board_at(version))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways scrolling
    box = page.locator("#board .board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["width"] >= min(width, 820) * 0.45  # and the board is not a thumbnail
    for planet in page.locator("#board .planet").all():
        found = planet.bounding_box()
        assert found["width"] >= 44 and found["height"] >= 44  # big enough for a thumb and its token counts

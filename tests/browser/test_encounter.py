"""The encounter on the board: offense and defense, both sides' ships and allies, the cards face down until they
are revealed, a reinforcement, the totals and the winner the API reports, then what each player gained or lost."""

from __future__ import annotations

import pytest

from tests.browser.conftest import board_at, counts_text

pytestmark = pytest.mark.browser

SETUP = {"powers": {"red": [], "blue": [], "yellow": []}, "first": "red", "destiny_top": ["blue.1"],
         "hands": {"red": ["A8", "C", "R+3"], "blue": ["A12", "C"], "yellow": ["C"]},
         "exact_hands": ["red", "blue", "yellow"]}
OPTIONS = {"flares": False, "edicts": False, "reinforcements": True, "reverse_cone": False}


def act(api, game, token, action, args=None, **identity):
    prompt = api.get(f"/games/{game}/prompts", token)["prompts"][0]
    return api.post(f"/games/{game}/actions", {"action": action, "args": args or {}, "prompt": prompt["id"], **identity},
                    token)


def side(page, name):
    return page.locator(f"#encounter .side[data-side='{name}']")


def test_the_encounter_panel_shows_the_sides_the_cards_as_revealed_and_the_totals_the_api_reports(
        api, open_page, table_server, shots):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="encounter")
    act(api, game, tokens["red"], "launch", {"planet": "blue-2", "tokens": {"red-0": 2}})
    act(api, game, tokens["red"], "invite", {"players": ["yellow"]})
    act(api, game, tokens["blue"], "invite", {"players": []})
    act(api, game, tokens["yellow"], "join", {"tokens": {"yellow-0": 1}}, side="offense")
    red_card = next(c for c in api.get(f"/games/{game}/hand", tokens["red"])["cards"] if c.startswith("A8"))
    act(api, game, tokens["red"], "play", {"card": red_card})
    pages = {"red": open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=390, height=844),
             "watcher": open_page(f"{table_server}/table/#game={game}", width=1440, height=900)}
    board = api.get(f"/games/{game}")
    for who, page in pages.items():
        page.wait_for_selector(board_at(board["version"]))
        page.wait_for_selector("#encounter .side[data-side='offense']")
        assert side(page, "offense").get_attribute("data-ships") == "red:2,yellow:1"
        assert side(page, "defense").get_attribute("data-ships") == "blue:4"  # its ships on the planet
        assert "yellow" in side(page, "offense").locator(".allies").inner_text().lower() or \
            board["players"]["yellow"]["name"] in side(page, "offense").locator(".allies").inner_text()
        assert side(page, "offense").get_attribute("data-revealed") == ""
        shown = side(page, "offense").locator(".card").first
        if who == "red":  # its own card, face up to itself only
            assert shown.get_attribute("data-card") == red_card
        else:
            assert "face-down" in shown.get_attribute("class") and red_card not in page.content()

    blue_card = next(c for c in api.get(f"/games/{game}/hand", tokens["blue"])["cards"] if c.startswith("A12"))
    act(api, game, tokens["blue"], "play", {"card": blue_card})
    board = api.get(f"/games/{game}")
    revealed = board["challenge"]["revealed"]
    assert revealed and board["challenge"]["outcome"] is None  # red may still reinforce
    for page in pages.values():
        page.wait_for_selector(board_at(board["version"]))
        page.wait_for_selector("#encounter [data-state='revealed']")
        for name in ("offense", "defense"):
            assert side(page, name).get_attribute("data-revealed") == " ".join(revealed[name])
            faces = side(page, name).locator(".card")
            assert faces.evaluate_all("fs => fs.map(f => f.dataset.card)") == revealed[name]
    pages["watcher"].locator("#encounter").screenshot(path=str(shots / "encounter-revealed.png"))

    reinforcement = next(c for c in api.get(f"/games/{game}/hand", tokens["red"])["cards"] if c.startswith("R+3"))
    act(api, game, tokens["red"], "use", {"side": "offense"}, ability=f"card:{reinforcement}")
    resolved = [e for e in api.get(f"/games/{game}/events?after=0&limit=1000")["events"]
                if e["type"] == "ChallengeResolved"][-1]["payload"]["outcome"]
    assert resolved["totals"] == {"offense": 14, "defense": 16} and resolved["winner"] == "defense"
    board = api.get(f"/games/{game}")
    for page in pages.values():
        page.wait_for_selector(board_at(board["version"]))
        page.wait_for_selector("#encounter [data-state='resolved']")
        for name in ("offense", "defense"):
            assert side(page, name).get_attribute("data-total") == str(resolved["totals"][name])
            assert side(page, name).get_attribute("data-ships") == counts_text(resolved["tokens"][name])
        assert "winner" in side(page, "defense").get_attribute("class")
        assert page.locator("#encounter .outcome").get_attribute("data-winner") == "defense"
        assert "+3" in side(page, "offense").locator(".reinforcements").inner_text()
        results = {li.get_attribute("data-player"): li.inner_text()
                   for li in page.locator("#encounter .results li").all()}
        assert "−2" in results["red"] and "−1" in results["yellow"]  # the offense's ships went to the warp
    pages["watcher"].locator("#encounter").screenshot(path=str(shots / "encounter-resolved.png"))

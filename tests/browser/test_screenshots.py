"""The pictures of docs/screenshots, taken from the real pages at desktop (1440x900) and phone (390x844) size: the
lobby, choosing an alien, an encounter revealed, a deal, the end of a game, the replay. Each scene is also
checked (it shows what its picture is meant to show); the tests write fresh copies to artifacts/screenshots.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import board_at
from tests.browser.test_encounter import OPTIONS as ENCOUNTER_OPTIONS
from tests.browser.test_encounter import SETUP as ENCOUNTER_SETUP
from tests.browser.test_encounter import act
from tests.browser.test_play import OPTIONS, SETUP
from tests.browser.test_replay import decide, play_with_a_rewind

pytestmark = pytest.mark.browser
SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}


def snap(page, shots, name: str, size: str, focus: str | None = None) -> None:
    """A picture of what the screen shows; on a phone, scrolled so that ``focus`` sits under the status bar."""
    if focus and size == "phone":
        page.evaluate("""(selector) => {
            const bar = document.getElementById('status');
            const top = document.querySelector(selector).getBoundingClientRect().top + window.scrollY;
            window.scrollTo(0, Math.max(0, top - (bar && !bar.hidden ? bar.offsetHeight : 0) - 8));
        }""", focus)
    page.wait_for_timeout(150)
    page.screenshot(path=str(shots / f"{name}-{size}.png"))


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_screenshots_of_the_docs(api, open_page, table_server, shots, size):
    viewport = SIZES[size]
    # the lobby, an FFG game being seated
    lobby = open_page(f"{table_server}/table/", **viewport)
    lobby.check("#ruleset-ffg")
    lobby.click("#create-game")
    lobby.wait_for_selector("#seat-form[data-game]")
    lobby.fill("#seat-name", "Ann")
    lobby.click("#take-seat")
    lobby.wait_for_selector("#seat-form a.seat-link")
    lobby.click("#add-bot")
    lobby.wait_for_function("() => document.querySelectorAll('#seat-form li[data-colour]').length === 2")
    snap(lobby, shots, "lobby", size, "#seat-form")

    # choosing an alien (FFG): both offered aliens as sheets
    game, tokens = api.game(3, ruleset="ffg", seed=f"shots-alien-{size}")
    alien = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **viewport)
    alien.wait_for_selector("#prompts fieldset[data-kind='choose_power'] .sheet")
    snap(alien, shots, "alien-choice", size, "#decide")

    # an encounter revealed and resolved, a reinforcement played
    game, tokens = api.game(3, setup=ENCOUNTER_SETUP, options=ENCOUNTER_OPTIONS, seed=f"shots-encounter-{size}")
    act(api, game, tokens["red"], "launch", {"planet": "blue-2", "tokens": {"red-0": 2}})
    act(api, game, tokens["red"], "invite", {"players": ["yellow"]})
    act(api, game, tokens["blue"], "invite", {"players": []})
    act(api, game, tokens["yellow"], "join", {"tokens": {"yellow-0": 1}}, side="offense")
    for colour, kind in (("red", "A8"), ("blue", "A12")):
        card = next(c for c in api.get(f"/games/{game}/hand", tokens[colour])["cards"] if c.startswith(kind))
        act(api, game, tokens[colour], "play", {"card": card})
    encounter = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **viewport)
    encounter.wait_for_selector("#encounter [data-state='revealed']")
    encounter.wait_for_selector("#prompts fieldset[data-kind='window']")
    snap(encounter, shots, "encounter-revealed", size, "#encounter")

    # a deal: red's terms half made, after a refusal
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed=f"shots-deal-{size}")
    for _ in range(20):
        board = api.get(f"/games/{game}")
        colour = board["pending"][0]["player"]
        prompt = api.get(f"/games/{game}/prompts", tokens[colour])["prompts"][0]
        if prompt["kind"] == "deal":
            break
        api.post(f"/games/{game}/actions", decide(prompt), tokens[colour])
    deal = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **viewport)
    box = deal.locator("#prompts fieldset[data-kind='deal']")
    box.wait_for()
    box.locator(".deal-side[data-side='offense'] .gets-base label.pick[data-value='blue-3']").click()
    box.locator(".deal-side[data-side='defense'] .gives button.more").first.click()
    snap(deal, shots, "deal", size, "#decide")

    # the end of a game and its replay (with a rewind)
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed=f"shots-end-{size}")
    play_with_a_rewind(api, game, tokens)
    board = api.get(f"/games/{game}")
    end = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **viewport)
    end.wait_for_selector(board_at(board["version"]))
    end.wait_for_selector("#end:not([hidden])")
    snap(end, shots, "end", size, "#end")
    replay = open_page(f"{table_server}/table/#game={game}&view=replay&token={tokens['red']}", **viewport)
    replay.wait_for_selector(f"body[data-shown='{board['version']}']")
    middle = board["version"] - 12
    replay.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", middle)
    replay.wait_for_selector(f"body[data-shown='{middle}']")
    snap(replay, shots, "replay", size)

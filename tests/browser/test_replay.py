"""Replay and audit: the timeline draws the API's board at each version it is walked to.

A stacked game (the one tests/browser/test_play.py plays by clicking) is played here through the
API, with a rewind in the middle: the admin takes the game back from the deal to the choice of
challenge cards, and play goes on to the end. The replay page is walked backwards and forwards
(step buttons, the slider, the turn list) and at every stop its board must be the API's board at
that version, beside the event that led there. The audit runs from the page; after an event is
tampered with, it names that event and the page marks it.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ADMIN_TOKEN, drawn_board, expected_board
from tests.browser.test_play import OPTIONS, SETUP
from tests.workers.games import tamper_time

pytestmark = pytest.mark.browser

NO_TERMS = {"named": [], "count": 0}


def decide(prompt: dict) -> dict:
    """The stacked game's answers (as test_play clicks them)."""
    kind, options = prompt["kind"], prompt["options"]
    if kind == "launch":
        args = {"planet": "blue-2", "tokens": {"red-2": 2}}
    elif kind == "invite":
        args = {"players": ["yellow"] if prompt["player"] == "red" else []}
    elif kind == "alliance":
        return {"action": "join", "side": "offense", "args": {"tokens": {"yellow-2": 1}}, "prompt": prompt["id"]}
    elif kind == "challenge_card":
        args = {"card": next(c for c in options[0]["args"]["card"]["values"] if c.startswith("C."))}
    elif kind in ("place_tokens", "take_base"):
        sources = options[0]["args"]["tokens"]["sources"]
        args = {"tokens": {"cone:offense" if "cone:offense" in sources else next(iter(sources)): 1}}
    elif kind == "deal" and prompt["player"] == "red":
        args = {"terms": {"cards": {"offense": NO_TERMS, "defense": NO_TERMS},
                          "bases": {"offense": "blue-3", "defense": None}}}
        return {"action": "propose", "args": args, "prompt": prompt["id"]}
    elif kind == "deal":
        accept = next(o for o in options if o["action"] == "accept")
        return {"action": "accept", "args": {"proposal": accept["args"]["proposal"]["values"][0]}, "prompt": prompt["id"]}
    else:
        raise AssertionError(prompt)
    return {"action": options[0]["action"], "args": args, "prompt": prompt["id"]}


def play_with_a_rewind(api, game: str, tokens: dict) -> tuple[int, int]:
    """Play the stacked game to its end, rewinding once from the deal to the challenge cards;
    returns (the version rewound to, the marker's version)."""
    cards_at = marker = None
    for _ in range(40):
        board = api.get(f"/games/{game}")
        if board["status"] == "finished":
            return cards_at, marker
        pending = [p["player"] for p in board["pending"]]
        prompts = {c: api.get(f"/games/{game}/prompts", tokens[c])["prompts"][0] for c in dict.fromkeys(pending)}
        first = next(iter(prompts.values()))
        if first["kind"] == "challenge_card" and cards_at is None:
            cards_at = board["version"]
        if first["kind"] == "deal" and marker is None:
            api.post(f"/games/{game}/rewind", {"to_version": cards_at}, ADMIN_TOKEN)
            marker = api.get(f"/games/{game}")["version"]
            continue
        colour = "blue" if first["kind"] == "deal" and "accept" in {o["action"] for o in prompts.get("blue", first)["options"]} \
            else next(iter(prompts))
        api.post(f"/games/{game}/actions", decide(prompts[colour]), tokens[colour])
    raise AssertionError("the stacked game did not end")


def shown_at(page, api, game: str, version: int, events: list) -> None:
    """The page shows version ``version``: the API's board then, beside the last event seen by then."""
    page.wait_for_selector(f"body[data-shown='{version}']")
    assert drawn_board(page, "#replay-board") == expected_board(api.get(f"/games/{game}?version={version}"))
    entry = max(e["seq"] for e in events if e["seq"] <= version)
    assert page.locator("#entry").get_attribute("data-seq") == str(entry)
    assert page.locator(f"#replay-log li[data-seq='{entry}']").get_attribute("class").split()[-1] == "current"


def test_a_replay_walked_back_and_forth_shows_the_apis_board_and_the_audit_marks_a_bad_event(
        api, open_page, table_server, table_runtime, shots):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="replay")
    cards_at, marker = play_with_a_rewind(api, game, tokens)
    head = api.get(f"/games/{game}")
    assert head["status"] == "finished" and head["winners"] == ["red"]
    events = api.get(f"/games/{game}/events?after=0&limit=1000", ADMIN_TOKEN)["events"]
    page = open_page(f"{table_server}/table/#game={game}&view=replay&token={ADMIN_TOKEN}")
    assert page.locator("#version-head").inner_text() == str(head["version"])
    shown_at(page, api, game, head["version"], events)

    for step in range(1, 7):  # backwards, one version at a time
        page.click("#back")
        shown_at(page, api, game, head["version"] - step, events)
    turn = next(e for e in events if e["type"] == "TurnBegan")
    page.select_option("#turns", str(turn["seq"]))  # jump to a turn
    shown_at(page, api, game, turn["seq"], events)
    for step in range(1, 5):  # forwards
        page.click("#forward")
        shown_at(page, api, game, turn["seq"] + step, events)
    page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", cards_at + 3)
    shown_at(page, api, game, cards_at + 3, events)  # the slider, into the events a rewind took back

    # the rewind: its marker says so, and the events it took back are marked
    page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", marker)
    shown_at(page, api, game, marker, events)
    assert "rewind" in page.locator("#entry").get_attribute("class")
    assert page.locator("#entry").inner_text().startswith(f"#{marker} REWOUND to version {cards_at}")
    taken_back = [e["seq"] for e in events if cards_at < e["seq"] < marker]
    assert page.eval_on_selector_all("#replay-log li.abandoned", "rows => rows.map(r => Number(r.dataset.seq))") \
        == taken_back
    page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", marker - 2)
    shown_at(page, api, game, marker - 2, events)
    page.screenshot(path=str(shots / "replay.png"), full_page=True)

    page.click("#audit")
    page.wait_for_selector("#audit-report[data-ok='true']")
    bad = next(e["seq"] for e in events if e["seq"] >= 30)  # an event the log shows (bookkeeping ones it does not)
    tamper_time(table_runtime, game, bad)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.click("#audit")
    page.wait_for_selector("#audit-report[data-ok='false']")
    assert page.locator("#audit-report").get_attribute("data-bad") == str(bad)
    assert f"the first bad event is #{bad}" in page.locator("#audit-report").inner_text()
    page.wait_for_selector(f"body[data-shown='{bad}']")
    assert "bad" in page.locator(f"#replay-log li[data-seq='{bad}']").get_attribute("class")


def test_a_seats_replay_shows_its_own_hand_then_and_no_audit(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="replay-seat")
    play_with_a_rewind(api, game, tokens)
    head = api.get(f"/games/{game}")["version"]
    events = api.get(f"/games/{game}/events?after=0&limit=1000", tokens["blue"])["events"]
    page = open_page(f"{table_server}/table/#game={game}&view=replay&token={tokens['blue']}")
    page.wait_for_selector(f"body[data-shown='{head}']")
    assert page.locator("#audit").is_hidden()
    dealt = next(e["seq"] for e in events if e["type"] == "TurnBegan")
    for version in (head, dealt):
        page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", version)
        shown_at(page, api, game, version, events)
        shown = page.eval_on_selector_all("#replay-hand li.hand-card", "items => items.map(i => i.dataset.card)")
        assert shown == api.get(f"/games/{game}/hand?version={version}", tokens["blue"])["cards"]
        others = [c for colour in ("red", "yellow")
                  for c in api.get(f"/games/{game}/hand?version={version}", tokens[colour])["cards"]]
        assert shown and not set(others) & set(shown)

"""Table talk at the table (app/table/talk.js): a seat writes to everyone or to one player beside the board; the
right seats read each message live, a third seat never reads a private one; the talk fits a phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import board_at, drawn_board, expected_board
from tests.browser.test_phone import PHONE, assert_fits_a_phone

pytestmark = pytest.mark.browser
PRIVATE = "Blue, play your Compromise and we both get a colony."


def said(page) -> list[dict]:
    """The messages the page shows: who said it, to whom, and its line."""
    return page.eval_on_selector_all("#talk-log li", """(rows) => rows.map((li) => ({
        from: li.dataset.from, to: li.dataset.to, private: li.classList.contains('private'),
        line: li.textContent.trim()}))""")


def write(page, text: str, to: str | None = None) -> None:
    """Type a message in the talk box and send it by tapping Send."""
    page.select_option("#talk-to", to or "")
    page.fill("#talk-text", text)
    page.click("#talk-send")
    page.wait_for_function("() => document.querySelector('#talk-text').value === ''")


def test_two_seats_talk_in_public_and_in_private_and_the_third_reads_only_the_public(api, open_page,
                                                                                     table_server):
    game, tokens = api.game(3, options={"flares": False}, seed="talk-table")
    board = api.get(f"/games/{game}")
    version = board["version"]
    pages = {}
    for colour in ("red", "blue", "yellow"):
        pages[colour] = open_page(f"{table_server}/table/#game={game}&token={tokens[colour]}", **PHONE)
        pages[colour].wait_for_selector(board_at(version))
        pages[colour].wait_for_selector("#live[data-state='connected']")
    red, blue, yellow = pages["red"], pages["blue"], pages["yellow"]
    assert red.locator("#talk-to option").all_inner_texts() == ["everyone", "Bob alone", "Cy alone"]
    assert red.get_attribute("#talk-text", "maxlength") == "500"
    assert red.locator("label[for='talk-text']").inner_text() == "Message"

    write(red, "Hello table: who wants an alliance?")
    write(red, PRIVATE, to="blue")
    for page in (red, blue):
        page.wait_for_selector("#talk-log[data-count='2']")
    yellow.wait_for_selector("#talk-log[data-count='1']")
    assert said(red) == said(blue) == [
        {"from": "red", "to": "", "private": False, "line": "Ann says to everyone: Hello table: who wants an alliance?"},
        {"from": "red", "to": "blue", "private": True, "line": f"private Ann says to Bob alone: {PRIVATE}"}]
    write(blue, "Deal.", to="red")
    red.wait_for_selector("#talk-log[data-count='3']")
    assert said(red)[-1]["line"] == "private Bob says to Ann alone: Deal."
    yellow.wait_for_timeout(1500)  # what the feed had to tell yellow has arrived (a reconnect included)
    assert said(yellow) == [said(red)[0]]
    assert PRIVATE not in yellow.content() and "Deal." not in yellow.content()
    assert yellow.locator("#log li[data-type='MessageSent']").count() == 0  # the talk is not in the history list
    # the board is as it was (only the game's version moved): talk is not a move
    drawn, before = drawn_board(blue), expected_board(board)
    assert drawn["version"] >= version and {**drawn, "version": version} == before
    assert_fits_a_phone(red, "the table with its talk")


def test_a_refused_message_keeps_what_was_written_and_says_why(api, open_page, table_server):
    game, tokens = api.game(2, options={"flares": False}, seed="talk-refused")
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **PHONE)
    page.wait_for_selector("#talk-form:not([hidden])")
    page.eval_on_selector("#talk-text", "(t) => { t.removeAttribute('maxlength'); t.value = 'x'.repeat(501); }")
    page.click("#talk-send")
    page.wait_for_selector("#talk-error:not([hidden])")
    assert "at most 500 characters" in page.inner_text("#talk-error")
    assert len(page.input_value("#talk-text")) == 501
    assert page.locator("#talk-log li").count() == 0


def test_a_watcher_reads_the_public_talk_and_has_no_box(api, open_page, table_server):
    game, tokens = api.game(2, options={"flares": False}, seed="talk-watcher")
    api.post(f"/games/{game}/messages", {"text": "Good luck, everyone."}, tokens["blue"])
    api.post(f"/games/{game}/messages", {"text": "A secret.", "to": "blue"}, tokens["red"])
    page = open_page(f"{table_server}/table/#game={game}")
    page.wait_for_selector("#talk-log[data-count='1']")
    assert [m["line"] for m in said(page)] == ["Bob says to everyone: Good luck, everyone."]
    assert page.locator("#talk-form").is_hidden()
    assert "A secret." not in page.content()

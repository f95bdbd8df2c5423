"""Secrecy: no response shows anyone a card they may not know, the seed, the deck order or the hash chain.

A seeded game is played partway through the API. From the admin's full log we work out,
by the rules, which challenge-deck cards each seat may know (its own hand at any time,
face-up cards, cards shown to it); then every read endpoint (board now and in the past,
hand, prompts, events, stream, games list, error responses) is called as every seat and
as nobody, and every body is scanned for the ids of cards that caller may not know.
"""

from __future__ import annotations

import json
import re

import pytest

import engine
from engine.invariants import card_places
from engine.state import empty
from tests.app.conftest import ADMIN, whole_log

SEED = "the-secret-seed-0f9e8d7c"
POWERS = {"red": ["Mind"], "blue": ["Filch"], "yellow": ["Laser"], "purple": ["Oracle"]}


def admin_log(client, game) -> list[dict]:
    """Every event of the game, unredacted (admin)."""
    return whole_log(client, game.id, ADMIN, include_internal="true")


def _colors(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    return set(value or [])


def knowledge(events: list[dict]) -> tuple[set[str], dict[str, set[str]], set[str]]:
    """(every challenge-deck card, the cards each seat may know, the cards everyone may know).

    Worked out from the rules, not from the redaction code: a seat knows every card that was
    ever in its hand or its own face-down commitment, every card that was face up (discard
    pile, table, revealed challenge cards, cards played), and every card shown to it
    (moves ``seen_by`` it or by everyone, hands revealed to it).
    """
    state = empty()
    deck, public, known = set(), set(), {}
    for event in events:
        engine.evolve(state, event)
        kind, payload = event["type"], event["payload"]
        if kind == "GameStarted":
            known = {c: set() for c in payload["order"]}
        if state.get("status") not in ("playing", "finished"):
            continue
        if not deck and state.get("deck"):
            deck = set(card_places(state))
        if kind == "CardsMoved" and payload.get("seen_by") is None:
            public.update(payload["cards"])
        if kind == "CardsMoved" and payload.get("seen_by") is not None:
            for color in _colors(payload["seen_by"]):
                known.setdefault(color, set()).update(payload["cards"])
        if kind == "HandRevealed":
            for color in _colors(payload["to"]) | {payload["player"]}:
                known.setdefault(color, set()).update(payload["cards"])
        if kind == "ChallengeCardChosen":
            seen = payload.get("seen_by")
            if seen is None:
                public.add(payload["card"])
            else:
                for color in _colors(seen):
                    known.setdefault(color, set()).add(payload["card"])
        if kind == "CardPlayed":
            public.add(payload["card"])
        public.update(state["discard"], state["table"])
        ch = state.get("ch") or {}
        for cards in (ch.get("revealed") or {}).values():
            public.update(cards)
        for color, seat in state["players"].items():
            known[color].update(seat["hand"])
        turn = state.get("turn") or {}
        for side, main in (("offense", turn.get("offense")), ("defense", ch.get("defense"))):
            if main:
                known[main].update(state["committed"][side])
    return deck, {c: cards | public for c, cards in known.items()}, public


def forbidden_pattern(cards: set[str]):
    """A regex finding any of ``cards`` as a whole token in a response body."""
    if not cards:
        return None
    ids = "|".join(re.escape(c) for c in sorted(cards, key=len, reverse=True))
    return re.compile(rf"(?<![\w.:+-])(?:{ids})(?![\w.+-])")


def bodies_for(client, game, viewer: str | None, versions: list[int]) -> dict[str, str]:
    """Every read (and some errors) as ``viewer``: name -> response text."""
    auth = game.as_(viewer) if viewer else {}
    others = [c for c in game.tokens if c != viewer]
    urls = {"board": game.url(), "games": "/games", "events": game.url("/events?limit=1000"),
            "events-internal": game.url("/events?include_internal=true"),
            "stream": game.url("/stream?after=0&timeout=0.3"), "hand": game.url("/hand"),
            "prompts": game.url("/prompts"), "missing-version": game.url("/?version=999999")}
    for version in versions:
        urls[f"board@{version}"] = game.url(f"?version={version}")
        urls[f"hand@{version}"] = game.url(f"/hand?version={version}")
        urls[f"events-after-{version}"] = game.url(f"/events?after={version}")
    for other in others:
        urls[f"hand-of-{other}"] = game.url(f"/hand?player={other}")
        urls[f"prompts-of-{other}"] = game.url(f"/prompts?player={other}")
    texts = {name: client.get(url, headers=auth).get_data(as_text=True) for name, url in urls.items()}
    for other in others:  # acting as someone else, and bad commands
        texts[f"act-as-{other}"] = client.post(game.url("/actions"), json={"action": "pass", "player": other},
                                               headers=auth).get_data(as_text=True)
    for name, body in {"not-owed": {"action": "pass"}, "bad-choice": {"action": "play", "args": {"card": "A40"}},
                       "bad-args": {"action": "launch", "args": {"tokens": {"x": 1}}}}.items():
        texts[f"error-{name}"] = client.post(game.url("/actions"), json=body, headers=auth).get_data(as_text=True)
    return texts


def strings_in(text: str):
    """Every JSON document in a body (SSE data lines too), for structural checks."""
    try:
        yield json.loads(text)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        if line.startswith("data: "):
            yield json.loads(line[len("data: "):])


def _has_key(value, names) -> bool:
    if isinstance(value, dict):
        return any(k in names for k in value) or any(_has_key(v, names) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, names) for v in value)
    return False


def check_body(text: str, pattern, who: str, name: str, seed: str = SEED) -> None:
    """One response body (JSON, or SSE whose data lines are JSON) shows ``who`` no card of ``pattern``
    (`forbidden_pattern` of the cards it may not know), not the seed, and no hash chain or agenda."""
    leaked = sorted(set(pattern.findall(text))) if pattern else []
    assert not leaked, f"{who} sees {leaked[:5]} in {name}"
    assert seed not in text, f"{who} sees the seed in {name}"
    for document in strings_in(text):
        assert not _has_key(document, {"hash", "prev_hash", "agenda"}), f"{who} gets a secret-bearing field in {name}"


@pytest.mark.parametrize("powers", [POWERS, None], ids=["seeing-powers", "random-powers"])
def test_no_response_shows_a_card_the_caller_may_not_know(client, api_game, powers):
    setup = {"powers": powers} if powers else None
    game = api_game(seats=4, seed=SEED, moves=120, setup=setup)
    events = admin_log(client, game)
    deck, known, public = knowledge(events)
    assert len(deck) > 50 and len(deck - public) > 20  # plenty of cards are still secret
    head = game.last["version"]
    versions = [v for v in (1, 5, 15, 40, head // 3, head // 2, head - 1) if 1 <= v <= head]
    for viewer in [None, *game.tokens]:
        allowed = known[viewer] if viewer else public
        pattern = forbidden_pattern(deck - allowed)
        for name, text in bodies_for(client, game, viewer, versions).items():
            if name == "error-bad-choice":  # the caller's own request names A40: echoing it back tells nothing
                text = text.replace("'A40'", "")
            check_body(text, pattern, viewer or "anonymous", name)


def test_the_deck_order_and_the_seed_are_the_admins_only(client, api_game):
    game = api_game(seats=3, seed=SEED, moves=10)
    events = admin_log(client, game)
    formed = [e for e in events if e["type"] == "DeckFormed"]
    assert formed and all(e["payload"]["cards"] for e in formed)
    for viewer in [None, *game.tokens]:
        auth = game.as_(viewer) if viewer else {}
        served = client.get(game.url("/events?limit=1000"), headers=auth).json["events"]
        for event in served:
            if event["type"] == "DeckFormed":
                assert set(event["payload"]["cards"]) == {None}
            if event["type"] == "GameCreated":
                assert event["payload"]["seed"] is None and event["payload"]["setup"] is None
    created = client.get(game.url("/events?limit=1"), headers=ADMIN).json["events"][0]
    assert created["payload"]["seed"] == SEED


def test_the_board_lists_pending_decisions_without_their_options(client, api_game):
    game = api_game(seats=3, seed=SEED, moves=30)
    board = client.get(game.url()).json
    for pending in board["pending"]:
        assert set(pending) == {"player", "kind", "title", "deadline"}  # the title names the kind, no option
    assert all(set(seat) == {"name", "bot", "powers", "hand_size"} for seat in board["players"].values())
    assert set(board["decks"]) >= {"deck", "destiny"} and all(isinstance(n, int) for n in board["decks"].values())

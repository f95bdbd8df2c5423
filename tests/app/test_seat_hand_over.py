"""Issue 30: a person hands its seat to a bot and takes it back (app/routes/seats.py, engine/seats.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.app.conftest import ADMIN, bearer, problem_type, whole_log
from tests.app.test_players import register, seat_player


def hand_over(client, game, color: str, headers: dict, level: str = "heuristic"):
    return client.post(game.url(f"/seats/{color}/hand-over"), json={"level": level}, headers=headers)


def take_back(client, game, color: str, headers: dict):
    return client.post(game.url(f"/seats/{color}/take-back"), headers=headers)


@pytest.fixture
def game(api_game):
    return api_game(seats=3, seed="hand-over", moves=2)


def test_a_seat_is_handed_to_a_bot_with_its_own_token_and_the_log_says_so(client, game):
    answer = hand_over(client, game, "red", game.as_("red"))
    assert answer.status_code == 200, answer.json
    assert answer.json == {"game_id": game.id, "player": "red", "bot": "heuristic", "handed_over": "asked",
                           "version": answer.json["version"]}
    board = client.get(game.url()).json
    assert board["players"]["red"]["bot"] == "heuristic" and board["players"]["red"]["handed_over"] == "asked"
    assert "handed_over" not in board["players"]["blue"]
    last = whole_log(client, game.id)[-1]
    assert last["type"] == "SeatHandedToBot" and last["payload"]["reason"] == "asked"
    assert last["text"] == "player 0 hands the red seat to a heuristic bot."


def test_while_a_bot_holds_the_seat_its_token_reads_but_may_not_act(client, game):
    hand_over(client, game, "red", game.as_("red"))
    for path in ("/hand", "/prompts", "/events", ""):
        assert client.get(game.url(path), headers=game.as_("red")).status_code == 200, path
    refused = client.post(game.url("/actions"), json={"action": "pass"}, headers=game.as_("red"))
    assert refused.status_code == 409 and problem_type(refused) == "seat-played-by-bot"
    assert refused.json["rule"] == "seats" and "take it back first" in refused.json["detail"]
    assert f"/games/{game.id}/seats/red/take-back" in refused.json["detail"]


def test_taking_the_seat_back_lets_its_token_act_again(client, game):
    hand_over(client, game, "red", game.as_("red"))
    back = take_back(client, game, "red", game.as_("red"))
    assert back.status_code == 200 and back.json["bot"] is None and back.json["handed_over"] is None
    assert "handed_over" not in client.get(game.url()).json["players"]["red"]
    last = whole_log(client, game.id)[-1]
    assert last["type"] == "SeatTakenBack" and last["text"] == "player 0 takes the red seat back from its bot."
    answer = client.post(game.url("/actions"), json={"action": "pass"}, headers=game.as_("red"))
    assert answer.status_code != 409 or problem_type(answer) != "seat-played-by-bot"


def test_a_seat_is_the_seats_own_to_hand_over_or_take_back(client, game):
    assert hand_over(client, game, "red", game.as_("blue")).status_code == 403
    assert hand_over(client, game, "red", {}).status_code == 401
    assert hand_over(client, game, "red", bearer("made-up")).status_code == 401
    assert hand_over(client, game, "red", bearer(game.host_token)).status_code == 403  # the host is not the seat
    assert hand_over(client, game, "red", ADMIN).status_code == 200
    assert take_back(client, game, "red", game.as_("yellow")).status_code == 403
    assert take_back(client, game, "red", {}).status_code == 401
    assert take_back(client, game, "red", ADMIN).status_code == 200
    assert hand_over(client, game, "purple", ADMIN).status_code == 404


def test_twice_handed_over_never_handed_over_and_unknown_levels_are_refused(client, game):
    assert take_back(client, game, "red", game.as_("red")).status_code == 409
    assert problem_type(take_back(client, game, "red", game.as_("red"))) == "seat-not-handed-over"
    unknown = hand_over(client, game, "red", game.as_("red"), level="genius")
    assert unknown.status_code == 422 and "'genius'" in unknown.json["detail"] and unknown.json["rule"] == "seats"
    missing = client.post(game.url("/seats/red/hand-over"), json={}, headers=game.as_("red"))
    assert missing.status_code == 400 and "level" in missing.json["errors"]
    assert hand_over(client, game, "red", game.as_("red")).status_code == 200
    again = hand_over(client, game, "red", game.as_("red"), level="random")
    assert again.status_code == 409 and problem_type(again) == "seat-played-by-bot"
    assert client.get(game.url()).json["players"]["red"]["bot"] == "heuristic"  # the first hand-over stands


def test_a_player_key_hands_over_and_takes_back_the_seat_it_holds(client):
    key = register(client)["key"]
    game = seat_player(client, key)
    assert hand_over(client, game, game.mine, bearer(key), level="random").status_code == 200
    other = next(c for c in game.tokens if c != game.mine)
    assert hand_over(client, game, other, bearer(key)).status_code == 403
    assert take_back(client, game, game.mine, bearer(key)).status_code == 200


def test_a_seat_is_not_handed_over_in_the_lobby(client):
    created = client.post("/games", json={"seats": 2}).json
    joined = client.post(f"/games/{created['id']}/players", json={"name": "Ann"}).json
    refused = client.post(f"/games/{created['id']}/seats/red/hand-over", json={"level": "random"},
                          headers=bearer(joined["token"]))
    assert refused.status_code == 422 and refused.json["rule"] == "seats"


def test_the_option_is_validated_at_creation(client):
    for wrong in ({"missed": 0, "level": "random"}, {"missed": 2, "level": "genius"}, {"missed": 2}, [3]):
        refused = client.post("/games", json={"seats": 3, "options": {"hand_over_after": wrong}})
        assert refused.status_code in (400, 422) and "hand_over_after" in refused.get_data(as_text=True), wrong
    made = client.post("/games", json={"seats": 3, "options": {"hand_over_after": {"missed": 3.0, "level": "random"}}})
    assert made.status_code == 201 and made.json["options"]["hand_over_after"] == {"missed": 3, "level": "random"}
    assert "hand_over_after" not in client.post("/games", json={"seats": 3}).json["options"]


def test_the_catalogue_lists_the_bot_levels(client):
    from engine.levels import LEVELS
    for query in ({}, {"ruleset": "ffg"}):
        listed = client.get("/catalogue", query_string=query).json["bots"]
        assert [b["level"] for b in listed] == list(LEVELS) and all(b["meaning"] for b in listed)


def test_the_actions_route_does_not_hand_over_or_take_back_any_seat(client, game):
    for body in ({"action": "hand_over", "seat": "blue", "level": "random"}, {"action": "take_back", "seat": "blue"}):
        for headers in (game.as_("red"), ADMIN):
            refused = client.post(game.url("/actions"), json={**body, "player": "red"} if headers is ADMIN else body,
                                  headers=headers)
            assert refused.status_code == 400 and "/seats/" in refused.json["errors"]["action"][0], refused.json
    assert client.get(game.url()).json["players"]["blue"]["bot"] is None


def test_a_seat_handed_to_a_bot_owes_its_player_nothing_in_my_games_nor_on_my_stream(runtime):
    """The bot answers the seat's decisions: the player's list and feed must not call them the player's move."""
    from app.mystream import MyFeed
    from app.routes.me import _entry
    from engine.decide import prompts
    from engine.simulate import new_game
    from projections import standing

    state, _ = new_game("owes-nothing", 3)
    color = prompts(state)[0]["player"]
    assert _entry(standing.of(state), "g", 1, color)["owes"] is True
    state["players"][color]["bot"] = "heuristic"  # as SeatHandedToBot leaves it
    entry = _entry(standing.of(state), "g", 1, color)
    assert entry["owes"] is False and entry["decisions"] == [] and entry["deadline"] is None

    class Repository:  # the feed reads the game's state at its head
        def current(self, game_id):
            return state

    feed = MyFeed(SimpleNamespace(repository=Repository()), None, "p", None)
    feed.seats, feed.positions, feed.told, feed.order = {"g": color}, {"g": state["v"]}, {"g": None}, ["g"]
    assert "event: no-longer-yours" in feed.decision_messages("g")
    state["players"][color]["bot"] = None  # taken back: the decision is the player's again
    assert "event: your-move" in feed.decision_messages("g")

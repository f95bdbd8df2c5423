"""Catching up after hours away: ``GET /games/{id}/events?view=compact`` (projections.log.compact_view).

The compact log is the full log's own sentences for the same reader, in the same order, paged the
same way, without payloads, envelopes or stage markers; it never tells a seat more than the full
log does, and it is much smaller.
"""

from __future__ import annotations

import json

from tests.app.conftest import ADMIN, problem_type, whole_log
from tests.app.test_players import register, seat_player


def test_the_compact_log_tells_each_visible_event_in_the_full_logs_own_words(client, api_game):
    game = api_game(seats=3, seed="catch-up", moves=60)
    for color in game.tokens:
        full = whole_log(client, game.id, game.as_(color))
        compact = whole_log(client, game.id, game.as_(color), view="compact")
        told = [{k: e.get(k) for k in ("seq", "type", "actor", "time", "text")} for e in full
                if e["type"] != "StageBegan"]
        assert compact == told
        assert all(set(e) == {"seq", "type", "actor", "time", "text"} for e in compact)
        assert any(e["type"] == "StageBegan" for e in full)


def test_a_compact_page_follows_the_paging_convention(client, api_game):
    game = api_game(seats=3, seed="catch-up", moves=40)
    color = next(iter(game.tokens))
    head = client.get(game.url()).json["version"]
    first = client.get(game.url("/events?view=compact&limit=25"), headers=game.as_(color)).json
    assert first["view"] == "compact" and first["limit"] == 25 and first["after"] == 0
    assert first["next_after"] == 25 and first["more"] is True and first["version"] == head
    assert all(e["seq"] <= 25 for e in first["events"])
    rest = client.get(game.url(f"/events?view=compact&after={first['next_after']}&limit=1000"),
                      headers=game.as_(color)).json
    assert rest["more"] is False and rest["next_after"] == head
    assert all(e["seq"] > 25 for e in rest["events"])
    tag = client.get(game.url("/events?view=compact"), headers=game.as_(color)).headers["ETag"]
    again = client.get(game.url("/events?view=compact"), headers={**game.as_(color), "If-None-Match": tag})
    assert again.status_code == 304


def test_a_player_key_catches_up_on_its_own_seats_view(client):
    key = register(client)["key"]
    game = seat_player(client, key).moves(30)
    mine = whole_log(client, game.id, {"Authorization": f"Bearer {key}"}, view="compact")
    assert mine == whole_log(client, game.id, game.as_(game.mine), view="compact")


def test_the_compact_log_is_a_fraction_of_the_full_ones_bytes(client, api_game):
    game = api_game(seats=4, seed="catch-up-long", moves=200)
    color = next(iter(game.tokens))
    full = client.get(game.url("/events?limit=1000"), headers=game.as_(color)).data
    compact = client.get(game.url("/events?limit=1000&view=compact"), headers=game.as_(color)).data
    assert len(compact) * 2 < len(full), (len(compact), len(full))


def test_the_view_is_validated(client, api_game):
    game = api_game(seats=3, seed="catch-up", moves=2)
    answer = client.get(game.url("/events?view=short"), headers=ADMIN)
    assert answer.status_code == 400 and problem_type(answer) == "invalid-request", answer.json
    assert "view" in answer.json["errors"], answer.json
    full = client.get(game.url("/events?view=full"), headers=ADMIN).json
    assert "view" not in full and json.dumps(full["events"][0]).count("payload") == 1


def test_the_admin_may_ask_the_bookkeeping_in_compact_form_too(client, api_game):
    game = api_game(seats=3, seed="catch-up", moves=10)
    internal = whole_log(client, game.id, ADMIN, view="compact", include_internal="true")
    plain = whole_log(client, game.id, ADMIN, view="compact")
    assert len(internal) > len(plain) and {e["seq"] for e in plain} < {e["seq"] for e in internal}
    refused = client.get(game.url("/events?view=compact&include_internal=true"), headers=game.as_("red"))
    assert refused.status_code == 403

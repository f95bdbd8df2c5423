"""The history endpoints: rewind (admin or every player's consent), fork and claim, export, audit.

Games are played through the runtime's command runner from recorded commands (the same path
the API takes, faster than HTTP) and seated with tokens from the app's token table; every
request under test goes through the Flask app. Authorization is checked for the admin, a
seated player, another game's token and no token.
"""

from __future__ import annotations

import json

import fakeredis
import pytest

import engine
from projections import views
from tests.app.conftest import ADMIN, bearer, problem_type
from tests.workers.games import lobby, make_runtime, play, recorded_commands, tamper_time
from tests.workers.thread_jobs import installed, run_jobs
from workers.transfer import import_game


def version_after(commands: list[dict]) -> int:
    """The version a game reaches with these commands (a version an action answered with)."""
    state = None
    for command in commands:
        _, state = engine.execute(state, command)
    return state["v"]


@pytest.fixture
def rewindable(runtime, seated):
    """A 3-player game at 60 commands; ``n`` is its version after 35 (a version an action answered with)."""
    commands = recorded_commands("api-rewind", commands=60)
    n = play(runtime, "g", commands[:35])["v"]
    game = seated("g", commands[35:])
    game.n = n
    return game


# --- rewind -------------------------------------------------------------------------------------

def test_the_admin_rewinds_and_old_versions_and_the_log_stay_readable(client, runtime, rewindable):
    head = rewindable.state["v"]
    board_before = client.get("/games/g", query_string={"version": head - 3}).json
    done = client.post("/games/g/rewind", json={"to_version": rewindable.n}, headers=ADMIN)
    assert done.status_code == 200, done.json
    assert done.json["status"] == "rewound" and done.json["version"] == head + 1 and done.headers["ETag"] == \
        f'"{head + 1}"'
    now = client.get("/games/g").json
    assert {k: v for k, v in now.items() if k not in ("version", "time")} == \
        {k: v for k, v in client.get("/games/g", query_string={"version": rewindable.n}).json.items()
         if k not in ("version", "time")}
    assert client.get("/games/g", query_string={"version": head - 3}).json == board_before
    log = client.get("/games/g/events", query_string={"after": head - 2}).json["events"]
    assert [e["type"] for e in log][-1] == "GameRewound" and log[-1]["payload"]["to_version"] == rewindable.n
    assert len(client.get("/games/g/events", query_string={"limit": 1000}).json["events"]) > 0
    # the seats play on from the state at n
    pending = client.get("/games/g/prompts", headers=rewindable.as_(now["pending"][0]["player"])).json
    assert pending["prompts"] and pending["version"] == head + 1


@pytest.mark.parametrize("body, status, slug", [
    ({}, 400, "invalid-request"),
    ({"to_version": "3"}, 400, "invalid-request"),
    ({"to_version": 0}, 400, "invalid-request"),
    ({"to_version": 3, "extra": 1}, 400, "invalid-request"),
    ({"to_version": 10**6}, 422, "rewind-refused"),
    ({"to_version": 2}, 422, "rewind-refused"),          # the lobby
    ({"to_version": 6}, 422, "rewind-refused"),          # between two events of `start`
])
def test_rewind_refuses_bad_input_naming_why(client, rewindable, body, status, slug):
    head = rewindable.state["v"]
    answer = client.post("/games/g/rewind", json=body, headers=ADMIN)
    assert answer.status_code == status and problem_type(answer) == slug
    assert answer.json["detail"]
    assert client.get("/games/g").json["version"] == head


def test_rewind_authorization_and_versions(client, runtime, rewindable, seated):
    other = seated("other", recorded_commands("api-other", commands=10))
    body = {"to_version": rewindable.n}
    assert client.post("/games/g/rewind", json=body).status_code == 401
    assert client.post("/games/g/rewind", json=body, headers=other.as_("red")).status_code == 401
    assert client.post("/games/nope/rewind", json=body, headers=ADMIN).status_code == 404
    stale = client.post("/games/g/rewind", json=body, headers={**ADMIN, "If-Match": '"3"'})
    assert stale.status_code == 409 and problem_type(stale) == "version-conflict"
    assert stale.json["current_version"] == rewindable.state["v"]
    both = client.post("/games/g/rewind", json={**body, "expected_version": 4}, headers={**ADMIN, "If-Match": '"5"'})
    assert both.status_code == 409  # If-Match and expected_version naming two versions: a conflict


def test_a_rewind_by_consent_waits_for_every_seated_player(client, rewindable):
    head, n = rewindable.state["v"], rewindable.n
    red, blue, yellow = rewindable.state["order"]
    first = client.post("/games/g/rewind", json={"to_version": n}, headers=rewindable.as_(red))
    assert first.status_code == 202 and first.json["waiting_for"] == [blue, yellow]
    listed = client.get("/games/g/rewind").json
    assert listed["requests"] == {red: n} and listed["voters"] == [red, blue, yellow]
    assert client.post("/games/g/rewind", json={"to_version": n}, headers=rewindable.as_(blue)).status_code == 202
    assert client.get("/games/g").json["version"] == head
    last = client.post("/games/g/rewind", json={"to_version": n}, headers=rewindable.as_(yellow))
    assert last.status_code == 200 and last.json["by"] == "players" and last.json["version"] == head + 1
    assert client.get("/games/g/rewind").json["requests"] == {}
    refused = client.post("/games/g/rewind", json={"to_version": 1}, headers=rewindable.as_(red))
    assert refused.status_code == 422 and problem_type(refused) == "rewind-refused"


# --- fork and claim -----------------------------------------------------------------------------

def test_the_admin_forks_any_game_and_gets_every_seat(client, runtime, rewindable):
    forked = client.post("/games/g/fork", json={"version": rewindable.n}, headers=ADMIN)
    assert forked.status_code == 201, forked.json
    fork_id = forked.json["id"]
    assert forked.headers["Location"] == f"/games/{fork_id}" and fork_id != "g"
    assert forked.json["forked_from"] == {"game": "g", "version": rewindable.n}
    assert set(forked.json["tokens"]) == set(rewindable.state["order"]) and forked.json["claimable"] == []
    red_token = forked.json["tokens"]["red"]
    assert client.get(f"/games/{fork_id}/hand", headers=bearer(red_token)).status_code == 200
    assert client.get("/games/g/hand", headers=bearer(red_token)).status_code == 401   # fork tokens only
    fork_board = client.get(f"/games/{fork_id}").json
    original_at_n = client.get("/games/g", query_string={"version": rewindable.n}).json
    assert {k: v for k, v in fork_board.items() if k != "game_id"} == \
        {k: v for k, v in original_at_n.items() if k != "game_id"}


def test_a_player_forks_a_finished_game_only_and_the_others_claim_their_seats(client, runtime, seated):
    playing = seated("live", recorded_commands("api-live", commands=20, players=2))
    refused = client.post("/games/live/fork", headers=playing.as_("red"))
    assert refused.status_code == 403 and problem_type(refused) == "forbidden"

    commands = recorded_commands("api-done", commands=10**6, players=2)
    done = seated("done", commands)
    assert done.state["status"] == "finished"
    version = version_after(commands[:20])
    forked = client.post("/games/done/fork", json={"version": version}, headers=done.as_("blue"))
    assert forked.status_code == 201, forked.json
    fork_id = forked.json["id"]
    assert list(forked.json["tokens"]) == ["blue"] and forked.json["claimable"] == ["red"]
    claim = f"/games/{fork_id}/claim"
    assert client.post(claim).status_code == 401
    assert client.post(claim, headers=bearer("not-a-token")).status_code == 401
    assert client.post(claim, headers=ADMIN).status_code == 403
    taken_blue = client.post(claim, headers=done.as_("blue"))
    assert taken_blue.status_code == 409 and problem_type(taken_blue) == "seat-claimed"
    red = client.post(claim, headers=done.as_("red"))
    assert red.status_code == 201 and red.json["player"] == "red"
    assert client.get(f"/games/{fork_id}/hand", headers=bearer(red.json["token"])).json["player"] == "red"
    assert client.post(claim, headers=done.as_("red")).status_code == 409
    not_forked = client.post("/games/done/claim", headers=done.as_("red"))
    assert not_forked.status_code == 409 and problem_type(not_forked) == "not-a-fork"  # the game exists


def test_a_forks_bot_seats_stay_bots_and_get_no_token(client, runtime):
    play(runtime, "with-bot", lobby("api-fork-bot", players=3, bots=[None, "heuristic", None]))
    forked = client.post("/games/with-bot/fork", headers=ADMIN)
    assert forked.status_code == 201, forked.json
    assert forked.json["players"] == ["red", "blue", "yellow"] and set(forked.json["tokens"]) == {"red", "yellow"}
    board = client.get(f"/games/{forked.json['id']}").json
    assert {c: p["bot"] for c, p in board["players"].items()} == {"red": None, "blue": "heuristic", "yellow": None}


def test_fork_refuses_bad_input(client, rewindable):
    assert client.post("/games/g/fork").status_code == 401
    assert client.post("/games/g/fork", json={"version": "x"}, headers=ADMIN).status_code == 400
    assert client.post("/games/g/fork", json={"version": 0}, headers=ADMIN).status_code == 400
    too_far = client.post("/games/g/fork", json={"version": 10**6}, headers=ADMIN)
    assert too_far.status_code == 422 and problem_type(too_far) == "fork-refused"  # the game exists; the version not
    assert too_far.json["current_version"] < 10**6
    mid = client.post("/games/g/fork", json={"version": 6}, headers=ADMIN)
    assert mid.status_code == 422 and problem_type(mid) == "fork-refused"
    assert client.post("/games/none/fork", headers=ADMIN).status_code == 404


# --- export ---------------------------------------------------------------------------------------

def test_the_admin_export_is_the_stored_stream_and_imports_elsewhere(client, runtime, rewindable):
    answer = client.get("/games/g/export", headers=ADMIN)
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    assert answer.headers["X-Cosmic-Export"] == "full"
    lines = answer.get_data(as_text=True).splitlines(keepends=True)
    assert [json.loads(line) for line in lines[:-1]] == runtime.store.read("g")
    assert json.loads(lines[-1])["key"] == runtime.sealer.key_id  # sealed by this service
    other = make_runtime(fakeredis.FakeRedis(server=fakeredis.FakeServer()), "other")
    imported = import_game(other, lines)
    assert imported["audit"]["ok"] and imported["seal"] == "other-key"  # another key: imported as unsealed
    assert views.board(other.repository.current("g")) == client.get("/games/g").json


def test_players_export_only_finished_games_and_only_what_they_may_see(client, runtime, seated, rewindable):
    refused = client.get("/games/g/export", headers=rewindable.as_("red"))
    assert refused.status_code == 403 and problem_type(refused) == "forbidden"
    assert client.get("/games/g/export").status_code == 403
    done = seated("done", recorded_commands("api-export", commands=10**6, players=2))
    for who, headers in (("red", done.as_("red")), (None, {})):
        answer = client.get("/games/done/export", headers=headers)
        assert answer.status_code == 200 and answer.headers["X-Cosmic-Export"] == "redacted"
        events = [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]
        assert events and all("hash" not in e and "prev_hash" not in e for e in events)
        assert not any(e["type"] == "Bookmark" for e in events)
        created = next(e for e in events if e["type"] == "GameCreated")
        assert created["payload"]["seed"] is None
        for event in events:
            if event["type"] == "CardsMoved" and event["payload"].get("seen_by") is not None and \
                    who not in event["payload"]["seen_by"]:
                assert set(event["payload"]["cards"]) == {None}
            if event["type"] == "DeckFormed":
                assert set(event["payload"]["cards"]) == {None}
    assert client.get("/games/nope/export").status_code == 404


# --- audit ----------------------------------------------------------------------------------------

def test_the_admin_audits_now_or_queues_the_audit(client, runtime, rewindable):
    assert client.get("/admin/games/g/audit").status_code == 401
    assert client.get("/admin/games/g/audit", headers=rewindable.as_("red")).status_code == 403
    assert client.get("/admin/games/nope/audit", headers=ADMIN).status_code == 404
    report = client.get("/admin/games/g/audit", headers=ADMIN)
    assert report.status_code == 200 and report.json["ok"] is True
    assert report.json["events"] == rewindable.state["v"] and report.json["problem"] is None

    queued = client.post("/admin/games/g/audit", headers=ADMIN)
    assert queued.status_code == 202 and queued.json["queue"] == "low"
    job_url = queued.headers["Location"]
    assert client.get(job_url, headers=ADMIN).json["status"] == "queued"
    assert client.get(job_url, headers=rewindable.as_("red")).status_code == 403  # a seat's token: forbidden (issue 15.5)
    with installed(runtime):
        run_jobs(runtime, scheduler=False)
    finished = client.get(job_url, headers=ADMIN).json
    assert finished["status"] == "finished" and finished["result"]["ok"] is True
    assert client.get("/admin/jobs/someone-elses-job", headers=ADMIN).status_code == 404


def test_the_audit_names_a_tampered_event(client, runtime, rewindable):
    tamper_time(runtime, "g", 12)
    report = client.get("/admin/games/g/audit", headers=ADMIN).json
    assert report["ok"] is False
    assert report["problem"]["seq"] == 12 and report["problem"]["kind"] == "hash-mismatch"
    assert report["problem"]["id"] == "12-1"
    broken = client.get("/games/g/export", headers=ADMIN)
    assert broken.status_code == 500 and "event 12" in broken.json["detail"]

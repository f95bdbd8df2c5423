"""The host token and private lobbies (workers/hosts.py, app/routes/games.py).

The creator of a game gets its host token: with it (or the seat it took with it, or the admin
token) bots are seated and the game started; a private game needs its invitation to take a seat
and is listed to the admin only. A stranger can do none of it. Games made before host tokens
existed keep the rules they were made under.
"""

from __future__ import annotations

from tests.app.conftest import ADMIN, bearer, problem_type
from tests.workers.games import lobby, play, recorded_commands


def create(client, **body) -> dict:
    made = client.post("/games", json={"seats": 3, **body})
    assert made.status_code == 201, made.json
    assert made.headers["Cache-Control"] == "no-store"  # it holds the host token
    return made.json


def join(client, game: str, headers: dict | None = None, **body):
    return client.post(f"/games/{game}/players", json={"name": "someone", **body}, headers=headers or {})


# --- the host ---------------------------------------------------------------------------------

def test_one_person_and_bots_create_seat_and_start_a_game_with_the_host_token_alone(client):
    made = create(client)
    game, host = made["id"], bearer(made["host_token"])
    assert made["private"] is False and made["invitation"] is None and "invite" not in made["links"]
    me = join(client, game, host, name="Ann")
    assert me.status_code == 201 and me.json["token"]
    for name, level in (("Robo", "heuristic"), ("Dice", "random")):
        bot = join(client, game, host, name=name, bot=level)
        assert bot.status_code == 201 and bot.json["token"] is None
    started = client.post(f"/games/{game}/start", headers=host)
    assert started.status_code == 200 and started.json["status"] == "playing"
    assert started.json["order"] == ["red", "blue", "yellow"]


def test_the_seat_the_host_takes_with_its_token_hosts_too(client):
    made = create(client)
    game = made["id"]
    seat = join(client, game, bearer(made["host_token"]), name="Ann").json["token"]
    other = join(client, game, name="Bob").json["token"]
    assert join(client, game, bearer(other), name="Bot", bot="random").status_code == 403
    assert join(client, game, bearer(seat), name="Bot", bot="random").status_code == 201
    assert client.post(f"/games/{game}/start", headers=bearer(other)).status_code == 403
    assert client.post(f"/games/{game}/start", headers=bearer(seat)).json["status"] == "playing"


def test_a_stranger_cannot_seat_bots_in_someone_elses_lobby_or_start_it(client):
    made = create(client, seats=2)
    game = made["id"]
    refused = join(client, game, name="Intruder", bot="random")
    assert refused.status_code == 403 and problem_type(refused) == "forbidden" and "host" in refused.json["detail"]
    stranger = join(client, game, name="Stranger").json["token"]  # a public lobby: anyone takes a seat
    assert join(client, game, bearer(stranger), name="Bot", bot="heuristic").status_code == 403
    join(client, game, name="Friend")
    board = client.get(f"/games/{game}").json
    assert [p["bot"] for p in board["players"].values()] == [None, None]  # no bot got in
    anonymous = client.post(f"/games/{game}/start")
    assert anonymous.status_code == 401 and anonymous.headers["WWW-Authenticate"].startswith("Bearer")
    seated = client.post(f"/games/{game}/start", headers=bearer(stranger))
    assert seated.status_code == 403 and problem_type(seated) == "forbidden"
    assert client.get(f"/games/{game}").json["status"] == "lobby"
    other_host = create(client)["host_token"]
    assert client.post(f"/games/{game}/start", headers=bearer(other_host)).status_code == 401  # another game's
    assert client.post(f"/games/{game}/start", headers=ADMIN).json["status"] == "playing"


def test_the_host_token_reads_as_a_spectator_and_is_stored_only_as_a_digest(client, runtime, redis_client):
    made = create(client, seats=2)
    game, host = made["id"], bearer(made["host_token"])
    assert client.get(f"/games/{game}", headers=host).status_code == 200
    assert client.get(f"/games/{game}/events", headers=host).status_code == 200
    assert client.get(f"/games/{game}/hand", headers=host).status_code == 401  # not a seat
    assert client.post(f"/games/{game}/actions", json={"action": "pass"}, headers=host).status_code == 401
    stored = b"".join(k + b"".join(redis_client.hgetall(k)) + b"".join(redis_client.hvals(k))
                      for k in redis_client.scan_iter(match=f"{runtime.settings.prefix}:*")
                      if redis_client.type(k) in (b"hash", "hash"))
    assert made["host_token"].encode() not in stored
    record = runtime.hosts.record(game)
    assert record["token"] and len(record["token"]) == 64 and record["private"] is False


# --- private lobbies --------------------------------------------------------------------------

def test_a_stranger_cannot_take_a_private_lobbys_seats(client):
    made = create(client, private=True)
    game, code = made["id"], made["invitation"]
    assert made["private"] is True and code and made["links"]["invite"] == f"/table/#join={game}&invitation={code}"
    for body in ({}, {"invitation": "guess"}, {"invitation": code + "x"}):
        refused = join(client, game, name="Stranger", **body)
        assert refused.status_code == 403 and problem_type(refused) == "forbidden", body
        assert "invitation" in refused.json["detail"]
    other = create(client, private=True)
    assert join(client, game, name="Wrong game", invitation=other["invitation"]).status_code == 403
    assert client.get(f"/games/{game}").json["players"] == {}
    invited = join(client, game, name="Friend", invitation=code)
    assert invited.status_code == 201 and invited.json["token"]
    assert join(client, game, bearer(made["host_token"]), name="Host").status_code == 201  # the host needs none
    assert join(client, game, ADMIN, name="Admin's guest").status_code == 201


def test_a_private_lobby_is_listed_to_the_admin_only_and_stays_readable_by_id(client):
    public, private = create(client), create(client, private=True)
    listed = {g["id"] for g in client.get("/games").json["games"]}
    assert public["id"] in listed and private["id"] not in listed
    assert client.get("/games", query_string={"status": "lobby"}).json["total"] == 1
    assert private["id"] not in {g["id"] for g in client.get("/games", query_string={"offset": 0}).json["games"]}
    admin = {g["id"]: g for g in client.get("/games", headers=ADMIN).json["games"]}
    assert admin[private["id"]]["private"] is True and "private" not in admin[public["id"]]
    assert client.get(f"/games/{private['id']}").status_code == 200
    # still unlisted once it is played
    host = bearer(private["host_token"])
    for k in range(3):
        join(client, private["id"], host, name=f"p{k}")
    assert client.post(f"/games/{private['id']}/start", headers=host).status_code == 200
    assert private["id"] not in {g["id"] for g in client.get("/games", query_string={"status": "playing"}).json["games"]}
    assert private["id"] in {g["id"] for g in client.get("/games", query_string={"status": "playing"},
                                                         headers=ADMIN).json["games"]}


def test_private_must_be_a_boolean(client):
    assert client.post("/games", json={"seats": 2, "private": "yes"}).status_code == 400
    assert client.post("/games", json={"seats": 2, "private": 1}).status_code == 400


# --- games made before host tokens, and forks ---------------------------------------------------

def test_a_game_made_before_host_tokens_keeps_its_rules(client, runtime, seated):
    play(runtime, "old", lobby("old-rules", players=3)[:2])  # created and one seat taken, no host record
    assert runtime.hosts.record("old") is None
    bot = join(client, "old", name="Robo", bot="random")
    assert bot.status_code == 201  # anyone seats a bot, as before
    seat = join(client, "old", name="Cy").json["token"]
    assert client.post("/games/old/start", headers=bearer(seat)).json["status"] == "playing"
    assert "old" in {g["id"] for g in client.get("/games").json["games"]}


def test_a_fork_has_no_host_and_a_fork_of_a_private_game_is_private(client, runtime):
    made = create(client, seats=2, private=True)
    game, host = made["id"], bearer(made["host_token"])
    join(client, game, host, name="Ann")
    join(client, game, host, name="Robo", bot="random")
    assert client.post(f"/games/{game}/start", headers=host).status_code == 200
    forked = client.post(f"/games/{game}/fork", json={"version": 2}, headers=ADMIN)  # back in the lobby
    assert forked.status_code == 201, forked.json
    fork_id = forked.json["id"]
    assert runtime.hosts.record(fork_id) == {"token": None, "private": True, "invitation": None, "seat": None}
    assert fork_id not in {g["id"] for g in client.get("/games").json["games"]}
    assert join(client, fork_id, host, name="Bot", bot="random").status_code == 401  # another game's token
    assert join(client, fork_id, name="Bot", bot="random").status_code == 403  # nobody hosts a fork
    assert join(client, fork_id, ADMIN, name="Bot", bot="random").status_code == 201
    assert client.post(f"/games/{fork_id}/start", headers=host).status_code == 401
    assert client.post(f"/games/{fork_id}/start", headers=ADMIN).json["status"] == "playing"


def test_a_refused_creation_leaves_no_host_record(client, runtime, redis_client):
    refused = client.post("/games", json={"seats": 2, "options": {"no_such_option": True}})
    assert refused.status_code in (400, 422)
    assert not list(redis_client.scan_iter(match=f"{runtime.settings.prefix}:*:host"))


# --- webhook slots shared between seats -----------------------------------------------------------

def test_each_seat_holds_its_share_of_a_games_webhook_slots(client, runtime, seated):
    runtime_settings = runtime.settings
    assert runtime_settings.webhook_allow_private is False
    game = seated("shared", recorded_commands("hosts-hooks", commands=5, players=6))
    hook = {"url": "https://93.184.215.14/hook", "game_id": "shared"}
    for _ in range(3):  # 20 slots between 6 seats: 3 each
        assert client.post("/webhooks", json=hook, headers=game.as_("red")).status_code == 201
    full = client.post("/webhooks", json=hook, headers=game.as_("red"))
    assert full.status_code == 403 and "share" in full.json["detail"]
    assert client.post("/webhooks", json=hook, headers=game.as_("blue")).status_code == 201
    for _ in range(5):
        assert client.post("/webhooks", json=hook, headers=ADMIN).status_code == 201  # the admin takes no share
    assert client.post("/webhooks", json=hook, headers=game.as_("yellow")).status_code == 201
    mine = client.get("/webhooks", query_string={"game_id": "shared"}, headers=game.as_("red")).json["webhooks"]
    assert client.delete(f"/webhooks/{mine[0]['id']}", headers=game.as_("red")).status_code == 204
    assert client.post("/webhooks", json=hook, headers=game.as_("red")).status_code == 201

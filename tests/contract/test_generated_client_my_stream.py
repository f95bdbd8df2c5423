"""Issue 29, "what it must show": the generated client plays two games through ``GET /me/stream`` alone.

Over the real processes (gunicorn as shipped + ``cosmic worker`` on REDIS_URL). The client is the
package openapi-python-client generates from the served spec (as in `test_generated_client`). It
registers a player, creates two games with its player key, takes a seat in each with the key,
seats two bots (the worker plays them) and starts them; then it learns what to do only from its
one feed: every ``your-move`` message's prompts (parsed with the generated ``Prompt`` model) are
answered with the generated ``act`` (the prompt's id pinned, so a stale answer fails instead of
answering a newer decision), until both games have ended. No board, prompts or hand is read while
playing; ``/me/games`` is read once at the end to check both games finished.

What the generated package cannot do: read a server-sent-events body. Its ``my_stream`` operation
parses the answer as one JSON document (``MyFeedMessage.from_dict(response.text)``), so the test
builds the request with the generated operation's own arguments (``_get_kwargs``: path, query,
``Last-Event-ID``) and sends it on the generated client's httpx client in streaming mode, splitting
the messages with a small reader below; each message's ``data`` is then read with the generated models.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.contract.test_generated_client import Player, generated_package, load

pytestmark = [pytest.mark.e2e, pytest.mark.contract]

ANSWER_CAP = 4000        # answers in all (two whole games take far fewer)
IDLE_CONNECTIONS = 12    # feed connections in a row with nothing new: the games are stuck
FEED_SECONDS = 20


def feed_messages(lines):
    """The SSE messages of a stream of lines: (id, event, data as JSON); comments and retry lines skipped."""
    fields = {}
    for line in lines:
        if line == "":
            if "event" in fields:
                yield fields.get("id"), fields["event"], json.loads(fields.get("data") or "null")
            fields = {}
        elif not line.startswith(":") and ": " in line:
            name, _, value = line.partition(": ")
            fields[name] = value


@pytest.mark.parametrize("service_processes", ["redis"], indirect=True)
def test_the_generated_client_plays_two_games_from_its_one_feed(service_processes, tmp_path):
    base = service_processes()
    with generated_package(base, tmp_path) as _:
        models, client_module = load("models"), load("client")
        api = {name: load(f"api.{group}.{name}") for group, name in (
            ("players", "register_player"), ("players", "my_games"), ("players", "my_stream"),
            ("games", "create_game"), ("games", "join_game"), ("games", "start_game"), ("play", "act"))}
        anonymous = client_module.Client(base_url=base, raise_on_unexpected_status=True)
        registered = api["register_player"].sync(client=anonymous, body=models.RegisterPlayer(name="phone"))
        assert isinstance(registered, models.RegisteredPlayer), registered
        me = client_module.AuthenticatedClient(base_url=base, token=registered.key, raise_on_unexpected_status=True,
                                               timeout=None)

        games = []
        for k in range(2):
            created = api["create_game"].sync(client=me, body=models.CreateGame(seats=3))
            assert isinstance(created, models.CreatedGame), created
            joined = api["join_game"].sync(created.id, client=me, body=models.Join(name="phone"))
            assert isinstance(joined, models.Joined) and joined.player, joined
            for n in range(2):
                bot = api["join_game"].sync(created.id, client=me, body=models.Join(name=f"bot {k}.{n}", bot="random"))
                assert isinstance(bot, models.Joined) and bot.token is None, bot  # a bot seat has no token
            started = api["start_game"].sync(created.id, client=me)
            assert isinstance(started, models.Started), started
            games.append(created.id)

        player = Player(me, api, models, random.Random("my-stream-client"))
        ended, answered, stale, cursor, idle, your_moves = set(), 0, 0, None, 0, 0
        while ended != set(games) and answered < ANSWER_CAP:
            assert idle < IDLE_CONNECTIONS, f"no progress on {idle} connections: ended {ended}, answered {answered}"
            request = api["my_stream"]._get_kwargs(timeout=FEED_SECONDS, **({"last_event_id": cursor} if cursor else {}))
            progressed = False
            with me.get_httpx_client().stream(**request) as answer:
                assert answer.status_code == 200, answer.read()
                assert answer.headers["Content-Type"].startswith("text/event-stream")
                for ident, event, data in feed_messages(answer.iter_lines()):
                    cursor = ident or cursor
                    assert data["game_id"] in games
                    progressed = True
                    if event == "GameEnded":
                        ended.add(data["game_id"])
                    if event != "your-move" or data["game_id"] in ended:
                        continue
                    your_moves += 1
                    message = models.MyFeedMessage.from_dict({"id": ident, "event": event, "data": data})
                    prompt = message.data.prompts[0]  # typed by the generated Prompt model
                    assert prompt.player == message.data.player
                    done = player.answer_prompt(data["game_id"], prompt, gone=(409,), pin=True)
                    if done is None:
                        stale += 1  # the decision went away (a newer your-move is on its way)
                        continue
                    answered += 1
                    if ended == set(games) or answered >= ANSWER_CAP:
                        break
            idle = 0 if progressed else idle + 1
        assert ended == set(games), f"after {answered} answers only {sorted(ended)} of {games} ended"
        assert answered > 20 and your_moves >= answered
        listed = api["my_games"].sync(client=me)
        assert isinstance(listed, models.MyGames), listed
        assert {g.game_id: g.status for g in listed.games} == {g: "finished" for g in games}
        assert not any(g.owes for g in listed.games)

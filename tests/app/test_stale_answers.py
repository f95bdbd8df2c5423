"""Issue 28 item 3: an answer to a decision that is no longer owed is a 409 ``not-owed``, whatever it names.

The identity fields (``ability``, ``side``, ``card``) tell one option of a decision from another;
the check that refuses unknown ones (typos) is about the decision owed now, so a late answer
to a window that has closed is told it is late, not that its ``ability`` is a stray field.
"""

from __future__ import annotations

from engine.flow import command_for, identity
from tests.app.conftest import problem_type


def find_decision_with_identity(client, game, moves: int = 400):
    """Play on until some seat owes a decision one of whose options has identity fields and no args."""
    for _ in range(moves):
        for pending in game.last["pending"]:
            color = pending["player"]
            for prompt in client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"][:1]:
                for option in prompt["options"]:
                    if identity(option) and not option["args"]:
                        return color, prompt, option
        game.move()
    raise AssertionError("no decision with identity fields came up")


def owed_ids(client, game, color) -> list[str]:
    return [p["id"] for p in client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"]]


def close(client, game, color, prompt) -> None:
    """Answer ``prompt`` with an option without identity fields, then play on until it is not owed."""
    other = next(o for o in prompt["options"] if not identity(o) and not o["args"])
    answered = client.post(game.url("/actions"), json={"action": other["action"], "prompt": prompt["id"]},
                           headers=game.as_(color))
    assert answered.status_code == 200, answered.json
    game.last = answered.json
    assert prompt["id"] not in owed_ids(client, game, color)


def test_a_late_answer_naming_an_ability_of_a_closed_window_is_a_409_not_owed(client, api_game):
    game = api_game(seats=3, seed="identity-retry")
    color, prompt, option = find_decision_with_identity(client, game)
    assert set(identity(option)) & {"ability", "side", "card"}, option
    late = {**command_for(option, {}), "prompt": prompt["id"]}
    close(client, game, color, prompt)
    before = game.last["version"]
    answer = client.post(game.url("/actions"), json=late, headers=game.as_(color))
    assert answer.status_code == 409, answer.json
    assert problem_type(answer) == "not-owed", answer.json
    # the same request without its identity fields was a 409 already: both say the same now
    bare = {k: v for k, v in late.items() if k not in identity(option)}
    assert client.post(game.url("/actions"), json=bare, headers=game.as_(color)).status_code == 409
    assert client.get(game.url()).json["version"] == before  # nothing written
    # later, when the same seat owes another decision, the late answer names the one it owes now
    for _ in range(400):
        now = owed_ids(client, game, color)
        if now and now[0] != prompt["id"]:
            break
        game.move()
    answer = client.post(game.url("/actions"), json=late, headers=game.as_(color))
    assert answer.status_code == 409 and problem_type(answer) == "not-owed", answer.json
    assert f"{prompt['id']!r} is no longer owed" in answer.json["detail"] and now[0] in answer.json["detail"]


def test_a_seat_that_owes_nothing_gets_a_409_whatever_fields_it_names(client, api_game):
    game = api_game(seats=3, seed="identity-retry")
    waiting = {p["player"] for p in game.last["pending"]}
    idle = next(c for c in game.tokens if c not in waiting and not owed_ids(client, game, c))
    for extra in ({"ability": "card:CosmicZap.3"}, {"side": "offense"}, {"abilty": "typo"}):
        answer = client.post(game.url("/actions"), json={"action": "use", **extra, "args": {}},
                             headers=game.as_(idle))
        assert answer.status_code == 409 and problem_type(answer) == "not-owed", (extra, answer.json)


def test_a_stray_field_on_the_decision_owed_now_is_still_a_400_naming_it(client, api_game):
    game = api_game(seats=3, seed="identity-retry")
    color, prompt, option = find_decision_with_identity(client, game)
    typo = {**command_for(option, {}), "prompt": prompt["id"], "abilty": "power:Oops"}
    answer = client.post(game.url("/actions"), json=typo, headers=game.as_(color))
    assert answer.status_code == 400 and problem_type(answer) == "invalid-request"
    assert "abilty" in answer.json["errors"]

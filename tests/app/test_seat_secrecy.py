"""Issue 30: a bot holding a handed-over seat leaks nothing of that seat's hidden cards into events or views.

A seeded game is played partway through the API; red hands its seat to a heuristic bot, which plays
red's decisions in worker jobs while the others play on. From the admin's whole log we work out by the
rules which cards each seat may know (tests/app/test_secrecy.py's `knowledge`), then read every view as
the other seats and as nobody (board, hand, prompts, log, live feed, errors) and scan them for red's
hidden cards. The hand-over's own event says which seat, which level and why: nothing the bot saw.
"""

from __future__ import annotations

from tests.app.conftest import ADMIN, whole_log
from tests.app.test_secrecy import admin_log, bodies_for, forbidden_pattern, knowledge
from tests.workers.thread_jobs import installed, run_jobs

SEED = "hand-over-secrecy-7a1c"


def test_after_a_hand_over_and_bot_moves_no_other_seat_and_no_spectator_sees_reds_hidden_cards(client, api_game,
                                                                                              runtime):
    game = api_game(seats=3, seed=SEED, moves=15)
    handed = client.post(game.url("/seats/red/hand-over"), json={"level": "heuristic"}, headers=game.as_("red"))
    assert handed.status_code == 200, handed.json
    with installed(runtime):
        for _ in range(40):
            run_jobs(runtime, scheduler=False)
            board = client.get(game.url()).json
            if board["status"] != "playing":
                break
            game.last = {"status": "playing", "pending": [p for p in board["pending"] if p["player"] != "red"]}
            if game.last["pending"]:
                game.move()
        run_jobs(runtime, scheduler=False)
    events = admin_log(client, game)
    since = next(k for k, e in enumerate(events) if e["type"] == "SeatHandedToBot")
    bot_moves = sum(1 for e in events[since + 1:] if e["actor"] == "red")
    assert bot_moves >= 3, "the bot played a few of red's decisions"
    assert events[since]["payload"] == {"player": "red", "level": "heuristic", "reason": "asked"}
    for viewer in (None, "blue", "yellow"):
        # what each seat may know is worked out again for each viewer: `bodies_for` ends with commands sent
        # as the viewer ("not owed" passes, a bad card), which are real moves when that seat owes such a
        # decision, and may reveal cards (an encounter's challenge cards) to the next viewer by the rules
        events = admin_log(client, game)
        deck, known, public = knowledge(events)
        reds_secrets = known["red"] - public
        head = client.get(game.url()).json["version"]
        versions = [v for v in (events[since]["seq"], head - 1, head) if v >= 1]
        allowed = known[viewer] if viewer else public
        hidden_from_viewer = (deck - allowed) & reds_secrets
        if viewer != "yellow":  # (yellow reads after blue's commands, which may have shown it the last of them)
            assert hidden_from_viewer, f"red holds cards {viewer or 'anonymous'} may not know"  # the test can fail
        pattern = forbidden_pattern(deck - allowed)
        for name, text in bodies_for(client, game, viewer, versions).items():
            if name == "error-bad-choice":
                text = text.replace("'A40'", "")
            leaked = sorted(set(pattern.findall(text)))
            assert not leaked, f"{viewer or 'anonymous'} sees {leaked[:5]} in {name}"
    for event in whole_log(client, game.id, ADMIN):  # what the bot decided is told as a person's choice would be
        if event["actor"] == "red" and event["seq"] > events[since]["seq"]:
            assert not {"view", "reasoning", "scores", "hand"} & set(event["payload"]), event

"""Rewinding a game through the service (workers/rewind.py), on fakeredis and real Redis.

The issue's proof: rewind, then play on; the log still holds the rewound events, and the
board equals a fresh game played to N then continued with the same commands. The only
fields normalised in the comparison are the ones that must differ: ``version`` (the board's
and the hand's: the rewound game's stream also holds the abandoned line and the marker) and
``game_id`` (two games). Deadlines would differ too for decisions owed at N (they move by the
time since N); the compared games owe none with a deadline at N, which the test asserts.
"""

from __future__ import annotations

import fakeredis
import pytest

import engine
from projections import views
from tests.workers.games import canonical, make_runtime, play, recorded_commands
from workers.errors import RewindRefused
from workers.rewind import Consents, request_consent, rewind, voters


def without(view: dict, *names: str) -> dict:
    return {k: v for k, v in view.items() if k not in names}


def test_rewind_then_play_on_equals_a_fresh_game_played_to_n_then_continued(rt):
    commands = recorded_commands("rewind-main", commands=140)
    to_n, abandoned, then = commands[:70], commands[70:100], commands[70:]
    n = play(rt, "g", to_n)["v"]
    play(rt, "g", abandoned)
    before_rewind = rt.store.version("g")
    result = rewind(rt, "g", n, at=10**12)
    assert result["version"] == before_rewind + 1 and result["to_version"] == n
    marker = rt.store.read("g", after=before_rewind)[0]
    assert marker["type"] == "GameRewound" and marker["payload"]["clock_shift"] is None  # no deadline owed at n
    play(rt, "g", then)
    play(rt, "fresh", to_n + then)

    rewound_state, fresh_state = rt.repository.current("g"), rt.repository.current("fresh")
    assert rewound_state["v"] == fresh_state["v"] + (before_rewind - n) + 1
    assert without(views.board(rewound_state), "version", "game_id") == \
        without(views.board(fresh_state), "version", "game_id")
    for color in fresh_state["order"]:
        assert without(views.hand(rewound_state, color), "version", "game_id") == \
            without(views.hand(fresh_state, color), "version", "game_id")

    # the log still holds the abandoned line, readable, and the board at its versions is as it was
    stream = rt.store.read("g")
    assert len(stream) == rewound_state["v"]
    assert [e["type"] for e in stream].count("GameRewound") == 1
    assert canonical(views.board(rt.repository.state_at("g", before_rewind))) == \
        canonical(views.board(engine.fold(stream[:before_rewind])))
    # every way of getting the state agrees: cache, refold from scratch, engine.fold
    rt.repository.forget_all()
    assert canonical(rt.repository.current("g")) == canonical(rewound_state)
    assert canonical(engine.fold(stream)) == canonical(rewound_state)
    assert canonical(rt.repository.rebuild("g", write=False)) == canonical(rewound_state)


def test_a_rewind_costs_a_bounded_fold_and_leaves_a_checkpoint_at_the_marker(rt):
    commands = recorded_commands("rewind-cost", commands=160)
    at_n = play(rt, "g", commands[:40])
    n = at_n["v"]
    play(rt, "g", commands[40:])
    rt.repository.forget_all()
    rt.repository.current("g")
    folded = rt.repository.folded
    result = rewind(rt, "g", n, at=10**12)
    # the state at n comes from its nearest checkpoint: at most checkpoint_every events folded
    assert rt.repository.folded - folded <= rt.repository.checkpoint_every
    assert result["version"] in rt.repository.snapshots.checkpoint_versions("g")
    assert rt.repository.snapshots.latest("g").version == result["version"]
    # a fresh reader (another process) starts from the snapshot at the marker: it folds nothing
    rt.repository.forget_all()
    folded = rt.repository.folded
    assert rt.repository.current("g")["ply"] == at_n["ply"]
    assert rt.repository.folded == folded


def test_rewinding_to_a_version_after_an_earlier_rewind_and_into_the_abandoned_line(rt):
    commands = recorded_commands("rewind-twice", commands=120)
    first = play(rt, "g", commands[:50])["v"]
    abandoned_state = play(rt, "g", commands[50:80])
    inside_abandoned = abandoned_state["v"]
    rewind(rt, "g", first, at=10**12)
    after_first = play(rt, "g", commands[50:65])["v"]
    play(rt, "g", commands[65:90])
    # back to a version after the first rewind
    rewind(rt, "g", after_first, at=10**12 + 1)
    assert without(rt.repository.current("g"), "v", "time") == \
        without(rt.repository.state_at("g", after_first), "v", "time")
    # back into the line the first rewind abandoned: the state the game had when its stream was that long
    rewind(rt, "g", inside_abandoned, at=10**12 + 2)
    state = rt.repository.current("g")
    assert state["ply"] == abandoned_state["ply"]
    assert without(state, "v", "time") == without(abandoned_state, "v", "time")
    rt.repository.forget_all()
    assert canonical(engine.fold(rt.store.read("g"))) == canonical(rt.repository.rebuild("g", write=False))


@pytest.mark.parametrize("target, reason", [(0, "from 1 to"), (10**6, "from 1 to"), ("current", "from 1 to"),
                                            (1, "lobby"), (5, "being applied")])
def test_rewinds_that_make_no_sense_are_refused_and_write_nothing(rt, target, reason):
    play(rt, "g", recorded_commands("rewind-bad", commands=20))
    head = rt.store.version("g")
    if target == "current":
        target = head
    with pytest.raises(RewindRefused, match=reason):
        rewind(rt, "g", target)
    assert rt.store.version("g") == head


def test_a_finished_game_can_be_rewound_into_play_and_its_list_entry_follows(rt):
    commands = recorded_commands("rewind-end", commands=10**6, players=2)
    state = play(rt, "g", commands)
    assert state["status"] == "finished"
    n = play(rt, "other", commands[:30])["v"]
    rewind(rt, "g", n, at=10**12)
    assert rt.repository.current("g")["status"] == "playing"
    assert [g["id"] for g in rt.index.list("playing")[0]].count("g") == 1
    assert "g" not in [g["id"] for g in rt.index.list("finished")[0]]


def test_deadlines_owed_at_n_get_back_the_time_they_had_left(rt):
    commands = recorded_commands("rewind-clock", commands=30, options={"decision_seconds": 60})
    state = play(rt, "g", commands[:20])
    n, at_n = state["v"], state["time"]
    deadlines = {k: v for k, v in state["clock"].items() if v is not None}
    assert deadlines
    play(rt, "g", commands[20:])
    rewind(rt, "g", n, at=at_n + 3_600_000)
    after = rt.repository.current("g")
    assert {k: after["clock"][k] for k in deadlines} == {k: v + 3_600_000 for k, v in deadlines.items()}
    assert rt.store.read("g")[-1]["payload"]["clock_shift"] == 3_600_000


def test_every_seated_player_must_consent_to_the_same_version(rt):
    commands = recorded_commands("rewind-consent", commands=40)
    n = play(rt, "g", commands[:25])["v"]
    other = play(rt, "g", commands[25:30])["v"]
    play(rt, "g", commands[30:])
    head = rt.store.version("g")
    red, blue, yellow = rt.repository.current("g")["order"]
    assert request_consent(rt, "g", red, n)["waiting_for"] == [blue, yellow]
    assert request_consent(rt, "g", blue, other)["status"] == "pending"      # not the same version
    pending = request_consent(rt, "g", yellow, n)
    assert pending["status"] == "pending" and pending["waiting_for"] == [blue]
    assert rt.store.version("g") == head
    done = request_consent(rt, "g", blue, n)                                 # blue changes its mind
    assert done["status"] == "rewound" and done["by"] == "players" and done["players"] == [red, blue, yellow]
    assert rt.store.version("g") == head + 1
    assert Consents(rt.store).pending("g") == {}
    marker = rt.store.read("g", after=head)[0]
    assert marker["actor"] == "players" and marker["payload"]["players"] == [red, blue, yellow]


def test_the_last_consent_arriving_twice_rewinds_once(rt):
    commands = recorded_commands("rewind-race", commands=40, players=2)
    n = play(rt, "g", commands[:25])["v"]
    play(rt, "g", commands[25:])
    red, blue = rt.repository.current("g")["order"]
    request_consent(rt, "g", red, n)
    first = request_consent(rt, "g", blue, n)
    # the other last consent, decided on the same version as the first (as a concurrent request is)
    at = first["version"] - 1
    second = rewind(rt, "g", n, by="players", players=[red, blue], expected_version=at,
                    idempotency_key=f"rewind:{n}@{at}")
    assert second == first
    assert [e["type"] for e in rt.store.read("g")].count("GameRewound") == 1


def test_only_seated_humans_vote(rt):
    state = {"order": ["red", "blue", "green"],
             "players": {"red": {"bot": None}, "blue": {"bot": "random"}, "green": {}}}
    assert voters(state) == ["red", "green"]
    commands = recorded_commands("rewind-vote", commands=30, players=2)
    n = play(rt, "g", commands[:20])["v"]
    play(rt, "g", commands[20:])
    with pytest.raises(RewindRefused, match="no vote"):
        request_consent(rt, "g", "purple", n)


def test_the_data_folder_mirrors_the_marker_and_reloads_the_rewound_game(redis_client, key_prefix, tmp_path):
    rt = make_runtime(redis_client, key_prefix)
    rt.attach_data_folder(tmp_path)
    commands = recorded_commands("rewind-folder", commands=60)
    n = play(rt, "g", commands[:30])["v"]
    play(rt, "g", commands[30:])
    rewind(rt, "g", n, at=10**12)
    state = play(rt, "g", commands[30:40])
    rt.close()
    assert sum(1 for _ in open(tmp_path / "g.jsonl")) == state["v"]
    again = make_runtime(fakeredis.FakeRedis(server=fakeredis.FakeServer()), key_prefix)
    assert again.attach_data_folder(tmp_path)["loaded"] == ["g"]
    assert canonical(again.repository.current("g")) == canonical(state)
    again.close()

"""The expert bot: it chooses from what its seat knows, the same way every time, and always legally.

Budgets here are small (a few hundred rollout answers) and counted in answers, never in time, so
the tests are quick and their outcomes do not depend on the machine's load.
"""

import json
import random

import pytest

from engine.decide import execute, prompts
from engine.levels import LEVELS
from engine.players import heuristic_command
from engine.scenario import Scenario, terms
from engine.search import knowledge
from engine.search.expert import DEAL_MARGIN, Budget, expert_command, search
from engine.simulate import legal_answer, new_game
from engine.state import clone

SMALL = Budget(steps=240, seconds=60.0, encounters=1)  # the CPU cap far away: the answers budget decides


def _hidden_from(state: dict, color: str) -> list[str]:
    """The cards ``color`` cannot see: other hands, the other side's face-down card, the deck, cards aside."""
    return [c for container, key in knowledge.hidden_places(state, color) for c in container[key]]


def _reshuffled(state: dict, color: str, seed: int) -> dict:
    """The same game with the cards ``color`` cannot see dealt differently among the same hidden places
    (a bijection over those cards, applied wherever the state names them, so the state stays whole)."""
    hidden = _hidden_from(state, color)
    shuffled = list(hidden)
    random.Random(seed).shuffle(shuffled)
    other = knowledge._renamed(clone(state), dict(zip(hidden, shuffled, strict=True)))
    other["seed"] = f"another seed {seed}"
    return other


def _decision(ruleset: str, kind: str, seed: str, *, at_least: int = 2) -> tuple[dict, dict]:
    """A game played by heuristic players up to a decision of ``kind`` with ``at_least`` candidate moves."""
    from engine.search.candidates import lines
    state, _ = new_game(seed, 5, None, ruleset)
    rng = random.Random(seed)
    for step in range(3000):
        owed = prompts(state)
        for prompt in owed:
            if prompt["kind"] == kind and state.get("turn") and \
                    len(lines(knowledge.seat_state(state, prompt["player"]), prompt)) >= at_least:
                return state, prompt
        _, state = legal_answer(state, rng.choice(owed), rng, step * 1000, choose=heuristic_command)
        assert state["status"] == "playing", "the game ended before the decision came"
    raise AssertionError(f"no {kind} decision came")


# What the seat knows ------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_the_seat_state_names_no_card_the_seat_cannot_see_and_drops_the_seed(ruleset):
    state, prompt = _decision(ruleset, "challenge_card", f"know:{ruleset}")
    me = prompt["player"]
    known = knowledge.seat_state(state, me)
    text = json.dumps(known)
    hidden = _hidden_from(state, me)
    assert hidden  # other hands and the deck are there to hide
    assert [c for c in hidden if f'"{c}"' in text] == []
    assert "seed" not in known and known["setup"] == {}
    assert known["players"][me]["hand"] == state["players"][me]["hand"]
    assert [len(known["players"][c]["hand"]) for c in known["order"]] == \
        [len(state["players"][c]["hand"]) for c in state["order"]]
    assert knowledge.seat_state(known, me) == known  # what the seat knows, it knows


@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_other_hands_and_the_deck_dealt_otherwise_make_the_same_seat_state(ruleset):
    state, prompt = _decision(ruleset, "challenge_card", f"swap:{ruleset}")
    me = prompt["player"]
    other = _reshuffled(state, me, seed=7)
    assert other != state
    assert any(other["players"][c]["hand"] != state["players"][c]["hand"] for c in state["order"] if c != me)
    assert knowledge.seat_state(other, me) == knowledge.seat_state(state, me)


@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_a_possible_world_keeps_the_seat_cards_and_conserves_the_deck(ruleset):
    from engine.invariants import card_places
    state, prompt = _decision(ruleset, "launch", f"world:{ruleset}", at_least=1)
    me = prompt["player"]
    world = knowledge.determinize(knowledge.seat_state(state, me), random.Random(3))
    held = card_places(world)
    assert len(held) == len(set(held)) == len(card_places(state))
    assert world["players"][me]["hand"] == state["players"][me]["hand"]
    assert sorted(world["destiny"]) == sorted(state["destiny"])
    assert world["seed"] != state["seed"]
    assert [p["id"] for p in prompts(world) if p["player"] == me] == [prompt["id"]]


# Fair to hidden information, and deterministic ------------------------------------------------

@pytest.mark.parametrize("ruleset,kind", [("mayfair", "challenge_card"), ("ffg", "challenge_card"),
                                          ("mayfair", "launch"), ("ffg", "alliance")])
def test_the_same_view_gives_the_same_choice_whatever_the_hidden_cards_hold(ruleset, kind):
    state, prompt = _decision(ruleset, kind, f"fair:{ruleset}:{kind}")
    me = prompt["player"]
    chosen = expert_command(state, prompt, random.Random("same"), spend=SMALL)
    for seed in (1, 2):
        other = _reshuffled(state, me, seed)
        assert expert_command(other, prompt, random.Random("same"), spend=SMALL) == chosen
    # the view the service hands the level (workers.bots.choose) is the seat state: the same choice again
    view = LEVELS["expert"].view(state, me)
    assert expert_command(view, prompt, random.Random("same"), spend=SMALL) == chosen


def test_the_same_seed_gives_the_same_choice_and_the_search_weighs_every_candidate():
    state, prompt = _decision("mayfair", "challenge_card", "same-seed", at_least=3)
    known = knowledge.seat_state(state, prompt["player"])
    first = search(known, prompt, random.Random(11), SMALL)
    again = search(known, prompt, random.Random(11), SMALL)
    assert first.command == again.command and first.means == again.means
    assert len(first.lines) >= 3 and all(n >= 2 for n in first.worlds)
    best = max(range(len(first.lines)), key=lambda i: (first.means[i], -i))
    assert first.command == first.lines[best][0]


# Deals -----------------------------------------------------------------------------------------

DEAL_POWERS = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"]}


def _deal() -> Scenario:
    """Red (3 ships in the gate at blue-0) and blue both played a Compromise: the deal is open."""
    g = Scenario(players=4, powers=DEAL_POWERS, first="red", destiny=["blue.1"],
                 hands={"red": ["C", "A15", "A14", "A13", "A12", "A11", "A10"],
                        "blue": ["C", "A4", "A5", "A6", "A7", "A8", "A9"]})
    g.launch({"red-0": 3}, "blue-0")
    g.invite("red", [])
    g.invite("blue", [])
    g.play("red", "C")
    g.play("blue", "C")
    g.pass_windows()
    return g


def test_the_expert_proposes_legal_terms_it_weighed_as_the_deal_they_make():
    g = _deal()
    prompt = g.owe("red", "deal")
    known = knowledge.seat_state(g.state, "red")
    result = search(known, prompt, random.Random(5), SMALL)
    proposals = [i for i, line in enumerate(result.lines) if line[0]["action"] == "propose"]
    assert len(proposals) >= 3
    assert all(result.lines[i][1] == {"action": "accept", "args": {"proposal": 1}, "player": "blue"}
               for i in proposals)  # weighed as made: blue accepting it
    assert all(result.means[i] is not None for i in proposals)
    command = expert_command(g.state, prompt, random.Random(5), spend=SMALL)
    assert command == {**result.command, "player": "red", "prompt": prompt["id"]}
    assert command["action"] == "propose"
    execute(g.state, {**command, "at": g.clock + 1000})  # the rules take it
    # the terms chosen are worth most to red among those worth to blue at least the deal failing (less a point)
    giving_up = next(i for i, line in enumerate(result.lines) if line[0]["action"] == "give_up")
    fair = [i for i in proposals if result.partner[i] >= result.partner[giving_up] - DEAL_MARGIN]
    chosen = next(i for i in proposals if result.lines[i][0]["args"] == command["args"])
    assert chosen in fair
    assert result.means[chosen] == max(result.means[i] for i in fair)
    assert len(fair) < len(proposals)  # some terms were too greedy to put to blue


def test_the_expert_takes_a_gift_and_refuses_a_robbery():
    g = _deal()
    g.propose("blue", terms(defense_gives={"count": 2}, offense_base="blue-1"))  # all for red
    prompt = g.owe("red", "deal")
    assert expert_command(g.state, prompt, random.Random(1), spend=SMALL)["action"] == "accept"

    g = _deal()
    g.propose("blue", terms(offense_gives={"count": 3}, defense_base="red-1"))  # all for blue
    g.propose("red", terms(offense_gives={"count": 1}, offense_base="blue-1"))  # red's own offer stands
    prompt = g.owe("red", "deal")
    command = expert_command(g.state, prompt, random.Random(1), spend=SMALL)
    assert command["action"] == "give_up"  # its proposal stands; blue's is worse than no deal


# Always legal ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_the_expert_always_answers_legally_in_whole_games(ruleset):
    """Two games with an expert seat among heuristic ones: every answer it gives the rules take at once."""
    tiny = Budget(steps=40, seconds=60.0, encounters=1)
    answered = 0
    for game in range(2):
        state, _ = new_game(f"legal:{ruleset}:{game}", 4 if ruleset == "ffg" else 5, None, ruleset)
        expert = state["order"][game]
        rng = random.Random(game)
        for step in range(4000):
            if state["status"] != "playing":
                break
            prompt = rng.choice(prompts(state))
            if prompt["player"] == expert:
                command = expert_command(knowledge.seat_state(state, expert), prompt, rng, spend=tiny)
                _, state = execute(state, {**command, "at": step * 1000})
                answered += 1
            else:
                _, state = legal_answer(state, prompt, rng, step * 1000, choose=heuristic_command)
        assert state["status"] == "finished"
    assert answered > 50


# The clock -------------------------------------------------------------------------------------

def test_a_near_deadline_shortens_the_search_and_a_very_near_one_leaves_the_answer_to_the_heuristic():
    from engine.search.expert import budget_for
    roomy = budget_for(steps=500, seconds=0.5)
    assert (roomy.steps, roomy.seconds, roomy.wall) == (500, 0.5, None)
    near = budget_for(steps=500, seconds=0.5, time_left_ms=300)
    assert (near.steps, near.seconds, near.wall) == (500, 0.15, 0.15)  # half the time left, CPU and wall clock
    assert budget_for(steps=500, seconds=0.5, time_left_ms=30) is None
    state, prompt = _decision("mayfair", "challenge_card", "near", at_least=2)
    me = prompt["player"]
    rushed = expert_command(state, prompt, random.Random(4), steps=500, time_left_ms=30)
    assert rushed == heuristic_command(knowledge.seat_state(state, me), prompt, random.Random(4))

"""The set-ups the power and edict scenario tests share.

Most of those scenarios are played at one table: three players, red first, attacking blue's
planet blue-2 (destiny ``blue.1``; blue has 4 tokens there) while yellow stands by. Each test
file keeps its own hands, powers and commands, spelled out as the rulebook would tell them;
these helpers only save writing the same set-up, the same opening moves and the same look-ups
again in every file.
"""

from __future__ import annotations

from engine.scenario import Scenario


def red_attacks_blue(red: str, blue: str, yellow: str, hands: dict, yellow_hand: list | None = None,
                     **kw) -> Scenario:
    """Three players with one power each; red plays first and draws blue's colour (``blue.1``).

    ``hands`` are stacked as given, then ``yellow_hand`` if there is one; ``kw`` goes to `Scenario`.
    """
    stacked = dict(hands)
    if yellow_hand:
        stacked["yellow"] = yellow_hand
    return Scenario(players=3, powers={"red": [red], "blue": [blue], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1"], first="red", **kw)


def flare_scenario(red_power: str, red_hand: list, blue_hand: list, yellow_power: str = "Mind",
                   yellow_hand: list | None = None, **kw) -> Scenario:
    """Red (``red_power``) against blue (Filch), flares in the deck; edicts too when yellow holds a hand
    (its Cosmic Zap, to switch a power off)."""
    return red_attacks_blue(red_power, "Filch", yellow_power, {"red": red_hand, "blue": blue_hand}, yellow_hand,
                            options={"flares": True, "edicts": bool(yellow_hand)}, **kw)


def challenge(g: Scenario, red_card: str, blue_card: str, red_tokens: int = 3, after_launch=None) -> None:
    """Red launches ``red_tokens`` tokens at blue-2, nobody is invited, and both main players play a card.

    ``after_launch(g)``, if given, acts between the launch and the alliances (a flare played there).
    """
    g.launch({"red-0": red_tokens}, "blue-2")
    if after_launch:
        after_launch(g)
    g.invite_none()
    g.play("red", red_card)
    g.play("blue", blue_card)


def offered(g: Scenario, player: str, ability: str) -> None:
    """Pass windows until ``player`` is offered ``ability`` (a flare's window may come later than its first)."""
    for _ in range(50):
        if ability in g.abilities(player):
            return
        windows = [p for p in g.prompts() if p["kind"] == "window"]
        assert windows, f"{player} was never offered {ability}"
        g.command(windows[0]["player"], "pass")
    raise AssertionError(f"{player} was never offered {ability}")


def last_outcome(g: Scenario) -> dict:
    """The outcome of the last challenge decided (it outlives the challenge: the next turn may have begun)."""
    return [e["payload"]["outcome"] for e in g.log if e["type"] == "ChallengeResolved"][-1]

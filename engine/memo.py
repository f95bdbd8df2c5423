"""Answers the rules ask again and again, remembered until a fact may change them.

Between two decisions the turn sequence asks the same questions of the state many times: what is in
force, what each player could use in each window. The state changes only through `evolve`, one fact
at a time, and most facts leave most answers as they were: a stage begun, a pass or a card drawn
changes no power's standing; a pass changes nothing any player could use. So each kind of answer
has a `Watch`: the set of facts that leave it as it was, and the last fact applied that did not
(`evolve` tells every watch, `fact_applied`). An answer kept for a state at one ply still holds at a
later ply if that watch's last change is this state's and came no later.

Every slot here is one tuple assigned in one go, so threads deciding other games at the same time
only make an answer be worked out again, never a wrong one: a slot that names another state says
nothing about this one. Answers are for one state object: a copy (`engine.state.clone`) or a rewind
is another object and starts afresh. Callers must not change what they get.
"""

from __future__ import annotations

from functools import wraps


class Watch:
    """One kind of answer: the facts that leave it as it was, and the last fact applied that may not have."""

    __slots__ = ("unchanged_by", "last")

    def __init__(self, unchanged_by: frozenset[str]):
        self.unchanged_by = unchanged_by
        self.last: tuple = (None, -1)  # (state object, its ply) after the last fact that may have changed it

    def holds(self, state: dict, known_ply: int, ply: int) -> bool:
        """Whether an answer worked out for ``state`` at ``known_ply`` still holds at ``ply``."""
        changed_state, changed_ply = self.last
        return known_ply == ply or (changed_state is state and changed_ply <= known_ply <= ply)


# What is in force: who holds which power, whose powers are lost for want of home bases, what is
# zapped, the effects played this challenge, who the main players are, whether the game is being
# played. Any fact not named here (new kinds included) may change it; tokens moved change it only
# when a home base is made or given up, which `evolve` tells apart (``forces_moved``).
FORCES = Watch(frozenset({
    "TokensMoved",
    "StageBegan", "Passed", "DecisionTaken", "DecisionTimedOut", "CardsMoved", "DeckReshuffled", "DeckFormed",
    "HandRevealed", "CardPlayed", "ChallengeCardChosen", "ChallengeCardsRevealed", "RevealUndone", "DestinyDrawn",
    "ConeAimed", "AlliesInvited", "AllianceAnswered", "AllyRemoved", "ChallengeResolved", "ChallengeNoted",
    "ChallengeEnded", "PlayerNoted", "PowerUsed", "UseCancelled", "DealStarted", "DealProposed", "DealAnswered",
    "DealConcluded", "FirstPlayerChosen", "PowersOffered", "PowerChosen", "SeatHandedToBot", "SeatTakenBack",
}))
# What a player could use in a window (engine.usable): a pass or a decision that moved nothing
# changes only who is still to be asked, which the windows keep apart.
USABLE = Watch(frozenset({"Passed", "DecisionTaken", "DecisionTimedOut", "HandRevealed", "SeatHandedToBot",
                          "SeatTakenBack"}))
assert USABLE.unchanged_by <= FORCES.unchanged_by  # what is usable depends on what is in force
# What each player's hand and powers could be used for at all (engine.usable.in_reach): facts that move no card
# and change no player's powers leave it. (A player who also plays from elsewhere than its hand, Miser from its
# hoard while its power works, depends on what is in force too: `in_reach` asks about that one every time.)
HELD = Watch(frozenset({
    "Passed", "DecisionTaken", "DecisionTimedOut", "HandRevealed",
    "StageBegan", "TokensMoved", "ConeAimed", "AlliesInvited", "AllianceAnswered", "ChallengeNoted", "DestinyDrawn",
    "TurnBegan", "TurnEnded", "ChallengeBegan", "DefenseDetermined", "ChallengeCardsRevealed", "ChallengeResolved",
    "ChallengeEnded", "DealStarted", "DealProposed", "DealAnswered", "PowerUsed", "UseCancelled", "EffectAdded",
    "PowerZapped", "SeatHandedToBot", "SeatTakenBack",
}))
assert USABLE.unchanged_by <= HELD.unchanged_by  # (what could be used at all bounds what can be used now)


def fact_applied(state: dict, event_type: str, forces_moved: bool = False) -> None:
    """Called by `evolve` after each fact (once ``ply`` counts it): tell the watches it may concern.
    ``forces_moved``: the fact changed what `FORCES` watches though its kind mostly does not (a home base
    made or given up by tokens moved)."""
    if event_type not in USABLE.unchanged_by:
        at = (state, state["ply"])
        USABLE.last = at
        if forces_moved or event_type not in FORCES.unchanged_by:
            FORCES.last = at
        if event_type not in HELD.unchanged_by:
            HELD.last = at


def while_unchanged(watch: Watch):
    """Answer ``question(state)`` once, and again only after a fact that ``watch`` says may change it."""
    def remembered(question):
        last: tuple = (None, -1, None)

        @wraps(question)
        def answer(state: dict):
            nonlocal last
            known_state, known_ply, known = last
            ply = state.get("ply", 0)
            if known_state is state:
                if known_ply == ply:
                    return known
                changed_state, changed_ply = watch.last  # (Watch.holds, unrolled: asked at every step)
                if changed_state is state and changed_ply <= known_ply <= ply:
                    last = (state, ply, known)
                    return known
            found = question(state)
            last = (state, ply, found)
            return found

        return answer

    return remembered

"""Loser: declare an upset before the reveal, and the lower total wins."""

from engine import cards
from engine.powers.base import Flare, Power, note_once
from engine.powers.pacifist import win_for
from engine.state import cards_committed, declaration_open, opponent_side, side_of_main

UPSET = "upset"  # challenge note: the Loser player who declared the upset


def may_declare(state: dict, me: str) -> bool:
    """A main player may declare an upset once both cards are committed and none is declared yet."""
    return side_of_main(state, me) is not None and cards_committed(state) and UPSET not in state["ch"]["notes"]


class Loser(Power):
    name = "Loser"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "after the challenge cards are chosen, before the reveal (once per challenge)"
    windows = ("committed",)
    provenance = "mayfair"
    description = ("As a main player, once both challenge cards are chosen and before they are revealed, you "
                   "may declare an upset: if two Attacks are revealed, the lower total wins (a tie still goes "
                   "to the defense). With War cards, the upset turns a War outcome around too (the side that "
                   "would lose wins), except when both sides lose: then the upset has no effect.")

    # the FFG card: declared before the cards are chosen, both must then play Attacks if they can, and the
    # outcome is turned around whatever the cards
    readings = {"ffg": {"windows": ("planning",), "timing": "before the encounter cards are chosen (once per "
                        "encounter)", "description": (
        "As a main player, before encounter cards are chosen, you may declare an upset. Both main players must "
        "then play an Attack if they hold one, and once the cards are revealed the encounter's result is turned "
        "around: the side that would win loses and the side that would lose wins (a deal or both sides losing "
        "stays as it is).")}}

    def options(self, state, me, window):
        if side_of_main(state, me) is None:
            return []
        if self.reads(state, "ffg"):
            ch = state["ch"]
            if cards_committed(state) or ch["revealed"] or UPSET in ch["notes"] or window != "planning":
                return []
        elif not declaration_open(state, UPSET):
            return []
        return [self.offer(label="declare an upset")]

    def challenge_card_choice(self, state, me, value, *, player, effect=None):
        if not self.upset(state, me) or not self.reads(state, "ffg"):
            return value
        attacks = [c for c in value if cards.kind(c) == "attack"]
        return attacks or value

    def use(self, ctx, me, args, use):
        note_once(ctx, UPSET, me)  # the Loser power applies it while in force

    def upset(self, state: dict, me: str) -> bool:
        """Whether this Loser declared the upset this challenge."""
        return state["ch"]["notes"].get(UPSET) == me

    def lower_wins(self, state, me, value, *, effect=None):
        return not value if self.upset(state, me) and not self.reads(state, "ffg") else value

    def outcome(self, state, me, value, *, effect=None):
        if self.reads(state, "ffg"):
            if not self.upset(state, me) or value.get("winner") is None or value.get("both_lose"):
                return value
            return win_for(state, value, opponent_side(value["winner"]))
        # 004: War cards may be played against an upset; when both sides lose, it changes nothing
        if not self.upset(state, me) or value.get("kind") != "war" or value.get("both_lose"):
            return value
        if not state["options"].get("war_cards") or value.get("winner") is None:
            return value
        return win_for(state, value, opponent_side(value["winner"]))


POWER = Loser()


class LoserWild(Flare):
    """Wild: before the cards are chosen, declare that both sides lose."""

    power = "Loser"
    mode = "wild"
    windows = ("planning",)
    lasting = True
    provenance = "ffg"
    description = ("As a main player, before the challenge cards are chosen, declare that both sides lose "
                   "this challenge whatever is played: every token in the challenge goes to the warp and "
                   "no deal can be made.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or state["ch"]["revealed"]:
            return []
        return [self.offer(card, label="both sides lose this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def outcome(self, state, me, value, *, effect):
        lost = {**value, "winner": None, "both_lose": True, "consolation": None, "extra_losses": {}}
        if lost.get("kind") == "deal":
            lost["kind"] = "compromise"
        return lost


class LoserSuper(Flare):
    """Super: the Loser may declare its upset later than its power allows.

    Under ``mayfair`` (designed here, ``house``): after the challenge cards are revealed. Under ``ffg`` the
    published card (RULES.md 9, "published texts first"): once the encounter cards are chosen and before they
    are revealed, so nobody was bound to play an Attack; the upset then turns the outcome around as the FFG
    Loser's does.
    """

    power = "Loser"
    mode = "super"
    windows = ("reveal",)
    windows_by_edition = {"ffg": ("committed",)}
    provenance = "house"
    description = ("As the Loser main player, declare your upset after the challenge cards are revealed "
                   "instead of before, knowing what both sides played.")
    readings = {"ffg": {"provenance": "ffg", "description": (
        "As the Loser main player, you may wait until the encounter cards are chosen, before they are revealed, "
        "to declare your upset: neither side was bound to play an Attack, and the encounter's result is turned "
        "around as your power says.")}}

    def options(self, state, me, card, window):
        if self.reads(state, "ffg"):
            if side_of_main(state, me) is None or not cards_committed(state) or state["ch"]["revealed"] \
                    or UPSET in state["ch"]["notes"]:
                return []
            return [self.offer(card, label="declare an upset now")]
        if not state["ch"]["revealed"] or not may_declare(state, me):
            return []
        return [self.offer(card, label="declare an upset now")]

    def use(self, ctx, me, card, args, use):
        note_once(ctx, UPSET, me)  # the Loser power applies it while in force


WILD = LoserWild()
SUPER = LoserSuper()

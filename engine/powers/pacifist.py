"""Pacifist: a Compromise played against an Attack wins."""

from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import main_player, opponent_side, side_of_main
from engine.steps.resolve import consolation_for

PEACE_ATTACK = 15  # the Attack a Wild Pacifist's Compromise becomes
DEAL_RELIEF = 2    # tokens the Super spares the Pacifist, and costs its opponent, when a deal fails


def win_for(state: dict, result: dict, side: str) -> dict:
    """The outcome changed so that ``side`` wins (a power's last word on who wins).

    The loser's consolation follows the usual rule: only a losing Compromise player takes
    it. Nothing is left of a deal or of both sides losing; kicker extras were counted for
    the old loser, so they go too.
    """
    if result.get("winner") == side and not result.get("both_lose"):
        return result
    loser = opponent_side(side)
    kinds = result.get("cards") or {}
    changed = {**result, "winner": side, "both_lose": False, "extra_losses": {}, "consolation": None}
    if changed.get("kind") == "deal":
        changed["kind"] = "compromise"
    if kinds.get(loser) == "compromise":
        changed["consolation"] = consolation_for(state, loser, side, lost_tokens=True)
    return changed


def compromise_against_attack(state: dict, side: str) -> bool:
    """Whether ``side`` revealed a Compromise and its opponent an Attack."""
    if not state["ch"]["revealed"]:
        return False
    return card_kind(state, side) == "compromise" and card_kind(state, opponent_side(side)) == "attack"


class Pacifist(Power):
    name = "Pacifist"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "the reveal (stage 8), as a main player"
    provenance = "mayfair"
    description = ("As a main player, if you reveal a Compromise and your opponent reveals an Attack, your "
                   "side wins the challenge whatever the totals; your opponent takes no consolation.")

    def outcome(self, state, me, value, *, effect=None):
        side = side_of_main(state, me)
        kinds = value.get("cards") or {}
        if side is None or kinds.get(side) != "compromise" or kinds.get(opponent_side(side)) != "attack":
            return value
        return win_for(state, value, side)


POWER = Pacifist()


class PacifistWild(Flare):
    """Wild: a Compromise revealed against an Attack becomes an Attack 15."""

    power = "Pacifist"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("After the reveal, as a main player who revealed a Compromise against an Attack, your "
                   "Compromise becomes an Attack 15 for this challenge.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not compromise_against_attack(state, side):
            return []
        return [self.offer(card, label="your Compromise becomes an Attack 15")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me))

    def card_kind(self, state, me, value, *, side, effect):
        return "attack" if side == effect["side"] else value

    def attack_values(self, state, me, value, *, effect):
        return {**value, effect["side"]: PEACE_ATTACK}


class PacifistSuper(Flare):
    """Super: a failed deal costs the Pacifist 2 tokens fewer and its opponent 2 more."""

    power = "Pacifist"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("After two Compromises are revealed, as the Pacifist main player: if no deal is made this "
                   "challenge, you lose 2 tokens fewer than usual and your opponent loses 2 more.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not state["ch"]["revealed"]:
            return []
        if card_kind(state, side) != "compromise" or card_kind(state, opponent_side(side)) != "compromise":
            return []
        return [self.offer(card, label="a failed deal costs you 2 fewer tokens, your opponent 2 more")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me))

    def deal_loss(self, state, me, value, *, player, effect):
        if player == me:
            return max(0, value - DEAL_RELIEF)
        if player == main_player(state, opponent_side(effect["side"])):
            return value + DEAL_RELIEF
        return value


WILD = PacifistWild()
SUPER = PacifistSuper()

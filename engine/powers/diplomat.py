"""Diplomat: a neutral player who makes itself a party to other players' deals."""

from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import side_of_main
from engine.steps.deal import third_party

SIDES = ("offense", "defense")


class Diplomat(Power):
    name = "Diplomat"
    who = ("not main",)
    mandatory = False
    timing = "stage 8, after the reveal"
    windows = ("reveal",)
    provenance = "mayfair"
    description = ("When you are not a main player and both main players reveal Compromises (or, with War cards, "
                   "a War card is revealed), you may join the deal as a third party: a deal is then made only "
                   "when all three agree, and its terms may move cards between you and either main player and "
                   "give you a base where a main player has one. With a War card revealed the challenge is "
                   "settled by this three-way deal instead of by the War card. If no deal is made, the main "
                   "players lose 3 tokens each as usual; you lose nothing.")

    def options(self, state, me, window):
        if not may_join_deal(state, me, wars=bool(state["options"].get("war_cards"))):
            return []
        return [self.offer(label="join the deal as a third party")]

    def use(self, ctx, me, args, use):
        join_deal(ctx, me)

    def outcome(self, state, me, value, *, effect=None):
        if third_party(state) == me and value.get("kind") == "war":
            return negotiated(value)
        return value


POWER = Diplomat()


def revealed_kinds(state: dict) -> list[str | None]:
    """What each side's revealed card counts as."""
    return [card_kind(state, side) for side in SIDES]


def may_join_deal(state: dict, me: str, *, wars: bool = False, always: bool = False) -> bool:
    """Whether ``me`` (not a main player) may become the third party of this challenge's deal now."""
    ch = state["ch"]
    if side_of_main(state, me) is not None or not ch["revealed"] or third_party(state) or ch["outcome"]:
        return False
    kinds = revealed_kinds(state)
    return always or kinds == ["compromise", "compromise"] or (wars and "war" in kinds)


def join_deal(ctx, me: str) -> None:
    """Record the third party; the deal (deal.py) then asks it too."""
    if third_party(ctx.state) is None:
        ctx.emit("ChallengeNoted", key="deal_third", value=me)


def negotiated(value: dict) -> dict:
    """The outcome turned into a deal: nobody wins or loses by the cards."""
    return {"kind": "deal", "cards": value.get("cards"), "winner": None, "totals": None, "consolation": None,
            "negotiated": True}


class DiplomatWild(Flare):
    """Wild: join two other players' deal as a third party."""

    power = "Diplomat"
    mode = "wild"
    windows = ("reveal",)
    provenance = "house"
    description = ("When you are not a main player and both main players reveal Compromises, you may join their "
                   "deal as a third party, as the Diplomat does: all three must agree to any deal.")

    def options(self, state, me, card, window):
        if not may_join_deal(state, me):
            return []
        return [self.offer(card, label="join the deal as a third party")]

    def use(self, ctx, me, card, args, use):
        join_deal(ctx, me)


class DiplomatSuper(Flare):
    """Super: call a negotiation whatever cards were revealed, and join it."""

    power = "Diplomat"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("When you are not a main player, after the reveal you may call a negotiation whatever the "
                   "cards: the challenge is settled by a deal between the main players with you as the third "
                   "party, and nobody wins or loses by the cards.")

    def options(self, state, me, card, window):
        if not may_join_deal(state, me, always=True):
            return []
        return [self.offer(card, label="call a negotiation and join it")]

    def use(self, ctx, me, card, args, use):
        join_deal(ctx, me)
        self.add_effect(ctx, me)

    def outcome(self, state, me, value, *, effect):
        return value if value.get("kind") == "deal" else negotiated(value)


WILD = DiplomatWild()
SUPER = DiplomatSuper()

"""Philanthropist: give a card from your hand to a main player."""

from engine import cards, shapes
from engine.handcards import draw, give_cards
from engine.powers.base import Flare, Power
from engine.state import challenge_cards, hand, main_player, side_of, side_of_main

WILD_DRAW = 2


def recipients(state: dict, me: str) -> list[str]:
    """The main players a gift may go to: either of them but the giver."""
    ch = state["ch"]
    if ch is None or ch["defense"] is None:
        return []
    return [p for p in (main_player(state, "offense"), main_player(state, "defense")) if p != me]


def gift_options(state: dict, me: str, exclude: str | None = None) -> dict | None:
    """The argument shapes of a gift (a card of your hand, a main player), or None if none is possible."""
    givable = [c for c in hand(state, me) if c != exclude]
    targets = recipients(state, me)
    if not givable or not targets:
        return None
    return {"card": shapes.choice(givable), "player": shapes.choice(targets)}


def give(ctx, me: str, args: dict, reason: str) -> bool:
    """Pass the chosen card to the chosen main player (only the two of them see which); False if it is gone."""
    if args["card"] not in hand(ctx.state, me) or args["player"] not in recipients(ctx.state, me):
        return False
    give_cards(ctx, me, args["player"], [args["card"]], reason)
    return True


class Philanthropist(Power):
    name = "Philanthropist"
    editions = ("mayfair", "ffg")
    who = ("main", "ally")
    mandatory = False
    timing = "after alliances are formed (stage 6), once per challenge"
    windows = ("alliance",)
    provenance = "mayfair"
    description = ("As a main player or an ally, once alliances are formed you may give one card of your choice "
                   "from your hand to a main player other than yourself; only the two of you see which card.")

    def options(self, state, me, window):
        args = gift_options(state, me) if side_of(state, me) else None
        if args is None:
            return []
        return [self.offer(args, label="give a card to a main player")]

    # the FFG card: a main player left without encounter cards by its gift draws a new hand at once
    readings = {"ffg": {"description": (
        "As a main player or an ally, once alliances are formed you may give one card of your choice from your "
        "hand to a main player other than yourself; only the two of you see which card. A main player left "
        "without encounter cards by the gift draws a new hand at once.")}}

    def use(self, ctx, me, args, use):
        given = give(ctx, me, args, "Philanthropist")
        if given and self.reads(ctx.state, "ffg") and side_of_main(ctx.state, me) and \
                not challenge_cards(ctx.state, me):
            ctx.then(ctx.step("redraw", player=me))


POWER = Philanthropist()


class PhilanthropistWild(Flare):
    """Wild: give a card to a main player and be repaid with two from the deck."""

    power = "Philanthropist"
    mode = "wild"
    windows = ("alliance",)
    provenance = "house"
    description = ("Once alliances are formed, give one card of your choice from your hand to a main player "
                   "other than yourself, then draw two cards from the deck.")

    def options(self, state, me, card, window):
        args = gift_options(state, me, exclude=card)
        if args is None:
            return []
        return [self.offer(card, args, label="give a card, draw two")]

    def use(self, ctx, me, card, args, use):
        if give(ctx, me, args, "Philanthropist Wild Flare"):
            draw(ctx, me, WILD_DRAW, "Philanthropist Wild Flare")


class PhilanthropistSuper(Flare):
    """Super: the gift is a challenge card the receiver must play."""

    power = "Philanthropist"
    mode = "super"
    windows = ("alliance", "planning")
    provenance = "house"
    description = ("As the Philanthropist, before challenge cards are chosen, give a challenge card from your "
                   "hand to a main player other than yourself as that player's challenge card: it is committed "
                   "face down for it (only the two of you know it) and it cannot choose another.")

    def options(self, state, me, card, window):
        givable = [c for c in hand(state, me) if cards.is_challenge_card(c)]
        targets = [p for p in recipients(state, me) if not self.committed(state, p)]
        if not givable or not targets:
            return []
        return [self.offer(card, {"card": shapes.choice(givable), "player": shapes.choice(targets)},
                           label="choose a main player's challenge card for it")]

    @staticmethod
    def committed(state: dict, player: str) -> bool:
        """Whether a main player already has a challenge card committed."""
        side = side_of_main(state, player)
        return any(cards.is_challenge_card(c) for c in state["committed"][side])

    def use(self, ctx, me, card, args, use):
        target, gift = args["player"], args["card"]
        if gift not in hand(ctx.state, me) or target not in recipients(ctx.state, me) or \
                self.committed(ctx.state, target):
            return
        side = side_of_main(ctx.state, target)
        ctx.emit("CardsMoved", cards=[gift], src=f"hand:{me}", dst=f"committed:{side}",
                 seen_by=sorted({me, target}), reason="Philanthropist Super Flare")


WILD = PhilanthropistWild()
SUPER = PhilanthropistSuper()

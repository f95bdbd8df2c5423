"""Deuce: two challenge cards instead of one; two Attacks add up."""

from engine import cards, shapes
from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import committed_challenge_cards, hand, main_player, side_of, side_of_main

SIDES = ("offense", "defense")


class Deuce(Power):
    name = "Deuce"
    who = ("main",)
    mandatory = False
    timing = "stage 7, with your challenge card"
    provenance = "mayfair"
    description = ("As a main player, you may commit a second challenge card with your first. If both are "
                   "Attacks, their values add up. If either is a Compromise, you played a Compromise; with War "
                   "cards, if neither is a Compromise and one is a War card, you played a War card. A card that "
                   "does not count (the Attack beside a Compromise or a War card, or a second Compromise or War "
                   "card) goes back to your hand once the cards are revealed, so only the card you played is "
                   "discarded.")

    def extra_cards(self, state, me, value, *, player, effect=None):
        return value + 1 if player == me else value

    def card_kind(self, state, me, value, *, side, effect=None):
        if main_player(state, side) != me:
            return value
        played = committed_challenge_cards(state, side)
        return played_kind(played) if len(played) > 1 else value

    def on_revealed(self, ctx, me, *, effect=None):
        side = side_of_main(ctx.state, me)
        if side and idle_cards(committed_challenge_cards(ctx.state, side)):
            self.announce(ctx, me, "take_back", {"side": side})

    def take_back(self, ctx, me, context):
        """The card that does not count returns to Deuce's hand."""
        side = context["side"]
        idle = idle_cards(committed_challenge_cards(ctx.state, side))
        if idle:
            ctx.emit("CardsMoved", cards=idle, src=f"committed:{side}", dst=f"hand:{me}", seen_by=None,
                     reason="Deuce")


POWER = Deuce()


def played_kind(played: list[str]) -> str:
    """What two challenge cards count as: a Compromise if either is one, else a War card if either is one (004)."""
    kinds = [cards.kind(c) for c in played]
    for kind in ("compromise", "war"):
        if kind in kinds:
            return kind
    return kinds[0]


def idle_cards(played: list[str]) -> list[str]:
    """The committed cards that do not count: all but the first Compromise or War card, when one is played."""
    if len(played) < 2:
        return []
    kind = played_kind(played)
    if kind not in ("compromise", "war"):
        return []  # Attacks all count
    kept = next(c for c in played if cards.kind(c) == kind)
    return [c for c in played if c != kept]


class DeuceWild(Flare):
    """Wild: discard an Attack identical to a revealed one to add or subtract its value on that side."""

    power = "Deuce"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("As a main player or ally, after the reveal, if you hold an Attack card of the same value as "
                   "a revealed Attack, you may discard it to add its value to, or subtract it from, the total of "
                   "the side that revealed the matching card.")

    def options(self, state, me, card, window):
        plays = twin_plays(state, me)
        if not plays:
            return []
        return [self.offer(card, {"play": shapes.choice(plays)}, label="add or subtract a twin Attack")]

    def use(self, ctx, me, card, args, use):
        sign, side, twin = args["play"].split(":", 2)
        if twin not in hand(ctx.state, me):
            return
        ctx.emit("CardsMoved", cards=[twin], src=f"hand:{me}", dst="discard", seen_by=None, reason="Deuce Wild")
        delta = cards.attack_value(twin) * (1 if sign == "add" else -1)
        self.add_effect(ctx, me, side=side, delta=delta)

    def side_total(self, state, me, value, *, side, card, effect):
        return value + effect["delta"] if side == effect["side"] else value


def twin_plays(state: dict, me: str) -> list[str]:
    """``add:offense:A8.2``-style choices: a held Attack matching a side's revealed Attack, and the sign."""
    if side_of(state, me) is None or not state["ch"]["revealed"]:
        return []
    plays = []
    for side in SIDES:
        values = {cards.attack_value(c) for c in committed_challenge_cards(state, side) if cards.kind(c) == "attack"}
        twins = {}
        for held in hand(state, me):
            if cards.kind(held) == "attack" and cards.attack_value(held) in values:
                twins.setdefault(cards.attack_value(held), held)  # one card per value is enough
        plays += [f"{sign}:{side}:{twin}" for twin in twins.values() for sign in ("add", "subtract")]
    return plays


class DeuceSuper(Flare):
    """Super: after the reveal, add another Attack from your hand to your revealed Attack."""

    power = "Deuce"
    mode = "super"
    windows = ("reveal",)
    provenance = "house"
    description = ("As a main player who revealed an Attack, after the reveal you may add one more Attack card "
                   "from your hand to it face up: its value adds to your card's.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not state["ch"]["revealed"] or card_kind(state, side) != "attack":
            return []
        attacks = [c for c in hand(state, me) if cards.kind(c) == "attack"]
        if not attacks:
            return []
        return [self.offer(card, {"card": shapes.choice(attacks)}, label="add another Attack to your card")]

    def use(self, ctx, me, card, args, use):
        side = side_of_main(ctx.state, me)
        if side and args["card"] in hand(ctx.state, me):
            ctx.emit("ChallengeCardChosen", player=me, side=side, card=args["card"], seen_by=None)


WILD = DeuceWild()
SUPER = DeuceSuper()

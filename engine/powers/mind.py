"""Mind: look at another player's whole hand."""

from engine import shapes
from engine.powers.base import Flare, Power
from engine.state import hand, main_player, side_of

WINDOWS = ("launch", "alliance", "planning")  # stages 4 to 7: after the launch, before the cards


class Mind(Power):
    name = "Mind"
    editions = ("mayfair", "ffg")
    who = ("main", "ally")
    mandatory = False
    timing = "stages 4 to 7, once per challenge"
    windows = WINDOWS
    provenance = "mayfair"
    description = ("As a main player or ally, between the launch and the choice of challenge cards you may "
                   "look at one other player's whole hand. Only you see it.")
    # the FFG card: any player, before allies are invited, and only a main player's hand
    readings = {"ffg": {"who": ("any",), "windows": ("launch",),
                        "timing": "after the launch, before allies are invited, once per encounter",
                        "description": ("Once the offense has launched and before allies are invited, you may "
                                        "look at the whole hand of one of the main players (your opponent's, "
                                        "if you are a main player). Only you see it.")}}

    def options(self, state, me, window):
        targets = main_hands(state, me) if self.reads(state, "ffg") else readable(state, me)
        if not targets:
            return []
        return [self.offer({"player": shapes.choice(targets)}, label="look at a player's hand")]

    def use(self, ctx, me, args, use):
        read_hands(ctx, me, [args["player"]])


POWER = Mind()


def readable(state: dict, me: str) -> list[str]:
    """The other players with cards whose hands ``me`` could read (none unless it takes part in the challenge)."""
    if side_of(state, me) is None:
        return []
    return [c for c in state["order"] if c != me and hand(state, c)]


def main_hands(state: dict, me: str) -> list[str]:
    """The main players other than ``me`` with cards (the FFG Mind reads only theirs)."""
    ch = state.get("ch")
    mains = [main_player(state, side) for side in ("offense", "defense")] if ch else []
    return [c for c in mains if c and c != me and hand(state, c)]


def read_hands(ctx, me: str, targets: list[str]) -> None:
    """Show each target's whole hand to ``me`` alone."""
    for target in targets:
        ctx.emit("HandRevealed", player=target, to=[me], cards=list(hand(ctx.state, target)))


class MindWild(Flare):
    """Wild: read one hand, as Mind does."""

    power = "Mind"
    mode = "wild"
    windows = WINDOWS
    provenance = "house"
    description = ("As a main player or ally, between the launch and the choice of challenge cards, look at one "
                   "other player's whole hand; only you see it.")

    def options(self, state, me, card, window):
        targets = readable(state, me)
        if not targets:
            return []
        return [self.offer(card, {"player": shapes.choice(targets)}, label="look at a player's hand")]

    def use(self, ctx, me, card, args, use):
        read_hands(ctx, me, [args["player"]])


class MindSuper(Flare):
    """Super: read every other player's hand at once."""

    power = "Mind"
    mode = "super"
    windows = WINDOWS
    provenance = "house"
    description = ("As a main player or ally, between the launch and the choice of challenge cards, look at "
                   "every other player's whole hand; only you see them.")

    def options(self, state, me, card, window):
        return [self.offer(card, label="look at every other hand")] if readable(state, me) else []

    def use(self, ctx, me, card, args, use):
        read_hands(ctx, me, readable(ctx.state, me))


WILD = MindWild()
SUPER = MindSuper()

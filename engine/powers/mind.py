"""Mind: look at another player's whole hand."""

from engine import shapes
from engine.powers.base import Power
from engine.state import hand, side_of


class Mind(Power):
    name = "Mind"
    who = ("main", "ally")
    mandatory = False
    timing = "stages 4 to 7, once per challenge"
    windows = ("launch", "alliance", "planning")
    provenance = "mayfair"
    description = ("As a main player or ally, between the launch and the choice of challenge cards you may "
                   "look at one other player's whole hand. Only you see it.")

    def options(self, state, me, window):
        if side_of(state, me) is None:
            return []
        targets = [c for c in state["order"] if c != me and hand(state, c)]
        if not targets:
            return []
        return [self.offer({"player": shapes.choice(targets)}, label="look at a player's hand")]

    def use(self, ctx, me, args, use):
        target = args["player"]
        ctx.emit("HandRevealed", player=target, to=[me], cards=list(hand(ctx.state, target)))


POWER = Mind()

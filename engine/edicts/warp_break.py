"""Warp Break: at the start of a challenge, any player frees up to four of its own tokens."""

from engine import shapes
from engine.powers.base import Edict
from engine.state import warp_count
from engine.steps.tokens import return_home

MOST = 4


class WarpBreak(Edict):
    name = "WarpBreak"
    windows = ("start",)
    provenance = "mayfair"
    description = ("Any player, at the start of a challenge: take up to four of your own tokens from the warp "
                   "back to your bases.")

    def options(self, state, me, card, window):
        waiting = warp_count(state, me)
        if not waiting:
            return []
        return [self.offer(card, {"count": shapes.count(1, min(MOST, waiting))},
                           label="take tokens back from the warp")]

    def use(self, ctx, me, card, args, use):
        return_home(ctx, [{"player": me, "src": "warp", "count": args["count"], "reason": "Warp Break"}])


EDICT = WarpBreak()

"""Mobius Tubes: at the start of its challenge the offense empties the warp."""

from engine.powers.base import Edict
from engine.state import offense
from engine.steps.tokens import return_home


class MobiusTubes(Edict):
    name = "MobiusTubes"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = ("start",)
    windows_by_edition = {"ffg": ("regroup",)}  # the FFG artifact: the offense, in the regroup phase
    provenance = "mayfair"
    description = ("The offense, at the start of its challenge (under ffg: in the regroup phase): every token in the warp, of every colour, "
                   "goes back to its owner, who places its own tokens among its bases.")

    def options(self, state, me, card, window):
        if me != offense(state) or not any(state["warp"].values()):
            return []
        return [self.offer(card, label="free every token in the warp")]

    def use(self, ctx, me, card, args, use):
        state = ctx.state
        # each owner places its own tokens (one Place step asks every owner with a choice)
        return_home(ctx, [{"player": color, "src": "warp", "count": state["warp"].get(color, 0),
                           "reason": "Mobius Tubes"} for color in state["order"]])


EDICT = MobiusTubes()

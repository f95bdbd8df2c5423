"""Force Field: allies chosen by the player are sent home before the cards are played."""

from engine import shapes
from engine.powers.base import Edict
from engine.state import ally_side
from engine.steps.tokens import return_home


class ForceField(Edict):
    name = "ForceField"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = ("alliance",)
    provenance = "mayfair"
    description = ("After alliances are formed: remove any of the allies, on either side, from the challenge. "
                   "Their tokens go back to their bases and they are no longer allies.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        allied = list(ch["allies"]) if ch else []
        if not allied:
            return []
        return [self.offer(card, {"allies": shapes.subset(allied, 1)}, label="remove allies")]

    def use(self, ctx, me, card, args, use):
        returns = []
        for ally in args["allies"]:
            side = ally_side(ctx.state, ally)
            if side is None:  # already gone (another Force Field)
                continue
            returns.append({"player": ally, "src": f"cone:{side}", "count": ctx.state["cone"][side].get(ally, 0),
                            "reason": "Force Field"})
            ctx.emit("AllyRemoved", player=ally, by=me)
        return_home(ctx, returns)


EDICT = ForceField()

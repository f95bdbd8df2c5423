"""Zombie: its tokens never stay in the warp."""

from engine.hooks import fire
from engine.powers.base import Flare, Power
from engine.state import allies, side_of_main, warp_count
from engine.steps.tokens import move, return_home, warp_place


class Zombie(Power):
    name = "Zombie"
    editions = ("mayfair", "ffg")
    who = ("any",)
    mandatory = True
    timing = "whenever you would lose tokens to the warp"
    provenance = "mayfair"
    description = ("Your tokens never go to the warp: whenever they would, they go back to any of your bases "
                   "instead. As a Compromise player you still take consolation for each of your tokens that "
                   "was in the challenge. Tokens that leave the game (Void) are not saved.")

    # the FFG card: besides, as a deal's party it may free any player's ships from the warp as a term of it
    readings = {"ffg": {"description": (
        "Your ships never go to the warp: whenever they would, they go back to any of your colonies instead, so "
        "as a Negotiate player you take no compensation (it counts ships lost to the warp). Ships "
        "that leave the game (Void) are not saved. As a main player making a deal, its terms may also free any "
        "player's ships from the warp (each owner puts them on its colonies).")}}

    def loss_destination(self, state, me, value, *, player, src, reason, by=None, effect=None):
        # Only a trip to the warp is turned back: a removal from the game stays a removal.
        return "home" if player == me and value == "warp" else value

    def deal_frees_warp(self, state, me, value, *, effect=None):
        return True if self.reads(state, "ffg") and side_of_main(state, me) else value


POWER = Zombie()


class ZombieWild(Flare):
    """Wild: for this challenge, one token of each of your losses to the warp comes back."""

    power = "Zombie"
    mode = "wild"
    windows = ("launch", "alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "ffg"
    description = ("During a challenge, before it is resolved: for the rest of the challenge, each time you "
                   "lose tokens to the warp, one of them goes back to one of your bases instead.")

    def options(self, state, me, card, window):
        if self.in_force(state, me):
            return []
        return [self.offer(card, label="save one token of each loss this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def on_tokens_lost(self, ctx, me, *, effect, losses, reason):
        lost = sum(entry["count"] for entry in losses if entry["player"] == me and entry["to"] == "warp")
        if lost and warp_place(ctx.state) == "warp":  # 002: none comes back from the reverse warp's fan
            return_home(ctx, [{"player": me, "src": "warp", "count": 1, "reason": "Zombie Wild Flare"}])


class ZombieSuper(Flare):
    """Super: each of your allies brings one token back from the warp into the challenge."""

    power = "Zombie"
    mode = "super"
    windows = ("alliance",)
    provenance = "ffg"
    description = ("As a main player, once alliances are formed: each of your allies with tokens in the warp "
                   "moves one of them onto its side of the cone, even beyond the usual four.")

    def options(self, state, me, card, window):
        if not self.raised(state, me):
            return []
        return [self.offer(card, label="each ally brings a token back from the warp")]

    def raised(self, state, me) -> list[str]:
        """My allies who have a token in the warp to bring into the challenge."""
        side = side_of_main(state, me)
        if side is None:
            return []
        return [ally for ally in allies(state, side) if warp_count(state, ally) > 0]

    def use(self, ctx, me, card, args, use):
        side = side_of_main(ctx.state, me)
        raised = self.raised(ctx.state, me)
        move(ctx, [(ally, "warp", f"cone:{side}", 1) for ally in raised], "Zombie Super Flare")
        for ally in raised:
            fire(ctx, "on_tokens_retrieved", player=ally, count=1, reason="Zombie Super Flare")


WILD = ZombieWild()
SUPER = ZombieSuper()

"""Observer: its allies, and Observer itself as an ally, never go to the warp."""

from engine.handcards import draw
from engine.hooks import fire
from engine.powers.base import Flare, Power
from engine.state import allies, ally_side, cone_tokens, side_of, side_of_main, warp_count
from engine.steps.launch import token_range
from engine.steps.tokens import move


def protected(state: dict, me: str, player: str) -> bool:
    """Whether Observer ``me`` shields ``player``'s tokens: its own as an ally, its allies' as a main player."""
    if not state.get("ch"):
        return False
    if player == me:
        return ally_side(state, me) is not None
    side = side_of_main(state, me)
    return side is not None and ally_side(state, player) == side


class Observer(Power):
    name = "Observer"
    editions = ("mayfair", "ffg")
    who = ("main", "ally")
    mandatory = True
    timing = "whenever tokens on your side would go to the warp"
    provenance = "mayfair"
    description = ("As a main player, your allies' tokens that would go to the warp go back to their bases "
                   "instead; as an ally, so do your own. Your own tokens as a main player are not protected.")

    def loss_destination(self, state, me, value, *, player, src, reason, by=None, effect=None):
        return "home" if value == "warp" and protected(state, me, player) else value


POWER = Observer()


class ObserverWild(Flare):
    """Wild: each of your allies draws a card."""

    power = "Observer"
    mode = "wild"
    windows = ("alliance",)
    provenance = "ffg"
    description = ("As a main player, once alliances are formed, each player allied with you draws one card "
                   "from the deck.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not allies(state, side):
            return []
        return [self.offer(card, label="each of your allies draws a card")]

    def use(self, ctx, me, card, args, use):
        for ally in allies(ctx.state, side_of_main(ctx.state, me)):
            draw(ctx, ally, 1, "Observer Wild Flare")


class ObserverSuper(Flare):
    """Super: bring one token from the warp into the challenge with the ones you sent."""

    power = "Observer"
    mode = "super"
    windows = ("launch", "alliance")
    provenance = "ffg"
    description = ("As the offense after launching, or as an ally after joining: move one of your tokens "
                   "from the warp onto your side of the cone, as long as you stay within the number of "
                   "tokens you may commit.")

    def options(self, state, me, card, window):
        if self.side(state, me, window) is None:
            return []
        return [self.offer(card, label="add a token from the warp to the cone")]

    def side(self, state: dict, me: str, window: str) -> str | None:
        """The side of the cone that may take one more of my tokens from the warp, if any."""
        side = side_of(state, me)
        role = "offense" if side_of_main(state, me) == "offense" else "ally" if ally_side(state, me) else None
        if role is None or (window == "launch") != (role == "offense") or warp_count(state, me) == 0:
            return None
        on_cone = cone_tokens(state, side, me)
        return side if on_cone and on_cone < token_range(state, me, role)[1] else None

    def use(self, ctx, me, card, args, use):
        side = self.side(ctx.state, me, use["window"])
        if side is None:  # the cone changed since the card was played
            return
        move(ctx, [(me, "warp", f"cone:{side}", 1)], "Observer Super Flare")
        fire(ctx, "on_tokens_retrieved", player=me, count=1, reason="Observer Super Flare")


WILD = ObserverWild()
SUPER = ObserverSuper()

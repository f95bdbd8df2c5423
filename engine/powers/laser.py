"""Laser: the opponent's challenge card is picked blindly from its hand."""

from engine import shapes
from engine.powers.base import Flare, Power
from engine.state import challenge_cards, main_player, opponent_side, side_of_main


class Laser(Power):
    name = "Laser"
    who = ("main",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("As a main player, before challenge cards are chosen you may have your opponent's card "
                   "picked at random from the challenge cards in its hand; it is committed face down and "
                   "your opponent cannot choose another.")

    def options(self, state, me, window):
        if not target_cards(state, me):
            return []
        return [self.offer(label="your opponent's card is picked at random")]

    def use(self, ctx, me, args, use):
        pool = target_cards(ctx.state, me)
        if pool:
            commit_for_opponent(ctx, me, ctx.rng.choice(pool), seen_by_me=False)


POWER = Laser()


def target_cards(state: dict, me: str) -> list[str]:
    """The challenge cards ``me``'s opponent could still commit (none if it already has, or ``me`` is not main)."""
    side = side_of_main(state, me)
    if side is None:
        return []
    other = opponent_side(side)
    if state["committed"][other]:
        return []
    return challenge_cards(state, main_player(state, other))


def commit_for_opponent(ctx, me: str, card: str, *, seen_by_me: bool) -> None:
    """Commit ``card`` face down as the opponent's challenge card (``me`` sees it if it chose it)."""
    other = opponent_side(side_of_main(ctx.state, me))
    victim = main_player(ctx.state, other)
    ctx.emit("ChallengeCardChosen", player=victim, side=other, card=card,
             seen_by=sorted({victim, me}) if seen_by_me else [victim])


class LaserWild(Flare):
    """Wild: blast once, as Laser does."""

    power = "Laser"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("As a main player, before challenge cards are chosen, have your opponent's card picked at "
                   "random from the challenge cards in its hand, as Laser does.")

    def options(self, state, me, card, window):
        if not target_cards(state, me):
            return []
        return [self.offer(card, label="your opponent's card is picked at random")]

    def use(self, ctx, me, card, args, use):
        pool = target_cards(ctx.state, me)
        if pool:
            commit_for_opponent(ctx, me, ctx.rng.choice(pool), seen_by_me=False)


class LaserSuper(Flare):
    """Super: look at the opponent's challenge cards and choose the one it plays."""

    power = "Laser"
    mode = "super"
    windows = ("planning",)
    provenance = "house"
    description = ("As a main player, before challenge cards are chosen, look at the challenge cards in your "
                   "opponent's hand and choose the one it must play; it is committed face down.")

    def options(self, state, me, card, window):
        pool = target_cards(state, me)
        if not pool:
            return []
        return [self.offer(card, {"card": shapes.choice(pool)}, label="choose your opponent's card")]

    def use(self, ctx, me, card, args, use):
        pool = target_cards(ctx.state, me)
        if args["card"] in pool:
            victim = main_player(ctx.state, opponent_side(side_of_main(ctx.state, me)))
            ctx.emit("HandRevealed", player=victim, to=[me], cards=list(pool))
            commit_for_opponent(ctx, me, args["card"], seen_by_me=True)


WILD = LaserWild()
SUPER = LaserSuper()

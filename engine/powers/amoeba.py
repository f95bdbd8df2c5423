"""Amoeba: oozes tokens into or out of the challenge once the cards are chosen."""

from engine import shapes
from engine.flow import option
from engine.powers.base import Flare, Power
from engine.state import ally_side, bases, home_planets, side_of, side_of_main, tokens_on_bases
from engine.steps.tokens import available_at, move

IN, OUT = "in", "out"


def challenge_place(state: dict, me: str) -> str | None:
    """Where my tokens in the challenge are: the defended planet for the defense, else my side of the cone."""
    side = side_of(state, me)
    if side is None:
        return None
    if side_of_main(state, me) == "defense" and state["ch"]["planet"]:
        return state["ch"]["planet"]
    return f"cone:{side}"


def ooze_options(state: dict, me: str, make) -> list[dict]:
    """The ooze-in and ooze-out options for ``me`` (``make(args, direction, label)`` builds one)."""
    place = challenge_place(state, me)
    if place is None:
        return []
    present = available_at(state, me, place)
    if present == 0:  # only tokens already in the challenge can ooze
        return []
    found = []
    sources = {p: n for p, n in tokens_on_bases(state, me).items() if p != place}
    if sources:
        found.append(make({"direction": shapes.choice([IN]), "tokens": shapes.distribution(sources, 1, sum(sources.values()))},
                          IN, "ooze more tokens into the challenge"))
    targets = [p for p in bases(state, me) if p != place] or [p for p in home_planets(state, me) if p != place]
    if targets:
        found.append(make({"direction": shapes.choice([OUT]),
                           "tokens": shapes.distribution({p: present for p in targets}, 1, present)},
                          OUT, "ooze tokens out of the challenge"))
    return found


def ooze(ctx, me: str, args: dict, reason: str) -> None:
    """Move tokens into the challenge from bases, or out of it to bases, as chosen."""
    place = challenge_place(ctx.state, me)
    if place is None:
        return
    if args["direction"] == IN:
        moves = [(me, src, place, min(n, available_at(ctx.state, me, src))) for src, n in sorted(args["tokens"].items())]
    else:
        left, moves = available_at(ctx.state, me, place), []
        for dst, n in sorted(args["tokens"].items()):
            n = min(n, left)  # never more than are there now
            moves.append((me, place, dst, n))
            left -= n
    move(ctx, moves, reason)


class Amoeba(Power):
    name = "Amoeba"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "after challenge cards are chosen, before the reveal"
    windows = ("committed",)
    provenance = "mayfair"
    description = ("As a main player with tokens in the challenge, after challenge cards are chosen and "
                   "before they are revealed you may ooze: add any number of tokens from your other bases "
                   "(the offense may go beyond four on the cone; the defense adds them to the defended "
                   "planet), or withdraw some or all of your tokens in the challenge to your other bases.")

    def options(self, state, me, window):
        if side_of_main(state, me) is None:
            return []
        return ooze_options(state, me, self.make_option)

    def make_option(self, args: dict, direction: str, label: str) -> dict:
        """A power option told apart from the other direction by its ``ooze`` field."""
        return option("use", args, ability=self.key, rule=f"power:{self.name}", label=label, ooze=direction)

    def use(self, ctx, me, args, use):
        ooze(ctx, me, args, self.name)


POWER = Amoeba()


class AmoebaFlare(Flare):
    """Both Amoeba flares ooze; they differ in who may and when.

    Mayfair's published flares (as The WARP's alien database lists Mayfair's Amoeba, Wild1 and
    Super1): the Wild lets a main player ooze before the challenge cards are chosen, the Super lets
    the Amoeba use its power as an ally that committed at least one token.
    """

    power = "Amoeba"
    provenance = "mayfair"

    def card_option(self, card: str):
        """An option builder for this card, one per direction."""
        def make(args: dict, direction: str, label: str) -> dict:
            return option("use", args, ability=f"card:{card}", rule=self.rule, label=label, ooze=direction)
        return make

    def use(self, ctx, me, card, args, use):
        ooze(ctx, me, args, self.name)


class AmoebaWild(AmoebaFlare):
    """Wild: ooze as a main player before challenge cards are chosen."""

    mode = "wild"
    windows = ("planning",)
    description = ("As a main player with tokens in the challenge, before challenge cards are chosen: add "
                   "any number of tokens from your other bases (the offense may go beyond four) or withdraw "
                   "some or all of them to your other bases.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None:
            return []
        return ooze_options(state, me, self.card_option(card))


class AmoebaSuper(AmoebaFlare):
    """Super: ooze as an ally, when the power itself oozes (after the cards are chosen)."""

    mode = "super"
    windows = ("committed",)
    description = ("As an ally that put tokens on the cone, after the challenge cards are chosen and before "
                   "the reveal: add any number of tokens from your bases to your side of the cone (beyond "
                   "four), or withdraw some or all of them to your bases.")

    def options(self, state, me, card, window):
        if ally_side(state, me) is None:
            return []
        return ooze_options(state, me, self.card_option(card))


WILD = AmoebaWild()
SUPER = AmoebaSuper()

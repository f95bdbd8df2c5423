"""Kamikaze: sacrifices tokens to the warp for cards."""

from engine import shapes
from engine.handcards import draw
from engine.powers.base import Flare, Power
from engine.state import side_of_main, tokens_on_bases
from engine.steps.tokens import available_at, lose

MAX_SACRIFICE = 4
CARDS_PER_TOKEN = 2
WILD_MAX = 2
SUPER_BONUS = 2  # what each sacrificed token adds to the Kamikaze's side with the Super Flare


def note_key(me: str) -> str:
    """Where the tokens a player sacrificed with the power this challenge are counted."""
    return f"kamikaze:{me}"


def sacrifice(ctx, me: str, chosen: dict, reason: str) -> int:
    """Send the chosen tokens (``{planet: n}``) to the warp and draw two cards per token that went.

    Only the tokens still there go: a response applied before this use (Void's Wild, paid with one
    of the same tokens) may have moved some since the use was announced."""
    still = [(me, planet, min(n, available_at(ctx.state, me, planet))) for planet, n in sorted(chosen.items())]
    report = lose(ctx, still, reason)
    # Tokens that went home (Zombie) were not sacrificed and earn nothing.
    gone = sum(entry["count"] for entry in report if entry["to"] != "home")
    if gone:
        draw(ctx, me, CARDS_PER_TOKEN * gone, reason)
    return gone


class Kamikaze(Power):
    name = "Kamikaze"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("As a main player, before challenge cards are chosen, you may send up to four of your "
                   "tokens from any of your bases to the warp and draw two cards from the deck for each.")

    def options(self, state, me, window):
        sources = tokens_on_bases(state, me)
        if side_of_main(state, me) is None or not sources:
            return []
        return [self.offer({"tokens": shapes.distribution(sources, 1, MAX_SACRIFICE)},
                           label="sacrifice tokens for two cards each")]

    def use(self, ctx, me, args, use):
        gone = sacrifice(ctx, me, args["tokens"], self.name)
        before = ctx.state["ch"]["notes"].get(note_key(me), 0)
        ctx.emit("ChallengeNoted", key=note_key(me), value=before + gone)


POWER = Kamikaze()


class KamikazeWild(Flare):
    """Wild: a small sacrifice for cards."""

    power = "Kamikaze"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("Before challenge cards are chosen, send one or two of your tokens from your bases to the "
                   "warp and draw two cards from the deck for each.")

    def options(self, state, me, card, window):
        sources = tokens_on_bases(state, me)
        if not sources:
            return []
        return [self.offer(card, {"tokens": shapes.distribution(sources, 1, WILD_MAX)},
                           label="sacrifice one or two tokens for cards")]

    def use(self, ctx, me, card, args, use):
        sacrifice(ctx, me, args["tokens"], "Kamikaze Wild Flare")


class KamikazeSuper(Flare):
    """Super: the tokens you sacrifice with your power fight on in spirit."""

    power = "Kamikaze"
    mode = "super"
    windows = ("planning", "committed", "reveal")
    lasting = True
    provenance = "house"
    description = ("As a main player, for the rest of this challenge each token you sent to the warp with "
                   "your power this challenge adds 2 to your side's total.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None:
            return []
        if self.in_force(state, me):
            return []
        return [self.offer(card, label="your sacrificed tokens add 2 each")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me))

    def side_total(self, state, me, value, *, side, card, effect):
        if side != effect["side"]:
            return value
        return value + SUPER_BONUS * state["ch"]["notes"].get(note_key(me), 0)


WILD = KamikazeWild()
SUPER = KamikazeSuper()

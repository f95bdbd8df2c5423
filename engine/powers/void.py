"""Void: the opponents it defeats leave the game instead of going to the warp."""

from engine import shapes
from engine.powers.base import Flare, Power, cancel_use, played_edict
from engine.state import ally_side, main_player, opponent_side, side_of, side_of_main, tokens_on_bases
from engine.steps.tokens import lose
from engine.winning import WINNING_BASES

# Void's removal wins over a return home (Zombie, Observer): the tokens never reach the warp.
DIVERTED = ("warp", "home")


def removes(state: dict, side: str | None, player: str, by: str | None) -> bool:
    """Whether a loss sent by ``by`` hits ``player`` on the side opposing ``side`` and led by ``by``."""
    if side is None or by is None or by != main_player(state, side):
        return False
    return side_of(state, player) == opponent_side(side)


class Void(Power):
    name = "Void"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "resolution, when you send the losing side away"
    provenance = "mayfair"
    description = ("As a main player, the tokens of the opposing side (main player and allies) that you send "
                   "to the warp when you win, or with any loss you inflict during the challenge, leave the "
                   "game instead. Powers that would send them home instead (Zombie, Observer) do not save them.")

    # the FFG card: only the losing side's ships when the Void wins, and never a player's last five
    readings = {"ffg": {"timing": "resolution, when you win as a main player", "description": (
        "As a main player, when you win, the losing side's ships (main player and allies) leave the game "
        "instead of going to the warp; powers that would send them home instead (Zombie, Observer) do not "
        "save them. No player is brought below 5 ships in the game (the foreign colonies needed to win): "
        "the ships that would, go to the warp as usual.")}}

    def loss_destination(self, state, me, value, *, player, src, reason, by=None, effect=None):
        if value in DIVERTED and removes(state, side_of_main(state, me), player, by):
            if self.reads(state, "ffg") and reason != LOST:
                return value
            return "removed"
        return value

    def removable(self, state, me, value, *, player, effect=None):
        if not self.reads(state, "ffg"):
            return value
        return max(0, min(value, ships_in_game(state, player) - WINNING_BASES))


POWER = Void()

LOST = "lost the challenge"  # the reason the losing side's tokens go (engine.steps.resolve)


def ships_in_game(state: dict, player: str) -> int:
    """A player's tokens still in the game: on planets, on the cone, in the warp (and on the fan)."""
    places = [*state["planets"].values(), *state["cone"].values(), state["warp"], *state["fan"].values()]
    return sum(place.get(player, 0) for place in places)


def spare_tokens(state: dict, me: str) -> dict[str, int]:
    """My tokens on bases that take no part in the challenge (the defended planet's do)."""
    ch = state.get("ch")
    defended = ch["planet"] if ch and side_of_main(state, me) == "defense" else None
    return {p: n for p, n in tokens_on_bases(state, me).items() if p != defended}


class VoidWild(Flare):
    """Wild: pay a token to cancel an edict another player plays (FFG's published Wild)."""

    power = "Void"
    mode = "wild"
    windows = ()
    provenance = "ffg"
    description = ("When another player plays an edict, send one of your tokens that takes no part in the "
                   "challenge to the warp to cancel the edict: it has no effect and is discarded. (Played only "
                   "in answer to an edict, like a Card Zap.)")

    def respond_options(self, state, me, card, use):
        edict = played_edict(use)
        spare = spare_tokens(state, me)
        if edict is None or use["player"] == me or not spare:
            return []
        return [self.offer(card, {"token_from": shapes.choice(sorted(spare))},
                           label=f"send a token to the warp to cancel {use['player']}'s {edict}")]

    def use(self, ctx, me, card, args, use):
        cancel_use(ctx, me, use["target"])
        lose(ctx, [(me, args["token_from"], 1)], "Void Wild Flare")


class VoidSuper(Flare):
    """Super: your power works as an ally too."""

    power = "Void"
    mode = "super"
    windows = ("alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "ffg"
    description = ("As an ally: for the rest of this challenge, if the side you joined wins, the opposing "
                   "side's tokens that its main player sends to the warp leave the game instead.")

    def options(self, state, me, card, window):
        if ally_side(state, me) is None:
            return []
        if self.in_force(state, me):
            return []
        return [self.offer(card, label="the side you joined removes its victims from the game")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=ally_side(ctx.state, me))

    def loss_destination(self, state, me, value, *, player, src, reason, by=None, effect=None):
        if value in DIVERTED and removes(state, effect["side"], player, by):
            return "removed"
        return value


WILD = VoidWild()
SUPER = VoidSuper()

"""Reincarnator: whenever it loses, it becomes another alien, drawn at random from those not in the game.

At the end of a challenge (``on_challenge_ended``) a Reincarnator that lost it (a main player who
lost, an ally of the losing side, a main player of a failed deal) announces its reincarnation (a
Cosmic Zap may cancel it): its current incarnation, if any, leaves the game for good and a power
drawn at random from the unused ones takes its place (``PowersChanged``); the Reincarnator power
stays. The unused powers are those of this game's pool (`engine.pools.power_pool`: its edition
and options) that no player holds and none has lost this way (``powers_out``), without the powers
that have a game setup (they could not have it now: Miser, Tick-Tock) and without Reincarnator.
The draw uses the game's random source (its secret seed and the position in the line of play),
over the candidates in name order, so a replay draws the same power; the power drawn is public.
"""

from engine import shapes
from engine.pools import power_pool
from engine.powers.base import Flare, Power
from engine.registry import POWERS
from engine.state import ally_side, side_of_main

NAME = "Reincarnator"


def unused_powers(state: dict) -> list[str]:
    """The powers a reincarnation may draw, in name order."""
    held = {name for seat in state["players"].values() for name in seat["powers"]}
    out = set(state.get("powers_out") or ())
    return [n for n in power_pool(state["options"], state.get("ruleset") or "mayfair")
            if n != NAME and n not in held and n not in out and not hasattr(POWERS[n], "on_game_setup")]


def lost_challenge(state: dict, player: str) -> bool:
    """Whether ``player`` lost the challenge just ended: as a main player or an ally of the losing side, or as a
    main player of a deal that failed."""
    ch = state.get("ch")
    if not ch:
        return False
    deal = ch.get("deal")
    if deal is not None:
        return deal.get("made") is False and side_of_main(state, player) is not None
    outcome = ch.get("outcome")
    if not outcome or outcome.get("kind") == "deal":
        return False
    if outcome.get("record", {}).get(player) == "lost":
        return True
    side = ally_side(state, player)
    return side is not None and (bool(outcome.get("both_lose")) or
                                 (outcome.get("winner") is not None and outcome["winner"] != side))


def reincarnate(ctx, player: str, keep: tuple[str, ...], reason: str) -> None:
    """``player``'s powers but ``keep`` leave the game; one drawn at random from the unused powers joins ``keep``."""
    candidates = unused_powers(ctx.state)
    if not candidates:  # no alien left to become: the player stays what it is
        return
    current = list(ctx.state["players"][player]["powers"])
    lost = [n for n in current if n not in keep]
    gained = [ctx.rng.choice(candidates)]
    powers = [n for n in current if n in keep] + gained
    ctx.emit("PowersChanged", player=player, powers=powers, gained=gained, lost=lost, reason=reason)


class Reincarnator(Power):
    name = NAME
    editions = ("ffg",)
    who = ("main", "ally")
    mandatory = True
    timing = "the end of a challenge you lost"
    windows = ()
    provenance = "ffg"
    description = ("Whenever you lose a challenge as a main player or ally, or fail to make a deal, you reincarnate: "
                   "the alien you have become, if any, leaves the game, and you become an alien drawn at random from "
                   "those not in the game (none with a game setup). You keep this power beside it.")

    def on_challenge_ended(self, ctx, me, *, effect=None):
        if lost_challenge(ctx.state, me) and not SUPER.in_force(ctx.state, me):
            self.announce(ctx, me, "reincarnation", {})

    def reincarnation(self, ctx, me, context):
        """The announced reincarnation stands (no Cosmic Zap cancelled it)."""
        if NAME in ctx.state["players"][me]["powers"]:
            reincarnate(ctx, me, (NAME,), NAME)


POWER = Reincarnator()


def losers(state: dict) -> list[str]:
    """The players who lost the challenge now resolved (main players, allies of the losing side), in seat order."""
    return [c for c in state["order"] if lost_challenge(state, c)]


class ReincarnatorWild(Flare):
    """Wild: give this flare to a player who just lost: it discards its power and draws a new one."""

    power = NAME
    mode = "wild"
    windows = ("resolution",)
    provenance = "ffg"
    description = ("Once a challenge is decided, give this flare to another player who lost it or failed to make a "
                   "deal (not a Reincarnator): that player's powers leave the game and it becomes an alien drawn at "
                   "random from those not in the game (none with a game setup).")

    def options(self, state, me, card, window):
        targets = [c for c in losers(state) if c != me and NAME not in state["players"][c]["powers"]]
        if not targets or not unused_powers(state):
            return []
        return [self.offer(card, {"player": shapes.choice(targets)},
                           label="give this flare to a loser: it becomes another alien")]

    def use(self, ctx, me, card, args, use):
        target = args["player"]
        if card in ctx.state["table"]:
            ctx.emit("CardsMoved", cards=[card], src="table", dst=f"hand:{target}", seen_by=None,
                     reason="Reincarnator Wild Flare")
        if NAME not in ctx.state["players"][target]["powers"]:
            reincarnate(ctx, target, (), "Reincarnator Wild Flare")


class ReincarnatorSuper(Flare):
    """Super: this challenge, you do not reincarnate."""

    power = NAME
    mode = "super"
    windows = ("resolution",)
    lasting = True
    provenance = "ffg"
    description = ("Once a challenge you lost is decided: you do not have to reincarnate; play this to keep the alien "
                   "you are this time.")

    def options(self, state, me, card, window):
        if not lost_challenge(state, me) or self.in_force(state, me):
            return []
        return [self.offer(card, label="do not reincarnate this time")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = ReincarnatorWild()
SUPER = ReincarnatorSuper()

"""Judge: before cards are chosen, decree an extra reward for the winner or penalty for the loser."""

from engine import shapes
from engine.handcards import discard_cards, draw
from engine.powers.base import Flare, Power
from engine.registry import register_effect
from engine.state import hand, main_player, power_active, warp_count
from engine.steps.tokens import return_home

FIAT_SOURCE = "fiat:Judge"  # the effect key of a decree in force this challenge
FIATS = {
    "winner_draws": "the winner draws cards from the deck",
    "winner_retrieves": "the winner takes tokens back from the warp",
    "loser_loses": "the loser loses more tokens to the warp",
    "loser_discards": "the loser discards cards at random",
}
POWER_MAX = 3
WILD_MAX = 2
SUPER_MAX = 4


def fiat_shape(most: int) -> dict:
    """The arguments of a decree: which one, and how many cards or tokens."""
    return {"fiat": shapes.choice(list(FIATS)), "count": shapes.count(1, most)}


def undecided(state: dict) -> bool:
    """A challenge with a defense and no outcome yet: a decree can still be made."""
    ch = state["ch"]
    return bool(ch and ch["defense"] and not ch["outcome"])


def decree(ctx, me: str, args: dict, by_power: bool) -> None:
    """Record a decree: it waits in force until the challenge is decided."""
    ctx.emit("EffectAdded", effect={"source": FIAT_SOURCE, "player": me, "fiat": args["fiat"],
                                    "count": args["count"], "power": by_power})


def judged(state: dict, outcome: dict) -> tuple[list[str], list[str]]:
    """``(winners, losers)`` among the main players; a War against War has two losers (004), a deal none."""
    if outcome.get("kind") == "deal":
        return [], []
    if outcome.get("both_lose"):
        return [], [main_player(state, "offense"), main_player(state, "defense")]
    winner = outcome.get("winner")
    if winner not in ("offense", "defense"):
        return [], []
    loser = "defense" if winner == "offense" else "offense"
    return [main_player(state, winner)], [main_player(state, loser)]


class Fiat:
    """The hook handler of a decree (registered under ``FIAT_SOURCE``): applied once the challenge is decided."""

    def on_resolved(self, ctx, me, *, outcome, effect):
        if effect["power"] and not power_active(ctx.state, me, "Judge"):
            return  # the Judge's power was switched off before the decree could be carried out
        winners, losers = judged(ctx.state, outcome)
        fiat, count = effect["fiat"], effect["count"]
        for player in winners if fiat.startswith("winner") else losers:
            carry_out(ctx, fiat, player, count)


def carry_out(ctx, fiat: str, player: str, count: int) -> None:
    """Apply one decree to one player."""
    if fiat == "winner_draws":
        draw(ctx, player, count, "Judge")
    elif fiat == "winner_retrieves":
        back = min(count, warp_count(ctx.state, player))
        return_home(ctx, [{"player": player, "src": "warp", "count": back, "reason": "Judge"}])
    elif fiat == "loser_loses":
        ctx.then(ctx.step("losses", player=player, count=count, reason="Judge", cone=False))
    else:
        held = list(hand(ctx.state, player))
        discard_cards(ctx, player, ctx.rng.sample(held, min(count, len(held))), "Judge")


register_effect(FIAT_SOURCE, Fiat())


class Judge(Power):
    name = "Judge"
    who = ("any",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("In any challenge, before the challenge cards are chosen, you may decree one extra "
                   "consequence of up to 3: the winning main player draws that many cards or takes that many "
                   "tokens back from the warp, or the losing main player loses that many more tokens or "
                   "discards that many cards at random. It is carried out once the challenge is decided; a "
                   "deal decides nothing, and when a War card makes both sides lose both main players lose.")

    def options(self, state, me, window):
        if not undecided(state):
            return []
        return [self.offer(fiat_shape(POWER_MAX), label="decree an extra consequence")]

    def use(self, ctx, me, args, use):
        decree(ctx, me, args, by_power=True)


POWER = Judge()


class JudgeWild(Flare):
    """Wild: any player decrees one smaller extra consequence, as the Judge does."""

    power = "Judge"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("Before the challenge cards are chosen, decree as the Judge does, with a count of 1 or 2: "
                   "the winner draws cards or retrieves tokens, or the loser loses tokens or discards cards.")

    def options(self, state, me, card, window):
        if not undecided(state):
            return []
        return [self.offer(card, fiat_shape(WILD_MAX), label="decree an extra consequence")]

    def use(self, ctx, me, card, args, use):
        decree(ctx, me, args, by_power=False)


class JudgeSuper(Flare):
    """Super: the Judge decrees after seeing the revealed cards, and more heavily."""

    power = "Judge"
    mode = "super"
    windows = ("reveal",)
    provenance = "house"
    description = ("After the challenge cards are revealed and before the challenge is decided, decree one "
                   "extra consequence with a count of up to 4, in addition to your power's decree.")

    def options(self, state, me, card, window):
        if not undecided(state) or not state["ch"]["revealed"]:
            return []
        return [self.offer(card, fiat_shape(SUPER_MAX), label="decree knowing the cards")]

    def use(self, ctx, me, card, args, use):
        decree(ctx, me, args, by_power=False)


WILD = JudgeWild()
SUPER = JudgeSuper()

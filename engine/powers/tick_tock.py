"""Tick-Tock: a track of tokens on its sheet, one removed whenever the defense wins or a deal is made;
the last one removed wins the game.

Game setup (``on_game_setup``): the track starts at ten tokens. It lies on the alien sheet, not with a
player: a public note under the power's name (``PlayerNoted`` with ``player`` ``"Tick-Tock"``, key
``tokens``: the board's ``notes`` show it), so it goes with the power if the sheets are swapped
(Sorcerer's Wild); `engine.invariants` keeps it between 1 and 10 while the game goes on (0 once the win
is claimed). While the power works, a challenge the defense wins (``on_resolved``) or a deal made
(``on_deal_concluded`` with ``made``, once the deal is over, heard with the other powers that count
deals), whoever the players, removes one token at once. The last one claims the win for the power's holder (`engine.winning.claim_win`): the game ends at
the next boundary of the turn sequence, once the rest of that outcome or deal is carried out (another
power's effect of the same moment, the main players' ships back home from the cone), a joint win with
anyone who then has five external bases. A Cosmic Zap on Tick-Tock during the challenge keeps the token
on the sheet.
"""

from engine import shapes
from engine.flow import Step, register
from engine.powers.base import Flare, Power
from engine.state import side_of, side_of_main, system_of, tokens_on_bases
from engine.steps.tokens import loss_sources, move
from engine.winning import claim_win

SHEET = "Tick-Tock"  # the note's owner: the alien sheet
KEY = "tokens"
START = 10  # five planets a player (the four-planet variant, with eight, is not played here)
SHIPS_MAX = 4  # the Wild's colony


def tokens_left(state: dict) -> int | None:
    """The tokens left on Tick-Tock's track (None: it has none, a Tick-Tock gained after setup)."""
    return state["notes"].get(SHEET, {}).get(KEY)


def tick(ctx, me: str) -> None:
    """One token leaves the track; the last one claims the win for ``me``, who holds the power."""
    left = tokens_left(ctx.state)
    if not left:
        return
    ctx.emit("PlayerNoted", player=SHEET, key=KEY, value=left - 1)
    if left - 1 == 0:
        claim_win(ctx, me, "Tick-Tock's last token")


def defense_won(outcome: dict) -> bool:
    """Whether the defense won the challenge (a deal, or both sides losing, is no defense win)."""
    return outcome.get("winner") == "defense" and not outcome.get("both_lose")


class TickTock(Power):
    name = "Tick-Tock"
    editions = ("ffg",)
    who = ("any",)
    mandatory = True
    timing = "game setup; whenever the defense wins a challenge or a deal is made"
    windows = ()
    provenance = "ffg"
    description = ("Game setup: put ten tokens on your sheet. Whenever the defense wins a challenge or a deal is "
                   "made, whoever the players, remove one of them. When you remove the last one, you win the game "
                   "(with anyone else who wins at that moment). You may still win the usual way.")

    def on_game_setup(self, ctx, me, *, effect=None):
        ctx.emit("PlayerNoted", player=SHEET, key=KEY, value=START)

    def on_resolved(self, ctx, me, *, outcome, effect=None):
        if defense_won(outcome):
            tick(ctx, me)

    def on_deal_concluded(self, ctx, me, *, made, effect=None):
        if made:
            tick(ctx, me)


POWER = TickTock()


class TickTockWild(Flare):
    """Wild: when the discard pile becomes a new deck, plant a colony in another player's home system."""

    power = "Tick-Tock"
    mode = "wild"
    windows = ()
    provenance = "ffg"
    description = ("Whenever the discard pile is shuffled into a new deck, you may at once establish a colony on a "
                   "planet of another player's home system with one to four of your tokens from your colonies.")

    def on_deck_reshuffled(self, ctx, me, card):
        if self.reaction_options(ctx.state, me, card, {}):
            self.ask_to_play(ctx, me, card, {"reason": "reshuffle"})

    def reaction_options(self, state, me, card, context):
        sources = tokens_on_bases(state, me)
        targets = [p for p, tokens in state["planets"].items() if system_of(p) != me and not tokens.get(me)]
        if not sources or not targets:
            return []
        return [self.offer(card, {"planet": shapes.choice(targets), "tokens": shapes.distribution(sources, 1, SHIPS_MAX)},
                           label="establish a colony in another player's home system")]

    def use(self, ctx, me, card, args, use):
        planet, wanted = args["planet"], args["tokens"]
        if system_of(planet) == me or ctx.state["planets"][planet].get(me):
            return
        have = tokens_on_bases(ctx.state, me)
        moves = [(me, src, planet, n) for src, n in sorted(wanted.items()) if 0 < n <= have.get(src, 0) and src != planet]
        move(ctx, moves, "Tick-Tock Wild Flare")


class TickTockSuper(Flare):
    """Super: when you win a challenge or make a deal, a token of yours to the warp takes one more off the track."""

    power = "Tick-Tock"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("After the challenge cards are revealed: if you win this challenge (as a main player or ally) or "
                   "make a deal, you send one of your tokens from a colony to the warp and remove one more token "
                   "from your sheet.")

    def options(self, state, me, card, window):
        if side_of(state, me) is None or self.in_force(state, me) or not tokens_left(state):
            return []
        return [self.offer(card, label="if you win or make a deal, pay a token to remove one more")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def on_resolved(self, ctx, me, *, outcome, effect=None):
        winner = outcome.get("winner")
        if winner and not outcome.get("both_lose") and side_of(ctx.state, me) == winner:
            self.pay_and_tick(ctx, me)

    def on_deal_concluded(self, ctx, me, *, made, effect=None):
        if made and side_of_main(ctx.state, me) is not None:
            self.pay_and_tick(ctx, me)

    def pay_and_tick(self, ctx, me) -> None:
        """The token paid goes to the warp (its owner chooses from where), then one more leaves the track."""
        if not loss_sources(ctx.state, me, include_cone=False) or not tokens_left(ctx.state):
            return
        ctx.then(ctx.step("losses", player=me, count=1, reason="Tick-Tock Super Flare", cone=False),
                 ctx.step("tick_tock", player=me))


@register
class TickTockStep(Step):
    """One token leaves Tick-Tock's track once the token paid for it is in the warp (its Super)."""

    op = "tick_tock"

    def run(self, ctx, step):
        ctx.done()
        tick(ctx, step["player"])


WILD = TickTockWild()
SUPER = TickTockSuper()

"""Miser: a second hand, the hoard, that only the Miser may play from.

(The issue and RULES.md 9 name this alien "Misery"; the Fantasy Flight base set has no alien of that
name, and the one it has in that place is Miser, "Gets Second Hand": docs/engine.md, readings.)

Game setup (``on_game_setup``, once the hands are dealt): the Miser is dealt a second hand face down
(``hoard:<colour>``, a place of its own: `engine.evolve.card_place`) and chooses which of the two is
its hoard (``choose_hoard``). While its power works, everything that offers a card to play offers
the hoard's cards beside the hand's (`engine.playable`, the ``card_sources`` hook); nobody else may
see the hoard or take cards from it (its size is public). With no encounter card left in it, the
Miser may show it, discard it and take a new one.
"""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import hand_size, set_aside, take_from_deck
from engine.powers.base import WINDOWS, Flare, Power
from engine.state import hand

RULE = "power:Miser"
WILD_KEEPS = 2  # cards the Wild keeps beside itself


def hoard(state: dict, me: str) -> list[str]:
    """The Miser's hoard (empty if it has none)."""
    return state["players"][me].get("hoard", [])


def deal_hoard(ctx, me: str, reason: str) -> list[str]:
    """A new hoard, face down from the deck (only the Miser sees it)."""
    return take_from_deck(ctx, hand_size(ctx.state), f"hoard:{me}", [me], reason)


class Miser(Power):
    name = "Miser"
    editions = ("ffg",)
    who = ("any",)
    mandatory = False
    timing = "game setup; whenever you play a card"
    windows = WINDOWS
    provenance = "ffg"
    description = ("Game setup: you are dealt a second hand and choose which of your two hands is your hoard, kept "
                   "face down apart from your hand. Whenever you play a card you may play it from your hoard "
                   "instead of your hand; cards you gain never go to the hoard, and no other player may look at it "
                   "or take cards from it. A card played from the hoard that would come back to your hand comes "
                   "back to the hoard. When your hoard holds no challenge card, you may show it, discard it and "
                   "take a new one from the deck.")

    def on_game_setup(self, ctx, me, *, effect=None):
        deal_hoard(ctx, me, "Miser's hoard")
        ctx.then(ctx.step("choose_hoard", player=me))

    def card_sources(self, state, me, value, *, player, effect=None):
        if player != me or "hoard" in value:
            return value
        return (*value, "hoard")

    def options(self, state, me, window):
        if any(cards.is_challenge_card(c) for c in hoard(state, me)) or not (state["deck"] or state["discard"]):
            return []
        return [self.offer(label="show your hoard, discard it and take a new one")]

    def use(self, ctx, me, args, use):
        old = list(hoard(ctx.state, me))
        if any(cards.is_challenge_card(c) for c in old):
            return
        if old:
            ctx.emit("CardsMoved", cards=old, src=f"hoard:{me}", dst="discard", seen_by=None, reason="Miser")
        deal_hoard(ctx, me, "Miser")


POWER = Miser()


@register
class ChooseHoard(Step):
    """Game setup: the Miser keeps its dealt hand as its hand and the second as its hoard, or the other way round."""

    op = "choose_hoard"

    def prompts(self, state, step):
        me = step["player"]
        return [prompt(step, me, "choose_hoard", [
            option("keep", rule=RULE, label="keep your hand; the second hand is your hoard"),
            option("swap", rule=RULE, label="make your hand your hoard and play with the second one")],
            rule=RULE, info={"hand": len(hand(state, me)), "hoard": len(hoard(state, me))})]

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if opt["action"] == "swap":
            me = step["player"]
            held, hoarded = list(hand(ctx.state, me)), list(hoard(ctx.state, me))
            ctx.emit("CardsMoved", cards=held, src=f"hand:{me}", dst=f"hoard:{me}", seen_by=[me], reason="Miser")
            ctx.emit("CardsMoved", cards=hoarded, src=f"hoard:{me}", dst=f"hand:{me}", seen_by=[me], reason="Miser")

    def default(self, state, step, prompt_, rng):
        return {"action": "keep", "args": {}}


class MiserWild(Flare):
    """Wild: keep this flare and two more cards through a new hand, or out of a compensation's reach."""

    power = "Miser"
    mode = "wild"
    windows = ()
    # published text not confirmed (issue 25 item 9: not found in the sources searched): designed here after
    # public descriptions of the FFG alien, so `house`
    provenance = "house"
    description = ("When you must discard your hand for a new one, or another player is about to take consolation "
                   "from you, you may set this flare and up to two other cards of your hand aside face down: they "
                   "are not discarded (you draw your whole new hand besides them) or cannot be taken, and come back "
                   "to your hand afterwards.")

    def before_new_hand(self, ctx, me, card, *, player):
        if player == me:
            self.ask_to_play(ctx, me, card, {"reason": "new hand"})

    def before_cards_taken(self, ctx, me, card, *, player):
        if player == me:
            self.ask_to_play(ctx, me, card, {"reason": "consolation"})

    def reaction_options(self, state, me, card, context):
        others = [c for c in hand(state, me) if c != card]
        return [self.offer(card, {"keep": shapes.subset(others, 0, WILD_KEEPS)},
                           label=f"keep this flare and up to two cards through the {context['reason']}")]

    def use(self, ctx, me, card, args, use):
        keep = [c for c in args["keep"] if c in hand(ctx.state, me)]
        set_aside(ctx, me, keep, "Miser Wild Flare")
        if card in ctx.state["table"]:  # the flare itself goes aside with them
            ctx.emit("CardsMoved", cards=[card], src="table", dst=f"kept:{me}", seen_by=None,
                     reason="Miser Wild Flare")


class MiserSuper(Flare):
    """Super: as the offense, at the regroup, add the deck's top card to your hoard."""

    power = "Miser"
    mode = "super"
    windows = ("regroup",)
    # published text not confirmed (issue 25 item 9: not found in the sources searched): designed here after
    # public descriptions of the FFG alien, so `house`
    provenance = "house"
    description = ("As the offense, at the start of your challenge (regroup), draw one card from the deck into "
                   "your hoard.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] != me or not (state["deck"] or state["discard"]):
            return []
        return [self.offer(card, label="draw a card into your hoard")]

    def use(self, ctx, me, card, args, use):
        take_from_deck(ctx, 1, f"hoard:{me}", [me], "Miser Super Flare")


WILD = MiserWild()
SUPER = MiserSuper()

"""Mite: a defense holding a big hand must pay Mite in cards or in a base."""

from engine.flow import Step, option, prompt, register
from engine.handcards import discard_cards
from engine.powers.base import Flare, Power
from engine.state import hand, main_player
from engine.steps.game import END_OF_CHALLENGE
from engine.steps.tokens import move

HAND_LIMIT = 3
RULE = "power:Mite"


class Mite(Power):
    name = "Mite"
    editions = ("mayfair", "ffg")
    who = ("offense",)
    mandatory = True
    timing = "stage 3, as soon as the offense has launched"
    provenance = "mayfair"
    description = ("As the offense, once you have launched, if the defense holds more than 3 cards it must "
                   "choose: discard cards at random until it holds 3, or let you have a base on the target "
                   "planet. If it gives you the base, your tokens on the cone land there beside its own and the "
                   "challenge ends at once, counting as a success for you.")

    def on_launched(self, ctx, me, *, effect=None):
        state = ctx.state
        if state["turn"]["offense"] == me and over_limit(state):
            self.announce(ctx, me, "demand", {})

    def demand(self, ctx, me, context):
        """The announced demand survived any zap: the defense must choose (if it still holds too many)."""
        make_demand(ctx, me)


POWER = Mite()


def over_limit(state: dict) -> bool:
    """Whether the defense holds more cards than Mite lets it keep."""
    return len(hand(state, state["ch"]["defense"])) > HAND_LIMIT


def make_demand(ctx, by: str) -> None:
    """Ask the defense to pay: cards down to 3, or a base for ``by`` (the offense)."""
    if over_limit(ctx.state):
        ctx.then(ctx.step("mite_demand", by=by))


@register
class MiteDemand(Step):
    """The defense chooses: discard down to 3 cards at random, or give the offense a base on the target."""

    op = "mite_demand"

    def prompts(self, state, step):
        if not over_limit(state):
            return []
        defense = state["ch"]["defense"]
        keep = HAND_LIMIT
        options = [option("discard", rule=RULE, label=f"discard at random down to {keep} cards"),
                   option("give_base", rule=RULE, label=f"let {step['by']} have a base on {state['ch']['planet']}")]
        return [prompt(step, defense, "mite_demand", options, rule=RULE,
                       info={"by": step["by"], "planet": state["ch"]["planet"], "keep": keep,
                             "holding": len(hand(state, defense))})]

    def run(self, ctx, step):
        ctx.done()  # the defense no longer holds too many cards: nothing is owed

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if opt["action"] == "discard":
            pay_in_cards(ctx, step["by"])
        else:
            give_base(ctx, step["by"])

    def default(self, state, step, prompt_, rng):
        """Stated rule: when the defense does not answer in time, it keeps its bases and discards."""
        return {"action": "discard", "args": {}}


def pay_in_cards(ctx, by: str) -> None:
    """The defense loses cards at random until it holds 3 (to Mite's hand under its Super)."""
    state = ctx.state
    defense = state["ch"]["defense"]
    held = list(hand(state, defense))
    lost = ctx.rng.sample(held, len(held) - HAND_LIMIT)
    if SUPER.in_force(state, by):  # Mite's Super: the defense's discards go to its hand
        ctx.emit("CardsMoved", cards=lost, src=f"hand:{defense}", dst=f"hand:{by}", seen_by=sorted({defense, by}),
                 reason="Mite")
    else:
        discard_cards(ctx, defense, lost, "Mite")


def give_base(ctx, by: str) -> None:
    """The offense's tokens land on the target planet; the challenge succeeds and goes to stage 10."""
    state = ctx.state
    planet = state["ch"]["planet"]
    move(ctx, [(by, "cone:offense", planet, state["cone"]["offense"].get(by, 0))], "Mite: base given")
    ctx.emit("ChallengeResolved", outcome={"kind": "base_given", "winner": "offense", "succeeded": True,
                                           "planet": planet, "record": {}, "by": "Mite"})
    ctx.unwind("challenge", next=END_OF_CHALLENGE)


class MiteWild(Flare):
    """Wild: make Mite's demand once, as the offense, after launching."""

    power = "Mite"
    mode = "wild"
    windows = ("launch",)
    provenance = "house"
    description = ("As the offense, after you launch, if the defense holds more than 3 cards you may make "
                   "Mite's demand: it discards at random down to 3 cards or gives you a base on the target "
                   "planet (your tokens land and the challenge ends as a success).")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if state["turn"]["offense"] != me or not ch["planet"] or not over_limit(state):
            return []
        return [self.offer(card, label=f"demand cards or a base from {main_player(state, 'defense')}")]

    def use(self, ctx, me, card, args, use):
        make_demand(ctx, me)


class MiteSuper(Flare):
    """Super: this challenge, what the defense discards to your demand comes to your hand."""

    power = "Mite"
    mode = "super"
    windows = ("destiny",)
    lasting = True
    provenance = "house"
    description = ("Before you launch as the offense: this challenge, if the defense pays your demand in cards, "
                   "the cards it loses go into your hand instead of the discard pile.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if state["turn"]["offense"] != me or not ch["defense"] or ch["planet"]:
            return []
        return [self.offer(card, label="take the cards your demand makes the defense discard")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = MiteWild()
SUPER = MiteSuper()

"""Peacenik (004): antiwar demonstrators march onto a warmonger's base.

The march is two decisions after the power (or the Super flare) is used: the Peacenik
chooses which of its tokens march (three or more, from its other bases), then the player
whose base it is lets them stay or sends every token of both players there to the warp.
"""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import give_cards
from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import bases, hand, main_player, tokens_on, tokens_on_bases
from engine.steps.tokens import lose, move, take_in_order

SIDES = ("offense", "defense")
MARCHERS = 3  # at least this many tokens march
RULE = "power:Peacenik"


def march_sources(state: dict, me: str, planet: str) -> dict[str, int]:
    """Where the Peacenik's marching tokens may come from: its bases other than the destination."""
    return {p: n for p, n in tokens_on_bases(state, me).items() if p != planet}


def march_targets(state: dict, me: str, target: str) -> list[str]:
    """The target's bases the Peacenik can march at least three tokens onto."""
    return [p for p in bases(state, target) if sum(march_sources(state, me, p).values()) >= MARCHERS]


def warmongers(state: dict, me: str) -> list[str]:
    """Main players other than ``me`` whose revealed card counts as a War card."""
    ch = state["ch"]
    if not ch or not ch["revealed"]:
        return []
    return [main_player(state, side) for side in SIDES
            if main_player(state, side) != me and card_kind(state, side) == "war"]


def begin_march(ctx, me: str, target: str, planet: str) -> None:
    """Schedule the march: the Peacenik picks its tokens, then the target gives its verdict."""
    ctx.then(ctx.step("peacenik_march", player=me, target=target, planet=planet))


class Peacenik(Power):
    name = "Peacenik"
    who = ("any",)
    mandatory = False
    timing = "when another main player's War card is revealed"
    provenance = "source"
    requires = "war_cards"
    description = ("Whenever a main player other than you plays a War card, you may move three or more of your "
                   "tokens from your bases onto one of that player's bases. That player then either lets them "
                   "stay or sends every token of yours and of its own on that planet to the warp.")

    def on_revealed(self, ctx, me, effect=None):
        self.demonstrate(ctx, me)

    def on_use_applied(self, ctx, me, *, use, effect=None):
        """A card may become a War card after the reveal (Hawk's flares): that is playing one too (14.13)."""
        self.demonstrate(ctx, me)

    def demonstrate(self, ctx, me) -> None:
        """Offer a march against each main player whose card now counts as War, once per player and challenge."""
        if not ctx.state.get("ch"):
            return
        asked = list(ctx.state["ch"]["notes"].get("peacenik_asked") or [])
        new = [target for target in warmongers(ctx.state, me) if target not in asked]  # the offense's War first
        if not new:
            return
        ctx.emit("ChallengeNoted", key="peacenik_asked", value=asked + new)
        for target in new:
            self.ask_reaction(ctx, me, {"target": target})

    def reaction_options(self, state, me, context):
        planets = march_targets(state, me, context["target"])
        if not planets:
            return []
        return [self.offer({"planet": shapes.choice(planets)}, label=f"march onto a base of {context['target']}")]

    def react(self, ctx, me, args, context):
        begin_march(ctx, me, context["target"], args["planet"])


POWER = Peacenik()


@register
class PeacenikMarch(Step):
    """The Peacenik chooses the three or more tokens that march (asked only when there is a choice)."""

    op = "peacenik_march"

    def prompts(self, state, step):
        sources = march_sources(state, step["player"], step["planet"])
        if sum(sources.values()) <= MARCHERS:
            return []
        shape = shapes.distribution(sources, MARCHERS, sum(sources.values()))
        return [prompt(step, step["player"], "peacenik_march", [option("march", {"tokens": shape}, rule=RULE)],
                       rule=RULE, info={"planet": step["planet"], "target": step["target"]})]

    def run(self, ctx, step):
        sources = march_sources(ctx.state, step["player"], step["planet"])
        if sum(sources.values()) < MARCHERS:  # the tokens are gone meanwhile: no march
            ctx.done()
            return
        self.march(ctx, step, sources)

    def answer(self, ctx, step, prompt_, opt, args):
        self.march(ctx, step, args["tokens"])

    def march(self, ctx, step: dict, chosen: dict) -> None:
        """Move the marchers, then ask the target for its verdict."""
        ctx.replace(ctx.step("peacenik_verdict", player=step["player"], target=step["target"],
                             planet=step["planet"]))
        move(ctx, [(step["player"], src, step["planet"], n) for src, n in sorted(chosen.items())], "Peacenik")

    def default(self, state, step, prompt_, rng):
        """Stated rule: exactly three tokens, from the bases holding the most first."""
        sources = dict(prompt_["options"][0]["args"]["tokens"]["sources"])
        order = sorted(sources, key=lambda s: (-sources[s], s))
        return {"action": "march", "args": {"tokens": take_in_order(sources, MARCHERS, order)}}


@register
class PeacenikVerdict(Step):
    """The player marched upon lets the demonstrators stay, or sends both players' tokens there to the warp."""

    op = "peacenik_verdict"

    def prompts(self, state, step):
        planet, target = step["planet"], step["target"]
        if not tokens_on(state, planet, step["player"]):
            return []
        return [prompt(step, target, "peacenik_verdict",
                       [option("allow", rule=RULE, label="let the demonstrators stay"),
                        option("warp", rule=RULE, label="send your and their tokens there to the warp")],
                       rule=RULE, info={"planet": planet, "peacenik": step["player"],
                                        "tokens": tokens_on(state, planet, step["player"])})]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if opt["action"] == "warp":
            planet, target = step["planet"], step["target"]
            lose(ctx, [(step["player"], planet, tokens_on(ctx.state, planet, step["player"])),
                       (target, planet, tokens_on(ctx.state, planet, target))], "Peacenik", by=target)

    def default(self, state, step, prompt_, rng):
        """004: a player who cannot answer lets the tokens stay."""
        return {"action": "allow", "args": {}}


class PeacenikWild(Flare):
    """Wild: hand your Compromises to a player who just played a War card."""

    power = "Peacenik"
    mode = "wild"
    windows = ("reveal",)
    provenance = "source"
    description = ("When a main player other than you has played a War card, after the reveal: give that player "
                   "some or all of the Compromise cards in your hand.")

    def options(self, state, me, card, window):
        compromises = [c for c in hand(state, me) if cards.kind(c) == "compromise"]
        targets = warmongers(state, me)
        if not compromises or not targets:
            return []
        return [self.offer(card, {"player": shapes.choice(targets), "cards": shapes.subset(compromises, 1)},
                           label="give your Compromises to a warmonger")]

    def use(self, ctx, me, card, args, use):
        give_cards(ctx, me, args["player"], args["cards"], "Peacenik Wild Flare", public=True)


class PeacenikSuper(Flare):
    """Super: march on an offense that has just won with an Attack."""

    power = "Peacenik"
    mode = "super"
    windows = ("resolution",)
    provenance = "source"
    description = ("When the offense, other than you, has won the challenge with an Attack card: move three or "
                   "more of your tokens onto one of its bases; it lets them stay or sends every token of yours "
                   "and of its own there to the warp.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        offense = main_player(state, "offense")
        if not ch or not ch["outcome"] or offense == me or ch["outcome"].get("winner") != "offense":
            return []
        if card_kind(state, "offense") != "attack":
            return []
        planets = march_targets(state, me, offense)
        if not planets:
            return []
        return [self.offer(card, {"planet": shapes.choice(planets)}, label="march onto a base of the offense")]

    def use(self, ctx, me, card, args, use):
        begin_march(ctx, me, main_player(ctx.state, "offense"), args["planet"])


WILD = PeacenikWild()
SUPER = PeacenikSuper()

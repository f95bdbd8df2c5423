"""Shadow: whenever destiny points at another player, one of that player's ships goes to the warp.

The destiny step tells who a card drawn points at (``on_destiny_target``: a colour card's colour,
any other player for a wild card, the player a special card designates). Shadow's execution is
mandatory and announced (a Cosmic Zap may cancel it); Shadow chooses which colony loses the ship
(``execute``), and with a wild card which player, or none. Under the Super, on Shadow's own turn,
one of Shadow's ships from the warp takes the executed ship's place.
"""

from engine import shapes
from engine.flow import Step, option, prompt, register
from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import bases, side_of_main, warp_count
from engine.steps.tokens import lose, move

RULE = "power:Shadow"


def colonies(state: dict, player: str) -> list[str]:
    """The planets where ``player`` has a colony (home or foreign)."""
    return bases(state, player)


class Shadow(Power):
    name = "Shadow"
    editions = ("ffg",)
    who = ("any",)
    mandatory = True
    timing = "whenever a destiny card is drawn"
    windows = ()
    provenance = "ffg"
    description = ("Whenever the destiny card drawn is another player's colour, or a special destiny card that "
                   "designates another player, you send one of that player's tokens, from any base you choose, "
                   "to the warp. When a wild destiny card is drawn, you may do so to any other player's token.")

    def on_destiny_target(self, ctx, me, *, card, player, effect=None):
        if player == me:
            return
        targets = [player] if player is not None else [c for c in ctx.state["order"] if c != me]
        if any(colonies(ctx.state, t) for t in targets):
            self.announce(ctx, me, "execute", {"card": card, "targets": targets, "optional": player is None})

    def execute(self, ctx, me, context):
        """The announced execution stands: Shadow picks the ship (asked only where there is a choice)."""
        ctx.then(ctx.step("shadow_execute", player=me, targets=context["targets"],
                          optional=context["optional"], card=context["card"]))


POWER = Shadow()


@register
class ShadowExecute(Step):
    """Shadow chooses whose ship (a wild card) and from which colony it goes to the warp."""

    op = "shadow_execute"

    def choices(self, state: dict, step: dict) -> list[dict]:
        found = []
        for target in step["targets"]:
            places = colonies(state, target)
            if places:
                found.append(option("execute", {"planet": shapes.choice(places)}, rule=RULE, target=target,
                                    label=f"send one of {target}'s tokens to the warp"))
        return found

    def prompts(self, state, step):
        offered = self.choices(state, step)
        if not offered:
            return []
        if not step["optional"] and len(offered) == 1 and len(offered[0]["args"]["planet"]["values"]) == 1:
            return []  # one ship's colony to choose from: not a decision
        if step["optional"]:
            offered.append(option("decline", rule=RULE))
        return [prompt(step, step["player"], "execute", offered, rule=RULE, info={"card": step["card"]})]

    def run(self, ctx, step):
        offered = self.choices(ctx.state, step)
        ctx.done()
        if offered and not step["optional"]:
            only = offered[0]
            execute(ctx, step["player"], only["target"], only["args"]["planet"]["values"][0])

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if opt["action"] == "execute":
            execute(ctx, step["player"], opt["target"], args["planet"])

    def default(self, state, step, prompt_, rng):
        """Out of time: the first player offered loses a ship from its fullest colony (ties: board order)."""
        first = next(o for o in prompt_["options"] if o["action"] == "execute")
        places = first["args"]["planet"]["values"]
        fullest = max(places, key=lambda p: state["planets"][p].get(first["target"], 0))
        return {"action": "execute", "target": first["target"], "args": {"planet": fullest}}


def execute(ctx, me: str, target: str, planet: str) -> None:
    """One of ``target``'s ships on ``planet`` goes to the warp; on Shadow's turn, under its Super, one of
    Shadow's ships comes back from the warp to take its place."""
    if ctx.state["planets"][planet].get(target, 0) < 1:
        return
    lose(ctx, [(target, planet, 1)], "Shadow", by=me)
    if SUPER.in_force(ctx.state, me) and ctx.state["turn"]["offense"] == me and warp_count(ctx.state, me):
        ctx.then(ctx.step("shadow_replace", player=me, planet=planet))


@register
class ShadowReplace(Step):
    """Under the Super: Shadow may put one of its ships from the warp where the executed ship stood."""

    op = "shadow_replace"

    def prompts(self, state, step):
        if not warp_count(state, step["player"]):
            return []
        return [prompt(step, step["player"], "replace", [
            option("replace", rule=RULE, label=f"put one of your tokens from the warp on {step['planet']}"),
            option("decline", rule=RULE)], rule=RULE, info={"planet": step["planet"]})]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if opt["action"] == "replace":
            move(ctx, [(step["player"], "warp", step["planet"], 1)], "Shadow Super Flare")

    def default(self, state, step, prompt_, rng):
        return {"action": "replace", "args": {}}


class ShadowWild(Flare):
    """Wild: as the defense beaten by an Attack, take the winners to the warp with you."""

    power = "Shadow"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("As the defense, after the reveal: if you lose this challenge to an Attack card, you send one of "
                   "your tokens not in the challenge to the warp, and every token of the winning side goes to the "
                   "warp with yours; the winners gain no base.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) != "defense" or not state["ch"]["revealed"] or self.in_force(state, me):
            return []
        return [self.offer(card, label="if you lose to an Attack, take the winners to the warp with you")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def outcome(self, state, me, value, *, effect):
        if side_of_main(state, me) != "defense" or value.get("winner") != "offense" or value.get("both_lose"):
            return value
        if card_kind(state, "offense") != "attack":
            return value
        if not _other_colony(state, me):
            return value  # no ship outside the encounter to send: the flare does nothing
        also = list(value.get("also_lost") or []) + [{"player": me, "count": 1, "reason": "Shadow Wild Flare"}]
        return {**value, "winners_to_warp": "Shadow Wild Flare", "also_lost": also}


def _other_colony(state: dict, me: str) -> bool:
    """Whether ``me`` has ships on a colony other than the encounter's planet."""
    return any(p != state["ch"]["planet"] for p in bases(state, me))


class ShadowSuper(Flare):
    """Super: on your turn, a ship of yours from the warp takes the place of the ship you execute."""

    power = "Shadow"
    mode = "super"
    windows = ("start", "regroup")
    lasting = True
    provenance = "ffg"
    description = ("As the offense, before destiny: this challenge, when your power sends another player's token to "
                   "the warp you may put one of your own tokens from the warp on the base it was taken from.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] != me or self.in_force(state, me):
            return []
        return [self.offer(card, label="your tokens from the warp replace the tokens you execute")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = ShadowWild()
SUPER = ShadowSuper()

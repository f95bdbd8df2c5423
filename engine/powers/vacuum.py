"""Vacuum: whenever its tokens go to the warp, it drags as many of other players' tokens along."""

from engine import shapes
from engine.flow import Step, option, prompt, register
from engine.powers.base import Flare, Power
from engine.steps.tokens import leaves_a_choice, lose, take_in_order, taken_without_choice

REASON = "Vacuum"
SEP = "/"  # a source key is "<planet>/<colour>": planet ids and colours never contain it


def warp_losses(losses: list[dict], me: str) -> int:
    """How many of my tokens a loss report sent to the warp."""
    return sum(entry["count"] for entry in losses if entry["player"] == me and entry["to"] == "warp")


def pull_sources(state: dict, me: str) -> dict[str, int]:
    """Every other player's tokens on planets, keyed ``planet/colour``."""
    return {f"{planet}{SEP}{color}": n for planet, tokens in state["planets"].items()
            for color, n in sorted(tokens.items()) if color != me and n > 0}


def schedule_pull(ctx, me: str, count: int, why: str, ffg: bool = False) -> None:
    """Ask ``me`` which tokens of other players follow its own into the warp (``ffg``: up to ``count``, named
    by player, each victim choosing its colonies: the FFG power's reading)."""
    ctx.then(ctx.step("vacuum", player=me, count=count, why=why, **({"ffg": True} if ffg else {})))


def pull_players(state: dict, me: str) -> dict[str, int]:
    """Every other player with tokens on planets, with how many (the FFG Vacuum names players, not colonies)."""
    found = {}
    for tokens in state["planets"].values():
        for color, n in tokens.items():
            if color != me and n > 0:
                found[color] = found.get(color, 0) + n
    return {color: found[color] for color in state["order"] if color in found}


class Vacuum(Power):
    name = "Vacuum"
    editions = ("mayfair", "ffg")
    who = ("any",)
    mandatory = True
    timing = "whenever you lose tokens to the warp"
    provenance = "mayfair"
    description = ("Whenever any of your tokens go to the warp, you choose the same number of other players' "
                   "tokens on any planets and they go to the warp too. Tokens pulled this way do not set off "
                   "Vacuum again.")
    # the FFG card: up to as many, the Vacuum naming players and counts, their owners choosing the colonies
    readings = {"ffg": {"description": (
        "Whenever any of your ships go to the warp, you take up to as many other players' ships along: you say "
        "which players lose how many, and each of them chooses from which of its colonies. Ships taken this way "
        "do not set off Vacuum again.")}}

    def on_tokens_lost(self, ctx, me, *, effect, losses, reason):
        count = warp_losses(losses, me)
        if count and reason != REASON:  # a pull never sets off another pull: no endless chains
            if SUPER.in_force(ctx.state, me):
                count *= 2
            self.announce(ctx, me, "pull", {"count": count})

    def pull(self, ctx, me, context):
        """The announced effect survived any zap: choose the victims."""
        schedule_pull(ctx, me, context["count"], "Vacuum", ffg=self.reads(ctx.state, "ffg"))


POWER = Vacuum()


@register
class VacuumPull(Step):
    """Vacuum picks other players' tokens to go to the warp; asked only when there is a choice."""

    op = "vacuum"

    def prompts(self, state, step):
        if step.get("ffg"):
            victims = pull_players(state, step["player"])
            total = min(step["count"], sum(victims.values()))
            if not total:
                return []
            shape = shapes.distribution(victims, 0, total)
            return [prompt(step, step["player"], "vacuum", [option("pull", {"tokens": shape}, rule="power:Vacuum")],
                           rule="power:Vacuum", info={"count": total, "by": step["why"], "up_to": True})]
        sources = pull_sources(state, step["player"])
        total = min(step["count"], sum(sources.values()))
        if not leaves_a_choice(sources, total):
            return []
        shape = shapes.distribution(sources, total, total)
        return [prompt(step, step["player"], "vacuum", [option("pull", {"tokens": shape}, rule="power:Vacuum")],
                       rule="power:Vacuum", info={"count": total, "by": step["why"]})]

    def run(self, ctx, step):
        if step.get("ffg"):  # nobody else has a ship on a planet: nothing to take along
            ctx.done()
            return
        sources = pull_sources(ctx.state, step["player"])
        chosen = taken_without_choice(sources, min(step["count"], sum(sources.values())))
        ctx.done()
        if chosen:
            self.pull(ctx, step, chosen)

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if step.get("ffg"):  # each player named loses that many ships of its own choice
            ctx.then(*[ctx.step("losses", player=color, count=n, reason=REASON, by=step["player"], cone=False)
                       for color, n in sorted(args["tokens"].items(), key=lambda kv: ctx.state["order"].index(kv[0]))
                       if n > 0])
            return
        self.pull(ctx, step, args["tokens"])

    def pull(self, ctx, step: dict, chosen: dict) -> None:
        """The chosen tokens go to the warp (as a loss: Zombie, Healer and the like still apply)."""
        losses = []
        for key, n in sorted(chosen.items()):
            planet, color = key.split(SEP)
            losses.append((color, planet, n))
        lose(ctx, losses, REASON, by=step["player"])

    def default(self, state, step, prompt_, rng):
        """Stated rule: from the biggest stacks first (ties in board order)."""
        sources = prompt_["options"][0]["args"]["tokens"]["sources"]
        order = sorted(sources, key=lambda k: -sources[k])
        return {"action": "pull", "args": {"tokens": take_in_order(sources, prompt_["info"]["count"], order)}}


class VacuumWild(Flare):
    """Wild: for this challenge you pull tokens along as the Vacuum does."""

    power = "Vacuum"
    mode = "wild"
    windows = ("launch", "alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "house"
    description = ("During a challenge, before it is resolved: for the rest of the challenge, whenever you "
                   "lose tokens to the warp you choose as many other players' tokens and they go to the "
                   "warp too.")

    def options(self, state, me, card, window):
        if self.in_force(state, me):
            return []
        return [self.offer(card, label="drag other tokens along when you lose tokens")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def on_tokens_lost(self, ctx, me, *, effect, losses, reason):
        count = warp_losses(losses, me)
        if count and reason != REASON:
            schedule_pull(ctx, me, count, "Vacuum Wild Flare")


class VacuumSuper(Flare):
    """Super: for this challenge your power pulls two tokens for each of yours."""

    power = "Vacuum"
    mode = "super"
    windows = ("launch", "alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "house"
    description = ("During a challenge, before it is resolved: for the rest of the challenge, your power "
                   "pulls two other players' tokens into the warp for each of yours that goes there.")

    def options(self, state, me, card, window):
        return [] if self.in_force(state, me) else [self.offer(card, label="pull two tokens for each of yours")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = VacuumWild()
SUPER = VacuumSuper()

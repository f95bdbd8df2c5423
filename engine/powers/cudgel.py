"""Cudgel: a defeated opponent loses extra tokens, one for each Cudgel token in the challenge."""

from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import allies, main_player, opponent_side, side_of_main
from engine.steps.tokens import lose


def won_with_attack(state: dict, me: str, outcome: dict) -> str | None:
    """My side, if I am the main player who won this challenge with an Attack card."""
    side = side_of_main(state, me)
    if side is None or outcome.get("winner") != side or outcome.get("kind") == "deal":
        return None
    return side if card_kind(state, side) == "attack" else None


class Cudgel(Power):
    name = "Cudgel"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "after winning a challenge with an Attack card"
    provenance = "mayfair"
    description = ("As a main player, when you win a challenge with an Attack card, your opponent loses as "
                   "many more tokens as you had in the challenge, of its choice from its bases, on top of "
                   "its usual losses.")

    def on_resolved(self, ctx, me, *, effect, outcome):
        side = won_with_attack(ctx.state, me, outcome)
        if side is None:
            return
        count = (outcome.get("tokens") or {}).get(side, {}).get(me, 0)
        if not count:
            return
        loser = opponent_side(side)
        victims = [main_player(ctx.state, loser)]
        if SUPER.in_force(ctx.state, me):
            victims += allies(ctx.state, loser)
        self.announce(ctx, me, "smash", {"victims": victims, "count": count})

    def smash(self, ctx, me, context):
        """The announced effect survived any zap: each victim loses the extra tokens of its choice."""
        ctx.then(*[ctx.step("losses", player=victim, count=context["count"], reason="Cudgel", by=me, cone=False)
                   for victim in context["victims"]])


POWER = Cudgel()


class CudgelWild(Flare):
    """Wild: clear the conquered planet of everyone else."""

    power = "Cudgel"
    mode = "wild"
    windows = ("resolution",)
    provenance = "ffg"
    description = ("As the offense, after winning the challenge: every token on the target planet that does "
                   "not belong to you or your allies goes to the warp.")

    def options(self, state, me, card, window):
        if not self.bystanders(state, me):
            return []
        return [self.offer(card, label="send everyone else on the planet to the warp")]

    def bystanders(self, state: dict, me: str) -> dict[str, int]:
        """Other players' tokens on the planet I just took, my allies' excepted."""
        ch = state["ch"]
        result = ch["outcome"] or {}
        if me != state["turn"]["offense"] or result.get("winner") != "offense" or not ch["planet"]:
            return {}
        friends = {me, *allies(state, "offense")}
        return {c: n for c, n in state["planets"][ch["planet"]].items() if c not in friends and n > 0}

    def use(self, ctx, me, card, args, use):
        planet = ctx.state["ch"]["planet"]
        lose(ctx, [(c, planet, n) for c, n in sorted(self.bystanders(ctx.state, me).items())], "Cudgel Wild Flare",
             by=me)


class CudgelSuper(Flare):
    """Super: the opponent's allies are smashed too."""

    power = "Cudgel"
    mode = "super"
    windows = ("launch", "alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "ffg"
    description = ("As a main player, for the rest of this challenge your power also hits each of your "
                   "opponent's allies: each loses as many extra tokens as you had in the challenge.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or self.in_force(state, me):
            return []
        return [self.offer(card, label="your power also smashes the opponent's allies")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = CudgelWild()
SUPER = CudgelSuper()

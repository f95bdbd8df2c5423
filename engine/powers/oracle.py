"""Oracle: the opponent must commit its challenge card face up before the Oracle chooses."""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.powers.base import Flare, Power
from engine.state import challenge_cards, hand, main_player, opponent_side, side_of_main


def opponent_of(state: dict, me: str) -> tuple[str, str] | None:
    """``(side, player)`` of a main player's opponent, or None when ``me`` is not a main player."""
    side = side_of_main(state, me)
    if side is None:
        return None
    other = opponent_side(side)
    return other, main_player(state, other)


def still_to_choose(state: dict, side: str) -> bool:
    """Whether a side has yet to commit a challenge card this stage 7."""
    return not any(cards.is_challenge_card(c) for c in state["committed"][side])


class Oracle(Power):
    name = "Oracle"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "stage 7 (play challenge cards)"
    provenance = "mayfair"
    description = ("As a main player, your opponent must choose its challenge card first and commit it face "
                   "up, for everyone to see; only then do you choose yours, face down as usual.")

    def chooses_first(self, state, me, value, *, effect=None):
        found = opponent_of(state, me)
        return found[0] if found else value


POWER = Oracle()


class OracleWild(Flare):
    """Wild: mix your hand with your opponent's and deal both back at random."""

    power = "Oracle"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("As a main player, before challenge cards are chosen, shuffle your hand together with your "
                   "opponent's and deal each of you back at random as many cards as you held before.")

    def options(self, state, me, card, window):
        found = opponent_of(state, me)
        if found is None or not still_to_choose(state, found[0]):
            return []
        mine = [c for c in hand(state, me) if c != card]
        if not mine and not hand(state, found[1]):
            return []
        return [self.offer(card, label="mix hands with your opponent")]

    def use(self, ctx, me, card, args, use):
        _side, them = opponent_of(ctx.state, me)
        mine, theirs = list(hand(ctx.state, me)), list(hand(ctx.state, them))
        pool = mine + theirs
        ctx.rng.shuffle(pool)
        my_new = set(pool[:len(mine)])
        leaving_me = [c for c in mine if c not in my_new]
        coming_to_me = [c for c in theirs if c in my_new]
        # each card passes between the two hands only: both players see it (each saw it before or after)
        for cards_, src, dst in ((leaving_me, me, them), (coming_to_me, them, me)):
            if cards_:
                ctx.emit("CardsMoved", cards=cards_, src=f"hand:{src}", dst=f"hand:{dst}",
                         seen_by=sorted({me, them}), reason="Oracle Wild Flare")


class OracleSuper(Flare):
    """Super: look at your opponent's hand and pick the challenge card it plays."""

    power = "Oracle"
    mode = "super"
    windows = ("planning",)
    provenance = "house"
    description = ("As the Oracle main player, before challenge cards are chosen, look at your opponent's hand "
                   "and choose which of its challenge cards it must play; it is committed face up.")

    def options(self, state, me, card, window):
        found = opponent_of(state, me)
        if found is None or not still_to_choose(state, found[0]) or not challenge_cards(state, found[1]):
            return []
        return [self.offer(card, label="choose your opponent's challenge card")]

    def use(self, ctx, me, card, args, use):
        side, them = opponent_of(ctx.state, me)
        if not still_to_choose(ctx.state, side) or not challenge_cards(ctx.state, them):
            return
        ctx.emit("HandRevealed", player=them, to=[me], cards=list(hand(ctx.state, them)))
        ctx.then(ctx.step("oracle_pick", player=me, victim=them, side=side))


@register
class OraclePick(Step):
    """The Oracle, having seen the opponent's hand, names the challenge card the opponent plays."""

    op = "oracle_pick"

    def prompts(self, state, step):
        offered = challenge_cards(state, step["victim"])
        if not offered or not still_to_choose(state, step["side"]):
            return []
        return [prompt(step, step["player"], "oracle_pick",
                       [option("pick", {"card": shapes.choice(offered)}, rule="flare:Oracle")],
                       rule="flare:Oracle", info={"opponent": step["victim"]})]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        # committed face up: the Oracle's power shows the opponent's card to everyone anyway
        ctx.emit("ChallengeCardChosen", player=step["victim"], side=step["side"], card=args["card"], seen_by=None)

    def default(self, state, step, prompt_, rng):
        """The lowest card: an Attack of least value, a Compromise counting as zero."""
        values = prompt_["options"][0]["args"]["card"]["values"]
        return {"action": "pick", "args": {"card": min(values, key=lambda c: (cards.attack_value(c) or 0, c))}}


WILD = OracleWild()
SUPER = OracleSuper()

"""Hate: at the start of its turn Hate discards a card, and everyone else must match it or suffer."""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import discard_cards
from engine.powers.base import Flare, Power
from engine.state import challenge_cards, clockwise_from_left, hand

TOKEN_LOSS = 3
RULE = "power:Hate"


class Hate(Power):
    name = "Hate"
    editions = ("mayfair", "ffg")
    who = ("offense",)
    mandatory = True
    timing = "start of your turn (the start of its first challenge)"
    provenance = "mayfair"
    description = ("At the start of your turn, you must discard a card of your choice. Then each other player, "
                   "clockwise from your left, either discards a card of the same kind (for an Attack, an Attack "
                   "at least as high) or loses 3 tokens of its choice to the warp. A player without such a card "
                   "loses the tokens.")
    # the FFG card: the Hate chooses the ships lost, and draws a new hand if left without encounter cards
    readings = {"ffg": {"description": (
        "At the start of your turn, you must discard a card of your choice. Then each other player, clockwise "
        "from your left, either discards a card of the same kind (for an Attack, an Attack at least as high) "
        "or loses 3 ships of your choice to the warp. A player without such a card loses the ships. If you "
        "then hold no encounter card, you draw a new hand.")}}

    def on_challenge_began(self, ctx, me, *, number, effect=None):
        state = ctx.state
        if number == 1 and state["turn"]["offense"] == me and hand(state, me):
            self.announce(ctx, me, "hate", {})

    def hate(self, ctx, me, context):
        """The announced effect survived any zap: Hate chooses its card."""
        begin_hate(ctx, me, ffg=self.reads(ctx.state, "ffg"))


POWER = Hate()


def begin_hate(ctx, player: str, ffg: bool = False) -> None:
    """``player`` discards a card of its choice; the others must match it (the ``hate`` step). ``ffg``: the FFG
    power's reading (the hater chooses the ships lost, and draws a new hand left without encounter cards)."""
    if hand(ctx.state, player):
        ctx.then(ctx.step("hate", player=player, card=None, pending=None, **({"ffg": True} if ffg else {})))


def matches(hated: str, card: str) -> bool:
    """Whether ``card`` answers the hated card: the same kind, and for an Attack one at least as high."""
    if cards.kind(card) != cards.kind(hated):
        return False
    if cards.kind(hated) == "attack":
        return cards.attack_value(card) >= cards.attack_value(hated)
    return True


def matching(state: dict, player: str, hated: str) -> list[str]:
    """The cards in a player's hand that answer the hated card."""
    return [c for c in hand(state, player) if matches(hated, c)]


@register
class HateStep(Step):
    """The hater discards a card; then each other player matches it or loses 3 tokens."""

    op = "hate"

    def prompts(self, state, step):
        player = step["player"]
        if step["card"] is None:
            held = hand(state, player)
            if not held:
                return []
            return [prompt(step, player, "hate_discard",
                           [option("discard", {"card": shapes.choice(held)}, rule=RULE)], rule=RULE)]
        pending = step["pending"]
        if any(not matching(state, p, step["card"]) for p in pending):
            return []  # those who cannot match lose their tokens first, without being asked
        return [prompt(step, p, "hate_answer",
                       [option("discard", {"card": shapes.choice(matching(state, p, step["card"]))}, rule=RULE,
                               label="discard a matching card"),
                        option("lose_tokens", rule=RULE, label=f"lose {TOKEN_LOSS} tokens")],
                       rule=RULE, info={"hated": step["card"], "by": player})
                for p in pending]

    def run(self, ctx, step):
        if step["card"] is None:  # the hater holds no card: nothing happens
            ctx.done()
            return
        state = ctx.state
        unable = [p for p in step["pending"] if not matching(state, p, step["card"])]
        rest = [p for p in step["pending"] if p not in unable]
        finish(ctx, rest, unable, step["player"], step.get("ffg", False))

    def answer(self, ctx, step, prompt_, opt, args):
        player = prompt_["player"]
        # the step's progress is recorded before the discard: a discarded edict may schedule Vulch's take
        if step["card"] is None:
            ctx.update(card=args["card"], pending=clockwise_from_left(ctx.state, player))
            discard_cards(ctx, player, [args["card"]], "Hate")
            return
        rest = [p for p in step["pending"] if p != player]
        ffg = step.get("ffg", False)
        if opt["action"] == "discard":
            finish(ctx, rest, [], step["player"], ffg)
            discard_cards(ctx, player, [args["card"]], "Hate")
        else:
            finish(ctx, rest, [player], step["player"], ffg)

    def default(self, state, step, prompt_, rng):
        """Stated rule: the hater discards its first card; a victim discards its lowest matching card."""
        values = prompt_["options"][0]["args"]["card"]["values"]
        if prompt_["kind"] == "hate_discard":
            return {"action": "discard", "args": {"card": values[0]}}
        lowest = min(values, key=lambda c: (cards.attack_value(c) or 0, c))
        return {"action": "discard", "args": {"card": lowest}}


def finish(ctx, pending: list[str], losers: list[str], hater: str, ffg: bool = False) -> None:
    """Record who is still to answer, then make the losers lose their tokens (before anything else); under the
    FFG reading the hater chooses them, and once all have answered draws a new hand if it holds no encounter
    card."""
    if pending:
        ctx.update(pending=pending)
    else:
        ctx.done()
    chooser = {"chooser": hater} if ffg else {}
    if losers:
        ctx.then(*[ctx.step("losses", player=p, count=TOKEN_LOSS, reason="Hate", by=hater, **chooser)
                   for p in losers])
    if ffg and not pending and not challenge_cards(ctx.state, hater):
        ctx.then(ctx.step("redraw", player=hater))


class HateWild(Flare):
    """Wild: at the start of a challenge, hate once as Hate does."""

    power = "Hate"
    mode = "wild"
    windows = ("start",)
    provenance = "house"
    description = ("At the start of a challenge, you may discard a card of your choice: each other player must "
                   "discard a card of the same kind (for an Attack, one at least as high) or lose 3 tokens.")

    def options(self, state, me, card, window):
        if not [c for c in hand(state, me) if c != card]:
            return []
        return [self.offer(card, label="discard a card: the others match it or lose 3 tokens")]

    def use(self, ctx, me, card, args, use):
        begin_hate(ctx, me)


class HateSuper(Flare):
    """Super: as the offense at the start of a challenge, your power acts once more."""

    power = "Hate"
    mode = "super"
    windows = ("start",)
    provenance = "house"
    description = ("As the offense at the start of a challenge (after your power has acted, or in a second "
                   "challenge), hate again: discard another card; each other player matches it or loses 3 tokens.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] != me or not [c for c in hand(state, me) if c != card]:
            return []
        return [self.offer(card, label="hate again")]

    def use(self, ctx, me, card, args, use):
        begin_hate(ctx, me)


WILD = HateWild()
SUPER = HateSuper()

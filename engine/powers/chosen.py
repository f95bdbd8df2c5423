"""Chosen: after the reveal, divine help from the top of the deck."""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import take_from_deck
from engine.powers.base import Flare, Power
from engine.registry import register_effect
from engine.revealed import card_kind
from engine.state import side_of_main

POWER_DRAW = 3
WILD_DRAW = 2
SUPER_DRAW = 5
BONUS_SOURCE = "bonus:Chosen"  # the effect key of an Attack's value added to a revealed Attack


def revealed_kind(state: dict, side: str) -> str | None:
    """What a side's revealed challenge card counts as now."""
    return card_kind(state, side)


def can_call(state: dict, me: str) -> bool:
    """A main player whose card is revealed (and the challenge not yet decided) may call for help."""
    side = side_of_main(state, me)
    ch = state["ch"]
    return side is not None and bool(ch["revealed"]) and not ch["outcome"] and bool(state["committed"][side])


def call_for_help(ctx, me: str, count: int, reason: str, may_swap: bool) -> None:
    """Draw ``count`` cards aside, then let the player use one (or be bound to a War card, 004)."""
    side = side_of_main(ctx.state, me)
    drawn = take_from_deck(ctx, count, "aside", None, reason)  # turned up: everyone sees them
    if not drawn:
        return
    wars = [c for c in drawn if cards.kind(c) == "war"]
    if may_swap and wars and ctx.state["options"].get("war_cards"):
        # 004: a War card drawn by the Chosen decides the challenge in place of its own card
        swap_in(ctx, me, side, wars[0], reason)
        discard_aside(ctx, drawn, reason)
        return
    ctx.then(ctx.step("chosen_pick", player=me, side=side, drawn=drawn, may_swap=may_swap, reason=reason))


def swap_in(ctx, me: str, side: str, card: str, reason: str) -> None:
    """The revealed card is discarded and the drawn card is played (revealed) in its place."""
    mine = [c for c in ctx.state["committed"][side] if cards.is_challenge_card(c)]
    if mine:
        ctx.emit("CardsMoved", cards=mine, src=f"committed:{side}", dst="discard", seen_by=None, reason=reason)
    ctx.emit("CardsMoved", cards=[card], src="aside", dst=f"committed:{side}", seen_by=None, reason=reason)
    committed = ctx.state["committed"]
    ctx.emit("ChallengeCardsRevealed", offense=list(committed["offense"]), defense=list(committed["defense"]))


def add_value(ctx, me: str, side: str, card: str, reason: str) -> None:
    """An Attack drawn joins the revealed Attack: it lies face up on the table and its value is added."""
    ctx.emit("CardsMoved", cards=[card], src="aside", dst="table", seen_by=None, reason=reason)
    ctx.emit("EffectAdded", effect={"source": BONUS_SOURCE, "player": me, "side": side, "card": card,
                                    "value": cards.attack_value(card)})


def discard_aside(ctx, drawn: list[str], reason: str) -> None:
    """Whatever was drawn and not used goes to the discard pile."""
    left = [c for c in drawn if c in ctx.state["aside"]]
    if left:
        ctx.emit("CardsMoved", cards=left, src="aside", dst="discard", seen_by=None, reason=reason)


class Bonus:
    """The hook handler of an added Attack value (registered under ``BONUS_SOURCE``)."""

    def attack_values(self, state, me, value, *, effect):
        side = effect["side"]
        if value.get(side) is None:
            return value
        return {**value, side: value[side] + effect["value"]}


register_effect(BONUS_SOURCE, Bonus())


@register
class ChosenPick(Step):
    """The player decides what to do with the cards drawn aside."""

    op = "chosen_pick"

    def choices(self, state: dict, step: dict) -> list[dict]:
        """Swap for a drawn challenge card, add a drawn Attack's value, or neither."""
        drawn = [c for c in step["drawn"] if c in state["aside"]]
        found = []
        swaps = [c for c in drawn if cards.is_challenge_card(c)]
        if step["may_swap"] and swaps:
            found.append(option("swap", {"card": shapes.choice(swaps)}, rule="power:Chosen",
                                label="play a drawn challenge card instead of yours"))
        attacks = [c for c in drawn if cards.kind(c) == "attack"]
        if attacks and revealed_kind(state, step["side"]) == "attack":
            found.append(option("add", {"card": shapes.choice(attacks)}, rule="power:Chosen",
                                label="add a drawn Attack's value to yours"))
        return found

    def prompts(self, state, step):
        offered = self.choices(state, step)
        if not offered:
            return []
        return [prompt(step, step["player"], "chosen_pick",
                       offered + [option("keep", rule="power:Chosen", label="use none of them")],
                       rule="power:Chosen", info={"drawn": step["drawn"]})]

    def run(self, ctx, step):
        ctx.done()
        discard_aside(ctx, step["drawn"], step["reason"])

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        if opt["action"] == "swap":
            swap_in(ctx, step["player"], step["side"], args["card"], step["reason"])
        elif opt["action"] == "add":
            add_value(ctx, step["player"], step["side"], args["card"], step["reason"])
        discard_aside(ctx, step["drawn"], step["reason"])

    def default(self, state, step, prompt_, rng):
        """Add the highest Attack drawn if that is possible, else use nothing."""
        add = next((o for o in prompt_["options"] if o["action"] == "add"), None)
        if add is None:
            return {"action": "keep", "args": {}}
        best = max(add["args"]["card"]["values"], key=lambda c: (cards.attack_value(c), c))
        return {"action": "add", "args": {"card": best}}


class Chosen(Power):
    name = "Chosen"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "after the reveal (stage 8), once per challenge"
    windows = ("reveal",)
    provenance = "mayfair"
    description = ("As a main player, after the challenge cards are revealed you may turn up the top three "
                   "cards of the deck. You may play one drawn challenge card in place of your revealed card, "
                   "or add one drawn Attack's value to your revealed Attack, or use none; the rest are "
                   "discarded. With War cards in the game, a War card among them must replace your card.")

    def options(self, state, me, window):
        if not can_call(state, me):
            return []
        return [self.offer(label=f"draw {POWER_DRAW} cards for divine help")]

    def use(self, ctx, me, args, use):
        if can_call(ctx.state, me):
            call_for_help(ctx, me, POWER_DRAW, "Chosen", may_swap=True)


POWER = Chosen()


class ChosenWild(Flare):
    """Wild: two cards from the deck; one drawn Attack may add its value."""

    power = "Chosen"
    mode = "wild"
    windows = ("reveal",)
    provenance = "house"
    description = ("As a main player who revealed an Attack, after the reveal turn up the top two cards of the "
                   "deck; you may add one drawn Attack's value to your revealed Attack. The rest are discarded.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if not can_call(state, me) or revealed_kind(state, side) != "attack":
            return []
        return [self.offer(card, label=f"draw {WILD_DRAW} cards, add an Attack")]

    def use(self, ctx, me, card, args, use):
        if can_call(ctx.state, me):
            call_for_help(ctx, me, WILD_DRAW, "Chosen Wild Flare", may_swap=False)


class ChosenSuper(Flare):
    """Super: the Chosen calls for help with five cards instead of three."""

    power = "Chosen"
    mode = "super"
    windows = ("reveal",)
    provenance = "house"
    description = ("As the Chosen main player, after the reveal turn up the top five cards of the deck and use "
                   "them as your power uses three: play one drawn challenge card instead of yours or add one "
                   "drawn Attack's value to your Attack. This is in addition to your power's own use.")

    def options(self, state, me, card, window):
        if not can_call(state, me):
            return []
        return [self.offer(card, label=f"draw {SUPER_DRAW} cards for divine help")]

    def use(self, ctx, me, card, args, use):
        if can_call(ctx.state, me):
            call_for_help(ctx, me, SUPER_DRAW, "Chosen Super Flare", may_swap=True)


WILD = ChosenWild()
SUPER = ChosenSuper()

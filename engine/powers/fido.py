"""Fido: fetches the encounter cards just discarded and offers them to the other players.

When the cards an encounter was resolved with go to the discard pile (stage 9: the trigger
``on_encounter_cards_discarded``), Fido may fetch one of them and offer it to another player. The
offer is that player's decision (``card_offer``): accepted, the card goes to its hand and Fido is
rewarded with a ship from the warp or a card from the deck (``fetch_reward``); refused, Fido keeps
the card or leaves it on the discard pile (``fetch_refused``). The card lies face up: every move
of it is public.
"""

from engine import shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import draw
from engine.powers.base import Flare, Power
from engine.state import side_of_main, warp_count
from engine.steps.tokens import return_home

RULE = "power:Fido"
WINDOWS = ("reveal", "resolution", "discard")  # the Super is played before the cards are discarded


def fetchable(state: dict, found: list[str]) -> list[str]:
    """The cards of ``found`` still lying on the discard pile (a power may have taken one since)."""
    return [c for c in found if c in state["discard"]]


def take_from_discard(ctx, card: str, player: str, reason: str) -> None:
    """A face-up card goes from the discard pile to a player's hand (everyone sees which)."""
    ctx.emit("CardsMoved", cards=[card], src="discard", dst=f"hand:{player}", seen_by=None, reason=reason)


class Fido(Power):
    name = "Fido"
    editions = ("ffg",)
    who = ("any",)
    mandatory = False
    timing = "stage 9, once the challenge cards are discarded"
    windows = ()
    provenance = "ffg"
    description = ("When the challenge cards a challenge was resolved with are discarded, you may fetch one of "
                   "them from the discard pile and offer it to another player. If that player takes it, you may "
                   "bring one of your tokens back from the warp to a base or draw a card. If the player turns it "
                   "down, you keep the card or leave it discarded. (Only the cards played to resolve the "
                   "challenge may be fetched.)")

    def on_encounter_cards_discarded(self, ctx, me, *, cards, effect=None):
        if fetchable(ctx.state, cards) and len(ctx.state["order"]) > 1:
            self.ask_reaction(ctx, me, {"cards": list(cards)})

    def reaction_options(self, state, me, context):
        found = fetchable(state, context["cards"])
        if not found:
            return []
        others = [c for c in state["order"] if c != me]
        return [self.offer({"card": shapes.choice(found), "player": shapes.choice(others)},
                           label="fetch a discarded challenge card and offer it to a player")]

    def react(self, ctx, me, args, context):
        if args["card"] not in ctx.state["discard"]:
            return
        rest = [c for c in fetchable(ctx.state, context["cards"]) if c != args["card"]]
        ctx.then(ctx.step("fido_offer", player=me, target=args["player"], card=args["card"], rest=rest))


POWER = Fido()


@register
class FidoOffer(Step):
    """The player offered the fetched card takes it or turns it down; then Fido is rewarded or keeps it.

    Under Fido's Super, Fido is asked again for the encounter cards still on the discard pile.
    """

    op = "fido_offer"

    def prompts(self, state, step):
        card, fido, phase = step["card"], step["player"], step.get("phase", "offer")
        if phase == "offer":
            if card not in state["discard"]:
                return []
            return [prompt(step, step["target"], "card_offer",
                           [option("accept", rule=RULE, label=f"take the {card} Fido offers"),
                            option("refuse", rule=RULE, label="turn it down")],
                           rule=RULE, info={"card": card, "from": fido})]
        if phase == "reward":
            choices = []
            if warp_count(state, fido):
                choices.append(option("retrieve", rule=RULE, label="bring a token back from the warp"))
            if state["deck"] or state["discard"]:
                choices.append(option("draw", rule=RULE, label="draw a card"))
            if not choices:
                return []
            return [prompt(step, fido, "fetch_reward", choices + [option("decline", rule=RULE)], rule=RULE,
                           info={"card": card, "taken_by": step["target"]})]
        if card not in state["discard"]:
            return []
        return [prompt(step, fido, "fetch_refused",
                       [option("keep", rule=RULE, label=f"keep the {card}"),
                        option("leave", rule=RULE, label="leave it on the discard pile")],
                       rule=RULE, info={"card": card, "refused_by": step["target"]})]

    def run(self, ctx, step):
        self.finish(ctx, step)

    def answer(self, ctx, step, prompt_, opt, args):
        action, fido = opt["action"], step["player"]
        if action == "accept":
            ctx.update(phase="reward")
            take_from_discard(ctx, step["card"], step["target"], "Fido")
        elif action == "refuse":
            ctx.update(phase="refused")
        elif action == "keep":
            self.finish(ctx, step)
            take_from_discard(ctx, step["card"], fido, "Fido")
        elif action == "retrieve":
            self.finish(ctx, step)
            return_home(ctx, [{"player": fido, "src": "warp", "count": 1, "reason": "Fido"}])
        elif action == "draw":
            self.finish(ctx, step)
            draw(ctx, fido, 1, "Fido")
        else:  # decline the reward, or leave the refused card discarded
            self.finish(ctx, step)

    def finish(self, ctx, step) -> None:
        """This offer is settled; under the Super, Fido may fetch again among the cards left."""
        ctx.done()
        fido = step["player"]
        rest = fetchable(ctx.state, step.get("rest", []))
        if rest and SUPER.in_force(ctx.state, fido):
            POWER.ask_reaction(ctx, fido, {"cards": rest})

    def default(self, state, step, prompt_, rng):
        """A player out of time turns the card down; Fido takes a card as its reward, and keeps a refused card."""
        kind = prompt_["kind"]
        if kind == "card_offer":
            return {"action": "refuse", "args": {}}
        if kind == "fetch_reward":
            actions = [o["action"] for o in prompt_["options"]]
            return {"action": "draw" if "draw" in actions else actions[0], "args": {}}
        return {"action": "keep", "args": {}}


class FidoWild(Flare):
    """Wild: your opponent must take the top card of the discard pile; then you draw a card."""

    power = "Fido"
    mode = "wild"
    windows = ("planning",)
    # published text not confirmed (issue 25 item 9: not found in the sources searched): designed here after
    # public descriptions of the FFG alien, so `house`
    provenance = "house"
    description = ("As a main player, before challenge cards are chosen, make your opponent take the top card of "
                   "the discard pile into its hand; then you may draw a card from the deck.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not state["discard"]:
            return []
        return [self.offer(card, {"then": shapes.choice(["draw", "none"])},
                           label="give your opponent the top discarded card, then draw")]

    def use(self, ctx, me, card, args, use):
        side = side_of_main(ctx.state, me)
        if side is None or not ctx.state["discard"]:
            return
        opponent = ctx.state["ch"]["defense"] if side == "offense" else ctx.state["turn"]["offense"]
        take_from_discard(ctx, ctx.state["discard"][-1], opponent, "Fido Wild Flare")
        if args["then"] == "draw":
            draw(ctx, me, 1, "Fido Wild Flare")


class FidoSuper(Flare):
    """Super: fetch every encounter card of this encounter, one offer after another."""

    power = "Fido"
    mode = "super"
    windows = WINDOWS
    lasting = True
    # published text not confirmed (issue 25 item 9: not found in the sources searched): designed here after
    # public descriptions of the FFG alien, so `house`
    provenance = "house"
    description = ("This challenge, when you use your power you may fetch any or all of the discarded challenge "
                   "cards, offering them one at a time to the players of your choice (each offer rewarded or "
                   "refused as your power says).")

    def options(self, state, me, card, window):
        if not state.get("ch") or self.in_force(state, me):
            return []
        return [self.offer(card, label="fetch every challenge card this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = FidoWild()
SUPER = FidoSuper()

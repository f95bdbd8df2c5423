"""Stage 7 (challenge cards chosen face down, simultaneously), the reveal of stage 8, and stage 9."""

from __future__ import annotations

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import discard, redraw_after_a_window
from engine.hooks import fire, fold, listening
from engine.playable import from_elsewhere, playable_challenge_cards
from engine.state import challenge_cards, committed_challenge_cards, hand, main_player
from engine.steps import bluff
from engine.steps.game import OUT_OF_CARDS, end_turn_now, offense_out_of_cards


def committed_kicker(state: dict, side: str) -> str | None:
    """The kicker a side played with its challenge card, if any."""
    return next((c for c in state["committed"][side] if cards.kind(c) == "kicker"), None)


@register
class PrepareCards(Step):
    """Stage 7: a defense without a challenge card draws a new hand; an offense without one ends its turn.

    Under ``ffg`` (RULES.md 9) this is where an offense that ran out of encounter cards earlier arrives:
    the encounter ends without a result, every ship on the gate (allies' included) goes back to its
    colonies, and the turn ends."""

    op = "prepare_cards"

    def run(self, ctx, step):
        state = ctx.state
        defense = state["ch"]["defense"]
        if offense_out_of_cards(state):
            end_turn_now(ctx, OUT_OF_CARDS)
            return
        if not challenge_cards(state, defense) and not committed_challenge_cards(state, "defense") \
                and not step.get("last"):
            # 000: the defense may play, discard and draw: each new hand's cards can be used first (14.10)
            redraw_after_a_window(ctx, defense, ctx.step("window", name="planning", only=[defense]),
                                  ctx.step("prepare_cards"))
            return
        ctx.done()


def first_chooser(state: dict) -> str | None:
    """The side that must commit face up before the other chooses (Oracle), if any."""
    return fold(state, "chooses_first", None)


@register
class ChooseCards(Step):
    """Both main players commit a challenge card face down; neither sees the other's until the reveal."""

    op = "choose_cards"

    def prompts(self, state, step):
        first = first_chooser(state)
        found = []
        for side in ("offense", "defense"):
            player = main_player(state, side)
            if committed_challenge_cards(state, side):
                continue
            if first and side != first and not committed_challenge_cards(state, first):
                continue
            offered = playable_challenge_cards(state, player)
            if not offered:
                continue
            # a power may narrow the choice (the FFG Loser's upset: an Attack, if the player holds one)
            offered = fold(state, "challenge_card_choice", offered, player=player)
            args = {"card": shapes.choice(offered)}
            kickers = [c for c in hand(state, player) if cards.kind(c) == "kicker"]
            if kickers:
                args["kicker"] = shapes.choice(kickers, optional=True)
            extra = fold(state, "extra_cards", 0, player=player)
            if extra and len(offered) > 1:
                args["second"] = shapes.choice(offered, optional=True)
            found.append(prompt(step, player, "challenge_card", [option("play", args, rule="4.7")], rule="4.7",
                                info={"face_up": first == side}))
        return found

    def run(self, ctx, step):
        ctx.done()  # nobody can choose: a side without any challenge card plays none

    def answer(self, ctx, step, prompt_, opt, args):
        player = prompt_["player"]
        side = "offense" if player == ctx.state["turn"]["offense"] else "defense"
        face_up = bool(prompt_["info"].get("face_up"))
        seen_by = None if face_up else [player]
        second = args.get("second")
        if second is not None and second == args["card"]:
            from engine.errors import RulesError
            raise RulesError("4.7", "the second challenge card must be a different card")
        shown = {"face_up": True} if face_up else {}  # evolve notes a face-up commitment (Sorcerer reads it)
        for card in [args["card"], second, args.get("kicker")]:
            if card is not None:
                ctx.emit("ChallengeCardChosen", player=player, side=side, card=card, seen_by=seen_by, **shown,
                         **from_elsewhere(ctx.state, player, card))
        if all(committed_challenge_cards(ctx.state, s) or
               not playable_challenge_cards(ctx.state, main_player(ctx.state, s)) for s in ("offense", "defense")):
            ctx.done()

    def default(self, state, step, prompt_, rng):
        """Stated rule: a random legal challenge card, no kicker."""
        values = prompt_["options"][0]["args"]["card"]["values"]
        return {"action": "play", "args": {"card": rng.choice(values)}}


@register
class Reveal(Step):
    """Stage 8: both committed cards are turned face up together."""

    op = "reveal"

    def run(self, ctx, step):
        if not step.get("heard") and listening(ctx.state, "before_reveal"):
            # a main player may keep its card face down and state it instead (Gambler: engine.steps.bluff)
            ctx.update(heard=True)
            fire(ctx, "before_reveal")
            return
        bluff.reveal(ctx)


@register
class Discard(Step):
    """Stage 9: the challenge cards, kickers and reinforcements played go to the discard pile."""

    op = "discard"

    def run(self, ctx, step):
        state = ctx.state
        ctx.done()
        encounter_cards = []
        for side in ("offense", "defense"):
            if state["committed"][side]:
                played = list(state["committed"][side])
                encounter_cards += [c for c in played if cards.is_challenge_card(c)]
                ctx.emit("CardsMoved", cards=played, src=f"committed:{side}",
                         dst="discard", seen_by=None, reason="stage 9")
        # what is left on the table (cards whose effect lasted): whose each was is no longer known here
        discard(ctx, None, list(state["table"]), "table", "stage 9")
        if encounter_cards:  # the cards the challenge was resolved with now lie on the discard pile (Fido)
            fire(ctx, "on_encounter_cards_discarded", cards=encounter_cards)

"""Turns and challenges: the sequence of stages, the pre-challenge phase, stage 10 and turn ends."""

from __future__ import annotations

from engine import rulesets
from engine.flow import Step, option, prompt, register
from engine.handcards import discard_cards, draw, hand_size, new_hand, redraw_after_a_window
from engine.hooks import fire, fold
from engine.playable import playable_challenge_cards
from engine.state import (
    challenge_cards,
    clockwise_from_left,
    committed_challenge_cards,
    hand,
    holds_challenge_card,
    main_player,
)
from engine.steps.tokens import fan_section, return_home
from engine.usable import in_reach, window_options

# One challenge, in order (RULES.md 4 and 5). "stage" marks where a stage begins;
# "first_only" steps belong to the pre-challenge phase of a turn's first challenge.
SEQUENCE = (
    {"op": "window", "name": "start"},
    {"op": "pre_challenge", "first_only": True},
    {"op": "regroup", "stage": 1},
    {"op": "window", "name": "regroup"},
    {"op": "destiny", "stage": 2},
    {"op": "window", "name": "destiny"},
    {"op": "new_hand", "side": "defense"},
    {"op": "launch", "stage": 3},
    {"op": "window", "name": "launch"},
    {"op": "invite", "stage": 4},  # stage 5 too: the defense invites once the offense has
    {"op": "alliances", "stage": 6},
    {"op": "window", "name": "alliance"},
    {"op": "window", "name": "planning", "stage": 7},
    {"op": "prepare_cards"},
    {"op": "choose_cards"},
    {"op": "window", "name": "committed"},
    {"op": "reveal", "stage": 8},
    {"op": "window", "name": "reveal"},
    {"op": "resolve"},
    {"op": "window", "name": "resolution"},
    {"op": "window", "name": "discard", "stage": 9},
    {"op": "discard"},
    {"op": "end_challenge", "stage": 10},
)
STAGE_NAMES = {1: "regroup", 2: "destiny", 3: "launch", 4: "offense invites", 5: "defense invites",
               6: "alliances", 7: "play challenge cards", 8: "reveal and resolve", 9: "discard",
               10: "end of challenge"}
END_OF_CHALLENGE = next(i for i, s in enumerate(SEQUENCE) if s["op"] == "end_challenge")
# from the regroup (the pre-challenge new hand is behind) until stage 7's own check, an offense
# left without a challenge card ends its turn at once
HOLDS_CARDS_FROM = next(i for i, s in enumerate(SEQUENCE) if s["op"] == "regroup")
HOLDS_CARDS_UNTIL = next(i for i, s in enumerate(SEQUENCE) if s["op"] == "prepare_cards")
WINDOWS_NEEDING_A_CARD = ("regroup", "destiny", "launch", "alliance_answers", "alliance", "planning")
OUT_OF_CARDS = "offense has no challenge card"


def challenge_succeeded(state: dict) -> bool:
    """A challenge succeeded if the offense won, a deal was made or a home base was re-established."""
    ch = state["ch"]
    if ch is None:
        return False
    if ch["deal"] and ch["deal"].get("made"):
        return True
    return bool(ch["outcome"] and ch["outcome"].get("succeeded"))


@register
class Game(Step):
    """The bottom of the agenda: whenever nothing else is left, the next turn begins."""

    op = "game"
    settles_wins = True

    def run(self, ctx, step):
        state = ctx.state
        turn = state["turn"]
        if turn is None:
            player, number = state["first_player"], 1
        else:
            player, number = clockwise_from_left(state, turn["offense"])[0], turn["number"] + 1
        ctx.emit("TurnBegan", player=player, turn=number)
        ctx.then(ctx.step("challenge", number=1, next=0), ctx.step("turn_end"))
        fire(ctx, "on_turn_began")


# Each entry of SEQUENCE as (op, the step's arguments, its stage or None, whether the first challenge only)
_PLAN = tuple((s["op"], {k: v for k, v in s.items() if k not in ("op", "first_only")}, s.get("stage"),
               bool(s.get("first_only"))) for s in SEQUENCE)


@register
class Challenge(Step):
    """Runs one challenge's steps in order, one at a time.

    A timing window in which nobody holds anything usable is passed over at once: it would ask
    no one and close (its serial number is spent all the same, so the decisions after it are
    numbered as if it had opened). The first window of a challenge always opens: what the
    challenge's beginning sets off runs before it, and may give someone something to use.
    """

    op = "challenge"
    settles_wins = True

    def run(self, ctx, step):
        index = step["next"]
        if index == 0:
            ctx.emit("ChallengeBegan", number=step["number"])
        first = step["number"] == 1
        out_of_cards = None  # (asked once: the windows passed over below move no card)
        while True:
            while index < len(_PLAN) and _PLAN[index][3] and not first:
                index += 1
            if index >= len(_PLAN):
                ctx.done()
                return
            if HOLDS_CARDS_FROM <= index < HOLDS_CARDS_UNTIL:
                if out_of_cards is None:
                    out_of_cards = ends_turn_before_planning(ctx.state)
                if out_of_cards:
                    end_turn_now(ctx, OUT_OF_CARDS)
                    return
            op, arguments, stage, _ = _PLAN[index]
            if stage:
                ctx.emit("StageBegan", stage=stage, name=STAGE_NAMES[stage])
            if op == "window" and index and nobody_can_use(ctx.state, arguments["name"]):
                ctx.spend_step()
                index += 1
                continue
            ctx.replace(ctx.step(op, **arguments), dict(step, next=index + 1))
            if step["next"] == 0:  # after scheduling, so what powers schedule runs before the first window
                fire(ctx, "on_challenge_began", number=step["number"])
            return


@register
class PreChallenge(Step):
    """The pre-challenge phase: a punt if allowed, then a new hand if the offense holds no challenge card."""

    op = "pre_challenge"

    def prompts(self, state, step):
        if not state["options"].get("punt") or step.get("decided"):
            return []
        offense = state["turn"]["offense"]
        return [prompt(step, offense, "punt", [option("play", rule="4.0.punt"), option("punt", rule="4.0.punt")],
                       rule="4.0.punt")]

    def run(self, ctx, step):
        offense = ctx.state["turn"]["offense"]
        if challenge_cards(ctx.state, offense) or step.get("last"):
            ctx.done()
            return
        # 000: draw a new hand "and return to the beginning of the pre-challenge phase": the start
        # window opens again (a Mobius Tubes or Warp Break just drawn can be played), then this check
        redraw_after_a_window(ctx, offense, ctx.step("window", name="start"), ctx.step("pre_challenge", decided=True))

    def answer(self, ctx, step, prompt_, opt, args):
        if opt["action"] == "play":
            ctx.update(decided=True)
            return
        offense = prompt_["player"]
        ctx.emit("ChallengeEnded", number=ctx.state["ch"]["number"], succeeded=False)
        # the turn's end is scheduled first, so what the discards trigger (Vulch) runs before it
        ctx.unwind("turn_end", reason="punt")
        discard_cards(ctx, offense, list(hand(ctx.state, offense)), "punt")
        draw(ctx, offense, hand_size(ctx.state), "punt")

    def default(self, state, step, prompt_, rng):
        return {"action": "play", "args": {}}


@register
class NewHand(Step):
    """A main player without a challenge card discards its hand and draws a new one (RULES.md 4).

    Under ``ffg`` the defense draws only at the planning phase (RULES.md 9, `PrepareCards`)."""

    op = "new_hand"

    def run(self, ctx, step):
        player = main_player(ctx.state, step["side"])
        if not player or challenge_cards(ctx.state, player) or step.get("last") or \
                not rulesets.of(ctx.state).defense_redraws_at_destiny:
            ctx.done()
            return
        # 000: the player may use each new hand's cards before it draws again (14.10)
        redraw_after_a_window(ctx, player, ctx.step("window", name="destiny", only=[player]),
                              ctx.step("new_hand", side=step["side"]))


@register
class Redraw(Step):
    """A new hand drawn after the player was asked whether a flare keeps some cards through it (Miser's Wild):
    the hand is discarded, a new one drawn, and the cards kept come back."""

    op = "redraw"

    def run(self, ctx, step):
        ctx.done()
        new_hand(ctx, step["player"])


@register
class EndChallenge(Step):
    """Stage 10: after a successful first challenge the offense may challenge again."""

    op = "end_challenge"

    def prompts(self, state, step):
        if not step.get("asking"):
            return []
        offense = state["turn"]["offense"]
        return [prompt(step, offense, "second_challenge",
                       [option("challenge_again", rule="4.10"), option("end_turn", rule="4.10")], rule="4.10")]

    def run(self, ctx, step):
        state = ctx.state
        ch = state["ch"]
        succeeded = challenge_succeeded(state)
        ctx.emit("ChallengeEnded", number=ch["number"], succeeded=succeeded)
        advance_fan(ctx)
        offense = state["turn"]["offense"]
        again = ch["number"] == 1 and succeeded and bool(playable_challenge_cards(state, offense))
        # a power or flare may let the offense challenge again beyond that (Machine and its Wild)
        if fold(state, "may_challenge_again", again, player=offense, number=ch["number"], succeeded=succeeded):
            ctx.update(asking=True)
        else:
            ctx.done()
        # after the step is settled, so what the powers schedule (Reincarnator's reincarnation) runs next
        fire(ctx, "on_challenge_ended")

    def answer(self, ctx, step, prompt_, opt, args):
        if opt["action"] == "challenge_again":
            ctx.replace(ctx.step("challenge", number=ctx.state["ch"]["number"] + 1, next=0))
            offense = prompt_["player"]
            if not playable_challenge_cards(ctx.state, offense):
                # allowed to challenge again without a challenge card (Machine's Wild): a new hand first
                new_hand(ctx, offense)
        else:
            ctx.done()

    def default(self, state, step, prompt_, rng):
        return {"action": "end_turn", "args": {}}


def advance_fan(ctx) -> None:
    """Reverse warp: the fan indicator moves one section clockwise after each challenge."""
    section = fan_section(ctx.state)
    if section:
        following = clockwise_from_left(ctx.state, section)[0]
        ctx.emit("PlayerNoted", player="fan", key="section", value=following)


@register
class TurnEnd(Step):
    """The turn passes to the left."""

    op = "turn_end"
    settles_wins = True

    def run(self, ctx, step):
        ctx.done()
        ctx.emit("TurnEnded", player=ctx.state["turn"]["offense"], reason=step.get("reason"))


@register
class AbortTurn(Step):
    """The offense's turn ends at once (no challenge card at stage 7, nothing to launch)."""

    op = "abort_turn"

    def run(self, ctx, step):
        ctx.emit("ChallengeEnded", number=ctx.state["ch"]["number"], succeeded=False)
        ctx.unwind("turn_end", reason=step.get("reason"))


def offense_out_of_cards(state: dict) -> bool:
    """000: an offense that runs out of challenge cards before playing one in stage 7 ends its turn
    (cards it may play from elsewhere than its hand count: Miser's hoard)."""
    offense = state["turn"]["offense"]
    return not holds_challenge_card(state, offense) and not committed_challenge_cards(state, "offense") and \
        not playable_challenge_cards(state, offense)


def ends_turn_before_planning(state: dict) -> bool:
    """000: an offense out of challenge cards ends its turn at the first boundary it reaches, from the regroup
    on. RULES.md 9 (``ffg``): it plays on to the planning phase (`PrepareCards` ends the encounter there)."""
    return not rulesets.of(state).offense_plays_to_planning and offense_out_of_cards(state)


def nobody_can_use(state: dict, window: str) -> bool:
    """Whether no player holds anything usable in a timing window (only those whose cards or powers reach it are asked)."""
    for player in in_reach(state).players_for(window):
        if window_options(state, player, window):
            return False
    return True


def end_turn_now(ctx, reason: str) -> None:
    """Return every token on the cone to its owner's bases, then end the turn (RULES.md 4, stage 7)."""
    state = ctx.state
    returns = [{"player": color, "src": f"cone:{side}", "count": n, "reason": reason}
               for side in ("offense", "defense") for color, n in state["cone"][side].items()]
    ctx.replace(*([ctx.step("place", returns=returns)] if returns else []),
                ctx.step("abort_turn", reason=reason))


__all__ = ["END_OF_CHALLENGE", "SEQUENCE", "challenge_succeeded", "end_turn_now", "ends_turn_before_planning",
           "return_home"]

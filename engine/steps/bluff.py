"""A main player's challenge card kept face down and stated instead (Gambler's bluff).

Before the cards are revealed, everything in force hears ``before_reveal``; a power may then note a
bluff in the challenge's public notes (``notes.bluff``: ``{"player", "side", "claim", "status"}``, the
claim a card kind such as ``A20`` or ``N``). The reveal then turns up the other side's card only
(`hidden_side`), and the opponent owes ``call_bluff``:

- accepted, the claim stands for the card for the rest of the challenge (`engine.revealed.played_cards`
  reads it in place of the hidden card), and the hidden card goes at once face down to the bottom of the
  deck, seen by its owner only (`bury`): out of reach of every effect that takes or keeps a committed card
  face up (Filch, Clone), nobody else ever learns it;
- called, the card is turned up (a second ``ChallengeCardsRevealed``, now complete); if the claim was
  false the bluffer, else the caller, loses as many tokens as it has in the challenge (plus any ante),
  chosen from its bases outside the challenge; the challenge goes on with the cards as revealed.
"""

from __future__ import annotations

from engine import cards
from engine.flow import Step, option, prompt, register
from engine.hooks import fire
from engine.state import main_player, opponent_side, tokens_in_challenge

NOTE = "bluff"
SIDES = ("offense", "defense")


def claims() -> list[str]:
    """What may be stated: every kind of challenge card of either edition, a Morph and a War aside."""
    found = {c.split(".")[0] for c in cards.mayfair_challenge_cards() + cards.ffg_encounter_cards()
             if cards.kind(c) in ("attack", "compromise")}
    return sorted(found, key=lambda c: (cards.kind(c) != "attack", cards.attack_value(c) or 0, c))


def standing(state: dict) -> dict | None:
    """The bluff of this challenge, if one was stated."""
    ch = state.get("ch")
    return (ch["notes"].get(NOTE) or None) if ch else None


def hidden_side(state: dict) -> str | None:
    """The side whose card stays face down at the reveal (a bluff stated, not yet called)."""
    bluff = standing(state)
    return bluff["side"] if bluff and bluff["status"] in ("stated", "accepted") else None


def claimed_card(state: dict, side: str) -> str | None:
    """The card a side's accepted bluff stands for (a kind such as ``A20``), or None."""
    bluff = standing(state)
    if bluff and bluff["status"] == "accepted" and bluff["side"] == side:
        return bluff["claim"]
    return None


def state_bluff(ctx, player: str, side: str, claim: str, ante: int = 0) -> None:
    """Note a bluff: ``player``'s card on ``side`` stays face down, stated to be ``claim``."""
    ctx.emit("ChallengeNoted", key=NOTE, value={"player": player, "side": side, "claim": claim, "ante": ante,
                                                "status": "stated"})


def reveal(ctx) -> None:
    """Stage 8's reveal: both cards, or all but a bluffer's (then its opponent calls or accepts)."""
    state = ctx.state
    hidden = hidden_side(state)
    shown = {s: [] if s == hidden else list(state["committed"][s]) for s in SIDES}
    ctx.emit("ChallengeCardsRevealed", offense=shown["offense"], defense=shown["defense"])
    if hidden:
        ctx.replace(ctx.step("call_bluff", player=main_player(state, opponent_side(hidden))))
        return
    ctx.done()
    fire(ctx, "on_revealed")


def bury(ctx, bluff: dict) -> None:
    """An accepted bluff's card goes face down to the bottom of the deck (seen by its owner only), instead of
    being discarded at stage 9."""
    held = list(ctx.state["committed"][bluff["side"]])
    if held:
        ctx.emit("CardsMoved", cards=held, src=f"committed:{bluff['side']}", dst="deck", bottom=True,
                 seen_by=[bluff["player"]], reason="bluff not called")


@register
class CallBluff(Step):
    """The bluffer's opponent accepts the stated card, or calls the bluff."""

    op = "call_bluff"

    def prompts(self, state, step):
        bluff = standing(state)
        return [prompt(step, step["player"], "call_bluff", [
            option("accept", rule="power:Gambler", label=f"accept that {bluff['player']}'s card is {bluff['claim']}"),
            option("call", rule="power:Gambler", label=f"call the bluff: {bluff['player']} shows its card")],
            rule="power:Gambler", info={"player": bluff["player"], "claim": bluff["claim"], "ante": bluff["ante"]})]

    def answer(self, ctx, step, prompt_, opt, args):
        state = ctx.state
        bluff = dict(standing(state))
        if opt["action"] == "accept":
            ctx.emit("ChallengeNoted", key=NOTE, value={**bluff, "status": "accepted"})
            bury(ctx, bluff)
            ctx.done()
            fire(ctx, "on_revealed")
            return
        real = [c for c in state["committed"][bluff["side"]] if cards.is_challenge_card(c)]
        truthful = bool(real) and real[0].split(".")[0] == bluff["claim"]
        ctx.emit("ChallengeNoted", key=NOTE, value={**bluff, "status": "called", "truthful": truthful})
        ctx.emit("ChallengeCardsRevealed", offense=list(state["committed"]["offense"]),
                 defense=list(state["committed"]["defense"]))
        loser_side = opponent_side(bluff["side"]) if truthful else bluff["side"]
        loser = main_player(state, loser_side)
        count = tokens_in_challenge(state, loser_side, loser) + bluff["ante"]
        reason = "bluff called and true" if truthful else "bluff called and false"
        penalty = [ctx.step("losses", player=loser, count=count, reason=reason, cone=False,
                            not_from=state["ch"]["planet"])] if count > 0 else []
        ctx.replace(*penalty)
        fire(ctx, "on_revealed")

    def default(self, state, step, prompt_, rng):
        return {"action": "accept", "args": {}}

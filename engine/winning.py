"""Winning (RULES.md 4): five external bases win, checked once the rule that moved tokens is carried out.

Tokens often move in several steps within one rule: a deal grants the offense's base and then
the defense's; a won challenge lands the winners and then sends the losers to the warp; Healer,
Vacuum or Peacenik move more tokens while a loss is being taken. Declaring a winner after the
first of those moves would end the game with the rule half done (the offense winning alone a
deal that gives both main players their fifth base; a final board with the beaten defense still
on its planet). So the winners are looked for only at the *boundaries* of the turn sequence
(the steps that mark `Step.settles_wins`: a new turn, the next stage of a challenge, a timing
window), where every rule started before has been carried out; everyone with five external
bases then wins together. 000/002: simultaneous fifth bases are a joint win.

Some powers win otherwise (Tick-Tock's last token, Masochist's lost ships). Their condition is met in
the middle of a rule too (while a challenge's outcome or a deal is being carried out, as a challenge
begins), often beside other effects of the same moment: `claim_win` only records the claim, as a
public fact (`PlayerNoted`, key ``won``), and the next boundary declares it, with everyone who then
has five external bases. The claim is a fact, not a note of the command, because the rule may stop at
a decision before the boundary (a loss to choose, ships to place): the game then waits with the win
claimed, and the command that answers reaches the boundary.
"""

from __future__ import annotations

WINNING_BASES = 5
CLAIM = "won"  # a player's note: the reason of an alternate win claimed, declared at the next boundary


class GameOver(Exception):
    """Raised inside `decide` when the game has ended: nothing more happens after it."""


def winners(state: dict) -> list[str]:
    """Every player with five or more external bases, in seating order."""
    counts = state["external_bases"]
    return [c for c in state["order"] if counts[c] >= WINNING_BASES]


def claims(state: dict) -> dict[str, str]:
    """The alternate wins claimed and not yet declared: ``{colour: reason}``, in seating order."""
    notes = state.get("notes") or {}
    return {c: notes[c][CLAIM] for c in state["order"] if CLAIM in notes.get(c, {})}


def any_claim(state: dict) -> bool:
    """Whether some player claimed an alternate win not yet declared (a loop: asked at every boundary after
    tokens moved, it should cost no generator)."""
    for noted in state["notes"].values():
        if CLAIM in noted:
            return True
    return False


def five_bases_somewhere(state: dict) -> bool:
    """Whether some player has five external bases (a loop: asked at every boundary after tokens moved)."""
    for count in state["external_bases"].values():
        if count >= WINNING_BASES:
            return True
    return False


def declare_winners(ctx) -> None:
    """End the game if anyone has won: the challenge's played cards are discarded first (stage 9).

    The players who claimed an alternate win (`claim_win`) win together with everyone who has five
    external bases.
    """
    state = ctx.state
    if not five_bases_somewhere(state) and not any_claim(state):
        return  # (the usual case, told cheaply: asked at the first boundary after every token moved)
    found = winners(state)
    claimed = claims(state)
    if not found and not claimed:
        return
    everyone = [c for c in ctx.state["order"] if c in found or c in claimed]
    reasons = list(dict.fromkeys(claimed[c] for c in everyone if c in claimed))
    if found:
        reasons.append("five external bases")
    discard_resolved_challenge_cards(ctx)
    ctx.emit("GameEnded", winners=everyone, reason="; ".join(reasons))
    raise GameOver()


def claim_win(ctx, player: str, reason: str) -> None:
    """A power's alternate win (Tick-Tock's last token, Masochist's lost ships): recorded now, declared at the
    next boundary of the turn sequence, once the rule that met the condition is carried out; whoever has five
    external bases then wins with ``player`` (a joint win, as 000/002 says of simultaneous fifth bases)."""
    if CLAIM not in ctx.state["notes"].get(player, {}):
        ctx.emit("PlayerNoted", player=player, key=CLAIM, value=reason)


def discard_resolved_challenge_cards(ctx) -> None:
    """A win after a challenge was resolved: its cards leave the table as at stage 9, so the final board is whole."""
    state = ctx.state
    ch = state.get("ch")
    if not ch or not ch.get("outcome"):
        return
    for side in ("offense", "defense"):
        if state["committed"][side]:
            ctx.emit("CardsMoved", cards=list(state["committed"][side]), src=f"committed:{side}",
                     dst="discard", seen_by=None, reason="stage 9")
    if state["table"]:
        ctx.emit("CardsMoved", cards=list(state["table"]), src="table", dst="discard", seen_by=None,
                 reason="stage 9")

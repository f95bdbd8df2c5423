"""Sorcerer: swap the two face-down challenge cards before they are revealed."""

from engine import cards
from engine.powers.base import Flare, Power
from engine.state import ally_side, main_player, powers_of, side_of_main
from engine.steps.cards_stage import first_chooser

SIDES = ("offense", "defense")


def played(state: dict, side: str) -> list[str]:
    """The challenge cards a side has committed (kickers stay where they are)."""
    return [c for c in state["committed"][side] if cards.is_challenge_card(c)]


def swappable(state: dict) -> bool:
    """Both sides have committed a challenge card and nothing is revealed yet."""
    ch = state["ch"]
    return bool(ch and not ch["revealed"] and all(played(state, side) for side in SIDES))


def face_up(state: dict, side: str) -> bool:
    """Whether a side's committed card was chosen face up (the Oracle's opponent): everyone saw it."""
    return bool(state["ch"]["notes"].get(f"face_up:{side}")) or first_chooser(state) == side


def swap_committed(ctx, reason: str) -> None:
    """Exchange the two sides' challenge cards, still face down.

    Each card is shown only to the player who chose it (or to everyone if it was face up), so
    moving it reveals nothing new; the two moves are separate for that reason.
    """
    state = ctx.state
    moving = {side: played(state, side) for side in SIDES}
    knowers = {side: None if face_up(state, side) else [main_player(state, side)] for side in SIDES}
    for side, other in (("offense", "defense"), ("defense", "offense")):
        ctx.emit("CardsMoved", cards=moving[side], src=f"committed:{side}", dst=f"committed:{other}",
                 seen_by=knowers[side], reason=reason)


class Sorcerer(Power):
    name = "Sorcerer"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "after challenge cards are chosen, before the reveal"
    windows = ("committed",)
    provenance = "mayfair"
    description = ("As a main player, after both challenge cards are chosen and before they are revealed, you "
                   "may switch them: each side reveals the card the other side chose.")

    def options(self, state, me, window):
        if side_of_main(state, me) is None or not swappable(state):
            return []
        return [self.offer(label="switch the two face-down challenge cards")]

    def use(self, ctx, me, args, use):
        if swappable(ctx.state):
            swap_committed(ctx, "Sorcerer")


POWER = Sorcerer()


class SorcererWild(Flare):
    """Wild: the two main players trade alien powers for good."""

    power = "Sorcerer"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("When you are not a main player, before challenge cards are chosen, force the two main "
                   "players to exchange their alien powers; each keeps the other's power from now on.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if ch is None or ch["defense"] is None or side_of_main(state, me) is not None:
            return []
        offense, defense = main_player(state, "offense"), main_player(state, "defense")
        if not powers_of(state, offense) and not powers_of(state, defense):
            return []
        return [self.offer(card, label="the main players trade powers")]

    def use(self, ctx, me, card, args, use):
        offense, defense = main_player(ctx.state, "offense"), main_player(ctx.state, "defense")
        swapped = {offense: list(powers_of(ctx.state, defense)), defense: list(powers_of(ctx.state, offense))}
        # powers are public; PowersDealt sets the named players' powers and leaves everyone else's alone
        ctx.emit("PowersDealt", powers=swapped)


class SorcererSuper(Flare):
    """Super: the Sorcerer may switch the main players' cards as an ally too."""

    power = "Sorcerer"
    mode = "super"
    windows = ("committed",)
    provenance = "house"
    description = ("As the Sorcerer allied to either side, after both challenge cards are chosen and before "
                   "they are revealed, switch the two face-down cards as if you were a main player.")

    def options(self, state, me, card, window):
        if ally_side(state, me) is None or not swappable(state):
            return []
        return [self.offer(card, label="switch the main players' face-down cards")]

    def use(self, ctx, me, card, args, use):
        if swappable(ctx.state):
            swap_committed(ctx, "Sorcerer Super Flare")


WILD = SorcererWild()
SUPER = SorcererSuper()

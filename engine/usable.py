"""What a player could use now: in a timing window, or in answer to a use (RULES.md 5).

Asked of every player at every window, most of whom hold nothing usable there; the turn sequence
(engine/steps/game.py) asks it too, to pass over a window nobody could use. The windows themselves
(engine/steps/windows.py) ask, announce and apply.
"""

from __future__ import annotations

from functools import lru_cache

from engine import cards, rulesets
from engine.abilities import card_ability, card_windows
from engine.memo import HELD, USABLE, while_unchanged
from engine.playable import OTHER_PLACES, playable_cards
from engine.powers.base import ANY_WINDOW
from engine.registry import POWERS
from engine.state import active_powers, timing_order

# the answers of `window_options` since the last fact that may change them (`engine.memo.USABLE`):
# (state object, its ply, {(player, window): options}); the turn sequence asks whether anyone could
# use a window, then the window asks who, again after each pass
_KNOWN: tuple = (None, -1, {})


def window_options(state: dict, player: str, window: str) -> list[dict]:
    """Everything a player could use in a window, one option per power use or card kind.

    Asked of every player at every window, and most hold nothing usable there: that is told first
    from the windows their powers and cards could be used in at all (`reach`). Worked out again only
    after a fact that may change it (callers must not change what they get)."""
    global _KNOWN
    held = in_reach(state).of.get(player)  # (`InReach.held`, unrolled: asked for every player at every window)
    if held is None:
        held = reach(state, player)
    if held.windows is not None and window not in held.windows:
        return []
    known_state, known_ply, known = _KNOWN
    ply = state.get("ply", 0)
    if known_state is not state or not USABLE.holds(state, known_ply, ply):
        known = {}
        _KNOWN = (state, ply, known)
    elif known_ply != ply:
        _KNOWN = (state, ply, known)
    found = known.get((player, window))
    if found is None:
        found = known[(player, window)] = _window_options(state, player, window, held)
    return found


class Reach:
    """What a player's cards and powers could be used for at all, whatever the moment: worked out once for
    as long as its cards and powers stay the same (a player's hand changes far less often than the facts)."""

    __slots__ = ("playable", "powers", "ruleset", "windows", "cards", "cards_windows")

    def __init__(self, playable: list[str], powers: list[str], ruleset: str | None):
        self.playable, self.powers, self.ruleset = list(playable), list(powers), ruleset
        edition = ruleset or "mayfair"
        # every window some card could be played in ("*": any)
        self.cards_windows = hand_windows(tuple(playable))
        # and with the powers' windows, or None for any window at all
        self.windows = None if ANY_WINDOW in self.cards_windows else \
            self.cards_windows | {window for name in powers for window in POWERS[name].windows_in(edition)}
        # (card, its windows, its kind's name, whether it is a flare) for every card that could be played face up
        self.cards = tuple([(card, windows, cards.card_kind_name(card), card.startswith("Flare:"))
                            for card in playable if (windows := card_windows(card))])


# per colour, the last `Reach` worked out
_REACH: dict[str, Reach] = {}


def reach(state: dict, player: str) -> Reach:
    """What a player's cards and powers could be used for at all (remembered while they stay the same)."""
    seat = state["players"][player]
    for place in OTHER_PLACES:
        if place in seat:
            playable = playable_cards(state, player)
            break
    else:
        playable = seat["hand"]
    powers = seat["powers"]
    ruleset = state.get("ruleset")
    known = _REACH.get(player)
    if known is None or known.playable != playable or known.powers != powers or known.ruleset != ruleset:
        known = _REACH[player] = Reach(playable, powers, ruleset)
    return known


_PLAYERS_FOR: dict[tuple, dict[str, tuple[str, ...]]] = {}
_PLAYERS_FOR_LIMIT = 512


def elsewhere(seat: dict) -> bool:
    """Whether a player holds cards elsewhere than in its hand (a hoard). (A plain loop, no ``for ... else``
    inside another loop: compiled, that construct leaked a reference: docs/engine.md.)"""
    for place in OTHER_PLACES:
        if place in seat:
            return True
    return False


class InReach:
    """Every player's `Reach`, and per window the players whose cards or powers could be used in it at all:
    the others need not be asked (most players, at most windows). A player who may also play from elsewhere
    than its hand (a hoard) plays from there only while a power in force says so: its `Reach` is worked out
    each time it is asked for (`held`), and it is always among the players to ask."""

    __slots__ = ("of", "order", "known")

    def __init__(self, state: dict):
        self.order = tuple(state["order"])
        seats = state["players"]
        self.of: dict[str, Reach] = {}
        held = []
        for player in self.order:
            found = None if elsewhere(seats[player]) else reach(state, player)
            held.append(found)
            if found is not None:
                self.of[player] = found
        # the players per window, shared with every `InReach` of the very same `Reach` records (a card drawn
        # changes one player's; the key keeps the records alive, so no other object can take their place)
        key = (self.order, *held)
        known = _PLAYERS_FOR.get(key)
        if known is None:
            if len(_PLAYERS_FOR) >= _PLAYERS_FOR_LIMIT:
                _PLAYERS_FOR.clear()
            known = _PLAYERS_FOR[key] = {}
        self.known: dict[str, tuple[str, ...]] = known

    def held(self, state: dict, player: str) -> Reach:
        """``player``'s `Reach` in ``state``."""
        known = self.of.get(player)
        return reach(state, player) if known is None else known

    def players_for(self, window: str) -> tuple[str, ...]:
        """The players (in seat order) who may hold something that could be used in ``window``."""
        found = self.known.get(window)
        if found is None:
            found = []
            for player in self.order:
                held = self.of.get(player)
                if held is None or held.windows is None or window in held.windows:
                    found.append(player)
            found = self.known[window] = tuple(found)
        return found


@while_unchanged(HELD)  # asked for every player at every window; a player's cards change far less often
def in_reach(state: dict) -> InReach:
    """What every player's cards and powers could be used for at all (`InReach`)."""
    return InReach(state)


def _window_options(state: dict, player: str, window: str, held: Reach) -> list[dict]:
    ruleset = state.get("ruleset") or "mayfair"
    found = []
    active = active_powers(state)
    for name in held.powers:
        power = POWERS[name]
        if window in power.windows_in(ruleset) and (player, name) in active and not power.used_up(state, player):
            found += power.options(state, player, window)
    in_hand = held.cards_windows
    if window not in in_hand and ANY_WINDOW not in in_hand:
        return found
    seen = set()
    no_flare = None
    for card, windows, kind_name, is_flare in held.cards:
        if (window not in windows and ANY_WINDOW not in windows) or kind_name in seen:
            continue
        if is_flare:
            if no_flare is None:
                no_flare = not may_play_a_flare(state, player)
            if no_flare:
                continue
        ability = card_ability(state, player, card)
        if ability is None or not ability.in_window(window, ruleset):
            continue
        offered = ability.options(state, player, card, window)
        if offered:
            seen.add(kind_name)
            found += offered
    return found


@lru_cache(maxsize=4096)
def hand_windows(cards_in_hand: tuple[str, ...]) -> frozenset[str]:
    """Every window in which some card of a hand could be played ("*": any), remembered per hand."""
    return frozenset({window for card in cards_in_hand for window in card_windows(card)})


def may_play_a_flare(state: dict, player: str) -> bool:
    """RULES.md 9 (ffg): at most one flare per player per encounter (a Super flare a Cosmic Zap sent back
    to hand does not count: the ``flares_zapped`` note); mayfair sets no limit."""
    limit = rulesets.of(state).flares_per_encounter
    ch = state.get("ch")
    if limit is None or ch is None:
        return True
    played = ch.get("flares", []).count(player) - (ch["notes"].get("flares_zapped") or []).count(player)
    return played < limit


def response_options(state: dict, player: str, use: dict) -> list[dict]:
    """The zaps a player could answer a pending use with (edicts, and flares that act as one: Healer Wild), and
    the uses of its active powers that answer one (Reserve cancelling a reinforcement: `Power.respond_options`)."""
    found, seen = [], set()
    for name in state["players"][player]["powers"]:
        responder = getattr(POWERS[name], "respond_options", None)
        if responder is not None and (player, name) in active_powers(state):
            found += responder(state, player, use)
    no_flare = not may_play_a_flare(state, player)
    for card in playable_cards(state, player):
        if cards.kind(card) not in ("edict", "flare") or (no_flare and card.startswith("Flare:")):
            continue
        ability = card_ability(state, player, card)
        responder = getattr(ability, "respond_options", None)
        kind_name = cards.card_kind_name(card)
        if responder is None or kind_name in seen:
            continue
        offered = responder(state, player, card, use)
        if offered:
            seen.add(kind_name)
            found += offered
    return found


def anyone_can_respond(state: dict, use: dict) -> bool:
    """Whether some player holds a zap that answers this use."""
    for player in state["order"]:
        if response_options(state, player, use):
            return True
    return False


def passed_for_stage(state: dict) -> list[str]:
    """Players who passed for the rest of the current stage: no window asks them again until the next.

    `Passed` with ``until: "next stage"`` notes them in the challenge (engine.evolve)."""
    ch = state.get("ch")
    noted = ch["notes"].get("passed_stage") if ch else None
    if not noted or noted.get("stage") != ch.get("stage"):
        return []
    return list(noted["players"])


def anyone_may_act(state: dict, window: str) -> bool:
    """Whether some player who has not passed for the stage could use something in a window."""
    candidates = in_reach(state).players_for(window)
    if not candidates:
        return False
    out = set(passed_for_stage(state))
    for player in timing_order(state):
        if player in candidates and player not in out and window_options(state, player, window):
            return True
    return False

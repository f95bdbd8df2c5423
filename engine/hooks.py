"""How powers, flares and edicts change the rules without editing the turn sequence.

The turn sequence asks questions at fixed points; everything *in force* may answer:
each active power (held, not lost to power loss, not zapped), in timing order, then each
flare or edict effect played this challenge (``ch["effects"]``), in the order played.

Modifiers are folded: ``fold(state, "token_strength", 1, player="red", side="offense")``
calls ``token_strength(state, me, value, **kw)`` on every handler that defines it and
returns the last value. Triggers are fired: ``fire(ctx, "on_resolved", outcome=...)``
calls ``on_resolved(ctx, me, **kw)`` on each handler, which may emit events and schedule
steps (decisions included).

Modifier hooks (value in, value out):
- ``launch_range(player, role)``: ``[low, high]`` tokens a player may put on the cone (offense/ally).
- ``token_strength(player, side)``: what each of a player's tokens adds to its side's total.
- ``attack_values()``: ``{"offense": v, "defense": v}`` card values (None for non-Attacks).
- ``side_total(side)``: a side's total before reinforcements.
- ``lower_wins()``: True when the lower total wins (each answer may flip it).
- ``outcome(outcome)``: the outcome dict, last word before it is applied.
- ``loss_destination(player, src, reason, by)``: where a lost token goes: ``warp``, ``home``, ``removed``
  (``by``: the player who inflicts the loss, e.g. the winning main player, or None).
- ``removable(player)``: how many of the tokens a loss sends out of the game may go there (value in: all of
  them); the others go to the warp (the FFG Void spares a player its last five ships).
- ``may_join(player)``: the sides a player may join in stage 6 (a set).
- ``launch_targets()``: the planets the cone may be aimed at (value in: the defense's system; the FFG Will adds the
  defense's foreign colonies).
- ``destiny_free_choice()``: True when the offense picks the defense whatever the destiny card.
- ``chooses_first()``: the side that must commit its card face up first, or None.
- ``consolation_count(player, count)``: cards a player takes as consolation (Stellar Gas: 0).
- ``reward_count(player)``: rewards a winning ally collects (Cosmic Gas: 0).
- ``deal_loss(player)``: tokens a main player loses when a deal fails (3).
- ``challenge_card_choice(player)``: the challenge cards a main player may commit now (value in: all it could
  play; the FFG Loser's upset keeps the Attacks of a player holding one).
- ``kept_through_new_hand(player)``: cards of a player's hand it keeps, shown, when it draws a new hand (value
  in: none; the FFG Vulch's artifacts).
- ``acts_before_consolation()``: True when a power acts on the result before the consolation is taken; the
  ``before_consolation(outcome)`` trigger is then fired (the FFG Barbarian).
- ``deal_frees_warp()``: True when a deal's terms may free ships from the warp (``terms.freed``: the FFG Zombie).
- ``extra_cards(player)``: additional challenge cards a main player may commit (Deuce).
- ``card_kind(side)``: what a side's revealed challenge card counts as (Emotion Control, Deuce).
- ``ally_gains(winner)``: ``{"land": [...], "reward": [...]}`` winning allies that land or take
  rewards; a winning ally in neither list goes home with nothing (Grudge Wild).
- ``card_sources(player)``: the places a player may play cards from, ``("hand",)`` and, while Miser's
  power works, ``"hoard"`` (`engine.playable`).
- ``may_challenge_again(player, number, succeeded)``: whether the offense may challenge again after
  challenge ``number`` (Machine; `engine.steps.game.EndChallenge`).
- ``regroup_player(player)`` / ``regroup_instead(player)``: who retrieves a token at the regroup, and what
  it may do instead (`engine.regroup`).

The outcome (``outcome`` hook) may carry ``winners_to_warp`` (a reason: the winning side's tokens in the
challenge go to the warp instead of landing or going home: Shadow's Wild) and ``also_lost``
(``[{"player", "count", "reason"}]``: tokens lost from bases beyond those in the challenge). An effect
in ``ch["effects"]`` with a ``side`` and ``adds`` adds that much to the side's total after the reveal,
as reinforcements do (Fodder).

Trigger hooks: ``on_turn_began``, ``on_challenge_began(number)`` (the challenge exists, before its
start window: zaps can answer what it triggers), ``on_launched``, ``on_alliances_formed``, ``on_revealed``,
``on_tokens_lost(losses)``, ``on_resolved(outcome)`` (``outcome["tokens"]``: each side's tokens by
colour as the challenge was decided), ``on_edict_discarded(card, player)``,
``on_cards_drawn(player, count, reason)``, ``on_tokens_retrieved(player, count, reason)``,
``on_zapped(target, power)`` (fired before the zap takes effect, so the zapped power hears it),
``on_challenge_ended()`` (stage 10, once its own decision is settled: Reincarnator), ``on_deal_concluded(made)``
(a deal made or failed, at its clean-up, as the main players' ships are sent home from the cone: the FFG
Grudge and Warrior, Tick-Tock), ``on_use_applied(use)`` (a flare or edict played took effect),
``on_encounter_cards_discarded(cards)`` (stage 9: the challenge cards the challenge was resolved with
are on the discard pile: Fido), ``on_destiny_target(card, player)`` (a destiny card drawn points at a
player: a colour card's colour, None for a wild card, the player a special card designates once known:
Shadow), ``before_compensation(owed)`` (consolation is about to be taken: Hacker notes another giver or a
picker, `engine.steps.compensation`), ``before_destiny_drawn()`` (a power may choose the destiny card the
offense draws: Dictator, `engine.destiny_choice`), ``before_reveal()`` (a main player may keep its card face
down and state it: Gambler, `engine.steps.bluff`), ``on_game_setup()`` (once the powers and the hands are
dealt, before the first turn: Miser's hoard).

Flares still in a hand hear triggers of their own (`engine.held`): ``on_cards_discarded``,
``before_new_hand``, ``before_cards_taken``, ``on_deck_reshuffled`` (Tick-Tock's Wild).
"""

from __future__ import annotations

from engine.memo import FORCES, while_unchanged
from engine.registry import EFFECTS, POWERS
from engine.state import active_powers, powers_of, timing_order


class Forces:
    """What is in force at some moment: ``entries``, ``(handler, owner, effect)`` for every active power in
    timing order, then every effect played this challenge in the order played; and, worked out as they are
    asked, the listeners of each hook among them (most hooks have none).

    A modifier is folded over the entries in that order (`fold`: the powers, then what was played on top of
    them). A trigger is told in the timing order of the players (`fire`, RULES.md 5): each player's power,
    then the effects that player played, a player after another by its place in ``order``."""

    __slots__ = ("entries", "order", "known", "known_triggered")

    def __init__(self, entries: tuple, order: tuple[str, ...] = ()):
        self.entries = entries
        self.order = order  # the timing order of the players
        self.known: dict[str, tuple] = {}  # the listeners of each hook asked about so far
        self.known_triggered: dict[str, tuple] = {}  # the same, in the players' timing order

    def listeners(self, hook: str) -> tuple:
        """``(method, owner, effect)`` for every entry whose handler answers ``hook``, in order."""
        told = self.known.get(hook)
        if told is None:
            told = self.known[hook] = tuple([(fn, owner, effect) for handler, owner, effect in self.entries
                                             if (fn := getattr(handler, hook, None)) is not None])
        return told

    def triggered(self, hook: str) -> tuple:
        """The listeners of a trigger, in the timing order of their owners (a player's power before the
        effects it played)."""
        told = self.known_triggered.get(hook)
        if told is None:
            told = self.listeners(hook)
            if any(effect is not None for _, _, effect in told):  # (powers alone are in timing order already)
                place = {player: index for index, player in enumerate(self.order)}
                told = tuple(sorted(told, key=lambda listener: place.get(listener[1], len(place))))
            self.known_triggered[hook] = told
        return told


NOTHING_IN_FORCE = Forces(())
# The same few `Forces` recur all game long (the powers in force in the timing order of each offense
# and defense), so each is kept, with the listeners worked out for it, under what it holds: the timing
# order, the handlers, the owners and the very effect records (kept alive by the entries, so their ids
# stay theirs).
_SEEN: dict[tuple, Forces] = {}
_SEEN_LIMIT = 512


@while_unchanged(FORCES)  # the rules ask "what is in force?" at every step, and most facts leave it as it was
def in_force(state: dict) -> Forces:
    """Every active power and every effect played this challenge (`Forces`)."""
    if state.get("status") != "playing":
        return NOTHING_IN_FORCE
    active = active_powers(state)
    order = timing_order(state)
    found = [(POWERS[name], color, None) for color in order for name in powers_of(state, color)
             if (color, name) in active]
    ch = state.get("ch")
    if ch:
        for effect in ch["effects"]:
            handler = EFFECTS.get(effect["source"])
            if handler is not None:
                found.append((handler, effect["player"], effect))
    key = (order, *((id(handler), owner, id(effect)) for handler, owner, effect in found))
    forces = _SEEN.get(key)
    if forces is None:
        if len(_SEEN) >= _SEEN_LIMIT:
            _SEEN.clear()
        forces = _SEEN[key] = Forces(tuple(found), order)
    return forces


# (state, its ply, what is in force then): a hook is asked about dozens of times between two facts.
# One slot, assigned in one go: safe across threads.
_LAST: tuple = (None, -1, NOTHING_IN_FORCE)


def forces_now(state: dict) -> Forces:
    """What is in force in ``state`` as it stands (`in_force`, asked once per fact)."""
    global _LAST
    known_state, known_ply, forces = _LAST
    ply = state.get("ply", 0)
    if known_state is not state or known_ply != ply:
        forces = in_force(state)
        _LAST = (state, ply, forces)
    return forces


def listeners(state: dict, hook: str) -> tuple:
    """``(method, owner, effect)`` for every handler in force that answers ``hook``, in timing order."""
    forces = forces_now(state)
    told = forces.known.get(hook)
    return forces.listeners(hook) if told is None else told


def triggered(state: dict, hook: str) -> tuple:
    """The listeners of a trigger among what is in force, in the timing order of their owners (RULES.md 5)."""
    return forces_now(state).triggered(hook)


def fold(state: dict, hook: str, value, **kw):
    """Let every handler in force modify ``value`` in turn."""
    forces = forces_now(state)
    told = forces.known.get(hook)  # (`listeners`, unrolled: folds are asked at every step)
    if told is None:
        told = forces.listeners(hook)
    for fn, owner, effect in told:
        value = fn(state, owner, value, effect=effect, **kw)
    return value


def listening(state: dict, hook: str) -> bool:
    """Whether anything in force answers ``hook`` (a step may then wait for it without changing other games)."""
    return bool(listeners(state, hook))


def fire(ctx, hook: str, **kw) -> None:
    """Tell every handler in force that something happened; they may act on it.

    Handlers are told in the timing order of the players they belong to (RULES.md 5: a power and the
    effects played by one player take that player's turn, `Forces.triggered`), and the steps they
    schedule run in that same order: the first handler's first (`Ctx.collecting`). The listeners are those in force
    when the trigger fires: what one handler changes does not add or remove another's turn.
    """
    forces = forces_now(ctx.state)
    told = forces.known_triggered.get(hook)  # (`triggered`, unrolled: fired at every step)
    if told is None:
        told = forces.triggered(hook)
    if not told:
        return
    with ctx.collecting():
        for fn, owner, effect in told:
            fn(ctx, owner, effect=effect, **kw)

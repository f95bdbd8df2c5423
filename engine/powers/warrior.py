"""Warrior: experience from every past challenge adds to the Warrior's total."""

from engine.powers.base import Flare, Power
from engine.state import ally_side, side_of, side_of_main

PER_WIN = 1
PER_LOSS = 2  # a lost challenge teaches more than a won one


DEALS = "warrior_deals"  # the FFG Warrior's deals as a main player: {"made": n, "failed": n} (PlayerNoted)


def experience(state: dict, player: str) -> int:
    """+1 per challenge won and +2 per challenge lost so far as a main player (``state["record"]``); the FFG
    Warrior's deals count too, made as won, failed as lost (noted by the power: `Warrior.on_deal_concluded`)."""
    record = state["record"][player]
    deals = state["notes"].get(player, {}).get(DEALS) or {}
    return PER_WIN * (record["won"] + deals.get("made", 0)) + PER_LOSS * (record["lost"] + deals.get("failed", 0))


class Warrior(Power):
    name = "Warrior"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "the reveal (stage 8), as a main player"
    provenance = "mayfair"
    description = ("As a main player, add your experience to your side's total: 1 for every challenge you "
                   "have won and 2 for every challenge you have lost as a main player so far this game.")
    # the FFG card: a deal made counts as a win, a failed deal as a loss
    readings = {"ffg": {"description": (
        "As a main player, add your experience to your side's total: 1 for every encounter you have won or "
        "deal you have made and 2 for every encounter you have lost or deal that failed, as a main player so "
        "far this game.")}}

    def on_deal_concluded(self, ctx, me, *, made, effect=None):
        if not self.reads(ctx.state, "ffg") or side_of_main(ctx.state, me) is None:
            return
        deals = dict(ctx.state["notes"].get(me, {}).get(DEALS) or {"made": 0, "failed": 0})
        deals["made" if made else "failed"] += 1
        ctx.emit("PlayerNoted", player=me, key=DEALS, value=deals)

    def side_total(self, state, me, value, *, side, card, effect=None):
        fighting = side_of_main(state, me) == side
        allied = ally_side(state, me) == side and SUPER.in_force(state, me)
        return value + experience(state, me) if fighting or allied else value


POWER = Warrior()


class WarriorWild(Flare):
    """Wild: your own experience adds to your side's total this challenge."""

    power = "Warrior"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    # the published FFG Wild (the defense may then have an encounter against the offense's home system) was
    # found (issue 25 item 9) but is not played: a counter-encounter is new to the turn sequence; `house`
    provenance = "house"
    description = ("After the reveal, as a main player or ally, fight like a Warrior this challenge: add to "
                   "your side's total 1 for every challenge you have won and 2 for every challenge you have "
                   "lost as a main player so far.")

    def options(self, state, me, card, window):
        if side_of(state, me) is None or not state["ch"]["revealed"] or not experience(state, me):
            return []
        return [self.offer(card, label="add your experience to your side")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of(ctx.state, me))

    def side_total(self, state, me, value, *, side, card, effect):
        return value + experience(state, me) if side == effect["side"] else value


class WarriorSuper(Flare):
    """Super: the Warrior's experience counts when it is an ally too."""

    power = "Warrior"
    mode = "super"
    windows = ("alliance", "planning", "committed", "reveal")
    lasting = True
    # the published FFG Super, confirmed (issue 25 item 9): the power used as an ally
    provenance = "ffg"
    description = ("Once you have joined a side as an ally, you may use your power for that side this "
                   "challenge: your experience adds to its total as if you were its main player.")

    def options(self, state, me, card, window):
        if ally_side(state, me) is None or not experience(state, me):
            return []
        return [self.offer(card, label="add your experience to the side you joined")]

    def use(self, ctx, me, card, args, use):
        # a marker read by the Warrior power while it is in force
        self.add_effect(ctx, me)


WILD = WarriorWild()
SUPER = WarriorSuper()

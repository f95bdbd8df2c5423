"""Fodder: piles more Attack cards onto its own after the reveal.

Both main players revealed Attacks: Fodder may discard from its hand Attack cards valued above its
own revealed card and below its opponent's, and each adds its value to Fodder's side. The values
are added as an effect of the encounter (``adds``: `engine.steps.resolve.reinforcements`), so a zap
of the power after its use does not take them back.
"""

from engine import cards, shapes
from engine.handcards import discard_cards
from engine.powers.base import Flare, Power
from engine.revealed import card_kind, printed_attack_value
from engine.state import bases, committed_challenge_cards, hand, opponent_side, side_of, side_of_main
from engine.steps.tokens import move

SOURCE = "power:Fodder"


def revealed_value(state: dict, side: str) -> int | None:
    """The printed value of a side's revealed Attack (a Morph copying one has its value)."""
    played = committed_challenge_cards(state, side)
    return printed_attack_value(state, side, played[0]) if played else None


def fodder(state: dict, me: str) -> list[str]:
    """The Attack cards in ``me``'s hand it could add: above its own card (any value under the Super) and below
    its opponent's; none unless both main players revealed Attacks."""
    side = side_of_main(state, me)
    if side is None or not state["ch"]["revealed"]:
        return []
    other = opponent_side(side)
    if card_kind(state, side) != "attack" or card_kind(state, other) != "attack":
        return []
    own, theirs = revealed_value(state, side), revealed_value(state, other)
    if own is None or theirs is None:
        return []
    low = None if SUPER.in_force(state, me) else own
    return [c for c in hand(state, me) if cards.kind(c) == "attack"
            and (low is None or cards.attack_value(c) > low) and cards.attack_value(c) < theirs]


class Fodder(Power):
    name = "Fodder"
    editions = ("ffg",)
    who = ("main",)
    mandatory = False
    timing = "stage 8, after the reveal of two Attacks"
    windows = ("reveal",)
    provenance = "ffg"
    description = ("As a main player, when both you and your opponent have revealed Attack cards, you may discard "
                   "from your hand any Attack cards valued higher than the one you played and lower than your "
                   "opponent's; each adds its value to your side's total.")

    def options(self, state, me, window):
        found = fodder(state, me)
        if not found:
            return []
        return [self.offer({"cards": shapes.subset(found, 1)}, label="discard Attacks to add their values")]

    def use(self, ctx, me, args, use):
        usable = set(fodder(ctx.state, me))
        chosen = [c for c in args["cards"] if c in usable]
        if not chosen:
            return
        discard_cards(ctx, me, chosen, "Fodder")
        ctx.emit("EffectAdded", effect={"source": SOURCE, "player": me, "side": side_of_main(ctx.state, me),
                                        "adds": sum(cards.attack_value(c) for c in chosen), "cards": chosen})


POWER = Fodder()


def may_join_late(state: dict, me: str) -> list[str]:
    """The sides that invited ``me`` when it declined every invitation (and it is in the encounter in no way)."""
    ch = state.get("ch")
    if not ch or not ch["revealed"] or side_of(state, me) is not None or me not in ch["declined"]:
        return []
    return [side for side in ("offense", "defense") if me in (ch["invited"][side] or [])]


class FodderWild(Flare):
    """Wild: having declined an invitation, join that side with one ship after the reveal."""

    power = "Fodder"
    mode = "wild"
    windows = ("reveal",)
    provenance = "ffg"
    description = ("If you were invited to ally in this challenge and declined, after the challenge cards are "
                   "revealed you may join a side that invited you with one token from any of your bases.")

    def options(self, state, me, card, window):
        sides, colonies = may_join_late(state, me), bases(state, me)
        if not sides or not colonies:
            return []
        return [self.offer(card, {"side": shapes.choice(sides), "planet": shapes.choice(colonies)},
                           label="join a side that invited you, with one token")]

    def use(self, ctx, me, card, args, use):
        side, planet = args["side"], args["planet"]
        if side not in may_join_late(ctx.state, me) or ctx.state["planets"][planet].get(me, 0) < 1:
            return
        ctx.emit("AllianceAnswered", player=me, side=side)
        move(ctx, [(me, planet, f"cone:{side}", 1)], "Fodder Wild Flare")


class FodderSuper(Flare):
    """Super: any Attack below your opponent's card may be added, whatever your own."""

    power = "Fodder"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("This challenge, when you use your power you may discard and add every Attack card in your hand "
                   "valued lower than your opponent's, whatever the value of your own.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not state["ch"]["revealed"] or self.in_force(state, me):
            return []
        return [self.offer(card, label="add any Attack lower than your opponent's")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = FodderWild()
SUPER = FodderSuper()

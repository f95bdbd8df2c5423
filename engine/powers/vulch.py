"""Vulch: the edicts other players discard come to the Vulch's hand.

Every discard of an edict goes through `engine.handcards.discard`, which announces it with
``on_edict_discarded``: after use, after a Card Zap cancelled it, with a new hand, to Plague,
Hate, Mite, Barbarian or Judge. The take is a mandatory power effect: it is announced, a
Cosmic Zap may cancel that one take (the edict then stays in the discard pile, and the zap
itself, once discarded, is the next edict the Vulch takes), and a Vulch whose power is zapped
for the challenge or lost to power loss takes nothing.

Our reading: the Vulch scavenges the edicts of *other* players; its own played or discarded
edicts go to the discard pile as anyone's do (otherwise one Cosmic Zap would serve it forever).
"""

from engine import cards, shapes
from engine.powers.base import ANY_WINDOW, Flare, Power


def edicts_in_discard(state: dict) -> list[str]:
    """The edicts lying in the discard pile, oldest first."""
    return [c for c in state["discard"] if cards.kind(c) == "edict"]


def take_from_discard(ctx, me: str, card_ids: list[str], reason: str) -> None:
    """Move face-up edicts from the discard pile to ``me``'s hand (everyone saw them: public)."""
    present = [c for c in card_ids if c in ctx.state["discard"]]
    if present:
        ctx.emit("CardsMoved", cards=present, src="discard", dst=f"hand:{me}", seen_by=None, reason=reason)


class Vulch(Power):
    name = "Vulch"
    editions = ("mayfair", "ffg")
    who = ("any",)
    mandatory = True
    timing = "whenever another player's edict is discarded"
    windows = ()
    provenance = "mayfair"
    description = ("Whenever an edict another player held or played is discarded (after it is played, when it "
                   "is cancelled, with a new hand, or because a card or power makes that player discard), you "
                   "take it from the discard pile into your hand. Edicts you discard yourself stay discarded.")
    # the FFG card: besides, a Vulch drawing a new hand keeps its artifacts, shown, and draws 8 besides
    readings = {"ffg": {"description": (
        "Whenever an artifact another player held or played is discarded (after it is played, when it is "
        "cancelled, with a new hand, or because a card or power makes that player discard), you take it from "
        "the discard pile into your hand. Artifacts you discard yourself stay discarded. When you draw a new "
        "hand, you show and keep your artifacts and draw 8 cards besides.")}}

    def kept_through_new_hand(self, ctx_state, me, value, *, player, effect=None):
        if player != me or not self.reads(ctx_state, "ffg"):
            return value
        return value + [c for c in ctx_state["players"][me]["hand"] if cards.kind(c) == "edict" and c not in value]

    def on_edict_discarded(self, ctx, me, *, card, player, effect=None):
        if player == me:
            return
        self.announce(ctx, me, "scavenge", {"card": card, "from": player})

    def scavenge(self, ctx, me, context):
        """Take the discarded edict, if it is still on the discard pile (a reshuffle may have taken it)."""
        take_from_discard(ctx, me, [context["card"]], "Vulch")


POWER = Vulch()


class VulchWild(Flare):
    """Wild: pick one edict out of the discard pile."""

    power = "Vulch"
    mode = "wild"
    windows = (ANY_WINDOW,)
    provenance = "house"
    description = ("At any time: choose one edict in the discard pile and take it into your hand. You may play "
                   "it as soon as the window reopens.")

    def options(self, state, me, card, window):
        found = edicts_in_discard(state)
        if not found:
            return []
        return [self.offer(card, {"edict": shapes.choice(found)}, label="take an edict from the discard pile")]

    def use(self, ctx, me, card, args, use):
        take_from_discard(ctx, me, [args["edict"]], "Vulch Wild Flare")


class VulchSuper(Flare):
    """Super: take every edict out of the discard pile."""

    power = "Vulch"
    mode = "super"
    windows = (ANY_WINDOW,)
    provenance = "house"
    description = ("At any time: take every edict in the discard pile into your hand, your own discarded edicts "
                   "included.")

    def options(self, state, me, card, window):
        if not edicts_in_discard(state):
            return []
        return [self.offer(card, label="take every edict from the discard pile")]

    def use(self, ctx, me, card, args, use):
        take_from_discard(ctx, me, edicts_in_discard(ctx.state), "Vulch Super Flare")


WILD = VulchWild()
SUPER = VulchSuper()

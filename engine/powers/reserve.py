"""Reserve: low Attack cards serve it as reinforcements, and a Negotiate cancels another's reinforcement.

After the reveal of two Attacks, Reserve (a main player or ally) may play Attack cards of 06 or less
from its hand as reinforcement cards of their printed value: each is a reinforcement effect
(``source: reinforcement``, engine/reinforcement.py) for the side Reserve chooses, and goes to the
discard pile with the encounter's cards. When another player plays a reinforcement card, Reserve may
answer it (`Power.respond_options`, asked in the response window) by discarding a Negotiate: the
reinforcement is cancelled and discarded.
"""

from engine import cards, shapes
from engine.handcards import discard_cards
from engine.powers.base import Flare, Power, cancel_use
from engine.revealed import card_kind
from engine.state import hand, involved

POWER_LIMIT = 6   # an Attack of 06 or less serves as a reinforcement
SUPER_LIMIT = 9   # the Super lets one Attack of up to 09 serve
REASON = "Reserve"


def attacks_revealed(state: dict) -> bool:
    """Whether both main players revealed Attack cards (reinforcements count only then)."""
    ch = state.get("ch")
    return bool(ch and ch["revealed"]) and card_kind(state, "offense") == "attack" == card_kind(state, "defense")


def larger_one_played(state: dict, me: str) -> bool:
    """Whether ``me`` already played an Attack above 06 as a reinforcement this encounter (the Super allows one)."""
    return any(e["source"] == "reinforcement" and e["player"] == me and e.get("by") == REASON
               and e["value"] > POWER_LIMIT for e in state["ch"]["effects"])


def reinforcing_attacks(state: dict, me: str) -> list[str]:
    """The Attack cards in ``me``'s hand it may play as reinforcements now."""
    if me not in involved(state) or not attacks_revealed(state):
        return []
    limit = SUPER_LIMIT if SUPER.in_force(state, me) and not larger_one_played(state, me) else POWER_LIMIT
    return [c for c in hand(state, me) if cards.kind(c) == "attack" and cards.attack_value(c) <= limit]


def negotiates(state: dict, me: str) -> list[str]:
    """The Negotiates (Compromises) in ``me``'s hand."""
    return [c for c in hand(state, me) if cards.kind(c) == "compromise"]


class Reserve(Power):
    name = "Reserve"
    editions = ("ffg",)
    who = ("main", "ally")
    mandatory = False
    timing = "stage 8, after the reveal; when another player plays a reinforcement"
    windows = ("reveal",)
    provenance = "ffg"
    description = ("As a main player or ally, after two Attack cards are revealed you may play Attack cards of 06 "
                   "or less from your hand as reinforcements of their printed value, for either side, one after "
                   "another. And when another player plays a reinforcement card, you may discard a Compromise to "
                   "cancel it: it is discarded without effect.")

    def used_up(self, state, me):
        return False  # one Attack at a time, as many as Reserve likes

    def options(self, state, me, window):
        found = reinforcing_attacks(state, me)
        if not found:
            return []
        return [self.offer({"card": shapes.choice(found), "side": shapes.choice(["offense", "defense"])},
                           label="play an Attack as a reinforcement")]

    def use(self, ctx, me, args, use):
        card = args["card"]
        if card not in reinforcing_attacks(ctx.state, me):
            return
        ctx.emit("CardsMoved", cards=[card], src=f"hand:{me}", dst="table", seen_by=None, reason=REASON)
        ctx.emit("EffectAdded", effect={"source": "reinforcement", "player": me, "side": args["side"],
                                        "value": cards.attack_value(card), "card": card, "by": REASON})

    def respond_options(self, state, me, use):
        if not cancellable(state, me, use) or not negotiates(state, me):
            return []
        return [self.offer({"negotiate": shapes.choice(negotiates(state, me))},
                           label=f"discard a Compromise to cancel {use['player']}'s reinforcement")]

    def respond(self, ctx, me, args, use):
        """Answering a reinforcement: discard the Negotiate, cancel the reinforcement (it is then discarded)."""
        target = use["target"]
        if args["negotiate"] not in hand(ctx.state, me):
            return
        discard_cards(ctx, me, [args["negotiate"]], REASON)
        cancel_use(ctx, me, target)


def cancellable(state: dict, me: str, use: dict) -> bool:
    """Whether ``use`` is another player's reinforcement card that Reserve, in the encounter, may cancel."""
    return use.get("source") == "reinforcement" and use["player"] != me and me in involved(state) and \
        not use.get("target")


POWER = Reserve()


def others_reinforcements(state: dict, me: str, discarded: list[str], player: str | None) -> list[str]:
    """The reinforcement cards of ``discarded`` that another player than ``me`` discarded (a card played from the
    table: whoever played it, told by its reinforcement effect)."""
    found = []
    ch = state.get("ch")
    for card in discarded:
        if cards.kind(card) != "reinforcement":
            continue
        owner = player
        if owner is None and ch:
            owner = next((e["player"] for e in ch["effects"] if e.get("card") == card), None)
        if owner != me:
            found.append(card)
    return found


class ReserveWild(Flare):
    """Wild: take a reinforcement card another player discards."""

    power = "Reserve"
    mode = "wild"
    windows = ()
    # published text not confirmed (issue 25 item 9: not found in the sources searched): designed here after
    # public descriptions of the FFG alien, so `house`
    provenance = "house"
    description = ("When another player discards a reinforcement card (played or not), you may play this flare to "
                   "take that card from the discard pile into your hand.")

    def on_cards_discarded(self, ctx, me, card, *, discarded, player):
        found = others_reinforcements(ctx.state, me, discarded, player)
        if found:
            self.ask_to_play(ctx, me, card, {"cards": found})

    def reaction_options(self, state, me, card, context):
        present = [c for c in context["cards"] if c in state["discard"]]
        if not present:
            return []
        return [self.offer(card, {"cards": shapes.subset(present, 1)}, label="take the discarded reinforcement")]

    def use(self, ctx, me, card, args, use):
        present = [c for c in args["cards"] if c in ctx.state["discard"]]
        if present:
            ctx.emit("CardsMoved", cards=present, src="discard", dst=f"hand:{me}", seen_by=None,
                     reason="Reserve Wild Flare")


class ReserveSuper(Flare):
    """Super: one Attack of up to 09 may serve as a reinforcement this encounter."""

    power = "Reserve"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    # published text not confirmed (issue 25 item 9: not found in the sources searched): designed here after
    # public descriptions of the FFG alien, so `house`
    provenance = "house"
    description = ("This challenge, your power may also play one Attack card of up to 09 as a reinforcement.")

    def options(self, state, me, card, window):
        if me not in involved(state) or not attacks_revealed(state) or self.in_force(state, me):
            return []
        return [self.offer(card, label="play one Attack of up to 09 as a reinforcement")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = ReserveWild()
SUPER = ReserveSuper()

"""Remora: follows other players' gains, one card or one token at a time."""

from engine import shapes
from engine.handcards import draw
from engine.powers.base import Flare, Power
from engine.state import warp_count
from engine.steps.tokens import return_home

REASON = "Remora"


def can_draw(state: dict) -> bool:
    """Whether a card could be drawn at all (deck, or discards to reshuffle)."""
    return bool(state["deck"] or state["discard"])


def follow(ctx, me: str, what: str, count: int) -> None:
    """Draw ``count`` cards or retrieve ``count`` tokens from the warp, as a Remora gain."""
    if what == "cards":
        draw(ctx, me, count, REASON)
    else:
        count = min(count, warp_count(ctx.state, me))
        return_home(ctx, [{"player": me, "src": "warp", "count": count, "reason": REASON}])


def followed(player: str, me: str, reason: str) -> bool:
    """Whether a gain by ``player`` is one Remora may follow: not its own, not another Remora gain."""
    # Ignoring Remora gains keeps a Remora and a Remora Wild Flare from following each other forever.
    return player != me and reason != REASON


class Remora(Power):
    name = "Remora"
    editions = ("mayfair", "ffg")
    who = ("any",)
    mandatory = False
    timing = "whenever another player draws cards or retrieves tokens"
    provenance = "mayfair"
    description = ("Whenever another player draws cards from the deck you may draw one card; whenever "
                   "another player takes tokens out of the warp you may take one of yours out to any of "
                   "your bases. Gains made by a Remora are not followed.")
    # the FFG card: a ship may not be retrieved in the encounter in which it went to the warp
    readings = {"ffg": {"description": (
        "Whenever another player draws cards from the deck you may draw one card; whenever another player "
        "retrieves ships from the warp you may retrieve one of yours to any of your colonies, but not a ship "
        "that went to the warp during this encounter. Gains made by a Remora are not followed.")}}

    def on_tokens_lost(self, ctx, me, *, effect, losses, reason):
        fresh = sum(e["count"] for e in losses if e["player"] == me and e["to"] == "warp")
        if fresh and ctx.state.get("ch") and self.reads(ctx.state, "ffg"):
            key = fresh_key(me)
            ctx.emit("ChallengeNoted", key=key, value=ctx.state["ch"]["notes"].get(key, 0) + fresh)

    def on_cards_drawn(self, ctx, me, *, effect, player, count, reason):
        if followed(player, me, reason):
            self.offer_follow(ctx, me, player, "cards")

    def on_tokens_retrieved(self, ctx, me, *, effect, player, count, reason):
        if followed(player, me, reason):
            self.offer_follow(ctx, me, player, "tokens")

    def offer_follow(self, ctx, me: str, player: str, what: str) -> None:
        """Ask me whether to follow (asked only when the gain is possible)."""
        self.ask_reaction(ctx, me, {"player": player, "what": what})

    def reaction_options(self, state, me, context):
        if context["what"] == "cards" and can_draw(state):
            return [self.offer(label=f"draw a card after {context['player']}")]
        if context["what"] == "tokens" and retrievable(state, me):
            return [self.offer(label=f"retrieve a token after {context['player']}")]
        return []

    def react(self, ctx, me, args, context):
        count = 2 if SUPER.in_force(ctx.state, me) else 1
        if context["what"] == "tokens":
            count = min(count, retrievable(ctx.state, me))
        follow(ctx, me, context["what"], count)


def fresh_key(me: str) -> str:
    """The challenge note counting a Remora's ships that went to the warp this encounter (the FFG reading)."""
    return f"remora_fresh:{me}"


def retrievable(state: dict, me: str) -> int:
    """How many of my tokens in the warp the Remora power may retrieve (under ffg, not those lost this
    encounter)."""
    in_warp = warp_count(state, me)
    ch = state.get("ch")
    if not ch or not POWER.reads(state, "ffg"):
        return in_warp
    return max(0, in_warp - ch["notes"].get(fresh_key(me), 0))


POWER = Remora()


class RemoraWild(Flare):
    """Wild: cling to one player for this challenge."""

    power = "Remora"
    mode = "wild"
    windows = ("start", "destiny", "launch", "alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "house"
    description = ("During a challenge, name another player: for the rest of the challenge, each time that "
                   "player draws cards you draw one, and each time it takes tokens out of the warp you take "
                   "one of yours out.")

    def options(self, state, me, card, window):
        others = [c for c in state["order"] if c != me]
        return [self.offer(card, {"player": shapes.choice(others)}, label="follow a player this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, target=args["player"])

    def on_cards_drawn(self, ctx, me, *, effect, player, count, reason):
        if player == effect["target"] and followed(player, me, reason):
            follow(ctx, me, "cards", 1)

    def on_tokens_retrieved(self, ctx, me, *, effect, player, count, reason):
        if player == effect["target"] and followed(player, me, reason) and warp_count(ctx.state, me):
            follow(ctx, me, "tokens", 1)


class RemoraSuper(Flare):
    """Super: this challenge, each gain you follow is two instead of one."""

    power = "Remora"
    mode = "super"
    windows = ("start", "destiny", "launch", "alliance", "planning", "committed", "reveal", "resolution")
    lasting = True
    provenance = "house"
    description = ("For the rest of this challenge, each time you use your power you draw two cards or "
                   "retrieve two tokens instead of one.")

    def options(self, state, me, card, window):
        return [] if self.in_force(state, me) else [self.offer(card, label="follow gains two at a time")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = RemoraWild()
SUPER = RemoraSuper()

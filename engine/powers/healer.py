"""Healer: may save other players' lost tokens, and is paid in cards for it."""

from engine import cards, shapes
from engine.handcards import draw
from engine.powers.base import ANY_WINDOW, Flare, Power, cancel_use, played_edict
from engine.steps.tokens import available_at, return_home, warp_place


class Healer(Power):
    name = "Healer"
    editions = ("mayfair", "ffg")
    who = ("any",)
    mandatory = False
    timing = "whenever another player loses tokens"
    provenance = "mayfair"
    description = ("Whenever other players lose tokens to the warp (or out of the game), you may heal any of "
                   "them: all the tokens each chosen player just lost go back to its bases, and you draw one "
                   "card from the deck for each player you healed.")

    def on_tokens_lost(self, ctx, me, *, effect, losses, reason):
        wounded = self.wounded(ctx.state, me, losses)
        if wounded:
            self.ask_reaction(ctx, me, {"wounded": wounded, "reason": reason})

    def wounded(self, state: dict, me: str, losses: list[dict]) -> list[dict]:
        """Other players' tokens that reached the warp or left the game, with the place they are now."""
        found: dict[tuple[str, str], int] = {}
        for entry in losses:
            if entry["player"] == me or entry["to"] == "home":
                continue
            place = "removed" if entry["to"] == "removed" else warp_place(state)
            if place.startswith("fan:"):
                continue  # 002: tokens on the reverse warp's fan are beyond every player's reach
            key = (entry["player"], place)
            found[key] = found.get(key, 0) + entry["count"]
        return [{"player": p, "place": place, "count": n} for (p, place), n in found.items()]

    def reaction_options(self, state, me, context):
        healable = sorted({w["player"] for w in context["wounded"]
                           if available_at(state, w["player"], w["place"]) > 0})
        if not healable:
            return []
        return [self.offer({"players": shapes.subset(healable, 1)}, label="heal players' lost tokens")]

    def react(self, ctx, me, args, context):
        chosen = set(args["players"])
        returns = [{"player": w["player"], "src": w["place"], "reason": "Healer",
                    "count": min(w["count"], available_at(ctx.state, w["player"], w["place"]))}
                   for w in context["wounded"] if w["player"] in chosen]
        healed_tokens = sum(r["count"] for r in returns)
        fee = healed_tokens if SUPER.in_force(ctx.state, me) else len({r["player"] for r in returns if r["count"]})
        return_home(ctx, returns)
        if fee:
            draw(ctx, me, fee, "Healer")


POWER = Healer()


def zapped_player(use: dict) -> str | None:
    """The player whose power a Cosmic Zap being played aims at: the user of the power use it answers,
    or the owner of the power it switches off for the challenge."""
    if use.get("target"):
        return use["target"]["player"]
    target = (use.get("args") or {}).get("target")
    return target.split(":", 1)[0] if target else None


class HealerWild(Flare):
    """Wild: a Cosmic Zap played on you is discarded without effect (FFG's published Wild)."""

    power = "Healer"
    mode = "wild"
    windows = ()
    provenance = "ffg"
    description = ("When a Cosmic Zap is played on you (on your power, or on a use of it), cancel it: it has no "
                   "effect and is discarded. (Played only in answer to such a zap.)")

    def respond_options(self, state, me, card, use):
        edict = played_edict(use)
        if edict is None or cards.edict_name(edict) != "CosmicZap" or zapped_player(use) != me:
            return []
        return [self.offer(card, label=f"cancel {use['player']}'s {edict}")]

    def use(self, ctx, me, card, args, use):
        cancel_use(ctx, me, use["target"])


class HealerSuper(Flare):
    """Super: your fee is one card per token healed, this challenge (FFG's published Super)."""

    power = "Healer"
    mode = "super"
    windows = (ANY_WINDOW,)
    lasting = True
    provenance = "ffg"
    description = ("For the rest of this challenge, when you heal you draw one card for each token you heal "
                   "instead of one per player.")

    def options(self, state, me, card, window):
        if not state.get("ch") or self.in_force(state, me):
            return []
        return [self.offer(card, label="draw a card per token you heal this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = HealerWild()
SUPER = HealerSuper()

"""Will: the offense chooses whom to challenge, whatever the destiny card says."""

from engine.powers.base import Flare, Power
from engine.state import offense, system_of


class Will(Power):
    name = "Will"
    editions = ("mayfair", "ffg")
    who = ("offense",)
    mandatory = True
    timing = "destiny (stage 2)"
    provenance = "mayfair"
    description = ("As the offense, you ignore what the destiny card says: after it is drawn you choose any "
                   "other player as the defense (a reverse card still turns the cone), then aim the cone at "
                   "any planet of that player's system at the launch.")
    # the FFG card: any colony of that player will do, a foreign colony in another system too
    readings = {"ffg": {"description": (
        "As the offense, you ignore what the destiny card says: after it is drawn you choose any other player "
        "as the defense, then aim the gate at any planet of that player's system or at any of its foreign "
        "colonies in another player's system (not in your own).")}}

    def destiny_free_choice(self, state, me, value, *, effect=None):
        return True if offense(state) == me else value

    def launch_targets(self, state, me, value, *, effect=None):
        if offense(state) != me or not self.reads(state, "ffg"):
            return value
        defense = state["ch"]["defense"]
        colonies = [p for p, tokens in state["planets"].items()
                    if tokens.get(defense) and system_of(p) not in (defense, me) and p not in value]
        return value + colonies


POWER = Will()


class WillWild(Flare):
    """Wild: this challenge, the offense picks the defense itself."""

    power = "Will"
    mode = "wild"
    windows = ("start",)
    lasting = True
    provenance = "house"
    description = ("As the offense, at the start of a challenge: after this challenge's destiny card is drawn, "
                   "ignore it and choose any other player as the defense, as Will does.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if ch is None or offense(state) != me or ch["defense"] is not None:
            return []
        return [self.offer(card, label="choose your defense this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def destiny_free_choice(self, state, me, value, *, effect):
        return True if offense(state) == me else value


class WillSuper(Flare):
    """Super: the defense Will picked must fight alone."""

    power = "Will"
    mode = "super"
    windows = ("destiny", "launch")
    lasting = True
    provenance = "house"
    description = ("As Will on the offense, once the defense is known and before alliances: nobody may join the "
                   "defense this challenge, whatever it invites; not even the Parasite's power lets anyone "
                   "in.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if ch is None or offense(state) != me or ch["defense"] is None or ch["invited"]["defense"] is not None:
            return []
        return [self.offer(card, label="the defense fights alone")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def may_join(self, state, me, value, *, player, effect):
        return set(value) - {"defense"}


WILD = WillWild()
SUPER = WillSuper()

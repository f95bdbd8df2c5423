"""What an alien power, a flare and an edict are: data about them plus the code of their effects.

A power module in `engine/powers/` defines one `Power` subclass instance named ``POWER`` and
its flares ``WILD`` and ``SUPER`` (`Flare` instances). An edict module in `engine/edicts/`
defines ``EDICT``. Optional uses are offered in the timing windows listed in ``windows``
through `options` and applied by `use`; mandatory effects are hook methods (see
`engine.hooks`) that act whenever the power is in force.
"""

from __future__ import annotations

from engine import cards
from engine.flow import option
from engine.state import has_effect, power_active, side_of_main

ANY_WINDOW = "*"
WINDOWS = ("start", "regroup", "destiny", "launch", "alliance", "planning", "committed", "reveal",
           "resolution", "discard")
# windows inside a decision several players owe (engine.steps.windows): only ANY_WINDOW abilities answer to them
ANY_TIME_WINDOWS = ("alliance_answers", "negotiation")
PROVENANCES = ("mayfair", "ffg", "source", "house")


class Power:
    """An alien power: who may use it, when, mandatory or optional, and its effects."""

    name = ""
    who: tuple[str, ...] = ("main",)
    mandatory = False
    timing = ""
    windows: tuple[str, ...] = ()
    description = ""
    provenance = "mayfair"
    requires: str | None = None
    uses_per_challenge = 1
    # the editions whose games may deal it (RULES.md 9: 37 of the Mayfair powers are in the FFG base set)
    editions: tuple[str, ...] = ("mayfair",)
    # True for a power not lost for want of home bases (Masochist: `engine.state.active_powers`)
    kept_without_home_bases = False
    # where an edition's card plays otherwise (RULES.md 9: the FFG reading of a shared alien):
    # {edition: {"description": ..., and any of "who", "mandatory", "timing", "windows" it changes}};
    # that edition's catalogue shows it, and `windows_in` offers the power in its windows
    readings: dict[str, dict] = {}

    @property
    def key(self) -> str:
        """The ability key of this power's optional use."""
        return f"power:{self.name}"

    def options(self, state: dict, me: str, window: str) -> list[dict]:
        """The optional uses offered to the owner in a window (none by default)."""
        return []

    def use(self, ctx, me: str, args: dict, use: dict) -> None:
        """Apply an optional use (after any zap responses)."""
        raise NotImplementedError(self.name)

    def reaction_options(self, state: dict, me: str, context: dict) -> list[dict]:
        """How the owner may react to what ``context`` describes (see `engine.steps.reactions`)."""
        return []

    # A power may also answer a use being announced, as a zap does (Reserve cancelling a reinforcement):
    # ``respond_options(state, me, use) -> [self.offer(...)]`` is asked in the response window
    # (`engine.usable.response_options`), and ``respond(ctx, me, args, use)`` applies the answer
    # (``use["target"]`` is the use answered).

    def react(self, ctx, me: str, args: dict, context: dict) -> None:
        """Apply a reaction the owner chose."""
        raise NotImplementedError(self.name)

    def offer(self, args: dict | None = None, label: str | None = None) -> dict:
        """An option that uses this power."""
        return option("use", args or {}, ability=self.key, rule=f"power:{self.name}",
                      label=label or f"use {self.name}")

    def announce(self, ctx, me: str, method: str, context: dict) -> None:
        """Run a mandatory effect: announced so that a Cosmic Zap may cancel it, then ``self.method`` applies
        it (a ``power_effect`` step: engine/steps/reactions.py)."""
        ctx.then(ctx.step("power_effect", player=me, power=self.name, method=method, context=context))

    def ask_reaction(self, ctx, me: str, context: dict) -> None:
        """Ask the owner whether it reacts to what ``context`` describes (``reaction_options`` / ``react``;
        a ``reaction`` step, asked only if it can react: engine/steps/reactions.py)."""
        ctx.then(ctx.step("reaction", player=me, power=self.name, context=context))

    def used_up(self, state: dict, me: str) -> bool:
        """Whether the owner has used this power as often as allowed this challenge."""
        ch = state.get("ch")
        return bool(ch) and ch["used"].get(f"{me}:{self.name}", 0) >= self.uses_per_challenge

    def active(self, state: dict, me: str) -> bool:
        """Whether the owner's power works now."""
        return power_active(state, me, self.name)

    def windows_in(self, ruleset: str) -> tuple[str, ...]:
        """The windows the power is used in, in a game of this edition."""
        if not self.readings:
            return self.windows
        return self.readings.get(ruleset, {}).get("windows", self.windows)

    def reads(self, state: dict, ruleset: str) -> bool:
        """Whether the game is of an edition whose reading of this power differs (``ffg``)."""
        return ruleset in self.readings and (state.get("ruleset") or "mayfair") == ruleset

    def catalogue(self, ruleset: str | None = None) -> dict:
        """The public description of the power for clients: of one edition's card if named (its
        reading), else the Mayfair reading with every edition's reading beside it (``readings``)."""
        entry = {"name": self.name, "who": list(self.who), "mandatory": self.mandatory,
                 "timing": self.timing, "windows": list(self.windows), "description": self.description,
                 "provenance": self.provenance, "requires": self.requires, "editions": list(self.editions)}
        if ruleset is None:
            entry["readings"] = {edition: _listed(reading) for edition, reading in self.readings.items()}
        else:
            entry.update(_listed(self.readings.get(ruleset, {})), windows=list(self.windows_in(ruleset)))
        return entry


def _listed(reading: dict) -> dict:
    """A reading as the catalogue gives it (lists, not tuples)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in reading.items()}


class CardAbility:
    """A card played face up from a hand: a flare effect, an edict or a reinforcement."""

    name = ""
    windows: tuple[str, ...] = ()
    description = ""
    provenance = "mayfair"
    discard_after_use = True
    lasting = False  # True when the card's effect stays in force for the rest of the challenge
    editions: tuple[str, ...] = ("mayfair",)  # the editions whose decks hold the card (edicts, artifacts)
    # where an edition's card is played at another time than ``windows`` (ffg's Plague: regroup only)
    windows_by_edition: dict[str, tuple[str, ...]] = {}

    def options(self, state: dict, me: str, card: str, window: str) -> list[dict]:
        """How the card may be played in this window (none when it cannot)."""
        return []

    def use(self, ctx, me: str, card: str, args: dict, use: dict) -> None:
        """Apply the card (after any Card Zap responses)."""
        raise NotImplementedError(self.name)

    def offer(self, card: str, args: dict | None = None, label: str | None = None) -> dict:
        """An option that plays this card."""
        return option("use", args or {}, ability=f"card:{card}", rule=self.rule,
                      label=label or f"play {self.name}")

    @property
    def rule(self) -> str:
        """The rule reference of this card."""
        return f"card:{self.name}"

    def windows_in(self, ruleset: str) -> tuple[str, ...]:
        """The windows the card is played in, in an edition."""
        return self.windows_by_edition.get(ruleset, self.windows)

    def in_window(self, window: str, ruleset: str = "mayfair") -> bool:
        """Whether the card may be played in a window (of a game of this edition)."""
        windows = self.windows_in(ruleset)
        return ANY_WINDOW in windows or window in windows

    def add_effect(self, ctx, me: str, **details) -> None:
        """Put this card's lasting effect in force for the rest of the challenge (its hooks read ``details``)."""
        ctx.emit("EffectAdded", effect={"source": self.source, "player": me, **details})

    def ask_to_play(self, ctx, me: str, card: str, context: dict) -> None:
        """Ask the holder whether it plays this card in answer to what ``context`` describes (a trigger told to
        flares held in a hand: `engine.held`); offered with ``reaction_options``, applied by ``use`` (the use
        carries ``context``), after any Card Zap (a ``card_reaction`` step: engine/steps/reactions.py)."""
        ctx.then(ctx.step("card_reaction", player=me, card=card, context=context))

    def reaction_options(self, state: dict, me: str, card: str, context: dict) -> list[dict]:
        """How the holder may play this card in answer to ``context`` (none: it is not asked)."""
        return []


class Flare(CardAbility):
    """One effect (Wild or Super) of a power's flare."""

    power = ""
    mode = "wild"
    # where an edition's card reads otherwise (RULES.md 9: a published FFG flare played in an ffg game):
    # {edition: {"description": ..., "provenance": ...}}, its windows in ``windows_by_edition``; that edition's
    # catalogue shows them, and `reads` tells the flare's code the game's edition
    readings: dict[str, dict] = {}

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"{self.power} {self.mode.capitalize()} Flare"

    def reads(self, state: dict, ruleset: str) -> bool:
        """Whether the game is of an edition whose reading of this flare differs (``ffg``)."""
        return ruleset in self.readings and (state.get("ruleset") or "mayfair") == ruleset

    @property
    def rule(self) -> str:
        return f"flare:{self.power}"

    @property
    def source(self) -> str:
        """The effect key under which a lasting effect of this flare is registered."""
        return f"flare:{self.power}:{self.mode}"

    def in_force(self, state: dict, me: str) -> bool:
        """Whether ``me`` played this flare's lasting effect this challenge."""
        return has_effect(state, self.source, me)

    def catalogue(self, ruleset: str | None = None) -> dict:
        """The public description of this flare effect: of one edition's card if named (its reading), else
        the Mayfair reading with any other edition's beside it (``readings``, only where one differs)."""
        entry = {"power": self.power, "mode": self.mode, "windows": list(self.windows),
                 "description": self.description, "provenance": self.provenance}
        if ruleset is None:
            if self.readings:
                entry["readings"] = {edition: _listed(reading) for edition, reading in self.readings.items()}
        else:
            entry.update(_listed(self.readings.get(ruleset, {})), windows=list(self.windows_in(ruleset)))
        return entry


class Edict(CardAbility):
    """An edict card."""

    @property
    def rule(self) -> str:
        return f"edict:{self.name}"

    @property
    def source(self) -> str:
        """The effect key under which a lasting effect of this edict is registered."""
        return f"edict:{self.name}"

    def catalogue(self) -> dict:
        """The public description of this edict."""
        return {"name": self.name, "windows": list(self.windows), "description": self.description,
                "provenance": self.provenance, "editions": list(self.editions)}


def played_edict(use: dict) -> str | None:
    """The edict card a use being announced plays, or None (a power's use, a flare, a reinforcement)."""
    ability = use["ability"]
    if ability.startswith("card:") and cards.kind(ability[5:]) == "edict":
        return ability[5:]
    return None


def note_once(ctx, key: str, value) -> None:
    """Record a challenge note unless one is already there: a declaration is made once per challenge."""
    if key not in ctx.state["ch"]["notes"]:
        ctx.emit("ChallengeNoted", key=key, value=value)


def cancel_use(ctx, me: str, target: dict) -> None:
    """``me`` cancels the use being announced (``target``, a respond step's use): it has no effect."""
    ctx.emit("UseCancelled", player=me, target={"use": target["id"], "player": target["player"],
                                                "ability": target["ability"]})


def is_main(state: dict, color: str) -> bool:
    """Whether a player is a main player of the current challenge."""
    return side_of_main(state, color) is not None

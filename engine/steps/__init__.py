"""The steps of the turn sequence; importing this package registers them all."""

from engine.steps import (  # noqa: F401
    cards_stage,
    choose_powers,
    compensation,
    deal,
    destiny,
    game,
    launch,
    reactions,
    resolve,
    tokens,
    windows,
)

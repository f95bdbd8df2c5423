"""What one seat knows of a game, as a state the engine could run once the unknowns are filled in.

The expert bot searches by playing the game forward with the engine, which needs a whole state.
`seat_state` makes the seat's knowledge into one: the state with every card the seat cannot see
replaced by a placeholder (``"?0"``, ``"?1"``, ...) and every other secret dropped:

- other players' hands, hoards and cards kept aside, the other side's face-down challenge
  card(s), the cards set aside and the challenge deck become placeholders, numbered in the order
  of those places (so the same places hold the same placeholders whatever the cards are);
- a hidden card named anywhere else (the agenda's step records name cards drawn or about to be
  used) becomes that card's placeholder too, so the state stays consistent: the card a step
  says was drawn is the card in the hand;
- the destiny pile is sorted (its contents are public: every destiny card but the discards and
  the one turned up; its order is not);
- the seed and the scenario setup are dropped; other players' offered and chosen powers (``ffg``,
  private until every power is chosen) become ``None`` placeholders of the same length.

Two states that differ only in what the seat cannot see give the same `seat_state` (the test of
the expert's fairness builds on that), and `seat_state` of a `seat_state` is itself.
`determinize` fills the placeholders back in from the cards the seat has not seen, draws a seed
and shuffles the destiny pile: one possible world, consistent with what the seat knows.

What the seat could know and this ignores: cards it saw pass between other players (a deal's
cards, a hand shown to it). Every unseen card is equally likely to be anywhere unseen.
"""

from __future__ import annotations

from engine import cards
from engine.catalog import flare_pool
from engine.state import clone

PLACEHOLDER = "?"
SIDES = ("offense", "defense")


def is_placeholder(value) -> bool:
    """Whether a string is a hidden card's placeholder."""
    return isinstance(value, str) and value.startswith(PLACEHOLDER)


def _main(state: dict, side: str) -> str | None:
    turn, ch = state.get("turn"), state.get("ch")
    if side == "offense":
        return turn["offense"] if turn else None
    return ch["defense"] if ch else None


def hidden_places(state: dict, color: str) -> list[tuple[object, str]]:
    """The card lists ``color`` cannot see, in a fixed order: ``(container, key)`` pairs."""
    places = []
    for other in state["order"]:
        if other == color:
            continue
        seat = state["players"][other]
        for key in ("hand", "hoard", "kept"):
            if key in seat:
                places.append((seat, key))
    committed = state.get("committed") or {}
    for side in SIDES:
        if side in committed and _main(state, side) != color:
            places.append((committed, side))
    for key in ("aside", "deck"):
        if key in state:
            places.append((state, key))
    return places


def seat_state(state: dict, color: str) -> dict:
    """The state as ``color`` knows it: hidden cards as placeholders, secrets dropped (see the module)."""
    view = clone(state)
    view.pop("seed", None)
    view["setup"] = {}
    renamed: dict[str, str] = {}
    for container, key in hidden_places(view, color):
        names = []
        for card_id in container[key]:
            name = f"{PLACEHOLDER}{len(renamed)}"
            renamed[card_id] = name
            names.append(name)
        container[key] = names
    for other, seat in view["players"].items():
        if other != color:
            for key in ("offered", "chosen"):
                if seat.get(key) is not None:
                    seat[key] = [None] * len(seat[key])
    if "destiny" in view:
        view["destiny"] = sorted(view["destiny"])
    view = _renamed(view, renamed)
    view["seat"] = color
    return view


def _renamed(value, renamed: dict):
    """``value`` with every string in ``renamed`` (as a value or a key) replaced, in a new tree."""
    if isinstance(value, str):
        return renamed.get(value, value)
    if isinstance(value, dict):
        return {renamed.get(k, k): _renamed(v, renamed) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, renamed) for v in value]
    return value


def placeholders(view: dict) -> list[str]:
    """The placeholders of a seat state, in the order of its hidden places."""
    return [c for container, key in hidden_places(view, view["seat"]) for c in container[key] if is_placeholder(c)]


def seen_cards(view: dict) -> set[str]:
    """The challenge-deck cards the seat sees somewhere (its own places and the public ones)."""
    found = list(view["discard"]) + list(view["table"]) + list(view.get("aside") or [])
    for beside in (view.get("citadels") or {}).values():
        found += beside
    for side in SIDES:
        found += view["committed"].get(side) or []
    for seat in view["players"].values():
        found += seat["hand"] + seat.get("hoard", []) + seat.get("kept", [])
    found += list(view["deck"])
    return {c for c in found if isinstance(c, str) and not is_placeholder(c)}


def unseen_cards(view: dict, count: int, rng) -> list[str]:
    """``count`` cards for the hidden places: the deck's cards the seat has not seen, shuffled.

    Every card but the flares is in every deck, and so are the flares of the powers in play; a
    Mayfair deck holds more flares, drawn at random from the pool, which nobody knows: they are
    drawn here from the pool's unseen flares.
    """
    from engine.setup import cards_without_flares  # (engine.setup is imported by the engine's own start)
    options, ruleset = view["options"], view.get("ruleset") or "mayfair"
    seen = seen_cards(view)
    pool = set(flare_pool(options, ruleset))
    in_play = {cards.flare_card(p) for seat in view["players"].values()
               for p in list(seat.get("powers") or []) + list(seat.get("dealt") or []) + list(seat.get("offered") or [])
               if p} & pool
    sure = [c for c in cards_without_flares(options, ruleset) if c not in seen]
    sure += sorted(c for c in in_play if c not in seen)
    maybe = sorted(c for c in pool if c not in seen and c not in in_play)
    rng.shuffle(sure)
    rng.shuffle(maybe)
    picked = (sure + maybe)[:count]
    if len(picked) < count:  # a deck this reckoning does not know of: no world can be drawn
        raise ValueError(f"{count} hidden cards but only {len(picked)} unseen cards known")
    rng.shuffle(picked)
    return picked


def determinize(view: dict, rng) -> dict:
    """One world consistent with a seat state: placeholders filled, a seed drawn, the destiny pile shuffled."""
    names = placeholders(view)
    filled = dict(zip(names, unseen_cards(view, len(names), rng), strict=True))
    world = _renamed(view, filled)
    world.pop("seat", None)
    world["seed"] = f"world:{rng.getrandbits(64):016x}"
    if "destiny" in world:
        rng.shuffle(world["destiny"])
    return world

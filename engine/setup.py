"""Creating, joining and starting a game (RULES.md 3), including stacked scenarios.

Under ``ffg`` (RULES.md 9) each player is offered two powers and chooses one of them holding no
card (a ``choose_power`` decision of every player at once, `ChoosePowers`); only then is the deck,
with both offered flares of every player, shuffled and the hands of 8 dealt (`deal_after_choice`).

A scenario (admin only, for tests and tutorials) may fix, in ``setup``:
``powers`` ``{colour: [names]}`` (under ``ffg``: the power kept, no choice offered),
``hands`` ``{colour: [cards]}`` (dealt first, filled up to 7, or 8, from the deck), ``deck_top`` (the next cards of the challenge deck, top first),
``destiny_top`` (the next destiny cards, top first), ``first`` (the first player),
``exact_hands`` (colours whose stacked hands are not filled up to 7) and
``tokens`` ``{planet: {colour: n}}`` (planets listed are set to exactly these counts, the rest
keep 4 of their owner's; each colour's remaining tokens go to the warp, 20 in all).
Cards may be named by kind (``A8``) or by id (``A8.3``).
"""

from __future__ import annotations

from engine import cards, levels, rulesets
from engine import options as game_options
from engine.catalog import flare_pool, power_pool
from engine.errors import CommandError, RulesError
from engine.evolve import STREAM_FORMAT
from engine.hooks import fire
from engine.state import TOKENS_PER_PLAYER, clockwise_from_left

NAME_MAX = 40


def create(ctx, command: dict) -> None:
    """Record a new game: ruleset, options, number of seats, secret seed and scenario setup."""
    seats = command.get("seats")
    ruleset = command.get("ruleset") or "mayfair"
    resolved = game_options.resolve(ruleset, command.get("options"), seats)
    seed = command.get("seed")
    if not isinstance(seed, str) or not seed:
        raise CommandError("a game needs a secret seed (a non-empty string)", "seed")
    setup = command.get("setup") or {}
    check_setup(setup, resolved, ruleset)
    ctx.emit("GameCreated", ruleset=ruleset, options=resolved, seats=seats, seed=seed, setup=setup,
             created_by=command.get("by"), format=STREAM_FORMAT)


def check_setup(setup: dict, options: dict, ruleset: str = "mayfair") -> None:
    """Refuse a scenario that names unknown powers, cards or colours."""
    if not isinstance(setup, dict):
        raise CommandError("setup must be an object", "setup")
    unknown = set(setup) - {"powers", "hands", "deck_top", "destiny_top", "first", "tokens", "exact_hands"}
    if unknown:
        raise CommandError(f"unknown setup field {sorted(unknown)[0]!r}", "setup")
    colors = rulesets.get(ruleset).colors
    pool = set(power_pool({**options, "power_pool": None}, ruleset))
    for color, names in _per_colour(setup, "powers", colors).items():
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise CommandError("setup.powers lists power names per colour ([] for a seat without a power)",
                               f"setup.powers.{color}")
        for name in names:
            if name not in pool:
                raise RulesError("1", f"setup.powers.{color}: power {name!r} is not available with these options")
        if len(set(names)) != len(names):
            raise RulesError("3", f"setup.powers.{color} names a power twice")
    check_stacked_cards(setup, options, ruleset)
    check_token_layout(setup, colors)
    if "first" in setup:
        check_colour(setup["first"], colors, "setup.first")
    exact = setup.get("exact_hands", [])
    if not isinstance(exact, list):
        raise CommandError("setup.exact_hands lists colours", "setup.exact_hands")
    for color in exact:
        check_colour(color, colors, "setup.exact_hands")


def check_colour(value, colors, field: str) -> None:
    """A colour of this game's edition: a 400 for what is no colour at all, a 422 for a colour of the
    other edition (green in a mayfair game, say: it is a colour, the edition has none such)."""
    if value in colors:
        return
    if value not in game_options.ALL_COLORS:
        raise CommandError(f"{field}: {value!r} is not a colour; colours: {', '.join(colors)}", field)
    raise RulesError("1", f"{field}: this edition's colours are {', '.join(colors)}; {value} is not one of them")


def check_token_layout(setup: dict, colors=game_options.MAYFAIR_COLORS) -> None:
    """Refuse at creation a token layout that is not ``{planet: {colour: whole number >= 0}}``.

    Which planets exist is known at the start (they are the seated players'); `arrange_tokens`
    checks that then.
    """
    layout = setup.get("tokens", {})
    if not isinstance(layout, dict):
        raise CommandError("setup.tokens maps planets to {colour: count}", "setup.tokens")
    for planet, counts in layout.items():
        home, _, index = planet.rpartition("-")
        if home not in game_options.ALL_COLORS or index not in ("0", "1", "2", "3", "4"):
            raise CommandError(f"setup.tokens: {planet!r} is not a planet name (<colour>-<0 to 4>)", "setup.tokens")
        check_colour(home, colors, "setup.tokens")
        if not isinstance(counts, dict):
            raise CommandError(f"setup.tokens.{planet} maps colours to counts", f"setup.tokens.{planet}")
        for color, n in counts.items():
            check_colour(color, colors, f"setup.tokens.{planet}")
            if type(n) is not int or not 0 <= n <= TOKENS_PER_PLAYER:
                raise CommandError(f"setup.tokens.{planet}.{color}: a count of tokens is a whole number from 0 "
                                   f"to {TOKENS_PER_PLAYER}, not {n!r}", f"setup.tokens.{planet}.{color}")


def _per_colour(setup: dict, field: str, colors=game_options.MAYFAIR_COLORS) -> dict:
    """``setup[field]`` as ``{colour: ...}``, refusing what is not an object keyed by colours."""
    value = setup.get(field, {})
    if not isinstance(value, dict):
        raise CommandError(f"setup.{field} must be an object keyed by colour", f"setup.{field}")
    for color in value:
        check_colour(color, colors, f"setup.{field}")
    return value


def check_stacked_cards(setup: dict, options: dict, ruleset: str = "mayfair") -> None:
    """Refuse at creation what no deck of this game could supply: more copies of a card than exist.

    Every card the hands and the deck top name must come out of one deck: the challenge
    cards of these options, with any flare of the pool (a stacked flare is put in the deck).
    """
    edition = rulesets.get(ruleset)
    hands = _per_colour(setup, "hands", edition.colors)
    named = []
    for color, wanted in hands.items():
        if not isinstance(wanted, list) or not all(isinstance(c, str) for c in wanted):
            raise CommandError("setup.hands lists card names per colour", f"setup.hands.{color}")
        if len(wanted) > edition.hand_size:
            raise RulesError("3", f"setup.hands.{color}: a hand holds {edition.hand_size} cards at the start, "
                                  f"not {len(wanted)}")
        named += [(f"setup.hands.{color}", c) for c in wanted]
    top = setup.get("deck_top", [])
    if not isinstance(top, list) or not all(isinstance(c, str) for c in top):
        raise CommandError("setup.deck_top lists card names, top first", "setup.deck_top")
    named += [("setup.deck_top", c) for c in top]
    deck = any_deck_cards(options, ruleset)
    for field, name in named:
        try:
            picked = cards.resolve_names([name], deck)
        except ValueError:
            copies = sum(1 for c in any_deck_cards(options, ruleset) if c == name or cards.card_kind_name(c) == name)
            raise RulesError("3", f"{field}: no card {name!r} left to stack: a deck of this game holds "
                                  f"{copies} {'copy' if copies == 1 else 'copies'} of it, and the setup names "
                                  f"{sum(1 for _f, n in named if n == name)}") from None
        deck.remove(picked[0])
    destiny = setup.get("destiny_top", [])
    if not isinstance(destiny, list) or not all(isinstance(c, str) for c in destiny):
        raise CommandError("setup.destiny_top lists destiny card ids, top first", "setup.destiny_top")
    every = cards.destiny_cards(list(edition.colors), reverse=options["reverse_cone"],
                                special=options["special_destiny"], ruleset=ruleset)
    for card in destiny:
        if card not in every:
            raise RulesError("3", f"setup.destiny_top: {card!r} is not a destiny card of this game")
    if len(set(destiny)) != len(destiny):
        raise RulesError("3", "setup.destiny_top names a destiny card twice (each is in the deck once)")


def join(ctx, command: dict) -> None:
    """Seat a player: the colour it asks for if free, else the next free colour in seat order."""
    state = ctx.state
    if state["status"] != "lobby":
        raise RulesError("lobby", "players can join only before the game starts")
    if len(state["order"]) >= state["seats"]:
        raise RulesError("lobby", f"all {state['seats']} seats are taken")
    name = command.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        raise CommandError(f"name must be 1 to {NAME_MAX} characters", "name")
    wanted = command.get("color")
    colors = rulesets.of(state).colors
    free = [c for c in colors if c not in state["players"]]
    if wanted is not None:
        check_colour(wanted, colors, "color")
        if wanted not in free:
            raise RulesError("lobby", f"{wanted} is already taken")
    bot = command.get("bot")
    if bot is not None and (not isinstance(bot, str) or bot not in levels.LEVELS):  # (a level this build lacks, such as one yet to come: 422)
        raise RulesError("lobby", f"there is no bot level {bot!r}; the levels: {levels.listed()}")
    ctx.emit("PlayerJoined", player=wanted or free[0], name=name.strip(), bot=bot)


def start(ctx) -> None:
    """RULES.md 3: powers, decks, hands of 7, and the first player by cutting the destiny pile.

    RULES.md 9 (``ffg``): each player is offered two powers (privately); once the first player is known,
    every player chooses its power holding no card, then the deck with the offered flares is shuffled and
    hands of 8 are dealt (`deal_after_choice`).
    """
    state = ctx.state
    if state["status"] != "lobby":
        raise RulesError("lobby", "the game has already started")
    if len(state["order"]) != state["seats"]:
        raise RulesError("lobby", f"{len(state['order'])} of {state['seats']} seats are taken")
    setup, options, colors = state["setup"], state["options"], list(state["order"])
    edition = rulesets.of(state)
    ctx.emit("GameStarted", order=colors)
    fixed = setup.get("powers") or {}
    if edition.powers_offered > 1:
        offers = offer_powers(ctx, colors, options, fixed, edition)
        for color in colors:
            if color in offers:
                ctx.emit("PowersOffered", player=color, powers=offers[color])
        flare_powers = {color: offers.get(color, fixed.get(color, [])) for color in colors}
    else:
        offers = {}
        flare_powers = deal_powers(ctx, colors, options, fixed, edition)
        ctx.emit("PowersDealt", powers=flare_powers)
    if edition.powers_offered == 1:
        deck, hands = build_challenge_deck(ctx, colors, options, flare_powers, setup, edition)
        ctx.emit("DeckFormed", deck="deck", cards=deck)
    destiny = build_destiny_deck(ctx, colors, options, setup.get("destiny_top") or [], edition)
    ctx.emit("DeckFormed", deck="destiny", cards=destiny)
    if edition.powers_offered == 1:
        deal_hands(ctx, colors, hands)
    first, cut = choose_first(ctx, colors, destiny, setup.get("first"))
    ctx.emit("FirstPlayerChosen", player=first, cut=cut)
    arrange_tokens(ctx, setup.get("tokens") or {})
    if options["reverse_warp"]:
        ctx.emit("PlayerNoted", player="fan", key="section", value=first)
    if edition.powers_offered > 1:
        # RULES.md 9: the powers are chosen by players holding no card; then the deck with the offered
        # flares is shuffled and the hands dealt (``deal``: `engine.steps.choose_powers`)
        ctx.then(ctx.step("choose_powers", fixed={c: list(fixed[c]) for c in colors if c in fixed}, deal=True))
    else:  # a power's "game setup" (Miser's hoard), now that the hands are dealt
        fire(ctx, "on_game_setup")


def deal_hands(ctx, colors: list[str], hands: dict) -> None:
    """Each player takes its hand from the top of the deck (`build_challenge_deck` put them there)."""
    for color in colors:
        ctx.emit("CardsMoved", cards=hands[color], src="deck", dst=f"hand:{color}", seen_by=[color], reason="deal")


def deal_after_choice(ctx) -> None:
    """RULES.md 9 (``ffg``), once every power is chosen: the cosmic deck, both offered flares of every player
    in it, is shuffled (stacked where a scenario says), then the hands of 8 are dealt."""
    state = ctx.state
    colors, setup, fixed = list(state["order"]), state["setup"], state["setup"].get("powers") or {}
    flare_powers = {c: list(state["players"][c].get("offered") or fixed.get(c, [])) for c in colors}
    edition = rulesets.of(state)
    deck, hands = build_challenge_deck(ctx, colors, state["options"], flare_powers, setup, edition)
    ctx.emit("DeckFormed", deck="deck", cards=deck)
    deal_hands(ctx, colors, hands)


def arrange_tokens(ctx, wanted: dict) -> None:
    """Scenario: set listed planets to exact token counts; each colour's other tokens go to the warp."""
    state = ctx.state
    layout = {planet: dict(tokens) for planet, tokens in state["planets"].items()}
    for planet, tokens in wanted.items():
        if planet not in layout or not isinstance(tokens, dict):
            raise RulesError("3", f"scenario setup: {planet!r} is not a planet of this game")
        for color, n in tokens.items():
            if color not in state["players"] or not isinstance(n, int) or n < 0:
                raise RulesError("3", f"scenario setup: bad token count {color}={n!r} on {planet}")
        layout[planet] = {c: n for c, n in tokens.items() if n}
    moves = []
    for color in state["order"]:
        on_planets = sum(t.get(color, 0) for t in layout.values())
        if on_planets > TOKENS_PER_PLAYER:
            raise RulesError("3", f"scenario setup: {color} would have {on_planets} tokens on planets")
        for planet, tokens in state["planets"].items():
            have, want = tokens.get(color, 0), layout[planet].get(color, 0)
            if have > want:
                moves.append([color, planet, "warp", have - want])
        for planet, tokens in state["planets"].items():
            have, want = tokens.get(color, 0), layout[planet].get(color, 0)
            if want > have:
                moves.append([color, "warp", planet, want - have])
    # tokens come off planets into the warp first, then go out to their new planets
    if moves:
        ctx.emit("TokensMoved", moves=moves, reason="scenario setup")


def deal_powers(ctx, colors: list[str], options: dict, fixed: dict, edition=rulesets.MAYFAIR) -> dict:
    """Each player's power(s): fixed by the scenario, else drawn at random without repeats."""
    count = options["powers_per_player"]
    taken = {name for names in fixed.values() for name in names}
    pool = [n for n in power_pool(options, edition.name) if n not in taken]
    ctx.rng.shuffle(pool)
    dealt = {}
    for color in colors:
        if color in fixed:
            dealt[color] = list(fixed[color])
            continue
        if len(pool) < count:
            raise RulesError("3", "not enough powers in the pool for every player")
        dealt[color] = [pool.pop() for _ in range(count)]
    return dealt


def offer_powers(ctx, colors: list[str], options: dict, fixed: dict, edition) -> dict:
    """RULES.md 9: the powers each player chooses from, drawn at random without repeats (two per power
    kept); a player whose powers a scenario fixes is offered none."""
    count = options["powers_per_player"] * edition.powers_offered
    taken = {name for names in fixed.values() for name in names}
    pool = [n for n in power_pool(options, edition.name) if n not in taken]
    ctx.rng.shuffle(pool)
    offers = {}
    for color in colors:
        if color in fixed:
            continue
        if len(pool) < count:
            raise RulesError("3", f"not enough powers in the pool to offer every player {count}")
        offers[color] = sorted(pool.pop() for _ in range(count))
    return offers


FLARES_PER_PLAYER = 3


def cards_without_flares(options: dict, ruleset: str = "mayfair") -> list[str]:
    """The challenge deck's cards but the flares: the 72, with edicts, reinforcements, War cards and kickers by option.

    ``ffg`` (RULES.md 9): the 55 encounter cards, the 11 artifacts and the reinforcements by option.
    """
    if ruleset == "ffg":
        return cards.ffg_encounter_cards() + cards.artifact_cards() + \
            (cards.reinforcement_cards() if options["reinforcements"] else [])
    deck = cards.mayfair_challenge_cards()
    if options["edicts"]:
        deck += cards.edict_cards()
    if options["reinforcements"]:
        deck += cards.reinforcement_cards()
    if options["war_cards"]:
        deck += cards.war_cards()
    if options["kickers"]:
        deck += cards.kicker_cards()
    return deck


def any_deck_cards(options: dict, ruleset: str = "mayfair") -> list[str]:
    """Every card a deck of a game with these options may hold (any flare of the pool can be stacked)."""
    return cards_without_flares(options, ruleset) + (list(flare_pool(options, ruleset)) if options["flares"] else [])


def challenge_deck_cards(ctx, colors: list[str], options: dict, powers: dict, stacked=(),
                         edition=rulesets.MAYFAIR) -> list[str]:
    """RULES.md 2: the 72 challenge cards plus edicts, reinforcements, flares, War cards, kickers.

    ``powers`` are each player's powers (``ffg``: the powers offered). ``stacked`` names the cards a
    scenario stacks: a flare among them is always in the deck.
    """
    deck = cards_without_flares(options, edition.name)
    if options["flares"]:
        available = flare_pool(options, edition.name)
        own = [cards.flare_card(n) for names in powers.values() for n in names if cards.flare_card(n) in available]
        own += [f for f in available if f in stacked and f not in own]
        if edition.powers_offered > 1:
            return deck + own  # RULES.md 9: the flares of the powers offered, both of each player's
        others = [f for f in available if f not in own]
        ctx.rng.shuffle(others)
        # 002: three times as many flares as players in all: every power's own, the rest at random
        deck += own + others[:max(0, FLARES_PER_PLAYER * len(colors) - len(own))]
    return deck


def build_challenge_deck(ctx, colors: list[str], options: dict, powers: dict, setup: dict,
                         edition=rulesets.MAYFAIR):
    """The shuffled deck (stacked where the scenario says) and the hands it will deal."""
    stacked = {c for names in (setup.get("hands") or {}).values() for c in names} | set(setup.get("deck_top") or [])
    pool = challenge_deck_cards(ctx, colors, options, powers, stacked, edition)
    hand_size = edition.hand_size
    hands = {}
    try:
        for color in colors:
            wanted = (setup.get("hands") or {}).get(color, [])
            if len(wanted) > hand_size:
                raise RulesError("3", f"a hand holds {hand_size} cards at the start")
            hands[color] = cards.resolve_names(wanted, pool)
            for card in hands[color]:
                pool.remove(card)
        top = cards.resolve_names(setup.get("deck_top") or [], pool)
    except ValueError as exc:
        raise RulesError("3", f"scenario setup: {exc}") from None
    for card in top:
        pool.remove(card)
    ctx.rng.shuffle(pool)
    exact = setup.get("exact_hands") or []
    for color in colors:
        while len(hands[color]) < hand_size and color not in exact:
            hands[color].append(pool.pop())
    dealing = [card for color in colors for card in hands[color]]
    deck = pool + top[::-1] + dealing[::-1]
    return deck, hands


def build_destiny_deck(ctx, colors: list[str], options: dict, stacked: list[str],
                       edition=rulesets.MAYFAIR) -> list[str]:
    """The destiny pile for the colours in play, shuffled, with any stacked cards on top."""
    pool = cards.destiny_cards(colors, reverse=options["reverse_cone"], special=options["special_destiny"],
                               ruleset=edition.name)
    missing = [c for c in stacked if c not in pool]
    if missing:
        raise RulesError("3", f"scenario setup: destiny card {missing[0]!r} is not in this game's destiny deck")
    rest = [c for c in pool if c not in stacked]
    ctx.rng.shuffle(rest)
    return rest + stacked[::-1]


def choose_first(ctx, colors: list[str], destiny: list[str], fixed: str | None) -> tuple[str, list[str]]:
    """Cut the destiny pile until a colour turns up (wild and instructional cards are cut again)."""
    if fixed is not None:
        if fixed not in colors:
            raise RulesError("3", f"scenario setup: first player {fixed!r} is not playing")
        return fixed, []
    cut = []
    for _ in range(100):
        card = ctx.rng.choice(destiny)
        cut.append(card)
        told = cards.destiny(card)
        if told["kind"] == "color":
            return told["color"], cut
    return colors[0], cut


__all__ = ["clockwise_from_left", "create", "join", "start"]

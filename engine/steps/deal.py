"""Compromise against Compromise: the deal (RULES.md 4, stage 8, deals).

Both main players may propose terms, accept the other's latest proposals, or give up. The
deal window lasts ``deal_seconds`` (its deadline is stated in the prompts; workers expire it).
Terms, as JSON::

    {"cards": {"offense": {"named": ["A8.2"], "count": 1}, "defense": {"named": [], "count": 0}},
     "bases": {"offense": "blue-3", "defense": null}}

``cards.offense`` is what the offense gives the defense: named cards, plus a number of
cards of the giver's choice. ``bases.offense`` is the planet where the offense receives a
base: one where the defense has a base and the offense has none. A proposer's own named
cards must be in its hand; the other side's are checked when it accepts, so a proposal
never reveals anything about a hand but the proposer's.

A power (Diplomat) may add a *third party* to the deal (``ch.notes.deal_third``). Then the
terms may carry a ``third`` part, and a proposal is made only when both other parties accept::

    "third": {"gets": {"offense": {"named": [], "count": 1}, "defense": {"named": [], "count": 0}},
              "gives": {"offense": {"named": [], "count": 0}, "defense": {"named": [], "count": 0}},
              "base": "blue-3"}

``gets.offense`` is what the offense gives the third party, ``gives.offense`` what the third
party gives the offense, ``base`` a planet where the third party receives a base (one where a
main player has a base and it has none). Two-party deals are unchanged.
"""

from __future__ import annotations

from engine import cards, shapes
from engine.errors import CommandError, RulesError
from engine.flow import Step, option, prompt, register
from engine.handcards import give_cards
from engine.hooks import fire, fold
from engine.state import bases, hand, main_player, opponent_side, timing_order, tokens_on
from engine.steps.tokens import move, return_home
from engine.steps.windows import begin_use, passed_fact, window_choices
from engine.usable import passed_for_stage, window_options

SIDES = ("offense", "defense")
THIRD = "third"
FREED = "freed"  # {colour: n}: ships freed from the warp by the deal (only where a power allows it: FFG Zombie)
BASE_TOKENS_MAX = 4
DEAL_LOSS = 3


def deal_rule() -> str:
    return "4.8.deal"


def third_party(state: dict) -> str | None:
    """The player a power added to this challenge's deal as a third party, if any."""
    ch = state.get("ch")
    return ch["notes"].get("deal_third") if ch else None


def party_player(state: dict, side: str) -> str | None:
    """The player negotiating for a side of the deal: a main player, or the third party."""
    return third_party(state) if side == THIRD else main_player(state, side)


def parties(state: dict) -> list[str]:
    """The sides of the deal: the two main players, and the third party if there is one."""
    return list(SIDES) + ([THIRD] if third_party(state) else [])


def normalize_given(raw, field: str, label: str | None = None) -> dict:
    """``{"named": [...], "count": n}`` in full form, or CommandError.

    ``field`` is the path of the value in the command; ``label`` the name the messages give it
    (the path by default).
    """
    label = label or field
    given = raw or {}
    if not isinstance(given, dict) or set(given) - {"named", "count"}:
        raise CommandError(f"{label} takes 'named' and 'count'", field)
    named = given.get("named") or []
    count = given.get("count") or 0
    if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
        raise CommandError(f"{label}.named must list card ids", f"{field}.named")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise CommandError(f"{label}.count must be a whole number", f"{field}.count")
    for card_id in named:
        try:
            cards.card(card_id)
        except KeyError:
            raise CommandError(f"{card_id!r} is not a card", f"{field}.named") from None
    if len(set(named)) != len(named):
        raise CommandError(f"{label}.named names a card twice", f"{field}.named")
    return {"named": named, "count": count}


def normalize_third(raw) -> dict:
    """The third party's part of the terms in full form, or CommandError."""
    if not isinstance(raw, dict) or set(raw) - {"gets", "gives", "base"}:
        raise CommandError("terms.third takes 'gets', 'gives' and 'base'", "args.terms.third")
    part = {"gets": {}, "gives": {}, "base": raw.get("base")}
    for key in ("gets", "gives"):
        given = raw.get(key) or {}
        if not isinstance(given, dict) or set(given) - set(SIDES):
            raise CommandError(f"terms.third.{key} takes 'offense' and 'defense'", f"args.terms.third.{key}")
        for side in SIDES:
            part[key][side] = normalize_given(given.get(side), f"args.terms.third.{key}.{side}")
    if part["base"] is not None and not isinstance(part["base"], str):
        raise CommandError("terms.third.base must be a planet id or null", "args.terms.third.base")
    return part


def normalize_terms(raw: dict) -> dict:
    """Terms in full form, or CommandError for anything malformed."""
    if not isinstance(raw, dict) or set(raw) - {"cards", "bases", THIRD, FREED}:
        raise CommandError("terms take 'cards' and 'bases'", "args.terms")
    terms = {"cards": {}, "bases": {}}
    raw_cards = raw.get("cards") or {}
    raw_bases = raw.get("bases") or {}
    if not isinstance(raw_cards, dict) or not isinstance(raw_bases, dict):
        raise CommandError("terms.cards and terms.bases must be objects", "args.terms")
    for side in SIDES:
        terms["cards"][side] = normalize_given(raw_cards.get(side), f"args.terms.cards.{side}",
                                               label=f"terms.cards.{side}")
        planet = raw_bases.get(side)
        if planet is not None and not isinstance(planet, str):
            raise CommandError(f"terms.bases.{side} must be a planet id or null", f"args.terms.bases.{side}")
        terms["bases"][side] = planet
    if raw.get(THIRD) is not None:
        terms[THIRD] = normalize_third(raw[THIRD])
    freed = raw.get(FREED)
    if freed:
        if not isinstance(freed, dict) or not all(isinstance(c, str) and isinstance(n, int) and
                                                  not isinstance(n, bool) and n >= 0 for c, n in freed.items()):
            raise CommandError("terms.freed maps colours to counts of ships freed from the warp", "args.terms.freed")
        terms[FREED] = {c: n for c, n in freed.items() if n}
    return terms


def check_terms(state: dict, proposer_side: str, terms: dict) -> None:
    """What the rules ask of any deal, checked with public facts and the proposer's own hand."""
    part = terms.get(THIRD)
    if part is not None and third_party(state) is None:
        raise RulesError(deal_rule(), "there is no third party to this deal")
    receives = any(terms["cards"][s]["named"] or terms["cards"][s]["count"] for s in SIDES) or \
        any(terms["bases"][s] for s in SIDES)
    if part is not None:
        receives = receives or bool(part["base"]) or \
            any(part[k][s]["named"] or part[k][s]["count"] for k in ("gets", "gives") for s in SIDES)
    freed = terms.get(FREED) or {}
    if freed:
        check_freed(state, freed)
        receives = True
    if not receives:
        raise RulesError(deal_rule(), "at least one player must receive a card or a base")
    if part is not None:
        check_third_terms(state, proposer_side, terms, part)
    for side in SIDES:
        giver = main_player(state, side)
        given = terms["cards"][side]
        if len(hand(state, giver)) < len(given["named"]) + given["count"]:
            raise RulesError(deal_rule(), f"{giver} holds only {len(hand(state, giver))} cards")
        if side == proposer_side:
            missing = [c for c in given["named"] if c not in hand(state, giver)]
            if missing:
                raise RulesError(deal_rule(), f"you do not hold {missing[0]}")
        planet = terms["bases"][side]
        if planet:
            receiver, base_giver = main_player(state, side), main_player(state, opponent_side(side))
            if planet not in state["planets"]:
                raise RulesError(deal_rule(), f"{planet!r} is not a planet")
            if tokens_on(state, planet, base_giver) == 0:
                raise RulesError(deal_rule(), f"{base_giver} has no base on {planet} to share")
            if tokens_on(state, planet, receiver) > 0:
                raise RulesError(deal_rule(), f"{receiver} already has a base on {planet}")


def check_freed(state: dict, freed: dict) -> None:
    """Ships freed from the warp by a deal: only where a power allows it (``deal_frees_warp``: the FFG Zombie as
    a main player), and no more than are there."""
    if not fold(state, "deal_frees_warp", False):
        raise RulesError(deal_rule(), "no power here lets a deal free ships from the warp")
    for color, n in freed.items():
        if color not in state["order"]:
            raise RulesError(deal_rule(), f"{color!r} is not a player")
        if state["warp"].get(color, 0) < n:
            raise RulesError(deal_rule(), f"{color} has only {state['warp'].get(color, 0)} ships in the warp")


def check_third_terms(state: dict, proposer_side: str, terms: dict, part: dict) -> None:
    """A three-way deal: nobody gives more cards than it holds, or a named card twice; the base is shareable."""
    third = third_party(state)
    outgoing = {side: [terms["cards"][side], part["gets"][side]] for side in SIDES}
    outgoing[THIRD] = [part["gives"][side] for side in SIDES]
    for side, given in outgoing.items():
        giver = party_player(state, side)
        named = [c for g in given for c in g["named"]]
        if len(set(named)) != len(named):
            raise RulesError(deal_rule(), f"{giver} would give {named[0]} twice")
        if len(hand(state, giver)) < len(named) + sum(g["count"] for g in given):
            raise RulesError(deal_rule(), f"{giver} holds only {len(hand(state, giver))} cards")
        if side == proposer_side:
            missing = [c for c in named if c not in hand(state, giver)]
            if missing:
                raise RulesError(deal_rule(), f"you do not hold {missing[0]}")
    planet = part["base"]
    if planet:
        if planet not in state["planets"]:
            raise RulesError(deal_rule(), f"{planet!r} is not a planet")
        if not any(tokens_on(state, planet, main_player(state, side)) for side in SIDES):
            raise RulesError(deal_rule(), f"no main player has a base on {planet} to share")
        if tokens_on(state, planet, third) > 0:
            raise RulesError(deal_rule(), f"{third} already has a base on {planet}")


def check_acceptance(state: dict, acceptor_side: str, proposer: str, terms: dict) -> None:
    """The acceptor must be able to give what the terms ask of it, and the proposer what it named.

    A card the proposer named may have left its hand since (a Plague played during the
    negotiation): such a proposal can no longer be accepted. Only the proposer's own named cards
    are checked here, which it made public by proposing; another party's are its own business.
    """
    check_terms(state, acceptor_side, terms)
    part = terms.get(THIRD) if third_party(state) else None
    named = []
    for side in SIDES:
        if main_player(state, side) == proposer:
            named += terms["cards"][side]["named"] + (part["gets"][side]["named"] if part else [])
        elif part and third_party(state) == proposer:
            named += part["gives"][side]["named"]
    gone = [c for c in named if c not in hand(state, proposer)]
    if gone:
        raise RulesError(deal_rule(), f"{proposer} no longer holds {gone[0]}, which this proposal names")


@register
class DealPrepare(Step):
    """Allies take their tokens home; then the deal window opens, its time counted from then."""

    op = "deal_prepare"

    def run(self, ctx, step):
        state = ctx.state
        if not step.get("allies_home"):
            returns = [{"player": color, "src": f"cone:{side}", "count": n, "reason": "deal: allies go home"}
                       for side in SIDES for color, n in state["cone"][side].items()
                       if color != main_player(state, side)]
            ctx.update(allies_home=True)
            return_home(ctx, returns)
            return
        deadline = ctx.time + state["options"]["deal_seconds"] * 1000
        ctx.emit("DealStarted", deadline=deadline)
        ctx.done()


@register
class Deal(Step):
    """The two main players negotiate until one accepts, both give up, or time runs out.

    "Any time" cards and powers stay usable meanwhile (RULES.md 5): the parties are offered theirs
    beside their deal decision, every other holder is asked at the same time (see below).
    """

    op = "deal"

    def prompts(self, state, step):
        deal = state["ch"]["deal"]
        if deal["made"] is not None or deal["accepted"] is not None or len(deal["given_up"]) == 2:
            return []
        if state.get("time", 0) >= deal["deadline"]:
            return []  # the clock ran out while something used during the negotiation was carried out
        found = []
        third = third_party(state)
        agreed = state["ch"]["notes"].get("deal_agreed") or {}
        for side in parties(state):
            player = party_player(state, side)
            if player in deal["given_up"]:
                continue
            offers = [int(k) for k, p in deal["proposals"].items()
                      if p["by"] != player and player not in agreed.get(k, [])]
            options = [option("propose", {"terms": shapes.free("deal")}, rule=deal_rule())]
            if offers:
                options.append(option("accept", {"proposal": shapes.choice(offers)}, rule=deal_rule()))
            options.append(option("give_up", rule=deal_rule()))
            options += any_time_options(state, player)  # beside the deal, what may be used at any time
            info = {"proposals": deal["proposals"], "side": side}
            if third:  # only three-way deals say more, so two-party prompts stay as they were
                info.update(third=third, agreed=agreed)
            found.append(prompt(step, player, "deal", options, rule=deal_rule(), deadline=deal["deadline"],
                                info=info))
        return found + bystander_windows(state, step, {p["player"] for p in found})

    def run(self, ctx, step):
        deal = ctx.state["ch"]["deal"]
        if deal["accepted"] is not None:
            ctx.replace(ctx.step("window", name="deal"), ctx.step("deal_execute"))
        elif len(deal["given_up"]) < 2 and ctx.state.get("time", 0) >= deal["deadline"]:
            fail_deal(ctx, "time ran out")
        else:
            fail_deal(ctx, "no agreement")

    def answer(self, ctx, step, prompt_, opt, args):
        state = ctx.state
        player = prompt_["player"]
        if opt["action"] in ("use", "pass", "pass_stage"):
            use_or_pass(ctx, step, player, opt, args)
            return
        side = prompt_["info"]["side"]
        deal = state["ch"]["deal"]
        if opt["action"] == "propose":
            terms = normalize_terms(args["terms"])
            check_terms(state, side, terms)
            ctx.emit("DealProposed", player=player, id=deal["next_id"], terms=terms)
        elif opt["action"] == "accept":
            proposal = deal["proposals"][str(args["proposal"])]
            terms = proposal["terms"]
            check_acceptance(state, side, proposal["by"], terms)
            if third_party(state):
                agree(ctx, player, args["proposal"])
            else:
                ctx.emit("DealAnswered", player=player, accepted=args["proposal"])
        else:
            ctx.emit("DealAnswered", player=player, accepted=None)

    def default(self, state, step, prompt_, rng):
        if prompt_["kind"] == "window":
            return {"action": "pass", "args": {}}
        return {"action": "give_up", "args": {}}

    def expire(self, ctx, step, prompt_) -> None:
        """The deal window ran out: the deal fails for both. (A bystander's window simply passes.)"""
        if prompt_["kind"] == "window":
            use_or_pass(ctx, step, prompt_["player"], {"action": "pass"}, {})
            return
        fail_deal(ctx, "time ran out")


# "Any time" during the negotiation (RULES.md 5, 000's infinity icon) ------------------------

NEGOTIATION = "negotiation"


def any_time_options(state: dict, player: str) -> list[dict]:
    """What a party to the deal could use at any time, offered beside its deal decision."""
    return window_options(state, player, NEGOTIATION)


def bystander_windows(state: dict, step: dict, negotiating: set[str]) -> list[dict]:
    """Every player not negotiating who holds something usable at any time is asked while the parties negotiate.

    Asked at the same time as the parties (the negotiation is one stretch of time, not a boundary);
    a player who passes is not asked again until something is used, and one who passed for the
    stage not at all. A party that gave up is no longer negotiating, so it is asked like the others.
    The chance lasts as long as the negotiation: the window has the deal's deadline, so an answer
    sent after it is void, as the parties' are.
    """
    out = set(step.get("passed", [])) | set(passed_for_stage(state)) | negotiating
    found = []
    for player in timing_order(state):
        offered = [] if player in out else window_options(state, player, NEGOTIATION)
        if offered:
            found.append(prompt(step, player, "window", window_choices(offered), rule="5",
                                info={"window": NEGOTIATION}, round=step.get("round", 0),
                                deadline=state["ch"]["deal"]["deadline"]))
    return found


def use_or_pass(ctx, step: dict, player: str, opt: dict, args: dict) -> None:
    """A use during the negotiation is announced, answered and applied, then the negotiation reopens to all.

    A pass is noted on the deal step by the `Passed` fact itself (engine.evolve)."""
    if opt["action"] == "use":
        begin_use(ctx, player, opt, args, NEGOTIATION)
        return
    ctx.emit("Passed", **passed_fact(player, NEGOTIATION, opt["action"]))


def agree(ctx, player: str, proposal: int) -> None:
    """Three-way deal: a proposal is accepted once every party but its proposer has agreed to it."""
    state = ctx.state
    key = str(proposal)
    agreed = dict(state["ch"]["notes"].get("deal_agreed") or {})
    agreed[key] = agreed.get(key, []) + [player]
    proposer = state["ch"]["deal"]["proposals"][key]["by"]
    needed = {party_player(state, side) for side in parties(state)} - {proposer}
    ctx.emit("ChallengeNoted", key="deal_agreed", value=agreed)
    if needed <= set(agreed[key]):
        ctx.emit("DealAnswered", player=player, accepted=proposal)


def fail_deal(ctx, reason: str) -> None:
    """No deal: each main player loses 3 tokens of its choice, then the cone empties (RULES.md 4)."""
    state = ctx.state
    ctx.emit("DealConcluded", made=False, terms=None, reason=reason)
    offense, defense = state["turn"]["offense"], state["ch"]["defense"]
    # a power or flare may change what a failed deal costs each main player (Pacifist Super)
    ctx.replace(ctx.step("losses", player=offense, count=fold(state, "deal_loss", DEAL_LOSS, player=offense),
                         reason="deal failed"),
                ctx.step("losses", player=defense, count=fold(state, "deal_loss", DEAL_LOSS, player=defense),
                         reason="deal failed"),
                ctx.step("deal_cleanup"))


@register
class DealExecute(Step):
    """Carry out accepted terms: named cards, cards of the giver's choice, then bases."""

    op = "deal_execute"

    def prompts(self, state, step):
        task = (step.get("tasks") or [None])[0]
        if not step.get("started") or task is None:
            return []
        if task["kind"] == "cards":
            giver = task["giver"]
            pool = hand(state, giver)
            if len(pool) <= task["count"]:
                return []
            return [prompt(step, giver, "give_cards",
                           [option("give", {"cards": shapes.subset(pool, task["count"], task["count"])},
                                   rule=deal_rule())], rule=deal_rule(), info={"count": task["count"]})]
        receiver = task["receiver"]
        sources = base_sources(state, receiver, task["planet"])
        if sum(sources.values()) <= 1:
            return []
        return [prompt(step, receiver, "take_base",
                       [option("place", {"tokens": shapes.distribution(sources, 1, BASE_TOKENS_MAX)},
                               rule=deal_rule())], rule=deal_rule(), info={"planet": task["planet"]})]

    def run(self, ctx, step):
        state = ctx.state
        if not step.get("started"):
            self.start(ctx)
            return
        tasks = step["tasks"]
        if not tasks:
            terms = state["ch"]["deal"]["proposals"][str(state["ch"]["deal"]["accepted"])]["terms"]
            ctx.emit("DealConcluded", made=True, terms=terms, reason=None)
            ctx.replace(ctx.step("deal_cleanup"))
            return
        task = tasks[0]
        if task["kind"] == "cards":  # the giver holds no more than it owes: all of it
            give_cards(ctx, task["giver"], task["receiver"], list(hand(state, task["giver"])), "deal")
        else:
            sources = base_sources(state, task["receiver"], task["planet"])
            move(ctx, [(task["receiver"], src, task["planet"], n) for src, n in sources.items()], "deal: base")
        ctx.update(tasks=tasks[1:])

    def start(self, ctx) -> None:
        state = ctx.state
        if state["ch"]["notes"].get("deal_quashed"):
            fail_deal(ctx, "quashed")
            return
        terms = state["ch"]["deal"]["proposals"][str(state["ch"]["deal"]["accepted"])]["terms"]
        tasks = []
        for side in SIDES:
            giver, receiver = main_player(state, side), main_player(state, opponent_side(side))
            # a named card discarded since the deal was agreed (a Plague in the deal window) is not given
            give_cards(ctx, giver, receiver, [c for c in terms["cards"][side]["named"] if c in hand(state, giver)],
                       "deal")
            if terms["cards"][side]["count"]:
                tasks.append({"kind": "cards", "giver": giver, "receiver": receiver,
                              "count": terms["cards"][side]["count"]})
        for side in SIDES:
            if terms["bases"][side]:
                tasks.append({"kind": "base", "receiver": main_player(state, side), "planet": terms["bases"][side]})
        if terms.get(THIRD) and third_party(state):
            tasks += third_party_tasks(ctx, terms[THIRD])
        ctx.update(started=True, tasks=tasks)
        # ships the deal frees come out of the warp first, each owner choosing its colonies (FFG Zombie)
        return_home(ctx, [{"player": color, "src": "warp", "count": min(n, state["warp"].get(color, 0)),
                           "reason": "deal: freed"} for color, n in sorted((terms.get(FREED) or {}).items(),
                                                                          key=lambda kv: state["order"].index(kv[0]))])

    def answer(self, ctx, step, prompt_, opt, args):
        task = step["tasks"][0]
        if task["kind"] == "cards":
            give_cards(ctx, task["giver"], task["receiver"], args["cards"], "deal")
        else:
            move(ctx, [(task["receiver"], src, task["planet"], n) for src, n in sorted(args["tokens"].items())],
                 "deal: base")
        ctx.update(tasks=step["tasks"][1:])

    def default(self, state, step, prompt_, rng):
        opt = prompt_["options"][0]
        if prompt_["kind"] == "give_cards":
            shape = opt["args"]["cards"]
            return {"action": "give", "args": {"cards": rng.sample(shape["values"], shape["min"])}}
        sources = opt["args"]["tokens"]["sources"]
        first = sorted(sources)[0]
        return {"action": "place", "args": {"tokens": {first: 1}}}


def third_party_tasks(ctx, part: dict) -> list[dict]:
    """Hand over the third party's named cards now; return the tasks left (cards of the giver's choice, a base)."""
    state = ctx.state
    third = third_party(state)
    tasks = []
    for side in SIDES:
        main = main_player(state, side)
        for giver, receiver, given in ((main, third, part["gets"][side]), (third, main, part["gives"][side])):
            give_cards(ctx, giver, receiver, [c for c in given["named"] if c in hand(state, giver)], "deal")
            if given["count"]:
                tasks.append({"kind": "cards", "giver": giver, "receiver": receiver, "count": given["count"]})
    if part["base"]:
        tasks.append({"kind": "base", "receiver": third, "planet": part["base"]})
    return tasks


def base_sources(state: dict, receiver: str, planet: str) -> dict[str, int]:
    """Where a player receiving a base in a deal may take its 1-4 tokens from: the cone or its bases."""
    sources = {p: state["planets"][p][receiver] for p in bases(state, receiver) if p != planet}
    for side in SIDES:
        on_cone = state["cone"][side].get(receiver, 0)
        if on_cone:
            sources[f"cone:{side}"] = on_cone
    return sources


@register
class DealCleanup(Step):
    """After the deal, whatever the main players still have on the cone goes back to their bases."""

    op = "deal_cleanup"

    def run(self, ctx, step):
        state = ctx.state
        ctx.done()
        return_home(ctx, [{"player": color, "src": f"cone:{side}", "count": n, "reason": "after the deal"}
                          for side in SIDES for color, n in state["cone"][side].items()])
        # powers that count a deal made or failed as a win or a loss (the FFG Grudge and Warrior), or that count
        # deals made (Tick-Tock)
        fire(ctx, "on_deal_concluded", made=bool(state["ch"]["deal"]["made"]))

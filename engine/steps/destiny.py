"""Stage 1 (regroup) and stage 2 (destiny): who the offense challenges, and where."""

from __future__ import annotations

from engine import cards, destiny_choice, rulesets, shapes
from engine.flow import Step, option, prompt, register
from engine.hooks import fire, fold, listening
from engine.regroup import alternatives, handler_of, retriever
from engine.state import (
    bases,
    clockwise_from_left,
    empty_home_planets,
    external_bases,
    hand,
    home_planets,
    tokens_on_bases,
    warp_count,
)
from engine.steps.game import END_OF_CHALLENGE
from engine.steps.tokens import move


@register
class Regroup(Step):
    """Stage 1: the offense may take one token from the warp to a base (to the cone with no base).

    Powers and flares may name another player to retrieve, or offer something to do instead
    (`engine.regroup`)."""

    op = "regroup"

    def prompts(self, state, step):
        player = retriever(state)
        instead = alternatives(state, player)
        if warp_count(state, player) == 0 and not instead:
            return []
        choices = []
        if warp_count(state, player):
            targets = bases(state, player) or (["cone"] if player == state["turn"]["offense"] else [])
            if targets:
                choices.append(option("retrieve", {"to": shapes.choice(targets)}, rule="4.1"))
        if not choices and not instead:
            return []
        return [prompt(step, player, "regroup", choices + instead + [option("decline", rule="4.1")], rule="4.1")]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        player = prompt_["player"]
        if opt["action"] == "retrieve":
            target = "cone:offense" if args["to"] == "cone" else args["to"]
            move(ctx, [(player, "warp", target, 1)], "regroup")
            fire(ctx, "on_tokens_retrieved", player=player, count=1, reason="regroup")
        elif opt["action"] == "instead":
            handler = handler_of(opt["ability"])
            if handler is not None:
                handler.apply_instead(ctx, player, args)

    def default(self, state, step, prompt_, rng):
        return {"action": "decline", "args": {}}


def instruction_candidates(state: dict, instruction: str) -> list[str]:
    """Who an instructional destiny card designates, never the offense: every tied player (the offense
    chooses: RULES.md 2), or under ``ffg`` the tied player nearest the offense's left (RULES.md 9)."""
    offense = state["turn"]["offense"]
    others = [c for c in state["order"] if c != offense]
    measure = {
        "most-bases": lambda c: len(external_bases(state, c)),
        "most-cards": lambda c: len(hand(state, c)),
        "fewest-warp": lambda c: -warp_count(state, c),
    }[instruction]
    best = max(measure(c) for c in others)
    if rulesets.of(state).special_ties_by_seat:
        return [next(c for c in clockwise_from_left(state, offense) if measure(c) == best)]
    return [c for c in others if measure(c) == best]


def others_with_bases_in(state: dict, system: str) -> list[str]:
    """Players other than the system's owner with a base in that system."""
    found = []
    for planet in home_planets(state, system):
        for color, n in state["planets"][planet].items():
            if n and color != system and color not in found:
                found.append(color)
    return [c for c in state["order"] if c in found]


def slide_fan(ctx, color: str) -> None:
    """Reverse warp: a colour drawn (or chosen for a wild) moves that fan section's tokens to the warp."""
    if not ctx.state["options"].get("reverse_warp"):
        return
    section = ctx.state["fan"].get(color) or {}
    move(ctx, [(owner, f"fan:{color}", "warp", n) for owner, n in sorted(section.items()) if n], "fan slides")


@register
class Destiny(Step):
    """Stage 2: draw destiny and settle the defense (colour, own colour, wild, instruction)."""

    op = "destiny"

    def prompts(self, state, step):
        phase = step.get("phase")
        offense = state["turn"]["offense"]
        if phase == "own":
            return [prompt(step, offense, "own_colour", own_colour_options(state, offense), rule="4.2.own",
                           info={"card": state["ch"]["destiny"]})]
        if phase == "choose":
            return [prompt(step, offense, "choose_defense",
                           [option("choose_defense", {"player": shapes.choice(step["candidates"])}, rule="4.2.wild")],
                           rule="4.2.wild", info={"card": state["ch"]["destiny"]})]
        return []

    def run(self, ctx, step):
        state = ctx.state
        offense = state["turn"]["offense"]
        if state["options"].get("honeymoon"):
            other = next(c for c in state["order"] if c != offense)
            determine(ctx, other, False, "honeymoon", slide=True)  # no card is flipped: as if the other's
            return
        if not step.get("heard") and listening(state, "before_destiny_drawn"):
            # a power may choose the card the offense draws (Dictator: engine.destiny_choice)
            ctx.update(heard=True)
            fire(ctx, "before_destiny_drawn")
            return
        chosen = destiny_choice.take(ctx)
        if step.get("heard"):
            ctx.update(heard=False)  # a card drawn again is chosen again
        card = draw_destiny(ctx, chosen)
        told = cards.destiny(card)
        if told["kind"] == "color" and not told["reverse"]:
            slide_fan(ctx, told["color"])  # 002: the flipped card's colour slides, whoever ends up defending
        others = [c for c in state["order"] if c != offense]
        if fold(state, "destiny_free_choice", False):
            ctx.update(phase="choose", candidates=others, reverse=told["reverse"], slides=False)
        elif told["kind"] == "color" and told["color"] == offense:
            own_colour(ctx, offense, told["reverse"])
        elif told["kind"] == "color":
            determine(ctx, told["color"], told["reverse"], "destiny")
        elif told["kind"] == "wild":
            # 000: any system, the offense's own included ("as if that colour had appeared");
            # RULES.md 9 (ffg): any other player
            own = [offense] if rulesets.of(state).wild_names_own_system else []
            ctx.update(phase="choose", candidates=others + own, reverse=told["reverse"],
                       slides=not told["reverse"])
        else:
            candidates = instruction_candidates(state, told["instruction"])
            if len(candidates) == 1:
                determine(ctx, candidates[0], False, "destiny")
            else:
                ctx.update(phase="choose", candidates=candidates, reverse=False, slides=False)
        aimed_at = destiny_target(state, card)
        if aimed_at is not False:  # (an instruction card tied: once the offense has chosen among the tied)
            fire(ctx, "on_destiny_target", card=card, player=aimed_at)

    def answer(self, ctx, step, prompt_, opt, args):
        action = opt["action"]
        offense = prompt_["player"]
        if action == "choose_defense":
            chosen = args["player"]
            if step.get("slides"):
                slide_fan(ctx, chosen)  # 002: with a wild, the colour chosen slides
            if chosen == offense:
                own_colour(ctx, offense, step.get("reverse", False))
            else:
                determine(ctx, chosen, step.get("reverse", False), "offense's choice")
            card = ctx.state["ch"]["destiny"]
            if card and destiny_target(ctx.state, card) is False:
                # an instruction card designated several players: it points at the one the offense chose
                fire(ctx, "on_destiny_target", card=card, player=chosen)
        elif action == "draw_again":
            ctx.update(phase=None)
        elif action == "challenge_own_system":
            ctx.emit("ChallengeNoted", key="own_system", value=True)
            determine(ctx, args["player"], step.get("reverse", False), "own colour")
        else:  # reestablish
            move(ctx, [(offense, src, args["planet"], n) for src, n in sorted(args["tokens"].items())],
                 "home base re-established")
            ctx.emit("ChallengeResolved", outcome={"kind": "reestablished", "winner": "offense",
                                                   "succeeded": True, "planet": args["planet"]})
            ctx.unwind("challenge", next=END_OF_CHALLENGE)

    def default(self, state, step, prompt_, rng):
        if prompt_["kind"] == "own_colour":
            return {"action": "draw_again", "args": {}}
        return {"action": "choose_defense", "args": {"player": prompt_["options"][0]["args"]["player"]["values"][0]}}


def destiny_target(state: dict, card: str):
    """The player a destiny card just drawn points at (Shadow executes one of its ships): a colour card's
    colour; None for a wild card (any other player); an instruction card's one candidate, or False while the
    offense has yet to choose among tied candidates (`Destiny.answer` tells it then)."""
    told = cards.destiny(card)
    if told["kind"] == "color":
        return told["color"]
    if told["kind"] == "wild":
        return None
    candidates = instruction_candidates(state, told["instruction"])
    return candidates[0] if len(candidates) == 1 else False


def own_colour_options(state: dict, offense: str) -> list[dict]:
    """RULES.md 4, stage 2: draw again; challenge a base in one's own system; re-establish an empty home planet."""
    found = [option("draw_again", rule="4.2.own", label="draw another destiny card")]
    intruders = others_with_bases_in(state, offense)
    if intruders:
        found.append(option("challenge_own_system", {"player": shapes.choice(intruders)}, rule="4.2.own",
                            label="challenge another player's base in your own system"))
    empty = empty_home_planets(state, offense)
    sources = tokens_on_bases(state, offense)
    if empty and sources:  # 000/002: "one or more" tokens, no upper limit but what the player has
        found.append(option("reestablish", {"planet": shapes.choice(empty),
                                            "tokens": shapes.distribution(sources, 1, sum(sources.values()))},
                            rule="4.2.own", label="re-establish an empty home planet"))
    return found


def own_colour(ctx, offense: str, reverse: bool) -> None:
    """The offense's own colour came up (or was chosen for a wild): ask, unless drawing again is all it can do."""
    if len(own_colour_options(ctx.state, offense)) == 1:
        ctx.update(phase=None)  # only "draw again": done without asking (the next run draws)
    else:
        ctx.update(phase="own", reverse=reverse)


def draw_destiny(ctx, chosen: str | None = None) -> str:
    """Turn up the top destiny card (or the one a power chose from the deck: Dictator); with one card left,
    reshuffle it with the discards (RULES.md 2)."""
    state = ctx.state
    card = chosen if chosen in state["destiny"] else state["destiny"][-1]
    ctx.emit("DestinyDrawn", card=card)
    if len(state["destiny"]) <= 1:
        pile = list(state["destiny"]) + list(state["destiny_discard"])
        ctx.rng.shuffle(pile)
        ctx.emit("DeckReshuffled", deck="destiny", cards=pile)
    return card


def determine(ctx, defense: str, reverse: bool, by: str, *, slide: bool = False) -> None:
    """Fix the defense and the cone's side; the destiny step is over."""
    ctx.emit("DefenseDetermined", defense=defense, reverse=bool(reverse), by=by)
    ctx.done()
    if slide and not reverse:
        slide_fan(ctx, defense)

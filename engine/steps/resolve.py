"""Stage 8: the outcome of the revealed cards and its consequences (RULES.md 4, stage 8; 7).

`outcome` computes what the cards and totals say; `Resolve` records it and schedules the
consequences as steps, in the order of the rules: tokens land or go home and losers go to
the warp, (``ffg``: a timing window, `Ruleset.compensation_window`), consolation, then rewards,
then the powers that act after a win.
"""

from __future__ import annotations

from engine import cards, rulesets, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import draw, give_cards, return_kept
from engine.held import fire_held, listeners
from engine.hooks import fire, fold, listening
from engine.revealed import card_kind, played_cards, printed_attack_value, printed_kind
from engine.state import (
    allies,
    hand,
    main_player,
    opponent_side,
    side_tokens,
    tokens_in_challenge,
    warp_count,
)
from engine.steps import compensation
from engine.steps.cards_stage import committed_kicker
from engine.steps.tokens import lose, move, return_home

SIDES = ("offense", "defense")


def attack_values(state: dict) -> dict:
    """Each side's Attack value after powers (Tripler, Mirror...) and kickers; None for non-Attacks."""
    values = {}
    for side in SIDES:
        played = played_cards(state, side)
        if card_kind(state, side) != "attack" or not played:
            values[side] = None
            continue
        value = sum(printed_attack_value(state, side, c) or 0 for c in played
                    if printed_kind(state, side, c) == "attack")
        values[side] = value
    values = fold(state, "attack_values", values)
    for side in SIDES:
        kicker = committed_kicker(state, side)
        if kicker and values[side] is not None:
            values[side] *= cards.card(kicker)["value"]
    return values


def token_total(state: dict, side: str) -> int:
    """What the tokens on a side add to its total (each token 1 unless a power says otherwise)."""
    return sum(fold(state, "token_strength", 1, player=color, side=side) * n
               for color, n in side_tokens(state, side).items())


def reinforcements(state: dict, side: str) -> int:
    """What is added to a side after the reveal: the reinforcement cards played for it, and any other effect
    that adds to its total (``adds``: the Attack cards Fodder discards onto its own)."""
    return sum(e["value"] if e["source"] == "reinforcement" else e.get("adds", 0)
               for e in state["ch"]["effects"] if e.get("side") == side)


def totals(state: dict) -> dict:
    """Both sides' totals: card + tokens, changed by powers, then reinforcements (RULES.md 4, stage 8)."""
    values = attack_values(state)
    result = {}
    for side in SIDES:
        card_value = values[side] or 0
        total = fold(state, "side_total", card_value + token_total(state, side), side=side, card=card_value)
        result[side] = total + reinforcements(state, side)
    return result


def attack_winner(state: dict, sums: dict) -> str:
    """Higher total wins, ties to the defense; some powers make the lower total win."""
    if fold(state, "lower_wins", False):
        return "offense" if sums["offense"] < sums["defense"] else "defense"
    return "offense" if sums["offense"] > sums["defense"] else "defense"


def outcome(state: dict) -> dict:
    """What the revealed cards decide: kind of outcome, winner, totals, consolation."""
    kinds = {side: card_kind(state, side) for side in SIDES}
    found = {"cards": kinds, "winner": None, "totals": None, "consolation": None}
    off, dfn = kinds["offense"], kinds["defense"]
    if off == "morph" and dfn == "morph":  # RULES.md 9: Morph against Morph, both lose
        found.update(kind="morph", winner=None, both_lose=True)
    elif "war" in (off, dfn):
        found.update(_war_outcome(state, kinds))
    elif off == "attack" and dfn == "attack":
        sums = totals(state)
        found.update(kind="attack", totals=sums, winner=attack_winner(state, sums))
    elif off == "attack" or dfn == "attack":
        winner = "offense" if off == "attack" else "defense"
        found.update(kind="compromise", winner=winner, totals=totals(state))
        if kinds[opponent_side(winner)] == "compromise":  # a side that played no card takes none
            found["consolation"] = consolation_for(state, opponent_side(winner), winner, lost_tokens=True)
    elif off == "compromise" and dfn == "compromise":
        found.update(kind="deal")
    else:  # a side without any challenge card (RULES.md 4 decision): it loses as a Compromise, no consolation
        winner = "defense" if off is None else "offense"
        found.update(kind="compromise", winner=winner)
    return found


def _war_outcome(state: dict, kinds: dict) -> dict:
    """RULES.md 7: War beats Attack, loses to Compromise; War against War, both lose.

    With kickers (004), a War's kicker multiplies the opponent's token loss, or the War
    player's own loss when it loses to a Compromise: ``extra_losses`` says how many tokens
    each main player loses beyond (or, below zero, gets back from the warp on top of) those
    it had in the challenge.
    """
    off, dfn = kinds["offense"], kinds["defense"]
    if off == "war" and dfn == "war":
        return {"kind": "war", "winner": None, "both_lose": True,
                "extra_losses": _extra_losses(state, {"offense": "defense", "defense": "offense"})}
    war_side = "offense" if off == "war" else "defense"
    other = opponent_side(war_side)
    if kinds[other] == "compromise":
        return {"kind": "war", "winner": other,
                "consolation": consolation_for(state, other, war_side, lost_tokens=False),
                "extra_losses": _extra_losses(state, {war_side: war_side})}
    # an Attack (or, RULES.md 4 decision, no challenge card at all: no consolation) loses to War
    consolation = consolation_for(state, other, war_side, lost_tokens=True) if kinds[other] else None
    return {"kind": "war", "winner": war_side, "consolation": consolation,
            "extra_losses": _extra_losses(state, {other: war_side})}


def _extra_losses(state: dict, multiplied_by: dict) -> dict:
    """Per main player, the kicker-multiplied loss beyond its tokens in the challenge (004).

    ``multiplied_by`` maps the side whose loss is multiplied to the side whose kicker
    multiplies it. Allies are never affected by kickers.
    """
    extra = {}
    for side, kicker_side in multiplied_by.items():
        kicker = committed_kicker(state, kicker_side)
        if not kicker:
            continue
        player = main_player(state, side)
        had = tokens_in_challenge(state, side, player)
        more = had * cards.card(kicker)["value"] - had
        if more:
            extra[player] = more
    return extra


def consolation_for(state: dict, side: str, winner_side: str, lost_tokens: bool) -> dict:
    """Consolation owed to a side's main player: one card from the winner's hand per token of its own.

    The tokens counted are those it had in the challenge (004: tokens a War's kicker takes from
    its bases were never in the challenge); its own kicker multiplies the count, and a kicker
    below 1 leaves no consolation at all (decision: consolation is never negative).
    Under ``ffg`` (RULES.md 9) the count is not known yet: it is one card per ship of the player's own that
    went to the warp in the encounter (a Zombie's, sent home, and the Void's victims, removed from the game,
    count none), counted when the compensation is taken (``"counted": "warp"``, `owed_count`).
    """
    player = main_player(state, side)
    giver = main_player(state, winner_side)
    if rulesets.of(state).compensation_by_warp:
        return {"player": player, "from": giver, "count": 0, "lost_tokens": lost_tokens, "counted": "warp"}
    count = tokens_in_challenge(state, side, player)
    kicker = committed_kicker(state, side)
    if kicker:
        count *= max(0, cards.card(kicker)["value"])
    return {"player": player, "from": giver, "count": count, "lost_tokens": lost_tokens}


def owed_count(state: dict, owed: dict) -> int:
    """The cards a consolation owes before any power changes it: as recorded, or (``ffg``) the receiver's own
    ships that went to the warp in the encounter (`engine.evolve` counts them as they go)."""
    if owed.get("counted") == "warp":
        return (state.get("warped") or {}).get(owed["player"], 0)
    return owed["count"]


@register
class Resolve(Step):
    """Record the outcome and schedule its consequences."""

    op = "resolve"

    def run(self, ctx, step):
        state = ctx.state
        result = fold(state, "outcome", outcome(state))
        # who had how many tokens on each side as the challenge was decided: the tokens move
        # right after, and powers acting on the result (Barbarian, Cudgel...) count them
        result.setdefault("tokens", {side: side_tokens(state, side) for side in SIDES})
        winner = result.get("winner")
        record = {}
        if result.get("kind") != "deal":
            for side in SIDES:
                player = main_player(state, side)
                if result.get("both_lose") or (winner and side != winner):
                    record[player] = "lost"
                elif winner == side:
                    record[player] = "won"
        result["record"] = record
        result["succeeded"] = winner == "offense"
        ctx.emit("ChallengeResolved", outcome=result)
        if result.get("kind") == "deal":
            ctx.replace(ctx.step("deal_prepare"), ctx.step("deal"))
        else:
            # ffg: the resolution phase has a window before compensation and rewards (Ionic Gas: RULES.md 9)
            window = rulesets.of(state).compensation_window
            before = [ctx.step("window", name=window)] if window else []
            ctx.replace(ctx.step("outcome_tokens"), *before, ctx.step("consolation"), ctx.step("rewards"),
                        ctx.step("after_resolution"))


def landing_and_rewards(state: dict, winner: str) -> tuple[list[str], list[str]]:
    """Which winning allies land on the planet and which go home with rewards (the reverse cone swaps them)."""
    winning_allies = allies(state, winner)
    allies_land = (winner == "offense") != state["ch"]["reverse"]
    landers, rewarded = (winning_allies, []) if allies_land else ([], winning_allies)
    # a power may deny winning allies their gains (Grudge Wild): an ally in neither list goes home empty-handed
    gains = fold(state, "ally_gains", {"land": landers, "reward": rewarded}, winner=winner)
    return list(gains["land"]), list(gains["reward"])


@register
class OutcomeTokens(Step):
    """Winners land or keep their planet; winning allies land or go home; losers go to the warp."""

    op = "outcome_tokens"

    def run(self, ctx, step):
        state = ctx.state
        ch = state["ch"]
        result = ch["outcome"]
        planet = ch["planet"]
        ctx.done()
        if result.get("both_lose"):
            lose(ctx, _side_losses(state, "offense") + _side_losses(state, "defense"), "both sides lost")
            kicker_losses(ctx, result.get("extra_losses") or {})
            return
        by = main_player(state, result["winner"])
        winner = result["winner"]
        loser = opponent_side(winner)
        if result.get("winners_to_warp"):
            # a power took the winners down with the losers (Shadow's Wild): nobody lands or goes home
            lose(ctx, _side_losses(state, loser), "lost the challenge", by=by)
            lose(ctx, _side_losses(state, winner), result["winners_to_warp"])
            also_lost(ctx, result.get("also_lost") or [])
            return
        landers, rewarded = landing_and_rewards(state, winner)
        landing = []
        if winner == "offense":
            offense = state["turn"]["offense"]
            landing.append((offense, "cone:offense", planet, state["cone"]["offense"].get(offense, 0)))
        for ally in landers:
            landing.append((ally, f"cone:{winner}", planet, state["cone"][winner].get(ally, 0)))
        committed = {ally: state["cone"][winner].get(ally, 0) for ally in rewarded}
        if committed:  # the allies owed rewards, each with the tokens it committed
            ctx.emit("ChallengeNoted", key="rewards", value=committed)
        move(ctx, landing, "won the challenge")
        empty_handed = [a for a in allies(state, winner) if a not in landers and a not in rewarded]
        returns = [{"player": ally, "src": f"cone:{winner}", "count": state["cone"][winner].get(ally, 0),
                    "reason": "ally returns"} for ally in list(committed) + empty_handed]
        return_home(ctx, returns)
        lose(ctx, _side_losses(state, loser), "lost the challenge", by=by)
        kicker_losses(ctx, result.get("extra_losses") or {})


def also_lost(ctx, extra: list[dict]) -> None:
    """Tokens an outcome costs beyond those in the challenge (``{"player", "count", "reason"}``), each chosen by
    its owner from its bases (a price a power paid: Shadow's Wild sacrifices one token)."""
    steps = [ctx.step("losses", player=e["player"], count=e["count"], reason=e["reason"], cone=False)
             for e in extra if e["count"] > 0]
    if steps:
        ctx.then(*steps)


def kicker_losses(ctx, extra: dict) -> None:
    """004: a multiplied loss goes on from bases to the warp, or below zero brings tokens back from the warp.

    The extra tokens were never in the challenge: the player chooses them from its bases
    (the cone is empty of its tokens by now); getting tokens back is as close as the warp allows.
    """
    steps = []
    for player in (main_player(ctx.state, side) for side in SIDES):  # the offense first
        more = extra.get(player, 0)
        if more > 0:
            steps.append(ctx.step("losses", player=player, count=more, reason="kicker", cone=False))
        elif more < 0:
            back = {"player": player, "src": "warp", "count": -more, "reason": "kicker"}
            steps.append(ctx.step("place", returns=[back]))
    if steps:
        ctx.then(*steps)


def _side_losses(state: dict, side: str) -> list[tuple[str, str, int]]:
    """Every token of a losing side: its cone tokens, and the defense's tokens on the planet."""
    losses = [(color, f"cone:{side}", n) for color, n in state["cone"][side].items()]
    ch = state["ch"]
    if side == "defense" and ch["planet"]:
        on_planet = state["planets"][ch["planet"]].get(ch["defense"], 0)
        if on_planet:
            losses.insert(0, (ch["defense"], ch["planet"], on_planet))
    return losses


@register
class Consolation(Step):
    """The Compromise (or War-beaten) player takes cards at random from the winner's hand."""

    op = "consolation"

    def run(self, ctx, step):
        if not step.get("decided") and fold(ctx.state, "acts_before_consolation", False):
            # a power acts on the result before the consolation is taken (the FFG Barbarian's looting)
            ctx.update(decided=True)
            fire(ctx, "before_consolation", outcome=ctx.state["ch"]["outcome"])
            return
        owed = ctx.state["ch"]["outcome"].get("consolation")
        if owed and not step.get("heard") and listening(ctx.state, "before_compensation"):
            # a power may take it from another player, or choose the cards (Hacker: engine.steps.compensation)
            ctx.update(heard=True)
            fire(ctx, "before_compensation", owed=owed)
            return
        giver, picker = compensation.noted(ctx.state, owed) if owed else (None, None)
        if owed and not step.get("asked") and listeners(ctx.state, "before_cards_taken", [giver]):
            # a flare the giver holds may keep cards out of reach first (Miser's Wild)
            ctx.update(asked=True)
            fire_held(ctx, "before_cards_taken", [giver], player=giver)
            return
        if not owed:
            ctx.done()
            return
        count = fold(ctx.state, "consolation_count", owed_count(ctx.state, owed), player=owed["player"])
        source = list(hand(ctx.state, giver))
        if picker and 0 < count < len(source):
            ctx.replace(ctx.step("pick_compensation", player=picker, giver=giver, receiver=owed["player"],
                                 count=count))
            return
        ctx.done()
        taken = ctx.rng.sample(source, min(count, len(source))) if count > 0 else []
        give_cards(ctx, giver, owed["player"], taken, "consolation")
        return_kept(ctx, giver)


@register
class Rewards(Step):
    """Each rewarded ally takes, per token it committed, a card from the deck or a token from the warp."""

    op = "rewards"

    def prompts(self, state, step):
        found = []
        for ally, n in self.pending(state, step).items():
            if warp_count(state, ally) == 0:
                continue
            shape = shapes.distribution({"cards": n, "tokens": min(n, warp_count(state, ally))}, n, n)
            found.append(prompt(step, ally, "rewards", [option("take", {"rewards": shape}, rule="4.8.rewards")],
                                rule="4.8.rewards", info={"count": n}))
        return found

    def pending(self, state: dict, step: dict) -> dict:
        """Rewarded allies still to choose, with the number of rewards each is owed."""
        owed = state["ch"]["notes"].get("rewards") or {}
        done = step.get("done", [])
        counts = {ally: fold(state, "reward_count", n, player=ally) for ally, n in owed.items() if ally not in done}
        return {ally: n for ally, n in counts.items() if n > 0}  # a power may bring a count to 0 (Cosmic Gas)

    def run(self, ctx, step):
        pending = self.pending(ctx.state, step)
        for ally, n in pending.items():  # only allies with nothing in the warp remain: all cards
            self.take(ctx, step, ally, n, 0)
            return
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        chosen = args["rewards"]
        self.take(ctx, step, prompt_["player"], chosen.get("cards", 0), chosen.get("tokens", 0))

    def take(self, ctx, step, ally: str, card_count: int, token_count: int) -> None:
        """Give an ally its rewards and mark it done."""
        ctx.update(done=step.get("done", []) + [ally])
        if card_count:
            draw(ctx, ally, card_count, "reward")
        if token_count:
            return_home(ctx, [{"player": ally, "src": "warp", "count": token_count, "reason": "reward"}])

    def default(self, state, step, prompt_, rng):
        return {"action": "take", "args": {"rewards": {"cards": prompt_["info"]["count"]}}}


@register
class AfterResolution(Step):
    """Powers that act once the challenge is decided (Barbarian, Cudgel, Grudge...)."""

    op = "after_resolution"

    def run(self, ctx, step):
        ctx.done()
        fire(ctx, "on_resolved", outcome=ctx.state["ch"]["outcome"])

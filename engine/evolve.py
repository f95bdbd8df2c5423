"""`evolve(state, event)`: apply one recorded fact to a state.

It never fails on an event that `decide` produced and never draws a random number: every
random outcome is already written in the event. For speed it changes ``state`` in place
and returns it; callers that need the old state keep a clone (`decide` works on one).
"""

from __future__ import annotations

from engine.memo import fact_applied
from engine.state import PLANETS_PER_SYSTEM, empty, planet_id, system_of

HANDLERS = {}

# What the engine writes for itself (where the turn sequence stands), not what happened in the game:
# these do not advance the line of play ("ply"), so the random source is keyed on facts alone.
# `Bookmark` is written today; the others only by engines before stream format 2 (engine/legacy.py).
BOOKKEEPING = frozenset({"Bookmark", "StepsScheduled", "StepUpdated", "AgendaUnwound", "DecisionsOpened"})
# What the players say at the table (table talk, events.vocabulary): kept in the game's stream, part of its
# record, but no part of its state. A fold counts one as a version ("v") and nothing else: no "ply" (so the
# random source never depends on it), no game time (a message is not a move) and no "rest" (the game waits
# for the same decisions after it as before), so a game plays the same with or without its talk.
ASIDES = frozenset({"MessageSent"})
# The stream format this engine writes (GameCreated's ``format``): 1 wrote the agenda's every change
# as events; 2 writes the facts of the game and, at the end of a command, at most one `Bookmark`.
STREAM_FORMAT = 2


def handles(event_type: str):
    """Register the function that applies one event type."""
    def register(fn):
        HANDLERS[event_type] = fn
        return fn
    return register


def evolve(state: dict | None, event: dict) -> dict:
    """Apply one event to a state (in place) and return it; ``state`` None means a new game."""
    if state is None:
        state = empty()
    event_type = event["type"]
    if event_type in ASIDES:
        state["v"] += 1
        return state
    moved_home_bases = HANDLERS[event_type](state, event["payload"], event)
    missed = state.get("missed")
    if missed and event.get("actor") in missed:  # the player acted itself: its missed decisions count again from 0
        del missed[event["actor"]]
    # "ply": the position in the current line of play, counted in facts (the RNG's key); it
    # differs from the stream version "v", which counts every event, by the bookkeeping events
    # and after a rewind (see engine.rewind)
    if event_type not in BOOKKEEPING:
        state["ply"] = state.get("ply", 0) + 1
        fact_applied(state, event_type, bool(moved_home_bases))  # (positional: asked once per fact)
    state["v"] += 1
    if "time" in event:
        state["time"] = event["time"]
    elif "time" not in state:
        state["time"] = 0
    # "rest": the game waits for a decision here (the last event of a command says ``end``)
    state["rest"] = event.get("end", False)
    return state


# The lobby and setup -------------------------------------------------------------------------

@handles("GameCreated")
def _created(s, p, event):
    s.update({
        "game_id": event.get("game_id"), "status": "lobby", "ruleset": p["ruleset"],
        "options": p["options"], "seats": p["seats"], "seed": p["seed"], "setup": p.get("setup") or {},
        "format": p.get("format", 1),
        "order": [], "players": {}, "created": event.get("time", 0),
    })


@handles("PlayerJoined")
def _joined(s, p, event):
    s["order"].append(p["player"])
    s["players"][p["player"]] = {"name": p["name"], "bot": p.get("bot"), "hand": [], "powers": []}


@handles("GameStarted")
def _started(s, p, event):
    colors = p["order"]
    s.update({
        "status": "playing", "order": list(colors),
        "planets": {planet_id(c, i): {c: 4} for c in colors for i in range(PLANETS_PER_SYSTEM)},
        # bases by kind, kept with every token movement: power loss and winning read them all game long
        "home_bases": {c: PLANETS_PER_SYSTEM for c in colors}, "external_bases": {c: 0 for c in colors},
        "warp": {c: 0 for c in colors}, "removed": {c: 0 for c in colors}, "fan": {},
        "fan_section": None,
        "cone": {"offense": {}, "defense": {}},
        "deck": [], "discard": [], "destiny": [], "destiny_discard": [], "kickers": [],
        "table": [], "committed": {"offense": [], "defense": []}, "aside": [],
        "turn": None, "ch": None, "agenda": [{"op": "game", "sid": 0}], "sid": 0,
        "clock": {}, "record": {c: {"won": 0, "lost": 0} for c in colors}, "notes": {},
        "winners": [],
    })


@handles("PowersDealt")
def _powers(s, p, event):
    for color, names in p["powers"].items():
        s["players"][color]["powers"] = list(names)


@handles("PowersOffered")
def _offered(s, p, event):
    s["players"][p["player"]]["offered"] = list(p["powers"])


@handles("PowerChosen")
def _chosen(s, p, event):
    s["players"][p["player"]]["chosen"] = list(p["powers"])


@handles("DeckFormed")
def _deck_formed(s, p, event):
    s[p["deck"]] = list(p["cards"])


@handles("FirstPlayerChosen")
def _first(s, p, event):
    s["first_player"] = p["player"]


# Turn sequence ---------------------------------------------------------------------------------

@handles("TurnBegan")
def _turn_began(s, p, event):
    s["turn"] = {"offense": p["player"], "number": p["turn"], "challenge": 0, "succeeded": False}


@handles("TurnEnded")
def _turn_ended(s, p, event):
    s["ch"] = None


@handles("ChallengeBegan")
def _challenge_began(s, p, event):
    s["turn"]["challenge"] = p["number"]
    s["warped"] = {}  # the challenge's tokens lost to the warp so far (`_tokens_moved`)
    s["ch"] = {
        "number": p["number"], "stage": 0, "defense": None, "planet": None, "reverse": False,
        "destiny": None, "invited": {"offense": None, "defense": None}, "allies": {},
        "declined": [], "answered": [], "revealed": None, "outcome": None, "succeeded": False,
        "reinforce": {"offense": 0, "defense": 0}, "effects": [], "zapped": [], "used": {},
        "cancelled": [], "notes": {}, "deal": None,
    }


@handles("ChallengeEnded")
def _challenge_ended(s, p, event):
    s["turn"]["succeeded"] = p["succeeded"]
    s["ch"]["succeeded"] = p["succeeded"]


@handles("StageBegan")
def _stage(s, p, event):
    s["ch"]["stage"] = p["stage"]


@handles("Bookmark")
def _bookmark(s, p, event):
    """Where `decide` stood at the end of a command: the agenda's changed steps, the step counter, the clock.

    In `decide` itself the scratch state already stands there (engine.context), so only what differs
    is applied: the agenda's step records are not replaced by equal copies under the rules code."""
    agenda = p.get("agenda")
    if agenda is not None:
        keep, steps = agenda["keep"], agenda["steps"]
        current = s["agenda"]
        if current[keep:] != steps:
            del current[keep:]
            current.extend(dict(step) for step in steps)  # copies: the state's steps change, the event's never
    if "sid" in p:
        s["sid"] = p["sid"]
    if "clock" in p and s["clock"] != p["clock"]:
        s["clock"] = dict(p["clock"])
    s["format"] = 2


@handles("DecisionTimedOut")
def _timed_out(s, p, event):
    # a log fact; the default answer's own events follow. With ``hand_over_after`` (engine.seats), it counts
    # one more decision the player missed in a row
    if s["options"].get("hand_over_after"):
        missed = s.setdefault("missed", {})
        missed[p["player"]] = missed.get(p["player"], 0) + 1


# Seats handed to a bot and taken back (engine.seats) ------------------------------------------

@handles("SeatHandedToBot")
def _handed_to_bot(s, p, event):
    seat = s["players"][p["player"]]
    seat["bot"] = p["level"]
    seat["handed_over"] = p["reason"]
    (s.get("missed") or {}).pop(p["player"], None)


@handles("SeatTakenBack")
def _taken_back(s, p, event):
    seat = s["players"][p["player"]]
    seat["bot"] = None
    seat.pop("handed_over", None)
    (s.get("missed") or {}).pop(p["player"], None)


@handles("Passed")
def _passed(s, p, event):
    step = s["agenda"][-1]
    step["passed"] = step.get("passed", []) + [p["player"]]
    ch = s.get("ch")
    if p.get("until") == "next stage" and ch is not None:
        noted = ch["notes"].get("passed_stage")
        earlier = noted["players"] if noted and noted["stage"] == ch["stage"] else []
        ch["notes"]["passed_stage"] = {"stage": ch["stage"], "players": earlier + [p["player"]]}


@handles("DecisionTaken")
def _decision_taken(s, p, event):
    pass  # a log fact: the answer's effect is in what follows


@handles("GameEnded")
def _ended(s, p, event):
    s["status"] = "finished"
    s["winners"] = list(p["winners"])
    s["agenda"] = []
    s["clock"] = {}


# Cards -----------------------------------------------------------------------------------------

def card_place(s: dict, place: str) -> list:
    """The list of card ids a place name refers to (``hand:red``, ``committed:offense``, ``deck``...)."""
    kind, _, owner = place.partition(":")
    if kind == "hand":
        return s["players"][owner]["hand"]
    if kind == "hoard":  # a player's cards set apart face down, that only it may play (Miser's hoard)
        return s["players"][owner].setdefault("hoard", [])
    if kind == "kept":  # a player's cards set aside face down through a new hand or a compensation
        return s["players"][owner].setdefault("kept", [])
    if kind == "committed":
        return s["committed"][owner]
    if kind == "citadel":  # cards face up beside a planet, as Citadel's citadels (``citadel:blue-2``)
        return s.setdefault("citadels", {}).setdefault(owner, [])
    return s[kind]


@handles("CardsMoved")
def _cards_moved(s, p, event):
    src, dst = card_place(s, p["src"]), card_place(s, p["dst"])
    for card_id in p["cards"]:
        if p["src"] == "deck" and src and src[-1] == card_id:
            src.pop()
        else:
            src.remove(card_id)
        if p.get("bottom"):  # under the pile (the deck's top is its last card)
            dst.insert(0, card_id)
        else:
            dst.append(card_id)


@handles("DeckReshuffled")
def _reshuffled(s, p, event):
    if p["deck"] == "deck":
        s["discard"] = []
        s["deck"] = list(p["cards"])
    else:
        s["destiny_discard"] = []
        s["destiny"] = list(p["cards"])


@handles("HandRevealed")
def _hand_revealed(s, p, event):
    pass  # only who saw what; the log keeps it


@handles("CardPlayed")
def _card_played(s, p, event):
    card_place(s, p.get("src") or f"hand:{p['player']}").remove(p["card"])
    s["table"].append(p["card"])
    if p["card"].startswith("Flare:") and s.get("ch") is not None:  # who played a flare this challenge (ffg: one each)
        s["ch"].setdefault("flares", []).append(p["player"])


@handles("ChallengeCardChosen")
def _card_chosen(s, p, event):
    card_place(s, p.get("src") or f"hand:{p['player']}").remove(p["card"])
    s["committed"][p["side"]].append(p["card"])
    if p.get("face_up"):
        s["ch"]["notes"][f"face_up:{p['side']}"] = True


@handles("ChallengeCardsRevealed")
def _revealed(s, p, event):
    s["ch"]["revealed"] = {"offense": list(p["offense"]), "defense": list(p["defense"])}


@handles("RevealUndone")
def _reveal_undone(s, p, event):
    s["ch"]["revealed"] = None


@handles("DestinyDrawn")
def _destiny_drawn(s, p, event):
    s["destiny"].remove(p["card"])
    s["destiny_discard"].append(p["card"])
    if s.get("ch"):
        s["ch"]["destiny"] = p["card"]


# Tokens ----------------------------------------------------------------------------------------

def token_place(s: dict, place: str) -> dict:
    """The ``{colour: n}`` dict a place name refers to (a planet id, ``warp``, ``cone:offense``...)."""
    if place in s["planets"]:
        return s["planets"][place]
    kind, _, part = place.partition(":")
    if kind == "cone":
        return s["cone"][part]
    if kind == "fan":
        return s["fan"].setdefault(part, {})
    if kind == "warp":
        return s["warp"]
    return s["removed"]


@handles("TokensMoved")
def _tokens_moved(s, p, event):
    """Moves tokens; says whether a home base was made or given up (what is in force may change with it:
    a power is lost for want of home bases, engine.memo.FORCES)."""
    planets = s["planets"]
    home_bases_changed = False
    for color, src, dst, count in p["moves"]:
        source = token_place(s, src)
        left = source.get(color, 0) - count
        if left or src in ("warp", "removed"):
            source[color] = left
        else:
            del source[color]
            if src in planets:  # a base given up
                home = system_of(src) == color
                s["home_bases" if home else "external_bases"][color] -= 1
                home_bases_changed = home_bases_changed or home
        ch = s.get("ch")
        if dst == "warp" and ch is not None and (src.startswith("cone:") or src == ch["planet"]):
            # ships of the challenge that went to the warp: what compensation counts under ffg (RULES.md 9);
            # kept beside the challenge, not in it (the board shows the challenge as it is)
            warped = s.setdefault("warped", {})
            warped[color] = warped.get(color, 0) + count
        target = token_place(s, dst)
        had = target.get(color, 0)
        target[color] = had + count
        if not had and count and dst in planets:  # a base made
            home = system_of(dst) == color
            s["home_bases" if home else "external_bases"][color] += 1
            home_bases_changed = home_bases_changed or home
    return home_bases_changed


# The challenge ----------------------------------------------------------------------------------

@handles("DefenseDetermined")
def _defense(s, p, event):
    s["ch"]["defense"] = p["defense"]
    s["ch"]["reverse"] = p["reverse"]


@handles("ConeAimed")
def _aimed(s, p, event):
    s["ch"]["planet"] = p["planet"]


@handles("AlliesInvited")
def _invited(s, p, event):
    s["ch"]["invited"][p["side"]] = list(p["players"])


@handles("AllianceAnswered")
def _answered(s, p, event):
    ch = s["ch"]
    ch["answered"].append(p["player"])
    if p.get("side"):
        ch["allies"][p["player"]] = p["side"]
    else:
        ch["declined"].append(p["player"])


@handles("AllyRemoved")
def _ally_removed(s, p, event):
    s["ch"]["allies"].pop(p["player"], None)


@handles("ChallengeResolved")
def _resolved(s, p, event):
    outcome = p["outcome"]
    s["ch"]["outcome"] = outcome
    for color, result in outcome.get("record", {}).items():
        s["record"][color][result] += 1


@handles("ChallengeNoted")
def _challenge_noted(s, p, event):
    s["ch"]["notes"][p["key"]] = p["value"]


@handles("PlayerNoted")
def _player_noted(s, p, event):
    s["notes"].setdefault(p["player"], {})[p["key"]] = p["value"]


@handles("EffectAdded")
def _effect(s, p, event):
    s["ch"]["effects"].append(p["effect"])


@handles("PowerUsed")
def _power_used(s, p, event):
    if s.get("ch") is not None:
        key = f"{p['player']}:{p['power']}"
        s["ch"]["used"][key] = s["ch"]["used"].get(key, 0) + 1


@handles("UseCancelled")
def _cancelled(s, p, event):
    s["ch"]["cancelled"].append(p["target"]["use"])


@handles("PowerZapped")
def _zapped(s, p, event):
    s["ch"]["zapped"].append(f"{p['target']}:{p['power']}")


@handles("DealProposed")
def _deal_proposed(s, p, event):
    deal = s["ch"]["deal"]
    deal["proposals"][str(p["id"])] = {"by": p["player"], "terms": p["terms"]}
    deal["next_id"] = p["id"] + 1


@handles("DealAnswered")
def _deal_answered(s, p, event):
    deal = s["ch"]["deal"]
    if p.get("accepted") is None:
        deal["given_up"].append(p["player"])
    else:
        deal["accepted"] = p["accepted"]


@handles("DealConcluded")
def _deal_concluded(s, p, event):
    s["ch"]["deal"]["made"] = p["made"]
    s["ch"]["deal"]["terms"] = p.get("terms")


@handles("DealStarted")
def _deal_started(s, p, event):
    s["ch"]["deal"] = {"proposals": {}, "next_id": 1, "given_up": [], "accepted": None,
                       "made": None, "terms": None, "deadline": p.get("deadline")}


# Powers changing during the game -----------------------------------------------------------------

@handles("PowersChanged")
def _powers_changed(s, p, event):
    seat = s["players"][p["player"]]
    seat.setdefault("dealt", list(seat["powers"]))  # the powers the game began with (the simulator's statistics)
    seat["powers"] = list(p["powers"])
    s.setdefault("powers_out", []).extend(p["lost"])  # out of the game: never drawn again

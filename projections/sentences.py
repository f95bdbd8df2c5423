"""The history people read: one sentence per event, in the words of the game's edition.

Every log and feed entry the API serves carries a ``text`` (openapi.yaml, ``Event``): "Ann launches
4 tokens to the cone (2 from Ann's planet 1, 2 from Ann's planet 2)", "The cone is aimed at Bob's
planet 3", told as "ships" and "gate" in an ``ffg`` game. They are written here, once, so every
client (the web table, a mobile app, a webhook's receiver) shows the same history.

A sentence is made from the event *as the viewer may see it* (`events.redaction`): `narrated`
redacts first and tells what is left, so a card hidden from the viewer is "a card" in its
sentence and can never be named there. Sentences are written in RULES.md's words and turned into
the edition's by `projections.words.speak`; what players typed (their names) is put in after that,
so a player called "Base Camp" keeps its name in an ``ffg`` game.

`SENTENCES` holds one function per event type of the catalogue (tests/projections/test_sentences.py
checks that none is missing); a type added later without one is told by its name until it gets one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engine import cards
from events.redaction import redact
from projections.words import speak, stage_name, title

EDITIONS = {"mayfair": "Mayfair", "ffg": "Fantasy Flight"}
SIDES = ("offense", "defense")


@dataclass(frozen=True)
class Table:
    """What a sentence needs to know of its game: the edition, and each colour's name as people read it."""

    ruleset: str = "mayfair"
    names: dict = field(default_factory=dict)

    @classmethod
    def of(cls, state: dict | None) -> Table:
        """The table of a game's state (its players' names made distinct: two "Ann"s are told apart by colour)."""
        state = state or {}
        players = state.get("players") or {}
        given = {colour: (seat.get("name") or colour) for colour, seat in players.items()}
        counts: dict[str, int] = {}
        for name in given.values():
            counts[name] = counts.get(name, 0) + 1
        names = {colour: (f"{name} ({colour})" if counts[name] > 1 else name) for colour, name in given.items()}
        return cls(ruleset=state.get("ruleset") or "mayfair", names=names)

    def name(self, colour) -> str:
        """A player as people read it: its name, else its colour (or what the event gave)."""
        if colour is None:
            return "someone"
        return self.names.get(colour, str(colour).replace("_", " "))

    def say(self, template: str, **values) -> str:
        """``template`` (RULES.md's words, ``{placeholders}``) in the edition's words, then filled in.

        Values are put in after the words are changed: names and other told parts are never changed again.
        """
        return _spoken(template, self.ruleset).format(**values)

    def words(self, text: str) -> str:
        """Text in RULES.md's words (a title, a reason the engine gave) in the edition's words, nothing filled in."""
        return speak(text, self.ruleset) or ""


@lru_cache(maxsize=2048)
def _spoken(template: str, ruleset: str) -> str:
    """A template in an edition's words (templates are few and told again and again: remembered)."""
    return speak(template, ruleset)


def narrated(event: dict, viewer: str | None, table: Table) -> dict:
    """The event as ``viewer`` may see it (`events.redaction.redact`), with its sentence in ``text``."""
    shown = redact(event, viewer)
    shown["text"] = tell(shown, table)
    return shown


def sentence(event: dict, viewer: str | None, table: Table) -> str:
    """The sentence ``viewer`` reads for a stored event (told from the redacted event only)."""
    return tell(redact(event, viewer), table)


def tell(shown: dict, table: Table) -> str:
    """The sentence of an event that is already redacted for its reader."""
    teller = SENTENCES.get(shown.get("type"))
    payload = shown.get("payload") or {}
    if teller is None:
        return table.say("{what} happened.", what=_spaced(shown.get("type") or "Something"))
    try:
        return teller(payload, table)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # a payload older or odder than expected
        return table.say("{what} happened.", what=_spaced(shown.get("type") or "Something"))


# --- the parts of sentences ---------------------------------------------------------------------

def _spaced(name: str) -> str:
    """``CosmicZap`` -> ``Cosmic Zap``; ``light_blue`` -> ``light blue``."""
    out = []
    for k, ch in enumerate(name.replace("_", " ")):
        if ch.isupper() and k and name[k - 1].islower():
            out.append(" ")
        out.append(ch)
    return "".join(out)


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def card_name(card_id, table: Table) -> str:
    """A card as people read it (``A8.3`` -> ``Attack 8``, ``Flare:Macron`` -> ``the Macron flare``); a
    card hidden from the reader (null) is ``a card``."""
    if card_id is None:
        return table.say("a card")
    try:
        definition = cards.card(card_id)
    except KeyError:
        return str(card_id)
    if definition["kind"] == "flare":
        return table.say("the {power} flare", power=definition["name"])
    if definition["kind"] == "edict":
        return table.say("{name} (an edict)", name=_spaced(definition["name"]))
    if definition["kind"] == "reinforcement":
        return table.say("a reinforcement +{n}", n=definition["value"])
    return speak(definition["name"], table.ruleset)


def cards_told(card_ids: list, table: Table) -> str:
    """Cards as people read them: the ones the reader may see named, the hidden ones counted."""
    seen = [card_name(c, table) for c in card_ids if c is not None]
    hidden = sum(1 for c in card_ids if c is None)
    if hidden:
        seen.append(table.say(_count(hidden, "card", "cards") if not seen else
                              _count(hidden, "other card", "other cards")))
    return _listed(seen) or table.say("no card")


def place(where, table: Table) -> str:
    """A place of tokens or cards: a planet (``blue-3`` -> ``Bob's planet 3``), the cone, the warp..."""
    if where is None:
        return "nowhere"
    where = str(where)
    kind, _, rest = where.partition(":")
    if kind == "cone":
        return table.say(f"the {rest} side of the cone" if rest in SIDES else "the cone")
    if kind == "warp":
        return table.say("the warp")
    if kind == "fan":
        return table.say("{who}'s section of the fan", who=table.name(rest))
    if kind == "removed":
        return table.say("out of the game")
    if kind in ("hand", "hoard", "kept", "committed", "citadel"):
        return _card_place(kind, rest, table)
    if kind in ("deck", "discard", "destiny", "destiny_discard", "table", "aside", "kickers"):
        return table.say({"deck": "the deck", "discard": "the discard pile", "destiny": "the destiny pile",
                          "destiny_discard": "the destiny discards", "table": "the table",
                          "aside": "the cards set aside", "kickers": "the kicker deck"}[kind])
    owner, dash, number = where.rpartition("-")
    if dash and number.isdigit():
        return table.say("{owner}'s planet {n}", owner=table.name(owner), n=number)
    return where


def _card_place(kind: str, rest: str, table: Table) -> str:
    if kind == "hand":
        return table.say("{who}'s hand", who=table.name(rest))
    if kind == "hoard":
        return table.say("{who}'s hoard", who=table.name(rest))
    if kind == "kept":
        return table.say("the cards {who} set aside", who=table.name(rest))
    if kind == "committed":
        return table.say(f"the {rest}'s challenge cards" if rest in SIDES else "the challenge cards")
    return table.say("beside {planet}", planet=place(rest, table))


def destiny_told(card_id, table: Table) -> str:
    """A destiny card as people read it."""
    if card_id is None:
        return table.say("a destiny card")
    found = cards.destiny(card_id)
    reverse = " (reverse)" if found["reverse"] else ""
    if found["kind"] == "wild":
        return table.say("a wild destiny card" + reverse)
    if found["kind"] == "instruction":
        return table.say(INSTRUCTIONS.get(found["instruction"], "a special destiny card"))
    who = f" ({table.names[found['color']]})" if found["color"] in table.names else ""
    return table.say("{colour}{who}" + reverse, colour=_spaced(found["color"]), who=who)


INSTRUCTIONS = {"most-bases": "a special destiny card: the player with the most external bases",
                "most-cards": "a special destiny card: the player with the most cards in hand",
                "fewest-warp": "a special destiny card: the player with the fewest tokens in the warp"}


def terms_told(terms: dict | None, table: Table) -> str:
    """Deal terms in words (`openapi.yaml` ``DealTerms``), sides named as sides."""
    if not terms:
        return table.say("nothing")
    parts = []
    for side in SIDES:
        gift = (terms.get("cards") or {}).get(side) or {}
        named = [card_name(c, table) for c in gift.get("named") or []]
        if gift.get("count"):
            named.append(table.say(_count(gift["count"], "card of its choice", "cards of its choice")))
        if named:
            parts.append(table.say(f"the {side} gives {{what}}", what=_listed(named)))
        base = (terms.get("bases") or {}).get(side)
        if base:
            parts.append(table.say(f"the {side} gets a base on {{planet}}", planet=place(base, table)))
    third = terms.get("third") or {}
    if third.get("base"):
        parts.append(table.say("the third party gets a base on {planet}", planet=place(third["base"], table)))
    return "; ".join(parts) or table.say("nothing")


def _who(payload: dict, table: Table, key: str = "player") -> str:
    return table.name(payload.get(key))


# --- one function per event type ----------------------------------------------------------------

SENTENCES: dict = {}  # event type -> the function that tells it: f(payload as the reader sees it, Table) -> str


def tells(*types: str):
    """Register a function as the teller of these event types."""
    def register(function):
        for name in types:
            SENTENCES[name] = function
        return function
    return register


@tells("GameCreated")
def _game_created(p, t):
    return t.say("A game of the {edition} edition was created for {seats} players.",
                 edition=EDITIONS.get(p.get("ruleset"), p.get("ruleset")), seats=p.get("seats"))


@tells("PlayerJoined")
def _player_joined(p, t):
    bot = f" (a {p['bot']} bot)" if p.get("bot") else ""
    return t.say("{who} takes the {colour} seat{bot}.", who=p.get("name") or t.name(p["player"]),
                 colour=_spaced(p["player"]), bot=bot)


@tells("GameStarted")
def _game_started(p, t):
    return t.say("The game begins; the seats in order: {order}.", order=_listed([t.name(c) for c in p["order"]]))


@tells("PowersDealt")
def _powers_dealt(p, t):
    parts = [t.say("{who} has {powers}", who=t.name(c), powers=_listed(list(ps)) or t.say("no power"))
             for c, ps in p["powers"].items()]
    return t.say("The powers are dealt: {parts}.", parts="; ".join(parts))


@tells("PowersOffered")
def _powers_offered(p, t):
    if any(x is None for x in p["powers"]):
        return t.say("{who} is offered {n} powers to choose from.", who=_who(p, t), n=len(p["powers"]))
    return t.say("{who} is offered {powers} to choose from.", who=_who(p, t), powers=_listed(p["powers"]))


@tells("PowerChosen")
def _power_chosen(p, t):
    if any(x is None for x in p["powers"]):
        return t.say("{who} chooses a power in secret.", who=_who(p, t))
    return t.say("{who} chooses {powers} (in secret until every player has chosen).", who=_who(p, t),
                 powers=_listed(p["powers"]))


def _shuffled(template: str):
    """A teller of a shuffle: ``template`` names the pile as ``{deck}``, the number of its cards as ``{{n}}``."""
    def told(p, t):
        deck = "destiny pile" if p.get("deck") == "destiny" else "deck"
        return t.say(template.format(deck=deck), n=len(p.get("cards") or []))
    return told


tells("DeckFormed")(_shuffled("The {deck} is shuffled: {{n}} cards."))
tells("DeckReshuffled")(_shuffled("The discards are shuffled into a new {deck}: {{n}} cards."))


@tells("FirstPlayerChosen")
def _first_player(p, t):
    cut = _listed([destiny_told(c, t) for c in p.get("cut") or []])
    return t.say("The destiny pile is cut ({cut}): {who} plays first.", cut=cut, who=_who(p, t))


@tells("TurnBegan")
def _turn_began(p, t):
    return t.say("Turn {n}: {who} is the offense.", n=p["turn"], who=_who(p, t))


@tells("TurnEnded")
def _turn_ended(p, t):
    why = f" ({t.words(p['reason'])})" if p.get("reason") else ""
    return t.say("{who}'s turn ends{why}.", who=_who(p, t), why=why)


@tells("ChallengeBegan")
def _challenge_began(p, t):
    return t.say("The first challenge of the turn begins." if p.get("number") == 1 else
                 "The second challenge of the turn begins.")


@tells("ChallengeEnded")
def _challenge_ended(p, t):
    return t.say("The challenge ends: the offense succeeded." if p.get("succeeded") else
                 "The challenge ends: the offense did not succeed.")


@tells("StageBegan")
def _stage_began(p, t):
    name = stage_name(p["stage"], t.ruleset)
    if t.ruleset == "ffg":  # the FFG phases go by their names, not by numbers (RULES.md 9)
        return f"{name[:1].upper()}{name[1:]}."
    return t.say("Stage {n}: {name}.", n=p["stage"], name=name)


@tells("Bookmark", "StepsScheduled", "StepUpdated", "AgendaUnwound")
def _bookkeeping(p, t):
    return t.say("(Engine bookkeeping: where the turn sequence stands.)")


@tells("DecisionsOpened")
def _decisions_opened(p, t):
    opened = p.get("opened") or []
    who = _listed(list(dict.fromkeys(t.name(d.get("player")) for d in opened if isinstance(d, dict))))
    if not opened:
        return t.say("No decision is owed now.")
    return t.say("Decisions are owed by {who}.", who=who or t.say("the players"))


@tells("DecisionTimedOut")
def _timed_out(p, t):
    return t.say("{who} ran out of time ({asked}): the default was applied.", who=_who(p, t),
                 asked=t.words(title(p["kind"])).lower())


@tells("Passed")
def _passed(p, t):
    return t.say("{who} passes until the next stage." if p.get("until") else "{who} passes.", who=_who(p, t))


@tells("DecisionTaken")
def _decision_taken(p, t):
    used = f" ({_ability(p['ability'], t)})" if p.get("ability") else ""
    return t.say("{who} answers “{asked}”: {action}{used}.", who=_who(p, t), asked=t.words(title(p["kind"])),
                 action=t.words(p["action"].replace("_", " ")), used=used)


def _ability(ability: str, t: Table) -> str:
    kind, _, name = ability.partition(":")
    if kind == "card":
        return card_name(name, t)
    if kind == "power":
        return t.say("the power {name}", name=name)
    return ability


@tells("GameEnded")
def _game_ended(p, t):
    winners = _listed([t.name(c) for c in p.get("winners") or []])
    if not winners:
        return t.say("The game ends without a winner ({why}).", why=p.get("reason") or "")
    return t.say("The game ends: {winners} {verb} ({why}).", winners=winners,
                 verb="wins" if len(p["winners"]) == 1 else "win", why=t.words(p.get("reason") or ""))


@tells("MessageSent")
def _message_sent(p, t):
    """What a player said, word for word: the text is put in as typed, never in the edition's words."""
    said = p.get("text")
    if said is None:  # hidden from this reader (it is not shown the event at all; see events.redaction)
        return t.say("A private message was sent.")
    if p.get("to") is None:
        return t.say("{who} says to everyone: {said}", who=t.name(p.get("player")), said=said)
    return t.say("{who} says to {whom} alone: {said}", who=t.name(p.get("player")), whom=t.name(p["to"]), said=said)


@tells("SeatHandedToBot")
def _handed_to_bot(p, t):
    if p.get("reason") == "missed":
        return t.say("{who} let {n} decisions in a row run out of time: a {level} bot plays the {colour} seat now.",
                     who=t.name(p["player"]), n=p.get("missed") or "several", level=p["level"],
                     colour=_spaced(p["player"]))
    return t.say("{who} hands the {colour} seat to a {level} bot.", who=t.name(p["player"]),
                 colour=_spaced(p["player"]), level=p["level"])


@tells("SeatTakenBack")
def _taken_back(p, t):
    return t.say("{who} takes the {colour} seat back from its bot.", who=t.name(p["player"]),
                 colour=_spaced(p["player"]))


@tells("GameRewound")
def _rewound(p, t):
    return t.say("The game is taken back to version {v} (by {by}).", v=p["to_version"], by=t.name(p.get("by")))


def _holder(where: str) -> str | None:
    kind, _, rest = str(where).partition(":")
    return rest if kind in ("hand", "hoard", "kept") else None


@tells("CardsMoved")
def _cards_moved(p, t):
    what = cards_told(p.get("cards") or [], t)
    src, dst, reason = p.get("src") or "", p.get("dst") or "", p.get("reason") or ""
    giver, taker = _holder(src), _holder(dst)
    why = f" ({t.words(reason)})" if reason and reason not in ("stage 9", "used", "draw") else ""
    if src.startswith("deck") and taker and reason == "deal":
        return t.say("{who} is dealt {what}.", who=t.name(taker), what=what)
    if src.startswith("deck") and taker:
        return t.say("{who} draws {what}{why}.", who=t.name(taker), what=what, why=why)
    if giver and dst.startswith("discard"):
        return t.say("{who} discards {what}{why}.", who=t.name(giver), what=what, why=why)
    if giver and taker and giver != taker:
        if reason == "consolation":
            return t.say("{taker} takes {what} from {giver} as consolation.", taker=t.name(taker),
                         giver=t.name(giver), what=what)
        return t.say("{giver} gives {what} to {taker}{why}.", giver=t.name(giver), taker=t.name(taker), what=what,
                     why=why)
    if src.startswith("committed") and dst.startswith("discard"):
        return t.say("{what} {verb} to the discard pile.", what=what[:1].upper() + what[1:],
                     verb="goes" if len(p.get("cards") or []) == 1 else "go")
    if src.startswith("table") and dst.startswith("discard"):
        return t.say("{what}, once used, {verb} to the discard pile{why}.", what=what[:1].upper() + what[1:],
                     verb="goes" if len(p.get("cards") or []) == 1 else "go", why=why)
    if taker:
        return t.say("{who} takes {what} from {src}{why}.", who=t.name(taker), what=what, src=place(src, t), why=why)
    bottom = " (to the bottom)" if p.get("bottom") else ""
    return t.say("{what} {verb} from {src} to {dst}{bottom}{why}.", what=what[:1].upper() + what[1:],
                 verb="moves" if len(p.get("cards") or []) == 1 else "move", src=place(src, t), dst=place(dst, t),
                 bottom=bottom, why=why)


@tells("HandRevealed")
def _hand_revealed(p, t):
    to = _listed([t.name(c) for c in p.get("to") or []]) or t.say("nobody")
    return t.say("{who} shows their hand to {to}: {what}.", who=_who(p, t), to=to,
                 what=cards_told(p.get("cards") or [], t))


@tells("CardPlayed")
def _card_played(p, t):
    effect = f" ({p['effect']})" if p.get("effect") in ("wild", "super") else ""
    side = (p.get("args") or {}).get("side") if isinstance(p.get("args"), dict) else None
    to = t.say(f" for the {side}") if side in SIDES else ""
    return t.say("{who} plays {card}{effect}{to}.", who=_who(p, t), card=card_name(p.get("card"), t), effect=effect,
                 to=to)


@tells("ChallengeCardChosen")
def _card_chosen(p, t):
    face = "face up" if p.get("face_up") else "face down"
    if p.get("card") is None:
        return t.say(f"{{who}} chooses a challenge card {face} for the {p['side']}.", who=_who(p, t))
    return t.say(f"{{who}} chooses {{card}} {face} for the {p['side']}.", who=_who(p, t),
                 card=card_name(p["card"], t))


@tells("ChallengeCardsRevealed")
def _revealed(p, t):
    return t.say("The challenge cards are revealed: the offense's {offense} against the defense's {defense}.",
                 offense=cards_told(p.get("offense") or [], t), defense=cards_told(p.get("defense") or [], t))


@tells("RevealUndone")
def _reveal_undone(p, t):
    return t.say("The revealed challenge cards are taken back: new ones will be chosen.")


@tells("DestinyDrawn")
def _destiny(p, t):
    return t.say("Destiny: {card}.", card=destiny_told(p.get("card"), t))


MOVE_VERBS = {"launch": "launches", "alliance": "joins with", "won the challenge": "lands",
              "lost the challenge": "loses", "regroup": "regroups", "ally returns": "takes home",
              "reward": "brings back"}


@tells("TokensMoved")
def _tokens_moved(p, t):
    reason = p.get("reason") or ""
    per_player: dict[str, list] = {}
    for colour, src, dst, n in p.get("moves") or []:
        per_player.setdefault(colour, []).append((src, dst, n))
    parts = [_moves_told(colour, moves, reason, t) for colour, moves in per_player.items()]
    if not parts:
        return t.say("No token moves.")
    why = "" if reason in MOVE_VERBS else f" ({t.words(reason)})"
    return "; ".join(parts) + why + "."


def _moves_told(colour: str, moves: list, reason: str, t: Table) -> str:
    """One player's tokens moved by one event: from one place, to one place, or each move in turn."""
    verb = MOVE_VERBS.get(reason, "moves")
    total = sum(n for _, _, n in moves)
    sources = list(dict.fromkeys(src for src, _, _ in moves))
    targets = list(dict.fromkeys(dst for _, dst, _ in moves))
    if len(sources) == 1 and len(targets) == 1:
        where = f"from {place(sources[0], t)} to {place(targets[0], t)}"
    elif len(targets) == 1:
        where = "(" + _listed([f"{n} from {place(src, t)}" for src, _, n in moves]) + f") to {place(targets[0], t)}"
    elif len(sources) == 1:
        where = f"from {place(sources[0], t)} (" + _listed([f"{n} to {place(dst, t)}" for _, dst, n in moves]) + ")"
    else:
        where = "(" + _listed([f"{n} from {place(src, t)} to {place(dst, t)}" for src, dst, n in moves]) + ")"
    return t.say("{who} {verb} {count} {where}", who=t.name(colour), verb=verb,
                 count=t.say(_count(total, "token", "tokens")), where=where)


@tells("DefenseDetermined")
def _defense(p, t):
    reverse = t.say(", and the cone is reversed") if p.get("reverse") else ""
    return t.say("{who} is the defense{reverse}.", who=t.name(p.get("defense")), reverse=reverse)


@tells("ConeAimed")
def _cone_aimed(p, t):
    return t.say("The cone is aimed at {planet}.", planet=place(p.get("planet"), t))


@tells("AlliesInvited")
def _invited(p, t):
    players = p.get("players") or []
    if not players:
        return t.say(f"The {p['side']} invites no allies.")
    allies = "an ally" if len(players) == 1 else "allies"
    return t.say(f"The {p['side']} invites {{who}} as {allies}.", who=_listed([t.name(c) for c in players]))


@tells("AllianceAnswered")
def _alliance(p, t):
    if p.get("side"):
        return t.say(f"{{who}} joins the {p['side']} as an ally.", who=_who(p, t))
    return t.say("{who} declines to ally.", who=_who(p, t))


@tells("AllyRemoved")
def _ally_removed(p, t):
    by = t.say(" by {by}", by=t.name(p["by"])) if p.get("by") else ""
    return t.say("{who} is removed from the alliance{by}.", who=_who(p, t), by=by)


@tells("ChallengeResolved")
def _resolved(p, t):
    o = p.get("outcome") or {}
    kind, winner, totals = o.get("kind"), o.get("winner"), o.get("totals") or {}
    if kind == "deal":
        text = t.say("Compromise against Compromise: the main players have to make a deal.")
    elif o.get("both_lose"):
        text = t.say("Both sides lose the challenge.")
    elif kind == "reestablished":
        text = t.say("A home base is re-established: the challenge succeeds.")
    elif kind == "base_given":
        text = t.say("The defense gives up a base: the challenge succeeds.")
    elif totals and winner:
        text = t.say(f"The offense totals {{o}}, the defense {{d}}: the {winner} wins.", o=totals.get("offense"),
                     d=totals.get("defense"))
    elif winner:
        text = t.say(f"The {winner} wins the challenge.")
    else:
        text = t.say("The challenge is decided.")
    owed = o.get("consolation")
    if owed and owed.get("count"):
        text += " " + t.say("{who} is owed {n} as consolation from {giver}.", who=t.name(owed.get("player")),
                            n=t.say(_count(owed["count"], "card", "cards")), giver=t.name(owed.get("from")))
    return text


def _noted_value(value) -> str:
    """A note's value when it is a number (anything else is left to the board to show)."""
    return f" ({value})" if isinstance(value, int) and not isinstance(value, bool) else ""


@tells("ChallengeNoted")
def _challenge_noted(p, t):
    return t.say("This challenge notes {key}{value}.", key=t.words(_spaced(str(p.get("key")))),
                 value=_noted_value(p.get("value")))


@tells("PlayerNoted")
def _player_noted(p, t):
    return t.say("A note about {who}: {key}{value}.", who=_who(p, t), key=t.words(_spaced(str(p.get("key")))),
                 value=_noted_value(p.get("value")))


@tells("EffectAdded")
def _effect_added(p, t):
    effect = p.get("effect") or {}
    source = str(effect.get("source") or "")
    if source == "reinforcement":
        return t.say(f"{{who}} adds +{{n}} to the {effect.get('side')}'s total.", who=t.name(effect.get("player")),
                     n=effect.get("value"))
    kind, _, name = source.partition(":")
    power, _, mode = name.partition(":")
    if kind == "edict":
        what = t.say("{name} (an edict)", name=_spaced(name))
    elif kind == "flare":
        what = t.say("the {power} flare ({mode})", power=power, mode=mode or "wild")
    else:
        what = _spaced(name or source)
    by = t.say(" (played by {who})", who=t.name(effect["player"])) if effect.get("player") else ""
    return t.say("{what} is in force for this challenge{by}.", what=what[:1].upper() + what[1:], by=by)


@tells("PowerUsed")
def _power_used(p, t):
    return t.say("{who} uses the power {power}.", who=_who(p, t), power=p.get("power"))


@tells("UseCancelled")
def _use_cancelled(p, t):
    target = p.get("target") or {}
    what = _ability(str(target.get("ability") or ""), t) if target.get("ability") else t.say("a power")
    return t.say("{who} cancels {what}, used by {owner}.", who=_who(p, t), owner=t.name(target.get("player")),
                 what=what)


@tells("PowerZapped")
def _power_zapped(p, t):
    return t.say("{who} zaps {whose} power {power} for the rest of the challenge.", who=_who(p, t),
                 whose=t.name(p.get("target")) + "'s", power=p.get("power"))


@tells("DealStarted")
def _deal_started(p, t):
    return t.say("Both main players revealed Compromises: the deal window opens.")


@tells("DealProposed")
def _deal_proposed(p, t):
    return t.say("{who} proposes deal {id}: {terms}.", who=_who(p, t), id=p.get("id"),
                 terms=terms_told(p.get("terms"), t))


@tells("DealAnswered")
def _deal_answered(p, t):
    if p.get("accepted") is not None:
        return t.say("{who} accepts deal {id}.", who=_who(p, t), id=p["accepted"])
    return t.say("{who} gives up on making a deal.", who=_who(p, t))


@tells("DealConcluded")
def _deal_concluded(p, t):
    if p.get("made"):
        return t.say("The deal is made: {terms}.", terms=terms_told(p.get("terms"), t))
    why = f" ({t.words(p['reason'])})" if p.get("reason") else ""
    return t.say("The deal fails{why}.", why=why)


@tells("PowersChanged")
def _powers_changed(p, t):
    parts = []
    if p.get("gained"):
        parts.append(t.say("gains {powers}", powers=_listed(p["gained"])))
    if p.get("lost"):
        parts.append(t.say("loses {powers}", powers=_listed(p["lost"])))
    return t.say("{who} {change} ({why}).", who=_who(p, t), change=" and ".join(parts) or t.say("changes powers"),
                 why=p.get("reason") or "")

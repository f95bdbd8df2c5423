"""Table talk: what the players say to everyone or to one player, kept in the game's record.

Cosmic Encounter is a game of negotiation, so what is said at the table is part of the game's
history: each message is a ``MessageSent`` event appended to the game's own stream (ordered with
the moves it argues about, exported, audited, mirrored and delivered like every event). It is not
a move: the engine does not decide it and a fold only counts it as a version
(`engine.evolve.ASIDES`), so the game's state, its random draws and every golden stream are the
same with or without its talk.

Who reads a message: a public one (``to`` null) everyone who reads the game's log; a private one
(``to``: one seated colour) only its two players (``seen_by``) and the admin. To every other
reader the event is not there at all (`events.redaction.shown_to`): not its text, not its length,
not who spoke to whom. What they can tell is only that the game's version moved without a move.

The rules of the talk (`MessageRefused`, 422 ``message-refused`` with ``rule``):

- ``talk.seat``: only a seated player speaks (over HTTP, the admin's and the host's tokens, which have no
  seat, are a 403 before this);
- ``talk.text``: a message has 1 to `MAX_CHARACTERS` characters once its surrounding spaces are
  trimmed (a CR LF pair counts as one line break), and no control characters but line breaks and tabs;
- ``talk.to``: a private message goes to another seated player.

How often a seat may speak is a rate limit per token and per address (app/limits.py, ``message``).
The append is optimistic like a command's: a concurrent move makes it try again on the newer
version; an ``Idempotency-Key`` makes a retried request answer as the first time without a second
message.
"""

from __future__ import annotations

import unicodedata

import engine
from engine.evolve import ASIDES
from engine.state import clone
from events import catalog
from events.exceptions import ConcurrencyConflict, IdempotencyMismatch
from projections.errors import IdempotencyKeyReused, VersionConflict
from workers.clock import now_ms
from workers.errors import WorkerError

MESSAGE = "MessageSent"
MAX_CHARACTERS = 500
RETRIES = 5
ALLOWED_CONTROLS = frozenset("\n\t")


class MessageRefused(WorkerError):
    """A message the table talk's rules refuse; ``rule`` names which (see the module docstring)."""

    slug = "message-refused"

    def __init__(self, detail: str, rule: str):
        super().__init__(detail)
        self.rule = rule


def checked_text(text) -> str:
    """The message as it is kept (surrounding spaces trimmed), or `MessageRefused` (``talk.text``)."""
    if not isinstance(text, str):
        raise MessageRefused("a message's text is a string", "talk.text")
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()  # line breaks as one character each
    if not text:
        raise MessageRefused("a message says something: its text is empty", "talk.text")
    if len(text) > MAX_CHARACTERS:
        raise MessageRefused(f"a message holds at most {MAX_CHARACTERS} characters, this one {len(text)}",
                             "talk.text")
    for ch in text:
        if ch in ALLOWED_CONTROLS:
            continue
        category = unicodedata.category(ch)
        if category == "Cs":
            raise MessageRefused("the text is not valid Unicode (a lone surrogate)", "talk.text")
        if category == "Cc":
            raise MessageRefused(f"the text holds a control character (U+{ord(ch):04X}); only line breaks and "
                                 "tabs are kept", "talk.text")
    return text


def check_speakers(state: dict, player, to) -> None:
    """`MessageRefused` unless ``player`` is seated and ``to`` is null or another seated player."""
    seats = state.get("players") or {}
    if player not in seats:
        raise MessageRefused("only a seated player speaks at the table", "talk.seat")
    if to is None:
        return
    if to == player:
        raise MessageRefused("a private message goes to another player, not to its sender", "talk.to")
    if to not in seats:
        raise MessageRefused(f"{to} is not a seat of this game: a private message goes to a seated player "
                             f"({', '.join(state.get('order') or sorted(seats))})", "talk.to")


def message(player: str, text: str, to: str | None, at: int) -> dict:
    """The ``MessageSent`` event as it is appended (public when ``to`` is None)."""
    return {"type": MESSAGE, "actor": player, "time": at,
            "payload": {"player": player, "to": to, "text": text, "seen_by": None if to is None else [player, to]}}


def say(runtime, game_id: str, player: str, text, to: str | None = None, *, at: int | None = None,
        idempotency_key: str | None = None, fingerprint: str | None = None, respond=None) -> dict:
    """Append ``player``'s message (to everyone, or to ``to`` alone); returns ``respond(event)`` or the event.

    ``respond(sealed_event)`` makes the answer kept with the idempotency key, so a retry gets the same.
    Raises `MessageRefused`, `projections.errors.GameNotFound`, `IdempotencyKeyReused`, or
    `VersionConflict` when the game kept changing through every retry.
    """
    text = checked_text(text)
    repository, store = runtime.repository, runtime.store
    if idempotency_key is not None:
        record = store.idempotency_record(game_id, idempotency_key)
        if record is not None:
            if fingerprint is not None and record.get("fingerprint") not in (None, fingerprint):
                raise IdempotencyKeyReused(idempotency_key)
            return record.get("response")
    at = now_ms() if at is None else at
    current = None
    for _ in range(RETRIES + 1):
        before = repository.require(game_id)
        check_speakers(before, player, to)
        event = message(player, text, to, at)
        answer = respond(_as_sealed(event, game_id, before["v"] + 1)) if respond is not None else None
        try:
            result = store.append(game_id, [event], before["v"], idempotency_key=idempotency_key,
                                  response=answer, fingerprint=fingerprint)
        except ConcurrencyConflict as conflict:
            current = conflict.current_version
            continue
        except IdempotencyMismatch:
            raise IdempotencyKeyReused(idempotency_key) from None
        if result.replayed:
            return result.response
        after = engine.fold(result.events, clone(before), state_at=lambda v: repository.state_at(game_id, v))
        repository.record(game_id, after, result.events[-1]["hash"], before["v"])
        runtime.commands.notify(game_id, before, after, result.events)
        return answer if respond is not None else result.events[-1]
    raise VersionConflict(current if current is not None else -1, None)


def _as_sealed(event: dict, game_id: str, seq: int) -> dict:
    """The event as it will be stored, without its hashes (what an answer shows of it)."""
    return {**event, "game_id": game_id, "seq": seq, "schema_version": catalog.schema_version(MESSAGE)}


def is_talk(events: list[dict]) -> bool:
    """Whether an append holds table talk only (no move: nothing a bot or a timer waits for changed)."""
    return bool(events) and all(event.get("type") in ASIDES for event in events)

"""One live feed for all of a player's games (``GET /me/stream``): the messages and the resume cursor.

The feed follows every game linked to the player (`app.players`) on one subscription of the
process's feed hub (`app.hub`: ``hub.subscribe({game: after, ...})``), so a player following ten
games costs one connection and one greenlet, and each game is still read once per process for all
its feeds. Games linked while the feed is open are followed from their first event.

Messages:

- every event of the player's games, as the player's seat sees it (the redaction of
  ``GET /games/{id}/stream`` for that seat), its ``data`` with the ``game_id`` added;
- ``your-move``: a decision fell to the player (``data``: ``game_id``, ``version``, ``prompts`` as
  ``GET /games/{id}/prompts`` gives them to the player); sent whenever the prompts the player owes
  change and are not none (a new decision, even one of the same kind as the one just answered, or
  the same decision with other options, such as a deal's terms), and on connecting for each game
  that owes one then; each replaces the game's previous ``your-move``;
- ``no-longer-yours``: the player owes nothing in that game any more (answered, timed out, or its seat handed to a bot,
  which answers for it until the player takes the seat back).

A feed resumed with a cursor tells each game's standing once caught up (``your-move`` or
``no-longer-yours``), since the client may hold a ``your-move`` answered while it was away.

The decisions are read when the feed has delivered everything up to the game's head, so a
``your-move`` never runs ahead of the events that led to it.

Resuming: each message's ``id`` is the cursor of everything delivered so far: the last number
delivered of each of the player's games, in the order they were linked (`Players.order`: a game's
place never changes), joined by ``,`` (``15,22,0``: 0 for a game not followed); one or two
characters a game rather than its id, since every message carries it. ``Last-Event-ID`` (or
``?after=``) with it resumes each game after its number, so every event comes exactly once across
a cut. A game past the cursor's end (linked since) starts at its first event. Without a cursor the
feed starts at each game's head: live from now, with a ``your-move`` for each decision owed now.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

from app.problems import Problem
from projections import views
from projections.log import entry, visible
from projections.sentences import Table

CURSOR = re.compile(r"^[0-9]{1,16}(?:,[0-9]{1,16}){0,999}$")
# the longest cursor each place takes (openapi.yaml says the same): a query string's commas are sent
# as %2C, and the URL must stay under the app's 4096 characters; a header may hold more
MAX_CURSOR = {"after": 1200, "Last-Event-ID": 8000}


def parse_cursor(raw: str | None, name: str) -> list[int] | None:
    """The numbers of a cursor (``15,22,0``), one per game in link order; None when absent; 400 when malformed."""
    if raw is None:
        return None
    if len(raw) > MAX_CURSOR[name]:
        raise Problem(400, "invalid-request", f"{name} is longer than {MAX_CURSOR[name]} characters",
                      errors={name: [f"Longer than {MAX_CURSOR[name]} characters."]})
    if not CURSOR.match(raw):
        raise Problem(400, "invalid-request", f"{name} must be a cursor of this feed (the id of its last message, "
                      "like 15,22,0)", errors={name: ["Not a cursor of this feed."]})
    return [int(part) for part in raw.split(",")]


class MyFeed:
    """The state of one player's feed: its games' seats, positions, tables and last decisions told."""

    def __init__(self, rt, players, player_id: str, cursor: list[int] | None):
        self.rt, self.players, self.player_id = rt, players, player_id
        self.order: list[str] = []            # the player's games in link order (the cursor's places)
        self.seats: dict[str, str] = {}       # game -> the player's colour there
        self.positions: dict[str, int] = {}   # game -> last seq delivered
        self.tables: dict[str, Table] = {}
        self.told: dict[str, str | None] = {}  # game -> what was last told as owed (`_told`; None: not told yet)
        self.cursor = cursor
        self.resumed = cursor is not None

    def linked(self) -> dict[str, int]:
        """Games linked (with a seat) and not yet followed: ``{game: after}``."""
        new = {}
        self.order = self.players.order(self.player_id)
        colors = {game_id: color for game_id, _, color in self.players.games(self.player_id)}
        for place, game_id in enumerate(self.order):
            color = colors.get(game_id)
            if not color or game_id in self.seats:
                continue
            head = self.rt.store.version(game_id)
            if head == 0:
                continue
            if self.cursor is None:
                after = head  # a fresh feed is live from now
            else:
                after = min(self.cursor[place] if place < len(self.cursor) else 0, head)
            self.seats[game_id] = color
            self.positions[game_id] = after
            self.tables[game_id] = Table.of(self.rt.repository.require(game_id))
            self.told[game_id] = None if self.resumed else _told([])
            new[game_id] = after
        return new

    def cursor_text(self) -> str:
        """The cursor of what was delivered: each game's last number, in link order."""
        return ",".join(str(self.positions.get(game_id, 0)) for game_id in self.order)

    def event_messages(self, batch, start: int) -> str:
        """The messages of a hub delivery for this player (nothing of what its seat may not see)."""
        game_id = batch.game_id
        color, table = self.seats[game_id], self.tables[game_id]
        datas = batch.rendered(("me", color), lambda events: [_data(game_id, e, color, table) for e in events])
        out = []
        for event, data in zip(batch.events[start:], datas[start:], strict=True):
            self.positions[game_id] = event["seq"]
            if data:
                out.append(f"id: {self.cursor_text()}\nevent: {event['type']}\ndata: {data}\n\n")
        return "".join(out)

    def decision_messages(self, game_id: str) -> str:
        """``your-move`` / ``no-longer-yours`` when the player's owed decisions changed (read at the head only)."""
        state = self.rt.repository.current(game_id)
        if state["v"] != self.positions[game_id]:
            return ""  # events still to come: tell the decisions once they are delivered
        color = self.seats[game_id]
        handed_over = ((state.get("players") or {}).get(color) or {}).get("bot")  # the bot answers, not the player
        prompts = [] if handed_over else views.own_prompts(state, color)
        told = _told(prompts)
        if told == self.told.get(game_id):
            return ""
        self.told[game_id] = told
        ident = self.cursor_text()
        if prompts:
            data = json.dumps({"game_id": game_id, "version": state["v"], "player": self.seats[game_id],
                               "prompts": prompts}, separators=(",", ":"), sort_keys=True)
            return f"id: {ident}\nevent: your-move\ndata: {data}\n\n"
        data = json.dumps({"game_id": game_id, "version": state["v"], "player": self.seats[game_id]},
                          separators=(",", ":"), sort_keys=True)
        return f"id: {ident}\nevent: no-longer-yours\ndata: {data}\n\n"


def _told(prompts: list[dict]) -> str:
    """What a ``your-move`` told, to compare with the decisions owed now: the prompts themselves (their ids and
    options), not only their kinds, since a seat often owes a new decision of the same kind right after
    answering one (the next window to play a card), which the client must be told about too."""
    return hashlib.sha256(json.dumps(prompts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _data(game_id: str, event: dict, color: str, table: Table) -> str:
    if not visible(event, color):
        return ""
    return json.dumps({**entry(event, color, table), "game_id": game_id}, separators=(",", ":"), sort_keys=True)


def messages(feed_hub, rt, feed: MyFeed, limit: float, relink_every: float = 5.0):
    """The SSE body: catch up, then follow every game of the player through the hub until ``limit`` seconds."""
    keepalive = rt.settings.sse_keepalive
    deadline = time.monotonic() + limit
    yield "retry: 2000\n\n"
    first = feed.linked()
    feed.cursor = []  # games linked from now on are new to the client: from their first event
    with feed_hub.subscribe(first) as subscription:
        told = "".join(feed.decision_messages(game_id) for game_id in first)
        if told:
            yield told
        relinked = time.monotonic()
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if time.monotonic() - relinked >= relink_every:
                relinked = time.monotonic()
                for game_id, after in feed.linked().items():
                    subscription.follow(game_id, after)
            deliveries = subscription.next(min(keepalive, remaining))
            if not deliveries:
                yield ": keep-alive\n\n"
                continue
            out, moved = [], []
            for batch, start in deliveries:
                if batch.game_id not in feed.seats:
                    continue
                out.append(feed.event_messages(batch, start))
                moved.append(batch.game_id)
            for game_id in dict.fromkeys(moved):
                out.append(feed.decision_messages(game_id))
            text = "".join(out)
            if text:
                yield text

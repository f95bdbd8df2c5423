"""The live feeds' hub: one process reads each followed game once and fans the events out.

A process serving thousands of live feeds must not give each one a blocking Redis read.
`FeedHub` follows the games its subscribers ask for and reads each game's new events once,
however many feeds follow it; every `Subscription` gets the same event objects (never a copy
per feed) in a bounded buffer of its own.

How the hub learns of new events:

- **Notifications.** Every append publishes ``<game_id> <version>`` on the store's
  ``{prefix}:appended`` channel (`events.store.EventStore.appended_channel`); one pub/sub
  connection per process listens, and the hub reads a followed game whose announced version
  is past what it has read.
- **A poll.** Every ``poll_seconds`` the hub reads the head versions of all the games it
  follows in one pipeline, so a lost notification (a dropped pub/sub connection, an append
  by an older process) delays a feed by at most that long. It renews the feeds' cap leases
  (`app.feedcaps`) on the same beat.

So the Redis connections of a process are bounded: one pub/sub connection and the ordinary
pool the reads borrow from, whatever the number of feeds or games.

Exactness: a subscription keeps, per game, the last sequence number it delivered, and drops
anything at or below it; a gap (events missing between two deliveries) is read from the store
before going on. A subscription starts *behind* and reads its catch-up from the store itself,
so subscribing first and reading second never loses an event appended in between.

A slow reader: the hub never waits for a subscriber. When a subscription's buffer is full
(``buffer`` batches, 64 by default) the hub empties it and marks it behind; the feed then
reads what it missed from the store at its own pace, in pages, and joins the live batches
again when it has caught up. A feed that cannot keep up therefore costs the store a read per
page and never memory or anyone else's time; it still gets every event exactly once, in
order.

Threads: the hub runs two background threads (the pub/sub listener and the reader) and
uses `threading` primitives; under gevent's monkey patching (gunicorn's gevent worker,
`cosmic serve`) they are greenlets, and a waiting feed costs a greenlet, not a thread.

Use (a feed of one game, or of several, as a player's feed of all its games would)::

    with hub.subscribe({"g1": 0, "g2": 17}) as feed:   # game id -> last seq already seen
        for batch, start in feed.next(timeout=15):     # [] after 15 s without events
            for event in batch.events[start:]: ...     # of game batch.game_id, in order
        feed.follow("g3", 0)                           # more games later
        feed.unfollow("g1")
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque

log = logging.getLogger(__name__)

PAGE = 100  # events read from the store at a time (catch-up, gaps, the hub's own reads)


class Batch:
    """Events of one game read once by the hub and shared by every subscription (read-only).

    `rendered` memoizes one form per viewer (the redacted SSE messages), so a thousand feeds
    of one game pay for redaction once per viewer, not once per feed.
    """

    __slots__ = ("game_id", "events", "_rendered")

    def __init__(self, game_id: str, events: list[dict]):
        self.game_id, self.events, self._rendered = game_id, events, {}

    def rendered(self, viewer, render):
        """``render(events)`` for ``viewer``, computed once per batch and viewer."""
        try:
            return self._rendered[viewer]
        except KeyError:
            value = self._rendered[viewer] = render(self.events)
            return value


class Subscription:
    """What one feed reads: the events of its games after the positions it was given, exactly once.

    `next` returns a list of ``(batch, start)``: the events ``batch.events[start:]`` of the game
    ``batch.game_id``, in order per game (games interleave in the order the hub read them), or []
    when nothing came within the timeout. A live batch is shared with every other subscription
    (use `Batch.rendered` for per-viewer work); a catch-up page read from the store is this
    subscription's own. Close it (or use it as a context manager) to stop following.
    """

    def __init__(self, hub: FeedHub, buffer: int):
        self.hub = hub
        self.positions: dict[str, int] = {}  # game id -> last seq delivered
        self._queue: deque[Batch] = deque()
        self._buffer = buffer
        self._ready = threading.Event()
        self._behind: set[str] = set()  # games to read from the store before taking live batches again
        self._overflowed = False
        self.closed = False
        self.lagged = 0  # how many times the hub found the buffer full

    def follow(self, game_id: str, after: int) -> None:
        """Follow one more game, from the events after seq ``after``."""
        self.positions[game_id] = after
        self._behind.add(game_id)
        self.hub._follow(self, game_id)
        self._ready.set()

    def unfollow(self, game_id: str) -> None:
        """Stop following a game."""
        self.positions.pop(game_id, None)
        self._behind.discard(game_id)
        self.hub._unfollow(self, game_id)

    def next(self, timeout: float) -> list[tuple[Batch, int]]:
        """The next events, waiting up to ``timeout`` seconds; [] if none came."""
        deadline = time.monotonic() + timeout
        while not self.closed:
            if self._overflowed:
                self._overflowed = False
                self._behind.update(self.positions)
            if self._behind:
                out = self._catch_up()
                if out:
                    return out
                continue
            if self._queue:
                batch = self._queue.popleft()
                start = self._start_of(batch)
                if start is not None:
                    return [(batch, start)]
                continue
            self._ready.clear()
            if self._queue or self._behind or self._overflowed:
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not self._ready.wait(left):
                return []
        return []

    def close(self) -> None:
        """Stop following every game (idempotent)."""
        if not self.closed:
            self.closed = True
            self.hub._drop(self)
            self._queue.clear()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start_of(self, batch: Batch) -> int | None:
        """The index of the batch's first event not yet delivered (and the position moved past it); None if none.

        A batch starting past the next expected seq is a gap, and an empty batch is the hub's
        request to look again: either way the game is read from the store instead.
        """
        after = self.positions.get(batch.game_id)
        if after is None:
            return None
        events = batch.events
        if not events or events[0]["seq"] > after + 1:
            self._behind.add(batch.game_id)
            return None
        if events[-1]["seq"] <= after:
            return None
        self.positions[batch.game_id] = events[-1]["seq"]
        return after + 1 - events[0]["seq"]

    def _catch_up(self) -> list[tuple[Batch, int]]:
        """A page from the store for each game behind; a game stops being behind when its page is short."""
        out = []
        for game_id in list(self._behind):
            after = self.positions.get(game_id)
            page = [] if after is None else self.hub.store.read(game_id, after=after, count=PAGE)
            if len(page) < PAGE:
                self._behind.discard(game_id)
            if page:
                self.positions[game_id] = page[-1]["seq"]
                out.append((Batch(game_id, page), 0))
        return out

    def _offer(self, batch: Batch) -> None:
        """The hub's side: queue a batch without ever waiting; a full buffer sends the feed to the store."""
        if len(self._queue) >= self._buffer:
            self._queue.clear()
            self._overflowed = True
            self.lagged += 1
        else:
            self._queue.append(batch)
        self._ready.set()


class _Followed:
    __slots__ = ("cursor", "subscribers", "dirty")

    def __init__(self, cursor: int):
        self.cursor = cursor  # the last seq the hub has read (and offered)
        self.subscribers: set[Subscription] = set()
        self.dirty = False


class FeedHub:
    """One per process and store: follows games for its subscriptions, reading each game once.

    ``store`` is an `events.store.EventStore`; ``connect`` makes a new Redis client on the same
    backend for the pub/sub listener (``None``: the store's own client). Threads start with the
    first subscription. ``on_tick`` (if given) is called on the poll's beat with no arguments
    (the feed caps renew their leases there).
    """

    def __init__(self, store, connect=None, *, buffer: int = 64, poll_seconds: float = 1.0, on_tick=None):
        self.store = store
        self._connect = connect
        self.buffer = buffer
        self.poll_seconds = poll_seconds
        self.on_tick = on_tick
        self._games: dict[str, _Followed] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._started = False
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self.reads = 0  # store reads the hub made (for tests: once per append, not once per feed)

    # --- subscribing ------------------------------------------------------------------------

    def subscribe(self, positions: dict[str, int]) -> Subscription:
        """A subscription to the events of ``positions``' games after each given seq."""
        self._start()
        subscription = Subscription(self, self.buffer)
        for game_id, after in positions.items():
            subscription.follow(game_id, after)
        return subscription

    @property
    def followed(self) -> int:
        """How many games this process follows now."""
        return len(self._games)

    def _follow(self, subscription: Subscription, game_id: str) -> None:
        with self._lock:
            followed = self._games.get(game_id)
            if followed is None:
                followed = self._games[game_id] = _Followed(cursor=-1)  # its head is read on the reader's next pass
                followed.dirty = True
            followed.subscribers.add(subscription)
        self._wake.set()

    def _unfollow(self, subscription: Subscription, game_id: str) -> None:
        with self._lock:
            followed = self._games.get(game_id)
            if followed is not None:
                followed.subscribers.discard(subscription)
                if not followed.subscribers:
                    del self._games[game_id]

    def _subscribers(self, followed: _Followed) -> list[Subscription]:
        with self._lock:
            return list(followed.subscribers)

    def _drop(self, subscription: Subscription) -> None:
        for game_id in list(subscription.positions):
            self._unfollow(subscription, game_id)

    # --- the background threads -------------------------------------------------------------

    def _start(self) -> None:
        if self._started:
            return
        with self._lock:
            if self._started:
                return
            self._started = True
            self._threads = [threading.Thread(target=self._listen, name="cosmic-hub-listen", daemon=True),
                             threading.Thread(target=self._read, name="cosmic-hub-read", daemon=True)]
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the background threads (tests; a process otherwise keeps its hub for good)."""
        self._stopping.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout)

    def notify(self, game_id: str, version: int) -> None:
        """A game reached ``version`` (from a notification or the poll): read it if followed and behind."""
        followed = self._games.get(game_id)
        if followed is not None and version > followed.cursor:
            followed.dirty = True
            self._wake.set()

    def _listen(self) -> None:
        """The pub/sub listener: one connection for the whole process; reconnects after an error."""
        channel = self.store.appended_channel
        while not self._stopping.is_set():
            client = pubsub = None
            try:
                client = self._connect() if self._connect else self.store.redis
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(channel)
                while not self._stopping.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    data = message["data"]
                    game_id, _, version = (data.decode() if isinstance(data, bytes) else data).rpartition(" ")
                    if version.isdigit():
                        self.notify(game_id, int(version))
            except Exception as err:  # the poll covers the gap; try again shortly
                log.warning("feed hub: the notification listener stopped (%s); reconnecting", err)
                self._stopping.wait(1.0)
            finally:
                for thing in (pubsub, client if self._connect else None):
                    try:
                        if thing is not None:
                            thing.close()
                    except Exception:
                        pass

    def _read(self) -> None:
        """The reader: reads the games marked dirty, and polls every followed game's head on a beat."""
        next_poll = time.monotonic() + self.poll_seconds
        while not self._stopping.is_set():
            self._wake.wait(max(0.0, next_poll - time.monotonic()))
            self._wake.clear()
            try:
                if time.monotonic() >= next_poll:
                    next_poll = time.monotonic() + self.poll_seconds
                    self._poll_heads()
                    if self.on_tick is not None:
                        self.on_tick()
                with self._lock:
                    games = list(self._games.items())
                for game_id, followed in games:
                    if followed.dirty:
                        self._read_game(game_id, followed)
            except Exception as err:  # a storage error: the feeds keep their positions; try again on the beat
                log.warning("feed hub: reading failed (%s)", err)
                self._stopping.wait(0.2)

    def _poll_heads(self) -> None:
        with self._lock:
            games = list(self._games.items())
        if not games:
            return
        pipe = self.store.redis.pipeline(transaction=False)
        for game_id, _ in games:
            pipe.hget(self.store.head_key(game_id), "version")
        for (_, followed), version in zip(games, pipe.execute(), strict=True):
            if version is not None and int(version) > followed.cursor:
                followed.dirty = True

    def _read_game(self, game_id: str, followed: _Followed) -> None:
        """Read the game's new events once and offer them to each of its subscribers."""
        followed.dirty = False
        if followed.cursor < 0:
            # just followed: start from its head; each subscription catches up from the store itself,
            # and looks again now (an event may have come between its catch-up read and this one)
            followed.cursor = self.store.version(game_id)
            for subscription in self._subscribers(followed):
                subscription._offer(Batch(game_id, []))
            return
        while True:
            events = self.store.read(game_id, after=followed.cursor, count=PAGE)
            self.reads += 1
            if not events:
                return
            followed.cursor = events[-1]["seq"]
            batch = Batch(game_id, events)
            for subscription in self._subscribers(followed):
                subscription._offer(batch)
            if len(events) < PAGE:
                return

"""Which webhook subscriptions want a game's events, as this process knows them: read again only on a change.

After every append the webhooks listener asks which subscriptions want the game. It used to
read the set of subscriptions to every game and the subscription records each time: keys shared
by every game, so on a Redis Cluster each action of every game touched the one master holding
them. With that master down, every action of every game waited for the client's retries and
topology refreshes before its listener gave up (issue 27: games on healthy masters stalled
for up to 1.5 s on this machine; docs/cluster.md).

`Directory` keeps this process's copy of the subscriptions to every game and of the records it
has needed, and reads them again only when a subscription is created or deleted: the
directory's *version*, a counter that `Announcing` subscriptions bump, lives on RQ's Redis (a
plain Redis, never the cluster, which every append already uses for its timers and jobs). So an
append reads the version there and, the first time after a change, the game's own set of
subscriptions, in the game's own slot; a change anywhere is seen by the next append everywhere. When the shared
keys cannot be read (their master is down) the copy in hand is used, and the listener skips a
subscription whose record it never read, without failing the append (deliveries walk from their
cursor, so a later append's job delivers what was skipped).
"""

from __future__ import annotations

import json
import logging
import threading
import time

from workers.outage import STORAGE_ERRORS
from workers.subscriptions import Subscriptions

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0      # the shortest pause between two failed reads of the shared keys
STARTED_LIMIT = 100_000  # (subscription, game) cursors remembered as started, at most
GAMES_LIMIT = 100_000    # games whose own subscriptions are remembered, at most


def version_key(prefix: str) -> str:
    """The counter bumped by every creation and deletion of a subscription (on RQ's Redis)."""
    return f"{prefix}:webhooks:version"


class Announcing(Subscriptions):
    """Subscriptions whose creation and deletion bump the directory's version, so every process reads again."""

    def __init__(self, runtime):
        super().__init__(runtime.store, log_size=runtime.settings.webhook_log_size)
        self._rq_redis = runtime.rq_redis

    def create(self, *args, **kwargs) -> dict:
        sub = super().create(*args, **kwargs)
        self._rq_redis.incr(version_key(self.prefix))
        return sub

    def delete(self, sub_id: str) -> bool:
        gone = super().delete(sub_id)
        if gone:
            self._rq_redis.incr(version_key(self.prefix))
        return gone


class Directory:
    """This process's copy of the subscriptions (see the module docstring); shared by its threads."""

    def __init__(self, runtime):
        self.runtime = runtime
        self.subs = Subscriptions(runtime.store, log_size=runtime.settings.webhook_log_size)
        self._lock = threading.Lock()
        self._version: bytes | None = None
        self._loaded = False
        self._every_game: list[str] = []
        self._records: dict[str, dict] = {}
        self._per_game: dict[str, frozenset[str]] = {}
        self._started: set[tuple[str, str]] = set()
        self._failed_at = 0.0

    def matching(self, game_id: str) -> list[dict]:
        """The subscriptions that want ``game_id``'s events (those whose record could be read)."""
        self._refresh()
        own = self._per_game.get(game_id)
        if own is None:
            own = frozenset(_text(i) for i in self.runtime.redis.smembers(self.subs.game_set_key(game_id)))
            if len(self._per_game) >= GAMES_LIMIT:
                self._per_game.clear()
            self._per_game[game_id] = own
        ids = set(self._every_game) | own
        if not ids:
            return []
        self._read_records(ids)
        return [self._records[i] for i in sorted(ids) if self._records.get(i) is not None]

    def start_cursor(self, sub_id: str, game_id: str, delivered: int) -> bool:
        """Start the subscription's cursor in the game unless this process did already; False if it could not."""
        if (sub_id, game_id) in self._started:
            return True
        try:
            self.subs.start_cursor(sub_id, game_id, delivered)
        except STORAGE_ERRORS as err:
            log.warning("webhooks: cannot start the cursor of %s in %s (%s); at the next append", sub_id, game_id, err)
            return False
        if len(self._started) >= STARTED_LIMIT:
            self._started.clear()
        self._started.add((sub_id, game_id))
        return True

    def _refresh(self) -> None:
        version = self.runtime.rq_redis.get(version_key(self.subs.prefix))
        if self._loaded and version == self._version:
            return
        with self._lock:
            if self._loaded and version == self._version:
                return
            if time.monotonic() - self._failed_at < RETRY_SECONDS:
                return  # (the shared keys failed a moment ago: the copy in hand until then)
            try:
                every_game = sorted(_text(i) for i in self.runtime.redis.smembers(self.subs.all_key))
            except STORAGE_ERRORS as err:
                self._failed_at = time.monotonic()
                log.warning("webhooks: the subscriptions to every game cannot be read (%s); using this process's "
                            "copy", err)
                return
            self._every_game, self._records, self._per_game, self._started = every_game, {}, {}, set()
            self._version, self._loaded = version, True

    def _read_records(self, ids: set[str]) -> None:
        missing = sorted(i for i in ids if i not in self._records)
        if not missing or time.monotonic() - self._failed_at < RETRY_SECONDS:
            return
        try:
            raws = self.runtime.redis.hmget(self.subs.subs_key, missing)
        except STORAGE_ERRORS as err:
            self._failed_at = time.monotonic()
            log.warning("webhooks: subscription records cannot be read (%s); skipped for now", err)
            return
        for sub_id, raw in zip(missing, raws, strict=True):
            self._records[sub_id] = json.loads(raw) if raw is not None else None  # (None: deleted meanwhile)


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value

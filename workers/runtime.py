"""The composition root: one `Runtime` per process wires Redis, the store, projections and queues.

The web app and the workers build the same runtime from the same settings, so a job sees
exactly what a request sees. A runtime holds two clients: ``redis`` for the game data (on
``REDIS_URL``, which may be a Redis Cluster, see `workers.connections`) and ``rq_redis`` for
RQ's queues, scheduler, job records and the timers' schedule (``RQ_REDIS_URL``, by default the
same client). ``current()`` returns this process's runtime (built from the environment on first
use); ``install()`` replaces it (``cosmic serve`` installs its embedded runtime so the
in-process worker's jobs share the in-process Redis). Both live in `workers.process`, below the
jobs, so the jobs find the runtime without importing this module, which wires their listeners.

With ``REDIS_URL`` unset the runtime runs on fakeredis (`Runtime.fake_server`); with a
data folder attached (`attach_data_folder`) it loads the folder's games at start and
mirrors every append into it.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import fakeredis
import redis
from redis.exceptions import ClusterError, RedisClusterException
from rq import Queue, Retry

from events.store import EventStore
from projections.commands import CommandRunner
from projections.index import GameIndex
from projections.repository import Repository
from projections.standing import Standings
from workers import bots, connections, jobs, process, seal, timers, webhooks
from workers.hosts import Hosts
from workers.queues import QUEUES, job_id, queue_name
from workers.seal import Provenance, Sealer
from workers.settings import Settings

log = logging.getLogger(__name__)
# what a storage that does not answer raises (a cluster master down: a connection refused, or no master
# for a slot for a moment)
STORE_DOWN = (redis.ConnectionError, redis.TimeoutError, ClusterError, RedisClusterException)
INDEX_RETRIES = 20                       # a games list entry not written after an append: tries of its job
INDEX_RETRY_SECONDS = [1, 2, 5, 10, 30]  # between them (the last repeated)


class Runtime:
    """Everything a process of the service uses, built from `Settings`."""

    def __init__(self, settings: Settings, redis_client=None, rq_client=None):
        self.settings = settings
        self.fake_server = None
        if redis_client is None:
            redis_client = self._connect(settings)
        elif isinstance(redis_client, fakeredis.FakeRedis):
            self.fake_server = redis_client.connection_pool.connection_kwargs.get("server")
        self.redis = redis_client
        self.rq_redis = rq_client if rq_client is not None else self._queue_client(settings, redis_client)
        self.store = EventStore(redis_client, prefix=settings.prefix, idempotency_ttl=settings.idempotency_ttl)
        self.repository = Repository(self.store, snapshot_every=settings.snapshot_every,
                                     checkpoint_every=settings.checkpoint_every, cache_games=settings.cache_games)
        self.hosts = Hosts(self.store)  # who hosts each game, and whether its lobby is private
        self.index = GameIndex(self.store, private=self.hosts.is_private)
        self.commands = CommandRunner(self.store, self.repository, retries=settings.action_retries)
        self.commands.add_listener(self._update_index)
        self.standings = Standings(self.store, self.repository)  # each game's standing, for GET /me/games
        self.commands.add_listener(self.standings.listener)
        self.commands.add_listener(self._after_game_end)
        self.commands.add_listener(timers.on_append(self))  # a timer for each deadline an append opens
        self.commands.add_listener(bots.listener(self))  # a job when a bot seat owes a decision
        self.commands.add_listener(webhooks.listener(self))  # deliveries to matching webhook subscriptions
        self.data_folder = None
        self.service_keys = None
        self.provenance = Provenance(self.store)  # how much of an imported game came in unsealed
        self._sealer: Sealer | None = None
        self._queues: dict[str, Queue] = {}

    @property
    def sealer(self) -> Sealer:
        """The seal of exports (workers/seal.py): COSMIC_SEAL_KEY, the data folder's key, or one kept in Redis."""
        if self._sealer is None:
            key = seal.configured(self.settings)
            if key is None and self.data_folder is not None:
                key = seal.folder_key(self.data_folder.path)
            self._sealer = Sealer(key if key is not None else seal.redis_key(self.redis, self.settings.prefix))
        return self._sealer

    def _connect(self, settings: Settings):
        if settings.redis_url:
            return connections.connect(settings.redis_url, decode_responses=False, health_check_interval=30)
        self.fake_server = fakeredis.FakeServer()
        return fakeredis.FakeRedis(server=self.fake_server, decode_responses=False)

    @staticmethod
    def _queue_client(settings: Settings, redis_client):
        """RQ's client: on RQ_REDIS_URL when set, else the game data's own (refused for a cluster)."""
        if settings.rq_redis_url:
            return redis.Redis.from_url(settings.rq_redis_url, decode_responses=False, health_check_interval=30)
        if connections.is_cluster(redis_client):
            raise ValueError("the game data is on a Redis Cluster, which RQ cannot use: "
                             "give RQ_REDIS_URL (or an rq_client) for the job queues")
        return redis_client

    def new_connection(self):
        """Another client on the same Redis or cluster (e.g. for a thread that blocks on reads)."""
        if self.fake_server is not None:
            return fakeredis.FakeRedis(server=self.fake_server, decode_responses=False)
        return connections.same_backend(self.redis)

    # --- the embedded mode's data folder ------------------------------------------------------

    def attach_data_folder(self, path) -> dict:
        """Load the games kept in ``path`` and mirror every later append there; returns the load report."""
        from workers.datafolder import DataFolder
        from workers.servicekeys import ServiceKeys
        self.data_folder = DataFolder(path)
        self._sealer = None  # the folder's key, unless COSMIC_SEAL_KEY is set
        self.service_keys = ServiceKeys(self.redis, self.settings.prefix, path)
        self.service_keys.load()  # tokens, webhook subscriptions and positions, idempotency answers (15.15)
        report = self.data_folder.load_into(self.store)
        self.service_keys.forget_unwritten_answers(self.store, report["loaded"])
        for game_id in report["loaded"]:
            self.index.update(game_id, self.repository.current(game_id))
        self.commands.add_listener(self._keep_append)
        self.service_keys.start()
        return report

    def _keep_append(self, game_id: str, before: dict, after: dict, events: list) -> None:
        """Put an append on disk: its answer (the journal) first, then its events (the game's file).

        In this order a crash between the two leaves an answer without its events, which the next
        start drops (`ServiceKeys.forget_unwritten_answers`), never events whose answer is lost.
        """
        self.service_keys.flush()
        self.data_folder.sync(self.store, game_id)

    def durable(self) -> None:
        """Put every change to the service's own keys on disk (with a data folder; else Redis keeps them).

        Called before an answer leaves (`app.create_app`) and after a webhook position moves.
        """
        if self.service_keys is not None:
            self.service_keys.flush()

    def close(self) -> None:
        """Release the data folder (if any) and the Redis connections."""
        if self.data_folder is not None:
            self.service_keys.stop()
            self.data_folder.close()
        self.redis.close()
        if self.rq_redis is not self.redis:
            self.rq_redis.close()

    # --- listeners ---------------------------------------------------------------------------

    def _update_index(self, game_id: str, before: dict, after: dict, events: list) -> None:
        """The games list follows a game's status and seats; when the list's keys cannot be written (on a
        cluster, their master down while the game's is up) the append stands and a job retries the entry."""
        if not self.index.changed(before, after):
            return
        try:
            self.index.update(game_id, after)
        except STORE_DOWN as err:
            log.warning("games list: entry of %s not written (%s); a job will retry it", game_id, err)
            self.enqueue_in(1, jobs.index_game, game_id, retry=Retry(max=INDEX_RETRIES, interval=INDEX_RETRY_SECONDS))

    def _after_game_end(self, game_id: str, before: dict, after: dict, events: list) -> None:
        if after.get("status") == "finished" and before.get("status") != "finished":
            self.enqueue(jobs.refresh_snapshot, game_id, after["v"], queue="default")

    # --- queues -----------------------------------------------------------------------------

    def queue(self, name: str = "default") -> Queue:
        """One of our RQ queues (see `workers.queues`)."""
        if name not in self._queues:
            self._queues[name] = Queue(queue_name(self.settings.prefix, name), connection=self.rq_redis)
        return self._queues[name]

    def queues(self) -> list[Queue]:
        """Every queue, in the order a worker serves them."""
        return [self.queue(name) for name in QUEUES]

    def enqueue(self, func, *args, queue: str = "default", **kwargs):
        """Enqueue ``func(*args, **kwargs)`` as a job with an id under our prefix."""
        kind = getattr(func, "__name__", "job")
        return self.queue(queue).enqueue(func, *args, job_id=job_id(self.settings.prefix, kind), **kwargs)

    def enqueue_in(self, delay_seconds: float, func, *args, queue: str = "default", **kwargs):
        """Enqueue ``func`` to run after ``delay_seconds`` (the worker's scheduler moves it to the queue)."""
        kind = getattr(func, "__name__", "job")
        return self.queue(queue).enqueue_in(timedelta(seconds=delay_seconds), func, *args,
                                            job_id=job_id(self.settings.prefix, kind), **kwargs)


def current() -> Runtime:
    """This process's runtime (built from the environment the first time)."""
    return process.current()


def install(runtime: Runtime | None) -> None:
    """Make ``runtime`` this process's runtime (None: build from the environment on next use)."""
    process.install(runtime)


process.build_with(lambda: Runtime(Settings.from_env()))

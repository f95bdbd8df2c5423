"""Background jobs (RQ) and the runtime every process of the service is built from.

Conventions for whoever adds jobs (timers, audit, rewind, bots, webhooks):

- Queues (`workers.queues`): ``high`` (time-critical: decision timers), ``default``
  (after-append work: snapshots), ``low`` (replays, audits, rebuilds). Their RQ names are
  ``<COSMIC_PREFIX>.<name>`` so two deployments (or test runs) on one Redis never share
  jobs. A worker listens on all three, in that order.
- A job is a module-level function in `workers.jobs` (or a module next to it) taking small
  JSON-able arguments (a game id, a version). It gets the store, repository, index and
  command runner from ``workers.runtime.current()`` (built once per process from the
  environment, or installed by `cosmic serve` for its in-process worker).
- A job that changes a game appends through ``runtime.commands.run(...)`` (the same
  optimistic append as the API, so a late or repeated job cannot corrupt a game) and
  carries the version it was made for, doing nothing when the game has moved on.
- Enqueue with ``runtime.enqueue(func, *args, queue="default")`` (or ``enqueue_in`` for a
  delay; the scheduler runs with every worker). Job ids start with the prefix.
- Run: ``cosmic worker`` (RQ worker + scheduler, needs ``REDIS_URL``); ``cosmic serve``
  without ``REDIS_URL`` runs an in-process worker thread on the embedded Redis.

Decision clocks (`workers.timers`): after every append a listener schedules one job per
deadline the append opened (``high`` queue, at the first whole second not before the
deadline, one unique job id per game, prompt and deadline). The job re-reads the game and
sends the engine's ``timeout`` (actor ``timer``) with the version it read as the expected
version; a decision no longer owed or with another deadline makes it a no-op, and a
duplicate loses the optimistic append. Scheduled jobs live in Redis; `workers.scheduler`'s
``ServiceWorker`` (what ``cosmic worker`` runs) takes over the scheduler lock a killed worker
left behind (5 to 10 s after the crash) and queues a timer sweep (``workers.timers.sweep``: schedule
every open deadline of the games being played that has no timer) at start and every 10
minutes; the embedded worker sweeps when it starts. ``cosmic timers GAME_ID`` lists a
game's deadlines and timer jobs; ``cosmic timers --sweep`` sweeps by hand.
"""

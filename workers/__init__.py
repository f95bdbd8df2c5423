"""Background jobs (RQ), the decision clocks, and the runtime every process of the service is built from.

Conventions for whoever adds jobs (audit, rewind, bots, webhooks, ...):

- Queues (`workers.queues`): ``high`` (time-critical jobs; timer jobs of earlier versions),
  ``default`` (after-append work: bots, webhooks, snapshots), ``low`` (sweeps, replays, audits,
  rebuilds). Their RQ names are ``<COSMIC_PREFIX>.<name>`` so two deployments (or test runs) on
  one Redis never share jobs. A worker listens on all three, in that order.
- A job is a module-level function in `workers.jobs` (or a module next to it) taking small
  JSON-able arguments (a game id, a version). It gets the store, repository, index and
  command runner from ``workers.process.current()`` (the runtime the worker installed, or
  one built from the environment). Job modules import `workers.process`, never
  `workers.runtime`, which wires their listeners: so ``workers/`` has no import circle.
- A job that changes a game appends through ``runtime.commands.run(...)`` (the same
  optimistic append as the API, so a late or repeated job cannot corrupt a game) and
  carries the version it was made for, doing nothing when the game has moved on.
- Enqueue with ``runtime.enqueue(func, *args, queue="default")`` (or ``enqueue_in`` for a
  delay, moved to its queue by a worker's clock thread about once a second). Job ids start
  with the prefix. A job that may meet a cluster master down is wrapped in
  `workers.outage.again_after_outage` (it queues itself again, waiting longer each time).
- Run: ``cosmic worker`` (needs ``REDIS_URL``): RQ's non-forking worker for the jobs
  (`workers.scheduler.ServiceWorker`: jobs run one after the other in the worker's own
  process, sharing its caches) and a clock thread (`workers.timekeeper`). ``cosmic serve``
  without ``REDIS_URL`` runs the same clock and a job thread in the web process
  (`workers.embedded`). RQ's own forking worker and forked scheduler are not used.

Decision clocks are not RQ jobs (`workers.timers`): after every append a listener puts each
deadline the append opened in a sorted set on RQ's Redis (member: game, prompt and deadline;
score: the deadline in ms). The clock thread of every worker sleeps until the earliest
deadline (a tenth of a second at most between looks), claims what is due (atomically, so two
clocks never fire one timer at once) and fires each on threads of its own, never behind a
job: it re-reads the game and sends the engine's ``timeout`` (actor ``timer``) with the
version it read as the expected version; a decision no longer owed or with another deadline
makes it a no-op, and a duplicate loses the optimistic append. A timer is late by what firing
it takes, not by a whole second. Timers live in Redis, so deadlines that passed while no
worker ran are due the moment a clock starts. A sweep (`workers.sweep`: schedule every open
deadline that has no timer, wake bots that owe a decision) runs when a worker starts and every
10 minutes; ``cosmic timers GAME_ID`` lists a game's deadlines and timers; ``cosmic timers
--sweep`` sweeps by hand. ``cosmic worker --metrics [HOST:]PORT`` (or ``COSMIC_WORKER_METRICS``)
exports the timer lateness, queue depths, webhook lag and bot moves (`workers.metrics`).
"""

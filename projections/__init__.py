"""Projections: a game's event stream folded into state and into what each viewer may see.

- `projections.repository.Repository`: the state of a game now (cached in process and as
  a versioned snapshot in Redis, so only the events since the cache are folded) and at any
  past version (folded from the nearest checkpoint).
- `projections.views`: the board (public), a player's hand and prompts, the pending list.
- `projections.log`: the event log redacted for a viewer.
- `projections.index`: the list of games by status.
- `projections.commands.CommandRunner`: the write path (engine.execute on the cached state,
  optimistic append, cache update, listeners), shared by the web app and the workers.

Snapshots, checkpoints, the cache and the index are caches of the streams: deleting them
changes nothing but speed.
"""

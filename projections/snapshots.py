"""Snapshots and checkpoints of game states in Redis: caches of the fold, never the truth.

Keys (hash-tagged by game, next to the stream; see `events.store`):

``{prefix}:{<game_id>}:snapshot``     hash: ``version`` and ``data`` (the latest snapshot)
``{prefix}:{<game_id>}:checkpoints``  hash: field = version, value = a snapshot at that version

Each snapshot is JSON ``{"format", "version", "hash", "state"}`` where ``hash`` is the hash
of event ``version``: a reader folds on from a snapshot only after checking that the stream
still holds that event (a rewound or rewritten stream makes old snapshots useless, never
wrong). ``format`` is `STATE_FORMAT`; bump it when the engine's state shape changes and
every stored snapshot is ignored (and rewritten) from then on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

STATE_FORMAT = 5  # 2: states carry "ply" (engine/rewind.py); 3: "ply" counts facts only; 4: stream format 2
# ("format", "rest", deadlines only in "clock") and the base counts ("home_bases", "external_bases");
# 5: the editions (ffg: the powers offered and chosen, the flares played in a challenge)


@dataclass(frozen=True)
class Snapshot:
    """A state with the version it is at and the hash of its last event."""

    version: int
    hash: str
    state: dict


def _decode(raw) -> Snapshot | None:
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except (TypeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        return None
    return Snapshot(int(data["version"]), data["hash"], data["state"])


def encode(version: int, last_hash: str, state: dict) -> str:
    """The stored text of a snapshot."""
    return json.dumps({"format": STATE_FORMAT, "version": version, "hash": last_hash, "state": state},
                      separators=(",", ":"))


class SnapshotStore:
    """Reads and writes a game's snapshot and checkpoints (keys from the event store)."""

    def __init__(self, store):
        self.store = store
        self.redis = store.redis
        self._write = self.redis.register_script(_WRITE)

    def snapshot_key(self, game_id: str) -> str:
        """The key of a game's latest snapshot."""
        return self.store.game_key(game_id, "snapshot")

    def checkpoints_key(self, game_id: str) -> str:
        """The key of a game's checkpoints hash."""
        return self.store.game_key(game_id, "checkpoints")

    def latest(self, game_id: str) -> Snapshot | None:
        """The game's latest snapshot, or None (missing or of another format)."""
        return _decode(self.redis.hget(self.snapshot_key(game_id), "data"))

    def checkpoint_before(self, game_id: str, version: int) -> Snapshot | None:
        """The checkpoint with the highest version not above ``version``, or None."""
        versions = [int(v) for v in self.redis.hkeys(self.checkpoints_key(game_id))]
        eligible = [v for v in versions if v <= version]
        if not eligible:
            return None
        return _decode(self.redis.hget(self.checkpoints_key(game_id), str(max(eligible))))

    def checkpoint_versions(self, game_id: str) -> list[int]:
        """The versions at which the game has checkpoints, ascending."""
        return sorted(int(v) for v in self.redis.hkeys(self.checkpoints_key(game_id)))

    def write(self, game_id: str, state: dict, last_hash: str, *, snapshot: bool = True,
              checkpoint: bool = False) -> None:
        """Store ``state`` as the latest snapshot and/or as a checkpoint, in one round trip.

        The snapshot is replaced only by a newer one (a slow writer cannot move it back).
        """
        if not (snapshot or checkpoint):
            return
        text = encode(state["v"], last_hash, state)
        # one script on the game's two keys (one hash slot): a single round trip, on a cluster too,
        # where a script cannot be pipelined
        self._write(keys=[self.snapshot_key(game_id), self.checkpoints_key(game_id)],
                    args=[text, state["v"], int(snapshot), int(checkpoint)])

    def delete(self, game_id: str) -> None:
        """Forget the game's snapshot and checkpoints."""
        self.redis.delete(self.snapshot_key(game_id), self.checkpoints_key(game_id))

    def delete_all(self) -> int:
        """Forget every snapshot and checkpoint under the store's prefix; returns how many keys went."""
        deleted = 0
        for suffix in ("snapshot", "checkpoints"):
            pattern = _glob_escape(f"{self.store.prefix}:{{") + "*" + _glob_escape(f"}}:{suffix}")
            for key in self.redis.scan_iter(match=pattern, count=1000):
                deleted += self.redis.delete(key)
        return deleted


def _glob_escape(text: str) -> str:
    out = []
    for char in text:
        out.append("\\" + char if char in "*?[]\\" else char)
    return "".join(out)


_WRITE = """
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
end
if ARGV[3] == '1' then
  local current = tonumber(redis.call('HGET', KEYS[1], 'version'))
  if current and current > tonumber(ARGV[2]) then
    return 0
  end
  redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[1])
end
return 1
"""

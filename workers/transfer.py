"""Export and import: a game's stream as JSON lines, and back.

The format is the embedded mode's data folder format (workers/datafolder.py): one sealed
event per line, as stored (canonical JSON: sorted keys, no spaces), in sequence order. An
export is the whole stream with every private field and the hashes, so its chain can be
verified anywhere, and it can be dropped into a data folder as ``<game_id>.jsonl``. (A
non-admin's export over HTTP is the redacted log instead, which cannot be imported: see
app/routes/history.py.)

Import checks the whole file first (`workers.audit.audit_lines`: JSON, sequence, hash chain,
schemas, a refold; errors name the line), refuses an id that already has a game, writes the
events, then audits the stored stream (head, snapshots, served state); if that audit fails the
game is deleted again. Under its own id the events are restored exactly as sealed (same
hashes); ``as_id`` re-seals them for the new id (a new chain, as a fork does).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from engine.state import empty
from events.envelope import ChainBreak, event_hash, seal
from workers.audit import audit_game, audit_lines, stream_entries
from workers.errors import ImportRefused
from workers.fork import emitted

IMPORTABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # the ids the HTTP API can address
WRITE_BATCH = 500


def export_lines(store, game_id: str) -> Iterator[str]:
    """The game's events as stored, one JSON text per line (newline included); raises `ChainBreak` on a broken chain.

    The check is done as the lines go out (sequence, links, hashes), so an export is never
    silently a damaged stream; the lines before the break have been yielded.
    """
    expected, link = 1, ""
    for _, raw, _ in stream_entries(store, game_id):
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        event = json.loads(text)
        if event.get("seq") != expected:
            raise ChainBreak(expected, f"expected event {expected}, found {event.get('seq')} (run cosmic audit)")
        if event.get("prev_hash") != link or event.get("hash") != event_hash(event):
            raise ChainBreak(expected, "the hash chain is broken here (run cosmic audit)")
        link = event["hash"]
        yield text + "\n"
        expected += 1


def numbered(lines: Iterable[str]) -> list[tuple[int, str]]:
    """Lines with their 1-based numbers (trailing newlines removed)."""
    return [(number, line.rstrip("\r\n")) for number, line in enumerate(lines, start=1)]


def _parse(lines: list[tuple[int, str]]) -> list[dict]:
    events = []
    for number, text in lines:
        if not text.strip():
            continue
        try:
            event = json.loads(text)
        except ValueError as err:
            raise ImportRefused(f"not JSON: {err}", number) from None
        if not isinstance(event, dict):
            raise ImportRefused("not a JSON object", number)
        events.append(event)
    if not events:
        raise ImportRefused("the file holds no events")
    return events


def import_game(runtime, lines: Iterable[str], *, as_id: str | None = None) -> dict:
    """Verify and write a game given as JSON lines; returns ``{"game_id", "from", "events", "version", "status", "audit"}``."""
    store, repository = runtime.store, runtime.repository
    rows = numbered(lines)
    events = _parse(rows)
    source_id = events[0].get("game_id")
    if not isinstance(source_id, str):
        raise ImportRefused("the first event names no game", rows[0][0])
    checked = audit_lines(source_id, rows)
    if not checked.ok:
        problem = checked.problem
        line = int(problem.id.split()[-1]) if problem.id and problem.id.startswith("line ") else None
        raise ImportRefused(f"{problem.kind}: {problem.detail}", line)
    game_id = as_id or source_id
    if not IMPORTABLE_ID.match(game_id):
        raise ImportRefused(f"the game id {game_id!r} is not one the API can address (1 to 64 letters, digits, "
                            "'-' or '_'); import it --as another id")
    if store.exists(game_id):
        raise ImportRefused(f"there is already a game {game_id!r}; import it --as another id")
    repository.snapshots.delete(game_id)  # caches left by a deleted game of this id belong to no stream
    repository.forget(game_id)
    ours = events[0]["hash"] if game_id == source_id else \
        seal([emitted(events[0])], game_id, 0, "", store.schema_version_of)[0]["hash"]
    try:
        if game_id == source_id:
            store.restore(game_id, events)
            sealed = events
        else:
            sealed = _reseal(store, game_id, events)
        report = audit_game(store, repository, game_id)
    except Exception:
        first = store.read(game_id, until=1)
        if first and first[0]["hash"] == ours:  # take back only what this import wrote
            _remove(runtime, game_id)
        raise
    if not report.ok:
        _remove(runtime, game_id)
        raise ImportRefused(f"the stored game did not audit clean: {report.problem.kind}: {report.problem.detail}")
    state = repository.current(game_id)
    runtime.commands.notify(game_id, empty(), state, sealed)
    return {"game_id": game_id, "from": source_id, "events": len(events), "version": state["v"],
            "status": state["status"], "audit": report.as_dict()}


def _reseal(store, game_id: str, events: list[dict]) -> list[dict]:
    sealed, after, link = [], 0, ""
    for start in range(0, len(events), WRITE_BATCH):
        result = store.append(game_id, [emitted(e) for e in events[start:start + WRITE_BATCH]], after, prev_hash=link)
        sealed += result.events
        after, link = result.version, result.events[-1]["hash"]
    return sealed


def _remove(runtime, game_id: str) -> None:
    """Take a refused import away again (stream, caches, list entry)."""
    runtime.store.delete(game_id)
    runtime.repository.snapshots.delete(game_id)
    runtime.repository.forget(game_id)
    runtime.index.remove(game_id)

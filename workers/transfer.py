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

An export ends with a seal line (`workers.seal`: an HMAC of the chain's head with the service's
key). Import judges it: a ``forged`` history (our key, but the seal does not fit the events) is
refused; one without a seal (older exports) or sealed with another key is imported *unsealed*:
the answer says so and the game keeps the mark (``unsealed_until``), which its later exports'
seals carry. Import reads at most `MAX_LINE` characters a line and `MAX_DEPTH` levels of
nesting: a longer or deeper line is refused without being read whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from engine.state import empty
from events.envelope import ChainBreak, event_hash, seal
from workers.audit import audit_game, audit_lines, stream_entries
from workers.errors import ImportRefused
from workers.fork import emitted
from workers.seal import is_seal_line

IMPORTABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # the ids the HTTP API can address
WRITE_BATCH = 500
MAX_LINE = 1 << 20   # characters in one line of an import (an event is a few kilobytes at most)
MAX_DEPTH = 32       # levels of nested objects and lists in one line (events use fewer than ten)


def export_lines(store, game_id: str, sealer=None, unsealed_until: int | None = None) -> Iterator[str]:
    """The game's events as stored, one JSON text per line (newline included); raises `ChainBreak` on a broken chain.

    The check is done as the lines go out (sequence, links, hashes), so an export is never
    silently a damaged stream; the lines before the break have been yielded. With a ``sealer``
    (`workers.seal.Sealer`) the last line is the seal of the head that was checked.
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
    if sealer is not None and expected > 1:
        yield sealer.line(game_id, expected - 1, link, unsealed_until)


def numbered(lines: Iterable[str]) -> list[tuple[int, str]]:
    """Lines with their 1-based numbers (trailing newlines removed)."""
    return [(number, line.rstrip("\r\n")) for number, line in enumerate(lines, start=1)]


def bounded_lines(source: IO[str] | Iterable[str], limit: int = MAX_LINE) -> list[tuple[int, str]]:
    """Numbered lines of a file, refusing (`ImportRefused`) a line longer than ``limit`` characters.

    From an open file no line is read whole beyond the limit (``readline(limit + 2)``, room for
    a line ending), so a 50 MB line costs a megabyte of memory, not fifty.
    """
    rows = []
    readline = getattr(source, "readline", None)
    lines = iter(lambda: readline(limit + 2), "") if readline else iter(source)
    for number, line in enumerate(lines, start=1):
        text = line.rstrip("\r\n")
        if len(text) > limit:
            raise ImportRefused(f"the line is longer than {limit} characters: not an event of this service", number)
        rows.append((number, text))
    return rows


def depth(value, limit: int = MAX_DEPTH) -> int:
    """How deeply objects and lists nest in a parsed JSON value (counting stops past ``limit``)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            todo.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _parse(lines: list[tuple[int, str]]) -> tuple[list[dict], dict | None, int | None]:
    """The events of the lines, and the seal record and its line number if the last line is one."""
    events, seal, seal_line = [], None, None
    for number, text in lines:
        if not text.strip():
            continue
        if seal is not None:
            raise ImportRefused("a seal is the export's last line; more lines follow it", number)
        try:
            event = json.loads(text)
        except RecursionError:
            raise ImportRefused(f"nested more than {MAX_DEPTH} levels deep: not an event of this service",
                                number) from None
        except ValueError as err:
            raise ImportRefused(f"not JSON: {err}", number) from None
        if depth(event) > MAX_DEPTH:
            raise ImportRefused(f"nested more than {MAX_DEPTH} levels deep: not an event of this service", number)
        if not isinstance(event, dict):
            raise ImportRefused("not a JSON object", number)
        if is_seal_line(event):
            seal, seal_line = event, number
            continue
        events.append(event)
    if not events:
        raise ImportRefused("the file holds no events")
    return events, seal, seal_line


@dataclass
class Export:
    """An export file read and its chain checked: the events, their game and the seal line (None: none)."""

    game_id: str
    events: list[dict]
    seal: dict | None


def read_export(lines: IO[str] | Iterable[str]) -> Export:
    """Read an export (bounded lines) and check its chain as import does; `ImportRefused` naming the line."""
    rows = bounded_lines(lines)
    events, seal_record, seal_line = _parse(rows)
    source_id = events[0].get("game_id")
    if not isinstance(source_id, str):
        raise ImportRefused("the first event names no game", rows[0][0])
    checked = audit_lines(source_id, [row for row in rows if row[0] != seal_line])
    if not checked.ok:
        problem = checked.problem
        line = int(problem.id.split()[-1]) if problem.id and problem.id.startswith("line ") else None
        raise ImportRefused(f"{problem.kind}: {problem.detail}", line)
    return Export(source_id, events, seal_record)


def import_game(runtime, lines: IO[str] | Iterable[str], *, as_id: str | None = None) -> dict:
    """Verify and write a game given as JSON lines (an open file or lines).

    Returns ``{"game_id", "from", "events", "version", "status", "audit", "seal", "seal_detail",
    "unsealed_until"}``: ``seal`` is the verdict on the export's seal (`workers.seal.Sealer.verdict`).
    """
    store, repository = runtime.store, runtime.repository
    checked = read_export(lines)
    events, source_id, seal_record = checked.events, checked.game_id, checked.seal
    verdict, detail = runtime.sealer.verdict(seal_record, source_id, len(events), events[-1]["hash"])
    if verdict == "forged":
        raise ImportRefused(f"forged: {detail}")
    unsealed_until = seal_record.get("unsealed_until") if verdict == "sealed" else len(events)
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
    runtime.provenance.mark(game_id, unsealed_until)
    state = repository.current(game_id)
    runtime.commands.notify(game_id, empty(), state, sealed)
    return {"game_id": game_id, "from": source_id, "events": len(events), "version": state["v"],
            "status": state["status"], "audit": report.as_dict(), "seal": verdict, "seal_detail": detail,
            "unsealed_until": unsealed_until}


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
    runtime.provenance.mark(game_id, None)
    runtime.repository.snapshots.delete(game_id)
    runtime.repository.forget(game_id)
    runtime.index.remove(game_id)
    runtime.redis.delete(runtime.standings.key(game_id))

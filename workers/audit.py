"""Auditing a game: re-read its stream from event 1, check every event, refold, compare.

What is checked, event by event, stopping at the first problem (which the report names by
sequence number, stream entry id or file line, and event type):

``undecodable``   the stored text is not a JSON object
``sequence``      sequence numbers must run 1, 2, 3, ... in stream order, each in the stream
                  entry of the same number (a gap: an event deleted; a number going back or
                  sitting in another entry: events duplicated or reordered)
``foreign-game``  the envelope names another game
``hash-mismatch`` the event's content does not give its hash (changed after it was written)
``broken-link``   ``prev_hash`` is not the hash of the event before (the event before was
                  changed and re-hashed, or one is missing)
``schema``        the event does not load with its type's schema (`events.schemas.load_event`)
``fold-error``    the engine cannot apply it (`engine.rewind.Replay`: rewinds included)

then, for a stream in Redis: ``head-mismatch`` (the head record, which appends check, must
name the last event and its hash); ``rewritten``: every snapshot and checkpoint records the
hash of the event it was made at, and that event must still be in the stream with that hash
(streams are append-only; readers would merely ignore such a cache, but for an audit it is
evidence that the stream was rewritten after the cache was made); and ``state-mismatch``: the
refold must equal every snapshot and checkpoint and the state this process serves
(`Repository.current`, from its cache and again as a fresh reader).

The chain itself is anchored only by the head record and those caches: whoever rewrites an
event, re-hashes every later one and the head, and deletes the snapshots and checkpoints is
not caught. Keep exports (their last hash) elsewhere to anchor a finished game: an export's
seal (workers/seal.py) lets this service tell such a file from a forged one. The report's
``unsealed_until`` says how many first events of a game came in by an unsealed import (an
export without a seal, or sealed with another key): nothing vouches for those.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from marshmallow import ValidationError

from engine.rewind import Replay
from events import schemas
from events.envelope import canonical_json, event_hash
from projections.snapshots import Snapshot
from workers.seal import Provenance

READ_BATCH = 1000
PROGRESS_EVERY = 1000
Progress = Callable[[int, int], None]


@dataclass
class Finding:
    """The first thing wrong with a game: where, what kind, in words."""

    kind: str
    detail: str
    seq: int | None = None
    id: str | None = None
    type: str | None = None


@dataclass
class AuditReport:
    """The outcome of one audit."""

    game_id: str
    ok: bool
    events: int = 0
    version: int = 0
    problem: Finding | None = None
    compared: list[str] = field(default_factory=list)
    seconds: float = 0.0
    unsealed_until: int | None = None  # the first events that came in by an unsealed import (workers/seal.py)

    def as_dict(self) -> dict:
        """The report as JSON-ready values (with events per second)."""
        out = asdict(self)
        out["seconds"] = round(self.seconds, 4)
        out["events_per_second"] = round(self.events / self.seconds) if self.seconds > 0 else None
        return out


class ChainCheck:
    """Checks the records of one game in order and folds them; `problem` holds the first failure."""

    def __init__(self, game_id: str, every: int = 500, anchors: str = ""):
        self.game_id = game_id
        self.anchors = anchors  # each event's hash as first written (events.store), when kept
        self.replay = Replay(every=every)
        self.count = 0
        self.last_hash = ""
        self.problem: Finding | None = None

    def feed(self, where: str, raw, entry_seq: int | None = None) -> bool:
        """Check one record (``where``: its stream entry id or file line); False once a problem was found."""
        if self.problem is not None:
            return False
        expected = self.count + 1
        event = _decode(raw)
        if event is None:
            return self._fail("undecodable", "the stored text is not a JSON object", expected, where)
        seq, kind = event.get("seq"), event.get("type")
        if seq != expected:
            return self._fail("sequence", _sequence_detail(expected, seq), expected, where, kind)
        if entry_seq is not None and entry_seq != seq:
            return self._fail("sequence", f"event {seq} sits in stream entry {where}", expected, where, kind)
        if event.get("game_id") != self.game_id:
            return self._fail("foreign-game", f"the event belongs to game {event.get('game_id')!r}", seq, where, kind)
        if event.get("hash") != event_hash(event):
            return self._fail("hash-mismatch", "the event's content does not match its hash: it was changed "
                              "after it was written", seq, where, kind)
        anchored = self.anchors[(seq - 1) * 64:seq * 64]
        if anchored and event.get("hash") != anchored:
            return self._fail("rewritten", f"event {seq} is not the event first written there: its hash differs "
                              "from the one anchored when it was appended (changed, then the chain re-hashed)",
                              seq, where, kind)
        if event.get("prev_hash") != self.last_hash:
            return self._fail("broken-link", f"prev_hash is not the hash of event {seq - 1}: that event was "
                              "changed and re-hashed, or an event is missing", seq, where, kind)
        try:
            schemas.load_event(event)
        except ValidationError as err:
            return self._fail("schema", f"the event does not fit its schema: {err.messages}", seq, where, kind)
        try:
            self.replay.apply(event)
        except Exception as err:  # any failure to fold is a finding about this event
            return self._fail("fold-error", f"the engine cannot apply it: {type(err).__name__}: {err}",
                              seq, where, kind)
        self.count, self.last_hash = seq, event["hash"]
        return True

    def feed_all(self, records, progress: Progress | None = None, total: int = 0) -> ChainCheck:
        """Feed ``(where, raw, entry_seq)`` records until the first problem, reporting progress; returns self."""
        for where, raw, entry_seq in records:
            if not self.feed(where, raw, entry_seq):
                break
            if progress and self.count % PROGRESS_EVERY == 0:
                progress(self.count, total)
        return self

    def _fail(self, kind: str, detail: str, seq, where: str, event_type=None) -> bool:
        self.problem = Finding(kind, detail, seq, where, event_type)
        return False


def _decode(raw) -> dict | None:
    if isinstance(raw, dict):
        return raw
    try:
        event = json.loads(raw)
    except (TypeError, ValueError, RecursionError):  # (nested too deeply for the parser)
        return None
    return event if isinstance(event, dict) else None


def _sequence_detail(expected: int, seq) -> str:
    if type(seq) is not int:
        return f"expected event {expected}, found an event without a sequence number"
    if seq > expected:
        missing = f"event {expected}" if seq == expected + 1 else f"events {expected} to {seq - 1}"
        return f"expected event {expected}, found event {seq}: {missing} missing or moved"
    return f"expected event {expected}, found event {seq} again: a duplicate or an event moved back"


# --- a game in Redis ----------------------------------------------------------------------------

def stream_entries(store, game_id: str, batch: int = READ_BATCH,
                   until: int | None = None) -> Iterable[tuple[str, bytes, int | None]]:
    """Every entry of a game's stream as (entry id, raw text, sequence number of the entry id).

    ``until``: stop at event ``until`` (entries are ``<seq>-1``): a game being played keeps
    growing while it is read, and an audit reads the one version its head record named.
    """
    key, start = store.stream_key(game_id), "-"
    last = "+" if until is None else f"{until}-1"
    while True:
        entries = store.redis.xrange(key, min=start, max=last, count=batch)
        for entry_id, fields in entries:
            entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
            raw = fields.get(b"e", fields.get("e"))
            head, _, _ = entry_id.partition("-")
            yield entry_id, raw, int(head) if head.isdigit() else None
        if len(entries) < batch:
            return
        start = "(" + entry_id


def audit_game(store, repository, game_id: str, progress: Progress | None = None) -> AuditReport:
    """Audit one game's stream in Redis against its chain, its head and every state served from it."""
    began = time.perf_counter()
    # the one version this audit reads, whatever is appended meanwhile: the head record and the
    # stream's length read together (the store writes both in one script, so they always agree)
    version, head_hash, length, anchors = head_and_length(store, game_id)
    report = AuditReport(game_id, ok=False, version=version)
    check = ChainCheck(game_id, every=repository.checkpoint_every,
                       anchors=anchors if len(anchors) >= version * 64 else "")
    check.feed_all(stream_entries(store, game_id, until=version if version else None), progress, version)
    report.events = check.count
    report.problem = check.problem or _length_problem(version, length) or \
        _head_problem(store, game_id, check, version, head_hash) or _state_problem(repository, game_id, check, report)
    report.ok = report.problem is None
    report.unsealed_until = Provenance(store).unsealed_until(game_id)
    report.seconds = time.perf_counter() - began
    if progress:
        progress(check.count, version)
    return report


def head_and_length(store, game_id: str) -> tuple[int, str, int, str]:
    """The head record's version and hash, the stream's length and the anchors, read at one moment."""
    pipe = store.redis.pipeline(transaction=True)
    pipe.hmget(store.head_key(game_id), "version", "hash")
    pipe.xlen(store.stream_key(game_id))
    pipe.get(store.anchors_key(game_id))
    (version, last_hash), length, anchors = pipe.execute()
    anchors = (anchors.decode() if isinstance(anchors, bytes) else anchors) or ""
    if version is None:
        return 0, "", int(length), anchors
    return int(version), last_hash.decode() if isinstance(last_hash, bytes) else last_hash, int(length), anchors


def _length_problem(version: int, length: int) -> Finding | None:
    """Events written behind the head record's back (the stream longer than the head says)."""
    if version and length > version:
        return Finding("head-mismatch", f"the stream holds {length} events, the head record names version {version}: "
                       f"event {version + 1} was added behind the store's back", version + 1, f"{version + 1}-1")
    return None


def _head_problem(store, game_id: str, check: ChainCheck, version: int, head_hash: str) -> Finding | None:
    if check.count == 0:
        return Finding("head-mismatch", "the game has no events", None, None)
    if version != check.count or head_hash != check.last_hash:
        return Finding("head-mismatch", f"the head record names version {version}, the stream ends at event "
                       f"{check.count}{'' if version != check.count else ' with another hash'}", check.count,
                       f"{check.count}-1")
    return None


def _state_problem(repository, game_id: str, check: ChainCheck, report: AuditReport) -> Finding | None:
    """Compare the refold with the snapshot, the checkpoints and the state this process serves."""
    snapshots = repository.snapshots
    candidates = [("snapshot", snapshots.latest(game_id))]
    for version in snapshots.checkpoint_versions(game_id):
        candidates.append(("checkpoint", snapshots.checkpoint_before(game_id, version)))
    # a snapshot newer than the version read was made while the audit read: nothing to judge it by
    candidates = sorted((c for c in candidates if c[1] is not None and c[1].version <= check.count),
                        key=lambda c: c[1].version)
    for name, snapshot in candidates:  # oldest first: the earliest evidence is the one named
        label = f"{name} at version {snapshot.version}"
        if not _matches_stream(check, snapshot):
            return Finding("rewritten", f"the {label} was made when event {snapshot.version} had another hash "
                           "(or existed and now does not): the stream was rewritten after it",
                           snapshot.version, f"{snapshot.version}-1")
        problem = _compare(check.replay.state_at(snapshot.version), snapshot.state, label, snapshot.version)
        if problem:
            return problem
        report.compared.append(label)
    # the state this process serves (its cache, if it is at the version read), then as a fresh reader
    # gets it at that version (snapshot or checkpoint + fold): never a version the audit did not read
    served = repository.current(game_id)
    if served["v"] == check.count:
        problem = _compare(check.replay.state, served, "the served state", check.count)
        if problem:
            return problem
        report.compared.append(f"the served state at version {check.count}")
    repository.forget(game_id)
    label = "the served state without this process's cache"
    problem = _compare(check.replay.state, repository.state_at(game_id, check.count), label, check.count)
    if problem:
        return problem
    report.compared.append(f"{label} at version {check.count}")
    return None


def _matches_stream(check: ChainCheck, snapshot: Snapshot) -> bool:
    version = snapshot.version
    if not 1 <= version <= check.count:
        return False
    return check.replay.events[version - 1].get("hash") == snapshot.hash


def _compare(folded: dict, served: dict, label: str, version: int) -> Finding | None:
    if canonical_json(folded) == canonical_json(served):
        return None
    keys = sorted(k for k in set(folded) | set(served)
                  if canonical_json(folded.get(k)) != canonical_json(served.get(k)))
    return Finding("state-mismatch", f"{label} differs from the refold of the events in {', '.join(keys)}",
                   version, f"{version}-1")


# --- JSON lines (exports, the data folder) ------------------------------------------------------

def audit_lines(game_id: str, lines: Iterable[tuple[int, str]], total: int = 0,
                progress: Progress | None = None) -> AuditReport:
    """Audit a game given as numbered JSON lines (blank lines skipped); the finding names the line."""
    began = time.perf_counter()
    report = AuditReport(game_id, ok=False, version=total)
    check = ChainCheck(game_id)
    check.feed_all(((f"line {number}", text, None) for number, text in lines if text.strip()), progress, total)
    report.events = check.count
    report.problem = check.problem or (Finding("head-mismatch", "the file holds no events") if not check.count
                                       else None)
    report.ok = report.problem is None
    report.version = check.count if report.ok else report.version
    report.seconds = time.perf_counter() - began
    return report

"""What the benches read back from a game's admin export (shared by bench/load.py and bench/timers.py).

Only the public API and the engine are used: the export is fetched over HTTP and folded with
``engine.evolve``, so a figure read here is what any client holding the admin token could see.
"""

from __future__ import annotations

import json

import requests

import engine
from workers.seal import is_seal_line


def lateness(base: str, game_id: str, headers: dict, timeout: float = 60) -> list[int]:
    """Milliseconds between each timed-out decision's deadline and the timer applying its default.

    The export (``GET /games/{id}/export`` with ``headers``, the admin's) is folded event by
    event; before a ``DecisionTimedOut`` stamped by the timer, the state's ``clock`` holds the
    prompt's deadline, and the event's ``time`` is when the timer applied the default. The
    export's last line is its seal (workers/seal.py), not an event: it is skipped.
    """
    answer = requests.get(f"{base}/games/{game_id}/export", headers=headers, timeout=timeout)
    answer.raise_for_status()
    state, found = None, []
    for line in answer.text.splitlines():
        event = json.loads(line)
        if is_seal_line(event):
            continue
        if event["type"] == "DecisionTimedOut" and event["actor"] == "timer":
            deadline = (state.get("clock") or {}).get(event["payload"]["prompt"])
            if deadline is not None:
                found.append(event["time"] - deadline)
        state = engine.evolve(state, event)
    return found

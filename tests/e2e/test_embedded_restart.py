"""15.15: a restart of embedded `cosmic serve` in the middle of a game keeps everything it served.

The same seat tokens act after the restart; the webhook subscription and an idempotent answer
are still there. Real processes: `cosmic serve` (no REDIS_URL) started, stopped and started again
on the same data folder. No Redis is needed, so this runs on every machine.
"""

from __future__ import annotations

import signal

import pytest
import requests

from tests.conftest import SERVICE_ADMIN_TOKEN

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": f"Bearer {SERVICE_ADMIN_TOKEN}"}


def test_a_restarted_embedded_service_lets_the_same_players_go_on(service_processes):
    base = service_processes.embedded()
    created = requests.post(f"{base}/games", json={"seats": 2}, timeout=10).json()
    game = created["id"]
    tokens = {}
    for name in ("Ann", "Bob"):
        joined = requests.post(f"{base}/games/{game}/players", json={"name": name}, timeout=10).json()
        tokens[joined["color"]] = {"Authorization": f"Bearer {joined['token']}"}
    started = requests.post(f"{base}/games/{game}/start", headers={"Authorization": f"Bearer {created['host_token']}"},
                            timeout=10).json()
    hook = requests.post(f"{base}/webhooks", json={"url": "https://example.com/hook", "game_id": game},
                         headers=ADMIN, timeout=10).json()
    owed = started["pending"][0]["player"]
    prompt = requests.get(f"{base}/games/{game}/prompts", headers=tokens[owed], timeout=10).json()["prompts"][0]
    option = next(o for o in prompt["options"] if not o["args"]) if any(not o["args"] for o in prompt["options"]) \
        else None
    answered = None
    if option is not None:
        body = {"action": option["action"], **{k: v for k, v in option.items() if k not in ("action", "args", "rule", "label")}}
        answered = requests.post(f"{base}/games/{game}/actions", json=body,
                                 headers={**tokens[owed], "Idempotency-Key": "k-1"}, timeout=10)
        assert answered.status_code == 200, answered.text
    before = requests.get(f"{base}/games/{game}", timeout=10).json()

    server = service_processes.processes[-1]
    server.send_signal(signal.SIGTERM)
    assert server.wait(20) == 0  # a clean stop
    service_processes.processes.remove(server)
    base = service_processes.embedded()

    assert requests.get(f"{base}/games/{game}", timeout=10).json() == before
    for color, headers in tokens.items():
        hand = requests.get(f"{base}/games/{game}/hand", headers=headers, timeout=10)
        assert hand.status_code == 200, (color, hand.text)
    listed = requests.get(f"{base}/webhooks", params={"game_id": game}, headers=ADMIN, timeout=10).json()
    assert [s["id"] for s in listed["webhooks"]] == [hook["id"]]
    if answered is not None:
        again = requests.post(f"{base}/games/{game}/actions", json=body,
                              headers={**tokens[owed], "Idempotency-Key": "k-1"}, timeout=10)
        assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
        assert again.json() == answered.json()
    # and the game goes on with the same tokens
    pending = requests.get(f"{base}/games/{game}", timeout=10).json()["pending"]
    mine = requests.get(f"{base}/games/{game}/prompts", headers=tokens[pending[0]["player"]], timeout=10)
    assert mine.status_code == 200 and mine.json()["prompts"]

"""Rate limits under gunicorn: two worker processes share one count in Redis (app/limits.py).

gunicorn's access log names the process (pid) that answered each request, so the test knows
that both processes answered; if the counts were kept per process, the second process would
create games the first had already refused. A seat's write quota is shared the same way.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.conftest import SERVICE_ADMIN_TOKEN

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": f"Bearer {SERVICE_ADMIN_TOKEN}"}
ACCESS_LOG = '--access-logfile - --access-logformat "answered pid=%(p)s status=%(s)s %(m)s %(U)s"'
ANSWER = re.compile(r"answered pid=<(\d+)> status=(\d+) (\w+) (\S+)")
QUOTA = 6


def answered(service_processes, method: str, path: str) -> dict[str, list[int]]:
    """The statuses each gunicorn process answered to ``method path``, from the access log."""
    by_pid: dict[str, list[int]] = {}
    for pid, status, verb, url in ANSWER.findall(service_processes.log_of("web-0")):
        if verb == method and url == path:
            by_pid.setdefault(pid, []).append(int(status))
    return by_pid


def post_apart(url: str, count: int, json: dict, headers: dict | None = None) -> list[requests.Response]:
    """``count`` POSTs, eight at a time, each on a connection of its own (so both processes take some)."""
    def one(_):
        return requests.post(url, json=json, headers={"Connection": "close", **(headers or {})}, timeout=15)
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(count)))


def test_limits_hold_across_two_gunicorn_processes_on_redis(service_processes):
    base = service_processes(worker=False, env={"COSMIC_LIMIT_CREATE_ADDRESS": f"{QUOTA} per minute",
                                                "COSMIC_LIMIT_WRITE_TOKEN": f"{QUOTA} per minute",
                                                "GUNICORN_CMD_ARGS": ACCESS_LOG})
    answers = post_apart(f"{base}/games", 3 * QUOTA, json={"seats": 2})
    deadline = time.monotonic() + 60
    while len(answered(service_processes, "POST", "/games")) < 2:  # until both processes have answered some
        assert time.monotonic() < deadline, "one gunicorn process took every connection:\n" + service_processes.logs()
        answers += post_apart(f"{base}/games", 8, json={"seats": 2})
        time.sleep(0.2)
    codes = [answer.status_code for answer in answers]
    assert codes.count(201) == QUOTA and codes.count(429) == len(answers) - QUOTA, codes
    by_pid = answered(service_processes, "POST", "/games")
    assert len(by_pid) == 2 and sum(s.count(201) for s in by_pid.values()) == QUOTA, by_pid
    assert all(429 in statuses for pid, statuses in by_pid.items() if len(statuses) > QUOTA), by_pid
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert refused.json()["type"] == "urn:cosmic:problem:rate-limited" and int(refused.headers["Retry-After"]) >= 1
    assert '"create-address-60s";q=6;w=60' in refused.headers["RateLimit-Policy"]
    assert '"create-address-60s";r=0;' in refused.headers["RateLimit"]

    # the admin is never limited, through either process
    admin = post_apart(f"{base}/games", 10, json={"seats": 2}, headers=ADMIN)
    assert [a.status_code for a in admin] == [201] * 10 and not any("RateLimit" in a.headers for a in admin)

    # a seat's writes: one count for the token whichever process answers
    created = next(answer.json() for answer in answers if answer.status_code == 201)
    seat = requests.post(f"{base}/games/{created['id']}/players", json={"name": "Ann"}, timeout=10).json()
    writes = post_apart(f"{base}/games/{created['id']}/actions", 3 * QUOTA, json={"action": "pass"},
                        headers={"Authorization": f"Bearer {seat['token']}"})
    assert [w.status_code for w in writes].count(429) == 2 * QUOTA, [w.status_code for w in writes]

    # what Redis holds: counters under the prefix, the tokens' digests only
    with service_processes.data_client() as client:
        keys = [key.decode() for key in client.scan_iter(match=f"{service_processes.prefix}:limits:*")]
    assert keys and not [key for key in keys if seat["token"] in key or SERVICE_ADMIN_TOKEN in key]

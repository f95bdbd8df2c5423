"""What `make test` tells a newcomer (issue 28.6): the header saying which variants run and why
not, the skip reasons grouped with their counts, and one database index for local real-Redis runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from tests import skipsummary
from tests.conftest import LOCAL_REDIS_URL

ROOT = Path(__file__).resolve().parent.parent


def skipped(reason: str) -> SimpleNamespace:
    return SimpleNamespace(longrepr=("tests/x.py", 1, f"Skipped: {reason}"))


def test_skip_reasons_are_grouped_with_their_counts_most_first():
    reports = [skipped("no Redis"), skipped("no browser"), skipped("no Redis"), skipped("a bird")]
    assert skipsummary.grouped(reports) == [(2, "no Redis"), (1, "a bird"), (1, "no browser")]


def test_a_plain_run_prints_the_header_and_a_line_per_skip_reason():
    env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/events/test_store_restore.py", "-p", "no:randomly"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    lines = run.stdout.splitlines()
    assert any(line.startswith("real Redis: REDIS_URL is not set") for line in lines[:8]), lines[:8]
    [summary] = [i for i, line in enumerate(lines) if re.fullmatch(r"=+ \d+ skipped, for 1 reason =+", line)]
    count = re.search(r"(\d+) skipped", lines[summary]).group(1)
    assert lines[summary + 1] == f"{count}  REDIS_URL is not set: real-Redis variant skipped (e.g. REDIS_URL={LOCAL_REDIS_URL})"


def test_one_database_index_is_given_for_local_real_redis_runs():
    assert LOCAL_REDIS_URL == "redis://127.0.0.1:6379/13"
    places = [ROOT / "README.md", ROOT / ".ci" / "run", ROOT / "tests" / "conftest.py",
              *sorted((ROOT / "bench").glob("*.py")), *sorted((ROOT / "docs").glob("*.md"))]
    given = {(path.name, url) for path in places for url in re.findall(r"redis://127\.0\.0\.1:6379/\d+", path.read_text())}
    assert {url for _, url in given} == {LOCAL_REDIS_URL}, sorted(given)

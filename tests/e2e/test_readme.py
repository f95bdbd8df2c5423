"""The README's curl walk-through, run as printed against a real `cosmic serve` (issue 28.5).

Every fenced ``sh`` block that follows a ``<!-- readme-walkthrough -->`` line in README.md is taken
in order and run in one ``bash`` with ``set -euo pipefail``, ``curl`` failing on any 4xx or 5xx
(``--fail-with-body``, so the problem document is in the output), against embedded `cosmic serve`
on a free port with a data folder of its own. So a step the README prints that the service refuses
fails this test, and the README cannot drift from the service. No Redis is needed: this runs on
every machine that has ``bash`` and ``curl``.

The first player is drawn at random, and so is what they owe first (a window, a launch, the
choice of a defense, ...); the walk-through reads it from the board and the prompts, and the test
runs it several times to meet several of them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT, SERVICE_ADMIN_TOKEN, ServiceProcesses

pytestmark = pytest.mark.e2e

README = Path(PROJECT_ROOT) / "README.md"
MARKER = "<!-- readme-walkthrough -->"
RUNS = 4  # games played through the walk-through, each with its own random first decision
STRICT = 'set -euo pipefail\ncurl() { command curl --fail-with-body --show-error "$@"; }\n'


def walkthrough_blocks(text: str) -> list[str]:
    """The ``sh`` blocks right after each marker line, in the README's order."""
    return re.findall(re.escape(MARKER) + r"\n```sh\n(.*?)```", text, re.S)


def test_the_readme_marks_its_walkthrough_blocks():
    text = README.read_text()
    blocks = walkthrough_blocks(text)
    assert text.count(MARKER) == len(blocks) == 2, "each marker must be followed at once by a ```sh block"
    assert "jq" not in "".join(blocks), "the walk-through needs only curl and python3"


@pytest.mark.skipif(shutil.which("curl") is None or shutil.which("bash") is None,
                    reason="the README walk-through needs bash and curl, not installed here")
def test_the_readme_walkthrough_runs_as_printed(tmp_path):
    script = STRICT + "\n".join(walkthrough_blocks(README.read_text()))
    service = ServiceProcesses("readme-walkthrough", tmp_path)
    try:
        base = service.embedded()
        env = {**os.environ, "B": base, "ADMIN": SERVICE_ADMIN_TOKEN}
        for run in range(RUNS):
            folder = tmp_path / f"run-{run}"
            folder.mkdir()
            done = subprocess.run(["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True,
                                  timeout=120)
            output = done.stdout + done.stderr
            assert done.returncode == 0, f"run {run}: the walk-through failed ({done.returncode}):\n{output[-4000:]}"
            service.check_running()
            assert '"appended": ' in done.stdout, output[-2000:]  # the decision was answered
            assert '"status": "rewound"' in done.stdout, output[-2000:]  # both players asked: the rewind happened
            audit = json.loads(done.stdout[done.stdout.rindex('{"compared"'):])  # the last answer: the audit
            assert audit["ok"] is True, audit
            exported = (folder / "game.jsonl").read_text().splitlines()
            assert len(exported) > 10  # the whole stream, one event a line
    finally:
        service.stop()

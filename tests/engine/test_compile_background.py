"""`make run` does not wait for the engine's compiler (issue 28.5): on a fresh clone the build runs in
the background while the service starts from the sources, and one build runs at a time.

scripts/compile_engine.py ``--background``: with stale modules it starts a detached, niced build and
returns without building or writing the manifest; a build already holding the lock is left alone; a
foreground build (``make compile``, ``make test``) waits for the lock and then does its own check.
"""

from __future__ import annotations

import fcntl
import importlib.util
import io
import subprocess
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def script(tmp_path, monkeypatch):
    """scripts/compile_engine.py loaded by its path, its lock and log in the test's folder, nothing built."""
    spec = importlib.util.spec_from_file_location("compile_engine_under_test", ROOT / "scripts" / "compile_engine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "LOCK", tmp_path / "compile.lock")
    monkeypatch.setattr(module, "LOG", tmp_path / "compile.log")
    module.started, module.steps = [], []
    monkeypatch.setattr(module.subprocess, "Popen", lambda command, **kw: module.started.append((command, kw)))
    monkeypatch.setattr(module, "build", lambda stale, jobs: module.steps.append("build"))
    monkeypatch.setattr(module, "remove_orphans", lambda wanted: [])
    monkeypatch.setattr(module.HOOK, "write_manifest", lambda hashes: module.steps.append("manifest"))
    return module


def stale(module, monkeypatch, count: int) -> None:
    monkeypatch.setattr(module, "stale_modules", lambda wanted, hashes, force: module.sources()[:count])


def test_with_stale_modules_a_background_start_only_launches_a_detached_build(script, monkeypatch):
    stale(script, monkeypatch, 3)
    out = io.StringIO()
    with redirect_stdout(out):
        assert script.main(["--background"]) == 0
    assert script.steps == []  # neither built nor recorded here: the service starts from the sources
    [(command, options)] = script.started
    assert command[:3] == ["nice", "-n", "10"] and command[-2] == "--jobs"
    assert "--background" not in command and options["start_new_session"] is True
    assert "in the background" in out.getvalue() and "from its sources" in out.getvalue()


def test_with_nothing_stale_a_background_start_just_records_the_build(script, monkeypatch):
    stale(script, monkeypatch, 0)
    assert script.main(["--background"]) == 0
    assert script.started == [] and script.steps == ["manifest"]


def test_a_background_start_while_a_build_runs_starts_no_second_one(script, monkeypatch, tmp_path):
    stale(script, monkeypatch, 3)
    with (tmp_path / "compile.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        out = io.StringIO()
        with redirect_stdout(out):
            assert script.main(["--background"]) == 0
    assert script.started == [] and script.steps == []
    assert "already running" in out.getvalue()


def test_a_foreground_build_waits_for_the_running_one_then_checks_again(script, monkeypatch, tmp_path):
    stale(script, monkeypatch, 0)  # what the running build leaves: nothing stale
    held = (tmp_path / "compile.lock").open("w")
    fcntl.flock(held, fcntl.LOCK_EX)
    out = io.StringIO()
    with redirect_stdout(out):
        waiting = threading.Thread(target=script.main, args=([],))
        waiting.start()
        while "waiting for the build already running" not in out.getvalue():
            waiting.join(0.05)
            assert waiting.is_alive(), out.getvalue()
        script.steps.append("the running build ends")
        held.close()  # releases the lock
        waiting.join(30)
    assert script.steps == ["the running build ends", "manifest"]


def test_make_run_starts_the_build_in_the_background_and_serves_at_once():
    dry = subprocess.run(["make", "-n", "run", "VENV=.venv"], cwd=ROOT, capture_output=True, text=True, check=True)
    lines = [line for line in dry.stdout.splitlines() if "compile_engine.py" in line or "cosmic serve" in line]
    assert [("--background" in line, "cosmic serve" in line) for line in lines] == [(True, False), (False, True)]
    plain = subprocess.run(["make", "-n", "run", "VENV=.venv", "COMPILE=no"], cwd=ROOT, capture_output=True,
                           text=True, check=True)
    assert "compile_engine.py" not in plain.stdout and "cosmic serve" in plain.stdout

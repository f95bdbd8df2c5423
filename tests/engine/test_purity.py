"""DESIGN.md: the engine is pure rules; importing it pulls in no storage, web or queue library."""

import json
import subprocess
import sys
from pathlib import Path

FORBIDDEN = ("redis", "flask", "rq", "marshmallow", "fakeredis")
PROBE = (
    "import json, sys\n"
    "import engine, engine.simulate, engine.scenario, engine.players\n"
    "from engine.catalog import POWERS\n"
    "print(json.dumps({'modules': sorted(sys.modules), 'powers': len(POWERS)}))\n"
)


def imported_by_engine() -> dict:
    """What a clean interpreter holds after importing the engine (and every power module)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, cwd=root)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_the_engine_loads_no_redis_flask_rq_or_marshmallow():
    found = imported_by_engine()
    assert found["powers"] > 0  # the probe really loaded the engine and its powers
    loaded = {name.split(".")[0] for name in found["modules"]}
    assert "engine" in loaded
    assert sorted(loaded & set(FORBIDDEN)) == []

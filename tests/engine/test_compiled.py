"""The compiled engine (engine/compiled.py, scripts/compile_engine.py) runs exactly what its sources say.

`make install` compiles the engine with Cython; the import hook loads a compiled module only while
its source is the one it was built from. These tests check the hook's choice module by module (with
stand-in files: choosing does not load them), that this checkout really runs compiled when it was
built (``COSMIC_REQUIRE_COMPILED=1``, as `make test` sets it, turns "not built" into a failure), and
that compiled and interpreted engines play the same game and keep nothing behind them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import compiled
from engine.compiled import EXTENSION, FreshCompiledFinder, source_hash

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def package(tmp_path):
    """A package folder holding a source module ``fresh.py`` with a compiled file beside it, built from it."""
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "fresh.py").write_text("VALUE = 1\n")
    (folder / ("fresh" + EXTENSION)).write_bytes(b"stand-in")
    return folder


def finder_for(folder: Path, **kwargs) -> FreshCompiledFinder:
    return FreshCompiledFinder("pkg", {"pkg.fresh": source_hash(folder / "fresh.py")}, **kwargs)


def test_a_module_built_from_its_source_as_it_is_loads_compiled(package):
    finder = finder_for(package)
    spec = finder.find_spec("pkg.fresh", [str(package)])
    assert spec.origin == str(package / ("fresh" + EXTENSION))
    assert finder.loaded == {"pkg.fresh": "compiled"}


def test_a_module_changed_since_it_was_compiled_loads_from_its_source(package):
    finder = finder_for(package)
    (package / "fresh.py").write_text("VALUE = 2  # edited after the build\n")
    spec = finder.find_spec("pkg.fresh", [str(package)])
    assert spec.origin == str(package / "fresh.py")
    assert finder.loaded == {"pkg.fresh": "source (changed since it was compiled)"}


def test_compiled_code_switched_off_loads_every_module_from_its_source(package):
    finder = finder_for(package, enabled=False)
    assert finder.find_spec("pkg.fresh", [str(package)]).origin == str(package / "fresh.py")
    assert finder.loaded["pkg.fresh"] == f"source ({compiled.SWITCH}=0)"


def test_a_compiled_file_the_build_did_not_record_is_not_trusted(package):
    finder = FreshCompiledFinder("pkg", {})
    assert finder.find_spec("pkg.fresh", [str(package)]).origin == str(package / "fresh.py")
    assert finder.loaded["pkg.fresh"] == "source (not in the build's manifest)"


def test_a_compiled_file_left_of_a_deleted_module_does_not_import(package):
    (package / "fresh.py").unlink()
    finder = FreshCompiledFinder("pkg", {"pkg.fresh": "0" * 64})
    with pytest.raises(ModuleNotFoundError, match="only a compiled file is left"):
        finder.find_spec("pkg.fresh", [str(package)])


def test_modules_without_a_compiled_file_and_other_packages_are_left_to_python(package):
    (package / "plain.py").write_text("VALUE = 3\n")
    finder = finder_for(package)
    assert finder.find_spec("pkg.plain", [str(package)]) is None
    assert finder.find_spec("other.fresh", [str(package)]) is None
    assert finder.find_spec("pkg", None) is None  # a top-level name: not this finder's


# --- this checkout --------------------------------------------------------------------------------

def run_python(code: str, **env) -> str:
    """Run ``code`` in a fresh interpreter on this checkout (what a service process does) and return its output."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    return done.stdout


REPORT = """
import json, engine, engine.simulate
from engine import compiled
print(json.dumps({"report": compiled.report(), "manifest": compiled.read_manifest()}))
"""


def test_this_checkout_runs_every_module_the_build_compiled_and_only_those_unchanged():
    found = json.loads(run_python(REPORT))
    manifest, report = found["manifest"], found["report"]
    if not manifest:
        if os.environ.get("COSMIC_REQUIRE_COMPILED") == "1":
            pytest.fail("the engine was not compiled (scripts/compile_engine.py), yet the run requires it")
        pytest.skip("the engine is not compiled here (make install COMPILE=no): it runs from its sources")
    for name, how in report.items():
        source = ROOT / (name.replace(".", "/") + ".py")
        unchanged = manifest.get(name) == source_hash(source)
        assert how == ("compiled" if unchanged else "source (changed since it was compiled)"), name
    assert "engine.flow" in report and "engine.steps.game" in report  # the driver and the stage table were built
    if os.environ.get("COSMIC_REQUIRE_COMPILED") == "1":
        stale = sorted(name for name, how in report.items() if how != "compiled")
        assert not stale, f"changed since `make compile`: {stale}"


GAME = """
import json, sys
from engine.simulate import play_game
for seed, ruleset in (("compiled:1", "mayfair"), ("compiled:2", "ffg")):
    result = play_game(seed, 4, ruleset=ruleset, keep_log=True, max_turns=40)
    print(json.dumps([result.error, result.turns, result.log], sort_keys=True))
"""


def test_compiled_and_interpreted_engines_play_the_same_games_event_for_event():
    compiled_games = run_python(GAME)
    interpreted_games = run_python(GAME, COSMIC_COMPILED="0")
    assert [json.loads(line)[0] for line in compiled_games.splitlines()] == [None, None]
    assert len(compiled_games) > 100_000  # two real games, not two empty logs
    assert compiled_games == interpreted_games


RETAINED = """
import gc, sys
from engine.simulate import play_game
for k in range(4):  # fill the engine's bounded caches first
    play_game(f"retained:{k}", 5, check_every=10**9)
gc.collect()
before = len(gc.get_objects())
for k in range(4, 24):
    play_game(f"retained:{k}", 5, check_every=10**9)
gc.collect()
print(len(gc.get_objects()) - before)
"""


def test_the_compiled_engine_keeps_no_more_behind_it_than_the_interpreted_one():
    """A compiled construct that leaks a reference (Cython 3.3's for-else nested in a loop kept each option
    it matched alive: engine/flow.py `match`) would grow a long-running worker; the interpreted engine's
    growth over the same games is only its bounded caches filling."""
    grown_compiled = int(run_python(RETAINED))
    grown_interpreted = int(run_python(RETAINED, COSMIC_COMPILED="0"))
    assert grown_compiled <= grown_interpreted + 500, (grown_compiled, grown_interpreted)


def test_the_build_compiles_every_engine_module_but_the_package_faces_and_the_hook():
    spec = importlib.util.spec_from_file_location("compile_engine", ROOT / "scripts" / "compile_engine.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    names = {script.module_name(path) for path in script.sources()}
    assert {"engine.flow", "engine.context", "engine.steps.game", "engine.powers.clone", "engine.edicts.plague"} <= names
    assert "engine.compiled" not in names  # the hook loads first, from its source
    assert not [name for name in names if name.endswith("__init__")]
    every_module = {script.module_name(path) for folder in script.FOLDERS for path in folder.glob("*.py")}
    assert every_module - names == {"engine.__init__", "engine.compiled", "engine.steps.__init__",
                                    "engine.powers.__init__", "engine.edicts.__init__", "engine.search.__init__"}
    packages = {init.parent for init in script.ENGINE.rglob("__init__.py")}
    assert packages == set(script.FOLDERS), "every engine package is compiled (a new one goes in FOLDERS)"

"""Compile the engine with Cython, beside its sources (`make install` runs this).

    python scripts/compile_engine.py [--jobs N] [--force] [--clean] [--background]

Compiled: every module of ``engine/``, ``engine/steps``, ``engine/powers``, ``engine/edicts`` and ``engine/search``, except
the package ``__init__`` files (Python would load a compiled one whatever its source says) and
``engine/compiled.py`` (the import hook, which must load first). The driver, the state and its rules
and the stage table are where a game's time goes; the card modules add a little (`bench/engine.py`).

Only modules whose source changed since their last build are compiled again. Each extension file
is built in ``build/compiled`` and moved into place by a rename, so a running service keeps the
file it loaded. ``engine/_compiled.json`` records the SHA-256 of every compiled source; the engine's
import hook (`engine.compiled`) loads a compiled module only while its source still has that hash.

Python's semantics are kept: annotations are not read as C types (``annotation_typing=False``), so a
compiled module accepts and returns exactly what its source would.

The manifest's form and the source hash are `engine.compiled`'s, loaded by its path: importing the
engine package would load the very modules this rebuilds.

With ``--background`` (what ``make run`` does) nothing waits for the compiler: when modules are stale
a detached, ``nice``d build is started (its output in ``build/compile.log``) and this returns at once,
so the service starts from the sources; the import hook reads the manifest once per process, at its
start, so a running service never mixes in what the build finishes, and the next start runs the
engine compiled. One build runs at a time (an exclusive lock on ``build/compile.lock``): a foreground
build (``make compile``, ``make test``) started meanwhile waits for the background one, then finds
nothing left to do.

Prints what it did; exits non-zero when Cython or the C compiler fails (``make install COMPILE=no``
skips this step; the engine then runs from its sources, slower).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
BUILD = ROOT / "build" / "compiled"
LOCK = ROOT / "build" / "compile.lock"
LOG = ROOT / "build" / "compile.log"


def load_hook():
    """`engine/compiled.py` alone (it imports nothing of the engine), not the engine package."""
    spec = importlib.util.spec_from_file_location("engine_compiled_hook", ENGINE / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = load_hook()
EXTENSION = HOOK.EXTENSION
FOLDERS = (ENGINE, ENGINE / "steps", ENGINE / "powers", ENGINE / "edicts", ENGINE / "search")
NEVER = {"__init__.py", "compiled.py"}
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}
CFLAGS = ["-O2", "-g0"]  # no debug information: a fifth of the size, the same speed


def module_name(source: Path) -> str:
    return ".".join(source.relative_to(ROOT).with_suffix("").parts)


def compiled_path(source: Path) -> Path:
    return source.with_name(source.stem + EXTENSION)


def sources() -> list[Path]:
    """The engine modules to compile, in a stable order."""
    return sorted(p for folder in FOLDERS for p in folder.glob("*.py") if p.name not in NEVER)


def remove_orphans(wanted: set[Path]) -> list[Path]:
    """Delete the compiled files of modules no longer compiled or no longer there."""
    removed = []
    for compiled in ENGINE.rglob("*" + EXTENSION):
        source = compiled.with_name(compiled.name[: -len(EXTENSION)] + ".py")
        if source not in wanted:
            compiled.unlink()
            removed.append(compiled)
    return removed


def build(stale: list[Path], jobs: int) -> None:
    """Cythonize and compile ``stale`` into ``build/compiled``, then move each file into place."""
    from Cython.Build import cythonize
    from setuptools import Extension
    from setuptools.dist import Distribution

    extensions = [Extension(module_name(p), [str(p.relative_to(ROOT))], extra_compile_args=CFLAGS)
                  for p in stale]
    os.chdir(ROOT)
    modules = cythonize(extensions, compiler_directives=DIRECTIVES, nthreads=jobs, quiet=True, force=True,
                        build_dir=str(BUILD / "c"))
    distribution = Distribution({"name": "cosmic-engine-compiled", "ext_modules": modules})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(BUILD / "lib")
    command.build_temp = str(BUILD / "temp")
    command.parallel = jobs
    distribution.run_command("build_ext")
    for source in stale:
        built = BUILD / "lib" / compiled_path(source).relative_to(ROOT)
        os.replace(built, compiled_path(source))


def stale_modules(wanted: list[Path], hashes: dict[str, str], force: bool) -> list[Path]:
    """The modules whose compiled file is missing or was built from another source."""
    built = {} if force else HOOK.read_manifest()
    return [p for p in wanted if built.get(module_name(p)) != hashes[module_name(p)] or not compiled_path(p).exists()]


@contextlib.contextmanager
def exclusive():
    """Hold the build lock: one build at a time, the others wait for it."""
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with LOCK.open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("compile_engine: waiting for the build already running (build/compile.log)...", flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def in_background(count: int, jobs: int, force: bool) -> int:
    """Start a detached, niced build of the engine (output in build/compile.log) and return at once."""
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with LOCK.open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("compile_engine: a build is already running (build/compile.log); until it is done and the "
                  "service is started again, the engine runs from its sources", flush=True)
            return 0
    command = [sys.executable, str(Path(__file__).resolve()), "--jobs", str(jobs), *(["--force"] if force else [])]
    with LOG.open("w") as log:
        subprocess.Popen(["nice", "-n", "10", *command] if shutil.which("nice") else command, cwd=ROOT,
                         stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    print(f"compile_engine: compiling {count} engine modules in the background (build/compile.log); until "
          "the build is done and the service is started again, the engine runs from its sources", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel compiler processes")
    parser.add_argument("--force", action="store_true", help="compile every module, changed or not")
    parser.add_argument("--clean", action="store_true", help="delete every compiled file and the manifest")
    parser.add_argument("--background", action="store_true",
                        help="do not wait: build in a detached process when something is stale (make run)")
    args = parser.parse_args(argv)

    wanted = sources()
    hashes = {module_name(p): HOOK.source_hash(p) for p in wanted}
    if args.background and not args.clean:
        stale = stale_modules(wanted, hashes, args.force)
        if stale:
            return in_background(len(stale), args.jobs, args.force)
    with exclusive():
        if args.clean:
            removed = remove_orphans(set())
            HOOK.MANIFEST.unlink(missing_ok=True)
            shutil.rmtree(BUILD, ignore_errors=True)
            print(f"compile_engine: removed {len(removed)} compiled modules; the engine runs from its sources")
            return 0
        removed = remove_orphans(set(wanted))
        stale = stale_modules(wanted, hashes, args.force)  # again under the lock: another build may have done it
        if stale:
            began = time.monotonic()
            print(f"compile_engine: compiling {len(stale)} of {len(wanted)} engine modules with Cython "
                  f"({args.jobs} jobs)...", flush=True)
            try:
                build(stale, args.jobs)
            except (Exception, SystemExit) as exc:  # Cython missing, or the C compiler failed
                print(f"compile_engine: failed ({type(exc).__name__}: {exc}); modules not rebuilt run from "
                      "their sources (`make install COMPILE=no` skips this step)", file=sys.stderr)
                return 1
            print(f"compile_engine: compiled in {time.monotonic() - began:.0f} s", flush=True)
        HOOK.write_manifest(hashes)
    print(f"compile_engine: {len(wanted)} engine modules compiled and current"
          + (f"; {len(removed)} orphaned compiled files removed" if removed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which engine modules run compiled, and the import hook that loads a compiled module only while it matches its source.

`make install` compiles the engine with Cython (`scripts/compile_engine.py`): every module but the
package ``__init__`` files and this one. Each compiled module is an extension file beside its
source, and the build records the SHA-256 of every source it compiled in ``engine/_compiled.json``.

Python would load an extension file in preference to its source even after the source has changed.
The finder installed here decides per module instead:

- the compiled file, when the source is the one it was built from (same hash) and compiled code
  is allowed (``COSMIC_COMPILED`` is not ``0``);
- otherwise the source, so that an edited module runs as written (stale compiled code never runs);
- neither, when only a compiled file is left of a deleted module.

Compiled and interpreted modules behave alike (the build keeps Python's semantics: annotations are
not used as C types), so the same seed gives the same game either way (`bench/same_games.py`).
This module is never compiled itself: it must load before any other. It imports nothing of the engine,
so the build (`scripts/compile_engine.py`) loads it by its path for the manifest's form.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE = "engine"
ROOT = Path(__file__).resolve().parent
MANIFEST = ROOT / "_compiled.json"
SWITCH = "COSMIC_COMPILED"  # set to 0: every module from its source
EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]


def source_hash(path: Path) -> str:
    """The SHA-256 of a source file, as the build records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


class FreshCompiledFinder:
    """A meta-path finder for one package's modules that have a compiled file beside their source."""

    def __init__(self, package: str, manifest: dict[str, str], enabled: bool = True) -> None:
        self.package = package
        self.manifest = manifest
        self.enabled = enabled
        self.loaded: dict[str, str] = {}  # module name -> "compiled" or "source (why)"

    def find_spec(self, fullname: str, path=None, target=None):
        """The spec of the compiled file or of the source; None for modules this finder leaves alone."""
        if not fullname.startswith(self.package + ".") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in map(Path, path):
            compiled = folder / (leaf + EXTENSION)
            if not compiled.exists():
                continue
            source = folder / (leaf + ".py")
            if not source.exists():
                raise ModuleNotFoundError(f"{fullname}: only a compiled file is left ({compiled.name}); "
                                          "run `make compile` or delete it", name=fullname)
            why = self._why_source(fullname, source)
            self.loaded[fullname] = f"source ({why})" if why else "compiled"
            if why:
                return importlib.util.spec_from_file_location(fullname, source)
            loader = importlib.machinery.ExtensionFileLoader(fullname, str(compiled))
            return importlib.util.spec_from_file_location(fullname, compiled, loader=loader)
        return None

    def _why_source(self, fullname: str, source: Path) -> str | None:
        """Why a module with a compiled file runs from its source instead, or None to run it compiled."""
        if not self.enabled:
            return f"{SWITCH}=0"
        if fullname not in self.manifest:
            return "not in the build's manifest"
        if self.manifest[fullname] != source_hash(source):
            return "changed since it was compiled"
        return None


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """Module name -> source hash of the last build; empty when nothing was compiled."""
    try:
        return json.loads(path.read_text())["modules"]
    except (OSError, ValueError, KeyError):
        return {}


def write_manifest(hashes: dict[str, str], path: Path = MANIFEST) -> None:
    """Record the source hash of every module a build compiled (module name -> SHA-256); by a rename, so a
    process starting meanwhile reads the old manifest or the new one, never half of one."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps({"modules": hashes}, indent=1, sort_keys=True) + "\n")
    os.replace(partial, path)


def install() -> FreshCompiledFinder:
    """Put the engine's finder first on ``sys.meta_path`` (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, FreshCompiledFinder) and finder.package == PACKAGE:
            return finder
    finder = FreshCompiledFinder(PACKAGE, read_manifest(), enabled=os.environ.get(SWITCH, "1") != "0")
    sys.meta_path.insert(0, finder)
    return finder


def report() -> dict[str, str]:
    """How each engine module that has a compiled file was loaded so far: ``compiled`` or ``source (why)``."""
    finder = install()
    return dict(sorted(finder.loaded.items()))


def compiled_modules() -> list[str]:
    """The engine modules loaded from compiled code in this process."""
    return [name for name, how in report().items() if how == "compiled"]

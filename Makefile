# Two commands for a fresh machine with Python 3.11:
#   make run    the whole service on http://127.0.0.1:8000 (embedded Redis unless REDIS_URL is set;
#               HOST=0.0.0.0 PORT=9000 make run to serve elsewhere)
#   make test   the test suite (real-Redis variants too when REDIS_URL is set)
VENV ?= .venv
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install compile browser run test lint bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test,compile]'
	touch $@

install: $(VENV)/.installed $(if $(filter no,$(COMPILE)),,compile)

# the engine compiled with Cython, only the modules changed since the last build (scripts/compile_engine.py;
# COMPILE=no make install skips it: the engine then runs from its sources, about 1.6x slower)
compile: $(VENV)/.installed
	$(VENV)/bin/python scripts/compile_engine.py

# Debian's chromium for the browser tests (tests/browser): apt-get when missing and possible
browser:
	sh scripts/install-browser.sh

# make run does not wait for the compiler: when engine modules are stale it starts their build in the
# background (niced, output in build/compile.log) and serves the engine from its sources meanwhile; the
# next start runs it compiled (docs/engine.md, "The compiled engine")
run: $(VENV)/.installed
	$(if $(filter no,$(COMPILE)),,$(VENV)/bin/python scripts/compile_engine.py --background)
	$(VENV)/bin/cosmic serve --host $(HOST) --port $(PORT)

# (the engine's tests check that it runs compiled, unless COMPILE=no: tests/engine/test_compiled.py)
test: install browser
	COSMIC_REQUIRE_COMPILED=$(if $(filter no,$(COMPILE)),0,1) $(VENV)/bin/pytest

lint: install
	$(VENV)/bin/ruff check engine events projections workers app tests bench scripts

bench: install
	$(VENV)/bin/python bench/service.py

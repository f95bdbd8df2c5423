# Two commands for a fresh machine with Python 3.11:
#   make run    the whole service on http://127.0.0.1:8000 (embedded Redis unless REDIS_URL is set;
#               HOST=0.0.0.0 PORT=9000 make run to serve elsewhere)
#   make test   the test suite (real-Redis variants too when REDIS_URL is set)
VENV ?= .venv
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install browser run test lint bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

# Debian's chromium for the browser tests (tests/browser): apt-get when missing and possible
browser:
	sh scripts/install-browser.sh

run: install
	$(VENV)/bin/cosmic serve --host $(HOST) --port $(PORT)

test: install browser
	$(VENV)/bin/pytest

lint: install
	$(VENV)/bin/ruff check engine events projections workers app tests bench

bench: install
	$(VENV)/bin/python bench/service.py

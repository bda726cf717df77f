# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed
CHROMIUM ?= /usr/bin/chromium

.PHONY: run test lint bench install browser demo clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "RummyRef needs Python 3.11 or newer (found $$($(PYTHON) --version))."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUNTIME): requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(DEV): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@ $(RUNTIME)

install: $(RUNTIME)

## run: install, migrate, load the demo tables and serve on http://127.0.0.1:8000
run: $(RUNTIME)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

## browser: the Chromium the browser tests drive (Debian's package; Playwright cannot fetch its own here)
browser:
	@test -x $(CHROMIUM) || { \
		echo "Installing Debian's chromium for the browser tests..."; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
		{ echo "Could not install chromium: run 'apt-get install -y chromium' as root, or set CHROMIUM=/path/to/chromium."; exit 1; }; }

## test: install, lint, check migrations and run the whole suite
test: $(DEV) browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

lint: $(DEV)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## bench: speed figures beside their references (not part of the test run)
bench: $(DEV)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .hypothesis

# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed
CHROMIUM ?= /usr/bin/chromium
NGINX ?= /usr/sbin/nginx

.PHONY: run test test-fast check lint bench install browser proxy messages clean

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

PORT ?= 8000
HTTPS ?=
# With HTTPS=1, the plain-HTTP port that hands phones this machine's certificate (PORT + 1).
CERT_PORT ?= $(shell expr $(PORT) + 1)
LOCAL_CA_DIR ?= .local-ca

## run: install, migrate, load the demo tables and serve on port $(PORT) (8000 unless
## `make run PORT=8123`) of every address of
## this machine, so phones on the same Wi-Fi can open it (the address and its QR code are printed).
## `make run HTTPS=1`: the same over HTTPS (gunicorn with a certificate signed by this machine's
## own authority, made on first use in $(LOCAL_CA_DIR)/), and on $(CERT_PORT) over plain HTTP the
## page that installs that authority on a phone (everything else there goes to HTTPS)
run: $(RUNTIME)
	$(BIN)/python manage.py migrate --noinput
ifeq ($(HTTPS),1)
	$(BIN)/python manage.py load_demo --port $(PORT) --https
	LOCAL_CA_DIR=$(LOCAL_CA_DIR) $(BIN)/python manage.py local_ca --port $(PORT) --cert-port $(CERT_PORT)
	export LAN_HTTPS_PORT=$(PORT) LOCAL_CA_DIR=$(LOCAL_CA_DIR); \
	$(BIN)/gunicorn rummyref.lan_http:application --bind 0.0.0.0:$(CERT_PORT) --workers 1 --threads 4 \
		--no-control-socket & \
	$(BIN)/gunicorn rummyref.wsgi --bind 0.0.0.0:$(PORT) --no-control-socket \
		--certfile $(LOCAL_CA_DIR)/server.pem --keyfile $(LOCAL_CA_DIR)/server-key.pem; \
	status=$$?; kill $$! 2>/dev/null; exit $$status
else
	$(BIN)/python manage.py load_demo --port $(PORT)
	$(BIN)/python manage.py lan_url --port $(PORT)
	$(BIN)/python manage.py runserver 0.0.0.0:$(PORT)
endif

## browser: the Chromium the browser tests drive (Debian's package; Playwright cannot fetch its own here)
browser:
	@test -x $(CHROMIUM) || { \
		echo "Installing Debian's chromium for the browser tests..."; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
		{ echo "Could not install chromium: run 'apt-get install -y chromium' as root, or set CHROMIUM=/path/to/chromium."; exit 1; }; }

## proxy: the nginx the deployment tests put in front of gunicorn, and the Pushpin the live
## tests stream through (Debian's packages)
proxy:
	@test -x $(NGINX) || command -v nginx >/dev/null || { \
		echo "Installing Debian's nginx for the deployment tests..."; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null) || \
		{ echo "Could not install nginx: run 'apt-get install -y nginx' as root."; exit 1; }; }
	@command -v pushpin >/dev/null || { \
		echo "Installing Debian's pushpin for the live-update tests..."; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pushpin >/dev/null) || \
		{ echo "Could not install pushpin: run 'apt-get install -y pushpin' as root."; exit 1; }; }

# Test processes: 0 runs the suite in this one (the default); `make test TEST_PROCESSES=2`
# shares it among two (pytest-xdist; each has its own database, cache and broker:
# tests/parallel_workers.py).
TEST_PROCESSES ?= 0
FAST_PROCESSES ?= 2

## test: install, lint, check the import contracts and migrations, run the whole suite
test: $(DEV) browser proxy check
	$(BIN)/pytest -n $(TEST_PROCESSES)

## test-fast: the same checks, then the suite without the browser tests, the deployment
## tests (tests/deploy: nginx in front of gunicorn) and the tests marked slow (real servers
## in processes of their own, whole nights, every form fuzzed), on $(FAST_PROCESSES) processes
## and with Hypothesis's "fast" profile (a tenth of each property's examples). For the
## edit-test loop: `make test` remains the full check
test-fast: $(DEV) check
	$(BIN)/pytest -n $(FAST_PROCESSES) -m "not e2e and not slow" --ignore=tests/deploy \
		--hypothesis-profile=fast

## check: what both test targets run before the suite: lint, import contracts, migrations
check: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	@# On a database in memory: the check reads only the models and the migrations, and would
	@# leave an empty db.sqlite3 behind.
	DATABASE_URL=sqlite://:memory: $(BIN)/python manage.py makemigrations --check --dry-run

lint: $(DEV)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## bench: speed figures beside their references (not part of the test run)
bench: $(DEV)
	$(BIN)/python -m bench $(SECTIONS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .hypothesis

## messages: refresh the catalogs after changing strings (English is filled from the source;
## translate the new Italian entries in locale/it, then run `make messages` again to compile)
messages: $(DEV)
	$(BIN)/python manage.py makemessages -l it -l en --ignore=.venv --ignore=tests --no-obsolete
	$(BIN)/python -c "import polib; po = polib.pofile('locale/en/LC_MESSAGES/django.po'); \
		[(setattr(e, 'msgstr', e.msgid) if not e.msgid_plural else \
		  setattr(e, 'msgstr_plural', {0: e.msgid, 1: e.msgid_plural}), \
		  e.flags.remove('fuzzy') if 'fuzzy' in e.flags else None, \
		  setattr(e, 'previous_msgid', None), setattr(e, 'previous_msgid_plural', None), \
		  setattr(e, 'previous_msgctxt', None)) for e in po if e.msgid]; \
		po.metadata_is_fuzzy = False; po.save()"
	$(BIN)/python manage.py compilemessages --ignore=$(VENV)

# Two commands for a fresh machine:
#   make run   - create the virtualenv if missing, install, run the bot
#   make test  - create the virtualenv if missing, install with test extras, run all tests (in parallel:
#                WORKERS: one pytest worker per core and one more; WORKERS=0 runs them in this process)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: run test lint bench clean activity

# The board's page (activity/, an Activity inside Discord): built from its lock file when Node >= 18 and npm
# are here; without them the bot runs as before (the page is only served when the host turns Activities on)
ACTIVITY_DIST := activity/dist/index.html
ACTIVITY_SRC := $(wildcard activity/src/*) activity/build.mjs activity/package.json activity/package-lock.json

$(ACTIVITY_DIST): $(ACTIVITY_SRC)
	@if command -v npm >/dev/null 2>&1; then \
	  cd activity && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent; \
	else echo "Node.js and npm are missing: the board's page (activity/) is not built"; fi

activity: $(ACTIVITY_DIST)

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(TESTSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(TESTSTAMP)

run: $(STAMP) activity
	$(PY) -m sandbox.launch

#: pytest workers (pytest-xdist): one per core and one more, since an end-to-end module waits on its bot
#: more than it computes (measured: two workers kept 0.47 of the two cores busy); a test module runs whole
#: in one worker (its shared world)
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: $(TESTSTAMP) activity
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder

lint: $(TESTSTAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

bench: $(TESTSTAMP) activity
	$(PY) -m bench.all $(ARGS)

clean:
	rm -rf $(VENV)

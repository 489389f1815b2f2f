# Two commands for a fresh machine:
#   make run   - create the virtualenv if missing, install, run the bot
#   make test  - create the virtualenv if missing, install with test extras, run all tests (in parallel:
#                WORKERS=auto, one pytest worker per core; WORKERS=0 runs them in this process)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: run test lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(TESTSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(TESTSTAMP)

run: $(STAMP)
	$(PY) -m sandbox.launch

#: pytest workers (pytest-xdist): one per core; a test module runs whole in one worker (its shared world)
WORKERS ?= auto

test: $(TESTSTAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder

lint: $(TESTSTAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

bench: $(TESTSTAMP)
	$(PY) -m bench.all $(ARGS)

clean:
	rm -rf $(VENV)

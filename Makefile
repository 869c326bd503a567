# handfoot: `make run` and `make test` each work alone on a fresh clone (Python 3.11+).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean install

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "handfoot needs Python 3.11+"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/handfoot simulate --games 20000 --seed 1

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m sim.bench

lint: $(STAMP)
	$(VENV)/bin/ruff check sim strategies analysis tests

clean:
	rm -rf $(HOME)/.cache/handfoot .pytest_cache build *.egg-info

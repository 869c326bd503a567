# handfoot: `make run` and `make test` each work alone on a fresh clone (Python 3.11+).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test conformance bench bench-ab bench-ab-search bench-cluster bench-functions lint clean install

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "handfoot needs Python 3.11+"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)  # a 20,000-game run, then the strategy guide and card for standard (reports/guide/)
	$(VENV)/bin/handfoot simulate --games 20000 --seed 1
	$(VENV)/bin/handfoot guide --rules standard --card --report guide

test: $(STAMP)  # compile once, then the suite on every core (pytest-xdist)
	$(PY) -m tests.warm
	$(PY) -m pytest -q -n auto -m 'not conformance_only'

conformance: $(STAMP)  # the checks at scale at full size (about 20 minutes on 2 cores; CI runs it)
	$(PY) -m tests.warm
	HANDFOOT_LONG_CHECKS=1 $(PY) -m pytest -q -n auto -m conformance

bench: $(STAMP)
	$(PY) -m tests.bench.bench

OLD ?= 6e4241a
MATCHUPS ?=
bench-ab: $(STAMP)  # deals/s of this tree against commit $(OLD), interleaved, same run; MATCHUPS="standard:learned standard:tuned" for only those
	$(PY) -m tests.bench.bench_ab $(OLD) $(foreach m,$(MATCHUPS),--matchup $(m))

bench-ab-search: $(STAMP)  # pimc's CPU ms per decision and rollouts/s of this tree against $(OLD), interleaved
	$(PY) -m tests.bench.bench_ab $(OLD) --search --rounds 6

GAMES ?= 60
bench-cluster: $(STAMP)  # a search match on a local dask cluster: 2 workers against 1, same run
	$(PY) -m tests.bench.cluster_speedup $(GAMES)

CPATH ?= simulate
MATCHUP ?= greedy-vs-greedy
bench-functions: $(STAMP)  # time share of each compiled function (needs Linux perf; compiles afresh); MATCHUP=pimc-vs-tuned for a search game, learned-vs-learned
	$(PY) -m tests.bench.bench_functions --matchup $(MATCHUP)

lint: $(STAMP)
	$(VENV)/bin/ruff check sim strategies analysis tests

clean:
	rm -rf $(HOME)/.cache/handfoot .pytest_cache build *.egg-info

# Analysis and reports (the commands: sim/cli/analysis.py, guide.py, study.py; the code:
# analysis/statistics, analysis/experiments, analysis/reports).
.PHONY: ask-hold-wild render-report bench-analysis refit-check compile-table
NAME ?= hold-wild

ask-hold-wild: $(STAMP)  # answers "is holding a wild worth it?"; writes reports/hold-wild/
	$(VENV)/bin/handfoot ask hold-wild

render-report: $(STAMP)  # reports/$(NAME)/index.html -> index.png in headless Chromium
	$(PY) -m analysis.reports.render $(NAME)

compile-table: $(STAMP)  # seconds numba spends on each function of one command path from an empty cache; CPATH=simulate|compare-learned|compare-pimc|warm
	$(PY) -m tests.bench.compile_table $(CPATH)

bench-analysis: $(STAMP)  # peak memory of analysing a 10,000,000-deal run (JSON line)
	$(PY) -m tests.bench.bench_analysis

refit-check: $(STAMP)  # how far the guide's learned verdicts move with a model refitted on the knob-changed base (docs/answers.md)
	$(PY) -m analysis.experiments.refit_check

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint typecheck layers bench catalogs ladders clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,server]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kastkopp serve $(if $(PORT),--port $(PORT)) $(if $(DB),--db $(DB))

# The tests but the cluster's, then the cluster's tests alone, as they time a site's
# recovery on the machine's cores. Each part prints its own failures and durations; `make
# test` fails if either part failed (a part that PYTEST_ARGS leaves empty is no failure).
# PARALLEL="-n 2 --dist loadfile" runs the first part on two processes (pytest-xdist, a
# test module each at a time): a third less time, but with both cores full, waits in the
# browser tests that pass on a page not yet redrawn have shown up one a run; one process
# stays the default until runs on two show none.
PARALLEL ?=

test: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks)
	$(BIN)/mypy
	$(BIN)/lint-imports
	scripts/install-chromium.sh
	scripts/install-nginx.sh
	services=$$(scripts/services.sh start) && \
	trap 'env $$services scripts/services.sh stop' EXIT INT TERM && \
	status=0 && \
	{ env $$services $(BIN)/pytest $(PARALLEL) -m "not cluster" $(PYTEST_ARGS) || \
	  [ $$? -eq 5 ] || status=1; } && \
	{ env $$services $(BIN)/pytest -m cluster $(PYTEST_ARGS) || [ $$? -eq 5 ] || status=1; } && \
	exit $$status

# The suite less the tests marked slow (solves, long simulations, browsers), for a quick
# answer while working; `make test` runs everything.
test-fast: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks)
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -m "not slow" $(PYTEST_ARGS)

layers: $(STAMP)
	$(BIN)/lint-imports

lint: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks)

typecheck: $(STAMP)
	$(BIN)/mypy

catalogs: $(STAMP)
	BIN=$(BIN) scripts/error-catalogs.sh

# The bot ladders of docs/ladder.md, written where the server finds them (/stats/GAME).
# bot:ismcts (100 simulations a move) costs seconds a game: the games it plays are
# laddered heads-up (Poker Menteur seats two anyway), with fewer games
LADDER = nice -n 19 $(BIN)/kastkopp ladder $(1) --seed 2026 --out src/kastkopp/ladders/$(firstword $(1)).json
ladders: $(STAMP)
	$(call LADDER,knack --games 1000 --match 10)
	$(call LADDER,linka --games 200 --players 2 --match 10)
	$(call LADDER,liars_dice --games 24 --players 2)
	$(call LADDER,mia --games 50 --players 2)
	$(call LADDER,poker_dice --games 50)
	$(call LADDER,yatzy --games 200 --players 2)

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info

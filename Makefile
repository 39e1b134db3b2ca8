PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint typecheck layers bench catalogs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,server]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kastkopp serve $(if $(PORT),--port $(PORT)) $(if $(DB),--db $(DB))

test: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks)
	$(BIN)/mypy
	$(BIN)/lint-imports
	scripts/install-chromium.sh
	services=$$(scripts/services.sh start) && \
	trap 'env $$services scripts/services.sh stop' EXIT INT TERM && \
	env $$services $(BIN)/pytest $(PYTEST_ARGS)

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

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info

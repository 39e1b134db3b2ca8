PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench catalogs clean

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
	scripts/install-chromium.sh
	scripts/install-nginx.sh
	services=$$(scripts/services.sh start) && \
	trap 'env $$services scripts/services.sh stop' EXIT INT TERM && \
	env $$services $(BIN)/pytest $(PYTEST_ARGS)

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

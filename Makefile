# Two commands do all the set-up on a fresh machine:
#   make run   - install everything into .venv and start the product
#   make test  - the same set-up, then every check and test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint typecheck pytest bench clean

$(STAMP): pyproject.toml scripts/system-packages.txt
	scripts/install-system-packages
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(BIN)/ubongo serve

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: setup
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/solver.py

clean:
	rm -rf $(VENV) build src/*.egg-info

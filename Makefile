# Two commands a reader needs: `make lab` and `make test`. Both create .venv on first use;
# `make test` also finds (or installs) a Chromium and npm first: tests/machine.py.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.meeple-installed
# `make lab` opens a copy of the lessons, so running and saving them never changes lessons/
# (which `make test` checks and git tracks). Teachers edit lessons/ itself with `make lab-edit`.
LESSONS_COPY ?= $(HOME)/meeple-lessons
# JupyterLab settings shipped with every `make lab`: start the notebook's own kernel (python3)
# without a "Select Kernel" dialog, and no news or update pop-ups.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json
# JupyterLab refuses to run as root without this flag (containers, CI).
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)
# More JupyterLab options, e.g. `make lab LAB_ARGS=--no-browser`.
LAB_ARGS ?=
# The git filter `make lab-edit` installs: outputs, counts and per-machine metadata never reach git.
STRIP := "$(abspath $(BIN))/python" -m nbstripout --keep-id

.PHONY: lab lab-edit git-filter check test bench site clean

# Two stamps, two installs. `make lab` installs what a lab needs: the package and its [lab] extra
# (JupyterLab). `make test` installs every extra (the tests write Parquet, run OpenSpiel, build the
# site and drive JupyterLab), so `make test` after `make lab` installs what the lab left out.
# `pip install meeple` alone has none.
LAB_STAMP := $(VENV)/.meeple-lab
LAB_EXTRAS := lab
EXTRAS := lab,parquet,test,site,openspiel
$(LAB_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[$(LAB_EXTRAS)]'
	@touch $(LAB_STAMP)

# Every extra includes the lab's, so this stamp stands for both.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[$(EXTRAS)]'
	@touch $(STAMP) $(LAB_STAMP)

$(LAB_SETTINGS): Makefile $(LAB_STAMP)
	@mkdir -p $(dir $@)
	@echo '{"@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": true},' \
	  '"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' > $@

# Lessons already in the copy are kept (they hold the reader's work); new ones are added.
lab: $(LAB_STAMP) $(LAB_SETTINGS)
	@mkdir -p "$(LESSONS_COPY)"
	@for f in lessons/*.ipynb; do c="$(LESSONS_COPY)/$${f##*/}"; \
	  if [ ! -e "$$c" ]; then cp "$$f" "$$c"; \
	  elif [ "$$f" -nt "$$c" ]; then echo "make lab: $$f has changed; delete $$c to get the new version"; fi; \
	done
	@echo "make lab: opening your copy of the lessons in $(LESSONS_COPY) (lessons/ itself is not changed)"
	$(BIN)/jupyter lab --notebook-dir="$(LESSONS_COPY)" $(LAB_FLAGS) $(LAB_ARGS)

# For teachers: lessons/ itself, with the git filter, so git stores what you wrote, not what ran
# (nbstripout comes with the test extra, so this target installs every extra).
lab-edit: $(STAMP) $(LAB_SETTINGS) git-filter
	$(BIN)/jupyter lab --notebook-dir=lessons $(LAB_FLAGS) $(LAB_ARGS)

# nbstripout as a git filter for the notebooks named in lessons/.gitattributes (this clone only).
git-filter: $(STAMP)
	@git config filter.nbstripout.clean '$(STRIP)'
	@git config filter.nbstripout.smudge cat
	@git config filter.nbstripout.extrakeys 'metadata.language_info cell.metadata.jp-MarkdownHeadingCollapsed'
	@git config diff.ipynb.textconv '$(STRIP) -t'

# The loop to run while working: the fast tier (tests/rules, tests/widgets, tests/course and the
# house checks: no lesson executed, no site built, no browser), about 6 minutes on two cores (13 busy).
# The slow tiers (tests/lessons, tests/site, tests/browser, the lessons through nbval) run in `make test`.
# It runs on every core (pytest-xdist, each test module whole on one worker; `make check JOBS=0` for
# one process): its tests use their own tmp_path, ports and child processes, nothing shared.
# The README's and design notes' prose checks that run no block (seconds): a name they call that does
# not exist failed only in `make test` once (stop 44)
README_FAST := tests/test_readme.py::test_every_call_the_readme_names_exists_and_the_plain_ones_run \
        tests/test_readme.py::test_the_readme_has_blocks_and_every_skip_says_why \
        tests/test_readme.py::test_the_slow_machine_check_covers_the_blocks_that_play_in_bulk
FAST := tests/rules tests/widgets tests/course tests/test_house.py tests/test_imports.py tests/test_project.py tests/test_makefile.py \
        tests/test_rule_ids.py tests/test_benchmarks_file.py $(README_FAST)
JOBS ?= auto
check: $(STAMP)
	@mkdir -p build
	$(BIN)/python -m pytest -q -n $(JOBS) --dist loadscope --basetemp=build/pytest-check $(FAST)

# pytest's temporary folder is this clone's build/pytest (emptied at the start of each run): not
# /tmp/pytest-of-<user>, which every clone on the machine shares (its `pytest-current` link and
# its clean-up of old runs). The two course-site builds run in the background while the other
# tests do (tests/conftest.py), and the tests that read them run last.
# Two pytest sessions side by side, one a core: the fast tier (FAST, what `make check` runs: no
# lesson, no site, no browser) in the background into build/test-fast.log, and the rest (the lessons
# through nbval, the site builds, every browser test) in front. One session left a core idle for most
# of an hour (CI took 59 minutes); every test runs exactly once, in one of the two. The fast tier's log
# is printed whole when it fails, else its slowest tests and last line; `make test` fails when either session does.
# Each session's timings go to build/test-fast.xml and build/test-slow.xml (JUnit XML), which
# tests/bench/suite_times.py sums per file and per session: the figures for balancing the two.
SLOW_SKIPS := $(foreach t,$(filter-out $(README_FAST),$(FAST)),--ignore=$(t)) $(foreach t,$(README_FAST),--deselect=$(t))
test: $(STAMP)
	@$(BIN)/python tests/machine.py chromium npm
	@mkdir -p build
	@$(BIN)/python -m pytest -q --durations=15 -p no:xdist -p no:cacheprovider --basetemp=build/pytest-fast --junitxml=build/test-fast.xml $(FAST) > build/test-fast.log 2>&1 & \
	fast=$$!; \
	echo "make test: the fast tier runs in the background (build/test-fast.log); the rest here"; \
	$(BIN)/python -m pytest --nbval-lax -q --durations=20 --basetemp=build/pytest --junitxml=build/test-slow.xml $(SLOW_SKIPS); slow=$$?; \
	wait $$fast; fastrc=$$?; \
	if [ $$fastrc -ne 0 ]; then echo "make test: the fast tier FAILED (build/test-fast.log):"; cat build/test-fast.log; \
	else echo "make test: the fast tier passed:"; sed -n '/slowest/,$$p' build/test-fast.log; fi; \
	test $$slow -eq 0 -a $$fastrc -eq 0

# Long measurements live here, never in `make test`: games/s per game and bot, written into BENCHMARKS.md.
bench: $(STAMP)
	$(BIN)/python tests/bench/bench_simulate.py --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_engine.py --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_engine.py --explorer-cold --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_engine.py --rss 1000 100000 --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_agreement.py --games 1000 --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_agreement.py --chance --games 5000 --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_lookahead.py --games 600 --update BENCHMARKS.md
	$(BIN)/python tests/bench/bench_sealed.py --update BENCHMARKS.md
	@$(BIN)/python tests/machine.py chromium npm
	$(BIN)/python -m meeple.course.site.build --lessons 01_first_interval --out build/bench-site
	$(BIN)/python tests/bench/bench_site.py --games-only --site build/bench-site/html --update BENCHMARKS.md

# The course as a static HTML site (Jupyter Book 1; runs every lesson; widget JS and Pyodide from npm,
# hashes checked) -> lessons/_build/html, the folder to copy to any static host.
# `make site SOLUTIONS=no` leaves the cells tagged "solution" out (a graded class). A thin wrapper over
# `meeple site DIR`, which builds the same site from an installed package (pip install 'meeple[site]').
SOLUTIONS ?= yes
# Exactly `yes` or `no`: anything else (`No`, `false`, `0`, empty, a typo) stops before anything is
# installed or built. Refused rather than read as one or the other: a teacher who meant "no" must
# never get a site with the solutions, and guessing which spellings mean "no" would still let
# another one through; the error names the two values.
ifneq ($(filter site,$(MAKECMDGOALS)),)
ifneq ($(words $(SOLUTIONS))$(filter yes no,$(SOLUTIONS)),1$(strip $(SOLUTIONS)))
$(error SOLUTIONS='$(SOLUTIONS)' is not allowed: make site SOLUTIONS=yes (the default, solutions shown) or SOLUTIONS=no (a graded site, solutions left out))
endif
endif
site: $(STAMP)
	@$(BIN)/python tests/machine.py npm
	$(BIN)/meeple site lessons/_build $(if $(filter no,$(SOLUTIONS)),--graded,) $(if $(ROSTER),--roster $(ROSTER),)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache lessons/_build

# Set-up is part of every target: a fresh clone needs only Python 3.11+, git and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast check bench bench-append bench-import bench-analytics schemas new-database samples clean

# Bytecode caches on even where the machine turns them off (PYTHONDONTWRITEBYTECODE=1): without
# them every `ktlog` a test starts compiles ktlog's sources again (0.24 against 0.13 CPU-s a
# command) and each worker rewrites every test module's asserts. The caches are git-ignored.
CACHED := PYTHONDONTWRITEBYTECODE=

# The install is uv's (in the test extras; pip only installs uv): 12.6 CPU-s against pip's 21, and
# the wheel tests build and install from uv's cache (docs/performance.md, the set-up by uv). uv
# compiles nothing: a module is compiled when first imported and kept (CACHED), not every module
# of every dependency (boto3's, mypy's, pandas' ... most never imported). --system-certs: the
# machine's own certificates, which pip trusts too (a registry reached through a proxy of its own CA).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -qq --disable-pip-version-check 'uv>=0.13.9,<1'
	$(BIN)/uv pip install -q --system-certs --python $(BIN)/python -e '.[test]'
	touch $(STAMP)

run: $(STAMP)  ## set up, then run ktlog's main job on the default database
	$(CACHED) $(BIN)/ktlog

PYTEST := $(CACHED) $(BIN)/python -m pytest -n auto --dist loadfile  # a worker per core (pytest-xdist), a file's tests in one worker (its module fixtures made once: 64 -> 56 CPU-s for the browser and S3 files); the slowest 15 tests are named at the end

test: $(STAMP)  ## set up, then run the whole test suite (about 6 to 7 minutes on 2 cores)
	$(PYTEST)

test-fast: $(STAMP)  ## the core tests only: no terminal UI, reliability trials or slow tests (about a minute)
	$(PYTEST) -m "not tui and not reliability and not slow and not browser"

check: $(STAMP)  ## lint, format check, type check and the import contracts (configured in pyproject.toml)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy ktlog
	$(BIN)/lint-imports

bench: $(STAMP)  ## the core benchmarks quoted in docs/performance.md
	$(BIN)/python benchmarks/run.py

bench-append: $(STAMP)  ## one append's CPU and wall against a bare INSERT+COMMIT of the same row (issue 15)
	$(BIN)/python benchmarks/append_bench.py

bench-import: $(STAMP)  ## ktlog import's whole-process CPU against a bare executemany of the same rows, 1, 2 ... processes, and each stage's floor (issue 26)
	$(BIN)/python benchmarks/import_bench.py

bench-analytics: $(STAMP)  ## issue 5's league benchmark (builds a 10,000-game league once; pandas in .venv-bench)
	test -x .venv-bench/bin/python || ($(PYTHON) -m venv .venv-bench && .venv-bench/bin/pip install --quiet pandas)
	$(BIN)/python benchmarks/analytics.py

schemas: $(STAMP)  ## regenerate ktlog/data/schemas/ from ktlog/events.py
	$(BIN)/python -m ktlog.files.schemas

new-database: $(STAMP)  ## write ktlog/storage/new_database.py again after adding a migration
	$(BIN)/python tools/write_new_database.py
	$(BIN)/ruff format --quiet ktlog/storage/new_database.py

samples: $(STAMP)  ## regenerate ktlog/data/samples/*.jsonl from tools/sample_games/scripts/
	$(BIN)/python tools/sample_games/build.py

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache .hypothesis

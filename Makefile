# Set-up is idempotent: each step reruns only when its inputs change.
include versions.env
OWUI_VERSION ?= $(OPEN_WEBUI_VERSION)
# Each Open WebUI version installs once into a venv of its own, outside the clone (about 3 GB),
# reused by later runs and by CI: `OWUI_VERSION=0.9.6 make test-e2e`.
OWUI_CACHE ?= $(HOME)/.cache/owui-citations
owui_venv = $(OWUI_CACHE)/open-webui-$(1)
OWUI_VENV ?= $(call owui_venv,$(OWUI_VERSION))
# The newest patch of every supported minor line, oldest first (`make test-matrix`).
OWUI_MATRIX := 0.6.43 0.7.2 0.8.12 0.9.6 0.10.2 0.11.4 $(OPEN_WEBUI_VERSION)
OWUI_OLDEST := $(firstword $(OWUI_MATRIX))
E2E_ARGS ?=
# Two pytest workers (pytest-xdist), a test file each at a time (its module's stack and browser stay on
# one): the end-to-end tests wait on servers and browsers about half the time, the others on subprocesses.
# Not for Firefox: two of it and their stacks keep both cores busy (measured no shorter). Not for the
# other tests: a file's tests are scheduled by node id there, and Schemathesis gives each API operation's
# test the function's (tests/mock/test_fuzz_api.py): one of them would run. They take pytest-xdist's default.
PYTEST_WORKERS := -n 2
WORKERS ?= $(PYTEST_WORKERS) --dist loadfile
TORCH_VERSION := 2.13.0
# The real LiteLLM proxy (versions.env's LITELLM_VERSION), in a venv of its own.
LITELLM_VENV ?= $(OWUI_CACHE)/litellm-$(LITELLM_VERSION)
PYTHON ?= python3
VERSION := $(shell cat VERSION)
WHEEL := dist/owui_citations-$(VERSION)-py3-none-any.whl
VENV_PY := .venv/bin/python
export OWUI_VENV OWUI_VERSION OWUI_CACHE LITELLM_VENV

.PHONY: help setup debian-packages build dist install-extension demo test test-mock test-e2e test-e2e-webext \
	test-e2e-oldest test-matrix test-ts lint lock record-litellm record-markup record-markup-corpus record-markup-hostile hardening-checks producer-tables verify-producers new-producer recall bench bench-core bench-relay fuzz fuzz-mock soak clean
.DEFAULT_GOAL := help

help:
	@echo "make demo   mock server + a real Open WebUI wired to it"
	@echo "make test   install what is missing, then run every test"
	@echo "make dist   the wheel, the bundle, the browser extensions and the userscript, in dist/ with SHA256SUMS"
	@echo "make test-matrix   every scenario end to end on every supported Open WebUI line, then docs/compatibility.md"

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

$(LITELLM_VENV)/.installed-$(LITELLM_VERSION):
	$(PYTHON) -m venv $(LITELLM_VENV)
	$(LITELLM_VENV)/bin/pip install --quiet --disable-pip-version-check "litellm[proxy]==$(LITELLM_VERSION)"
	touch $@

# The browsers and servers the end-to-end tests drive, from Debian's packages.
debian-packages:
	@scripts/ensure-debian.sh chromium >/dev/null
	@scripts/ensure-debian.sh firefox-esr >/dev/null
	@scripts/ensure-debian.sh nginx >/dev/null
	@scripts/ensure-debian.sh redis-server >/dev/null
	@scripts/ensure-debian.sh postgresql >/dev/null

setup: .venv/.installed node_modules/.installed $(OWUI_VENV)/.installed-$(OWUI_VERSION) \
	$(LITELLM_VENV)/.installed-$(LITELLM_VERSION) debian-packages

build: node_modules/.installed
	npm run --silent build

# Every artifact of one version, with its SHA-256, in dist/ (scripts/dist.py).
dist: .venv/.installed build
	$(VENV_PY) scripts/dist.py

# As an admin installs it: the wheel into Open WebUI's own environment, then its console script,
# run away from the checkout (nothing of it on the path).
install-extension: dist $(OWUI_VENV)/.installed-$(OWUI_VERSION)
	$(OWUI_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall $(WHEEL)
	cd / && $(OWUI_VENV)/bin/owui-citations install

# SCALE=2: that many Open WebUI replicas behind a round-robin nginx, sharing PostgreSQL and Redis.
SCALE ?= 1
demo: setup install-extension
	$(VENV_PY) -m devstack --replicas $(SCALE)

test-mock: .venv/.installed
	$(VENV_PY) -m pytest tests/mock

test-e2e: setup install-extension
	$(VENV_PY) -m pytest tests/e2e $(E2E_ARGS)

# The oldest supported line, in CI beside the pinned newest: one scenario per route, in one mode (they
# alternate: BROWSER_MODE in tests/e2e/test_citations.py), each list feature once, the relay; every
# scenario in both modes on every line is make test-matrix's.
test-e2e-oldest:
	$(MAKE) --no-print-directory test-e2e OWUI_VERSION=$(OWUI_OLDEST) OWUI_VENV=$(call owui_venv,$(OWUI_OLDEST)) \
	  E2E_ARGS="$(WORKERS) -m '(per_route and not other_mode) or oldest_line or relay'"

# The browser extension's test builds in Chromium and Firefox ESR, and the userscript, each in an
# Open WebUI that serves its own loader.js (devstack/delivery.py), each route in one mode (BROWSER_MODE).
# Firefox: one scenario per route. Chromium runs the same bundle as the pinned run, only put in the
# page another way: its packaging, a chunk's fields streamed and a message's not.
test-e2e-webext: setup install-extension
	E2E_DELIVERY=webext $(VENV_PY) -m pytest tests/e2e -m "per_route and not other_mode" -k "packaging or perplexity or azure"
	E2E_DELIVERY=webext $(VENV_PY) -m pytest tests/e2e -m "per_route and not other_mode" --browser firefox
	E2E_DELIVERY=userscript $(VENV_PY) -m pytest tests/e2e -m "per_route and not other_mode" -k "perplexity or status or second_part"

# Every scenario, streamed and not and after a reload, on every line (about 9 min a line); the other
# end-to-end tests run in make test on the pinned and oldest lines (MATRIX_ARGS= runs them all here too).
# Goes on after a failing version, so that the table shows every version; fails at the end.
MATRIX_ARGS ?= -k test_scenario_shows_its_sources_and_keeps_them_after_reload
test-matrix: .venv/.installed
	@failed=; for version in $(OWUI_MATRIX); do \
	  rm -f test-results/e2e-$$version.json; \
	  $(MAKE) --no-print-directory test-e2e OWUI_VERSION=$$version OWUI_VENV=$(call owui_venv,$$version) \
	    E2E_ARGS="$(MATRIX_ARGS)" || failed="$$failed $$version"; \
	done; \
	$(VENV_PY) scripts/compat_table.py $(OWUI_MATRIX); \
	if [ -n "$$failed" ]; then echo "test-matrix: failures on$$failed (see docs/compatibility.md)"; exit 1; fi

test-ts: .venv/.installed build
	npm run --silent typecheck
	npm test --silent

# Every format end to end is make test-matrix's: here, one per route, and every format's view on Open
# WebUI's recorded markup (npm test: extension/src/ui/markup.test.ts).
test: setup install-extension
	$(MAKE) --no-print-directory lint
	npm run --silent typecheck
	npm test --silent
	$(VENV_PY) -m pytest $(PYTEST_WORKERS) --ignore=tests/e2e
	$(VENV_PY) -m pytest tests/e2e $(WORKERS) -m "not every_format" --durations=30
	$(MAKE) --no-print-directory test-e2e-webext
	$(MAKE) --no-print-directory test-e2e-oldest

# What the real LiteLLM proxy answers for the scenarios it relays (Claude, Gemini, a knowledge base), for the core's tests.
record-litellm: .venv/.installed $(LITELLM_VENV)/.installed-$(LITELLM_VERSION)
	PYTHONPATH=. $(VENV_PY) scripts/record_litellm.py

# How Open WebUI draws each scenario's answer, for the UI's tests on its markup; again after changing a
# scenario or the pinned line (and with OWUI_VERSION=$(OWUI_OLDEST) for the oldest).
record-markup: setup install-extension
	PYTHONPATH=. $(VENV_PY) scripts/record_markup.py

# The same for every backend of the unnamed corpus the mock serves (its directories: mock_server/corpus.py),
# for the contract test of what the core reads and the page shows (extension/src/ui/corpus-markup.test.ts);
# again after changing a corpus file, its directories, or the pinned line.
record-markup-corpus: setup install-extension
	PYTHONPATH=. $(VENV_PY) scripts/record_markup.py --corpus

# The same for every producer's hostile twin, for the trap on Open WebUI's markup
# (extension/src/ui/hostile-markup.test.ts); again after changing a hostile scenario, its payloads or the pinned line.
record-markup-hostile: setup install-extension
	PYTHONPATH=. $(VENV_PY) scripts/record_markup.py --hostile

# The hostile payloads and the hostile and malformed scenarios' checks, for the TypeScript tests that read them
# (extension/test-support/fixtures/hardening.json); again after changing one of those files.
hardening-checks: .venv/.installed
	PYTHONPATH=. $(VENV_PY) scripts/hardening_checks.py

# The README's and docs/formats.md's producer tables, from the scenario files' `docs` entries.
producer-tables: .venv/.installed
	PYTHONPATH=. $(VENV_PY) scripts/producer_tables.py

# Every named producer whole: its folder's pieces, its registry line, parser, wire shape, recorded
# markup and docs rows (scripts/verify_producers.py); one message per missing piece.
verify-producers: .venv/.installed
	PYTHONPATH=. $(VENV_PY) scripts/verify_producers.py

# A new producer's folder (data, parser, wire shape) from templates, and the registry line to add: make new-producer NAME=acme
new-producer: .venv/.installed
	PYTHONPATH=. $(VENV_PY) scripts/new_producer.py $(NAME)

# How much of the unnamed-backends corpus the built core reads (scripts/unnamed_recall.py): the half
# to build from unless told, `make recall DIR=…`; RECALL_ARGS="--json out.json" for the rows.
DIR ?= corpus/unnamed/build
recall: .venv/.installed build
	PYTHONPATH=. $(VENV_PY) scripts/unnamed_recall.py $(DIR) $(RECALL_ARGS)

bench-core: node_modules/.installed
	npm run --silent bench:core

# Figure 10 of make bench alone (seconds, no browser): the relay filter's CPU per chunk and bytes per answer.
bench-relay: .venv/.installed
	$(VENV_PY) -m bench.relay

# Not part of `make test`: about 50 minutes. `make bench BENCH_ARGS=--smoke` (about 5 minutes) proves it
# still measures every figure, with and without the extension: run it after changing bench/.
# A full run (no BENCH_ARGS) writes bench/results.json, to commit, and docs/performance.md from it.
bench: setup build
	$(VENV_PY) -m bench $(BENCH_ARGS)
	@if [ -z "$(BENCH_ARGS)" ]; then $(VENV_PY) -m bench.page; fi

# Long runs, not part of `make test` (which runs the same properties with fewer cases).
MOCK_FUZZ_EXAMPLES ?= 2000
SOAK_SECONDS ?= 120

fuzz-mock: .venv/.installed
	MOCK_FUZZ_EXAMPLES=$(MOCK_FUZZ_EXAMPLES) $(VENV_PY) -m pytest -p no:cacheprovider -o timeout=0 \
	  tests/mock/test_fuzz_api.py

fuzz: node_modules/.installed fuzz-mock
	npm run --silent fuzz

soak: .venv/.installed
	$(VENV_PY) -m bench.soak --seconds $(SOAK_SECONDS)

# Checks only, no rewrite (make test runs it): ruff and mypy for Python, Biome for TypeScript.
# To rewrite what they can: ruff format; ruff check --fix; npx biome check --write.
lint: .venv/.installed node_modules/.installed
	PYTHONPATH=. $(VENV_PY) scripts/verify_producers.py
	$(VENV_PY) -m ruff check
	$(VENV_PY) -m ruff format --check
	$(VENV_PY) -m mypy
	npx --no-install biome ci --colors=off

# requirements.lock from requirements.in: every pin, with its hashes (LOCK_ARGS=--upgrade to move them).
lock: .venv/.installed
	.venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe --no-strip-extras --no-emit-index-url \
	  --no-emit-find-links $(LOCK_ARGS) --output-file requirements.lock requirements.in

clean:
	rm -rf .venv node_modules extension/dist dist owui_citations/bundle

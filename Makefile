# bookchat: `make run` and `make test` are all a new user needs; both set everything up first.
SHELL := /bin/bash
VENV := backend/.venv
BOOKCHAT := $(VENV)/bin/bookchat
export HF_HUB_OFFLINE := 1
export NO_UPDATE_NOTIFIER := 1

.PHONY: run test setup setup-python setup-web lint test-python test-web eval eval-shared train bench clean

## run: install, ingest the sample book, serve the API (:8000) and the site (:3000)
run: setup
	@scripts/run.sh

## test: install, then lint, type-check, unit/integration/browser tests and the eval gate
test: setup
	@scripts/test.sh

setup: setup-python setup-web

setup-python:
	@scripts/setup-python.sh

setup-web:
	@scripts/web.sh install

lint: setup-python
	cd backend && .venv/bin/ruff check src tests training ../bench && .venv/bin/ruff format --check src tests training ../bench && .venv/bin/mypy

test-python: setup-python
	@scripts/services.sh
	cd backend && .venv/bin/python -m pytest

test-web: setup
	@scripts/web.sh test

## eval: the sample-book evaluation and its release gate (fresh temp index; rows in bench/results/)
eval: setup-python
	@scripts/eval-gate.sh
	$(VENV)/bin/python bench/quality_page.py

## eval-shared: squad-dev10 and robotics-textbook evaluations (needs ../shared), rows in bench/results/
eval-shared: setup-python
	@scripts/eval-shared.sh
	$(VENV)/bin/python bench/quality_page.py

## train: refit the answer model and its closeness (answer/model.json, ~3 min), train the answer reader
## (answer/reader.safetensors, ~45-60 min on 2 cores; QUICK=1: a tenth of the data, minutes) and
## measure it on held-out training data (answer/reader.json); needs ../shared
train: setup-python
	$(VENV)/bin/python backend/training/train.py
	$(VENV)/bin/python backend/training/closeness.py
	$(VENV)/bin/python backend/training/train_reader.py $(if $(QUICK),--quick)
	$(VENV)/bin/python backend/training/calibrate_reader.py

## bench: ingestion, query and scale benchmarks (JSON on stdout; needs ../shared)
bench: setup-python
	$(VENV)/bin/python bench/ingest.py
	$(VENV)/bin/python bench/query.py
	$(VENV)/bin/python bench/scale.py
	$(VENV)/bin/python bench/history.py

clean:
	rm -rf data website/build website/.docusaurus

# Full Set: `make run` for a dev server, `make test` for the whole check.

VENV := .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

.PHONY: run test lint format venv clean

run: $(STAMP)
	$(PYTHON) manage.py migrate
	@# One process: the server runs the worker (timeouts, bot moves, emails) inside itself.
	WORKER_IN_SERVER=1 $(PYTHON) manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	scripts/install-test-deps.sh
	scripts/run-tests.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

venv: $(STAMP)

$(PYTHON):
	python="$$(scripts/find-python.sh)" && "$$python" -m venv $(VENV)

# Reinstall only when requirements.txt changed since the last install.
$(STAMP): requirements.txt | $(PYTHON)
	$(PYTHON) -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

clean:
	rm -rf $(VENV) staticfiles test-artifacts .pytest_cache .ruff_cache .hypothesis
	rm -f test-db.sqlite3
	find . -name __pycache__ -type d -not -path './.git/*' -prune -exec rm -rf {} +

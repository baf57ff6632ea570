# Thin shortcuts; README.md shows the same commands.
.PHONY: serve build test fast release lint

serve:
	bash scripts/setup.sh docs && NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs serve -a 127.0.0.1:8000

build:
	bash scripts/setup.sh docs && NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict

test:
	bash scripts/setup.sh test && .venv/bin/python -m pytest

fast:
	bash scripts/setup.sh test && .venv/bin/python -m pytest tests/unit tests/site -m "not slow"

release:
	bash scripts/setup.sh test && .venv/bin/python -m pytest -m release

lint:
	bash scripts/setup.sh dev && .venv/bin/ruff check . && .venv/bin/ruff format --check . \
		&& .venv/bin/mypy && .venv/bin/lint-imports && .venv/bin/python scripts/check_repo.py

"""The repository hygiene checks (scripts/check_repo.py, run in CI's lint step)."""

import importlib.util
import shutil

import pytest
from helpers import ROOT

spec = importlib.util.spec_from_file_location(
    "check_repo", ROOT / "scripts" / "check_repo.py"
)
check_repo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_repo)

FILES = (
    "README.md",
    "CHANGELOG.md",
    ".editorconfig",
    ".pre-commit-config.yaml",
    ".github/workflows/docs.yml",
    ".github/workflows/release.yml",
    "tests/helpers.py",
    "benchmarks/build.py",
    "benchmarks/build_times.py",
    "benchmarks/library_scale.py",
    "benchmarks/multiply.py",
    "benchmarks/serve.py",
    "benchmarks/site_weights.py",
    "benchmarks/targets.py",
    "benchmarks/student_run.py",
    ".ci/run",
    "scripts/setup.sh",
    "scripts/lock.sh",
    "requirements/constraints.txt",
)


@pytest.fixture
def repo(tmp_path):
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    return tmp_path


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_copy_passes_every_check(repo):
    assert [p for check in check_repo.CHECKS for p in check(repo)] == []


@pytest.mark.parametrize(
    ("name", "old", "new", "problem"),
    [
        (".github/workflows/docs.yml", "branches: [main]", "branches: [dev]", "pushes"),
        (".github/workflows/docs.yml", "run: bash .ci/run", "run: pytest", ".ci/run"),
        (
            ".github/workflows/docs.yml",
            "python:3.11-bookworm",
            "ubuntu:24.04",
            "Debian",
        ),
        (
            ".github/workflows/docs.yml",
            "setup.sh docs",
            "setup.sh dev",
            "build command",
        ),
        (".github/workflows/docs.yml", "[test, build]", "build", "the tests and"),
        (".github/workflows/docs.yml", "pages: write", "pages: read", "permissions"),
        (".ci/run", ".venv/bin/mypy\n", "", "mypy"),
        (".ci/run", "setup.sh test", "setup.sh dev", "setup.sh test"),
        (
            "scripts/setup.sh",
            '--constraint requirements/constraints.txt "torch',
            '"torch',
            "torch is not installed with",
        ),
        (
            "scripts/setup.sh",
            '--constraint requirements/constraints.txt --group "$group"',
            '--group "$group"',
            "installs without",
        ),
        ("requirements/constraints.txt", "bash scripts/lock.sh", "hand", "lock.sh"),
        (".github/workflows/release.yml", "check --strict", "--version", "twine"),
        (".github/workflows/release.yml", 'tags: ["v*"]', "tags: []", "tags"),
        (
            ".github/workflows/release.yml",
            "id-token: write",
            "contents: write",
            "trusted",
        ),
        (".pre-commit-config.yaml", "id: ruff-format", "id: black", "ruff-format"),
        (".pre-commit-config.yaml", ".venv/bin/ruff check", "ruff check", "ruff must"),
        (
            ".pre-commit-config.yaml",
            "types: [python]\n        pass_filenames: false",
            "types: [python]",
            "mypy needs",
        ),
        (".pre-commit-config.yaml", "args: [--unsafe]", "args: []", "--unsafe"),
        (".pre-commit-config.yaml", "status --check", "status", "another command"),
        (".editorconfig", "end_of_line = lf", "end_of_line = crlf", "end_of_line"),
        ("CHANGELOG.md", "## Unreleased", "## Soon", "Unreleased"),
        ("README.md", "Open Graph", "OG", "'Open Graph'"),
        (
            "benchmarks/build.py",
            "ArgumentDefaultsHelpFormatter",
            "HelpFormatter",
            "defaults",
        ),
        ("tests/helpers.py", '"on" if cache else "off"', '"on"', "cache off"),
    ],
)
def test_each_check_fails_on_its_defect(repo, name, old, new, problem):
    edit(repo / name, old, new)
    found = [p for check in check_repo.CHECKS for p in check(repo)]
    assert any(problem in p for p in found), found


def test_the_command_line_exits_1_and_prints_the_problems(repo, capsys):
    edit(repo / "README.md", "pre-commit install", "pre-commit")
    assert check_repo.main(repo) == 1
    assert "'pre-commit install'" in capsys.readouterr().err

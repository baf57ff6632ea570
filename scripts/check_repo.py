"""Repository hygiene, checked in CI's lint step and by pre-commit.

The files contributors and CI read, rather than the site: the GitHub Pages
workflow runs the README's own commands, pre-commit and the editor settings
are in place, the README points to each feature, the benchmark's help shows
its defaults, and the tests build the site with the execution cache off.

    .venv/bin/python scripts/check_repo.py     # prints each problem; exit 1 if any
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MAIN_ONLY = "github.event_name == 'push' && github.ref == 'refs/heads/main'"
README_PHRASES = (
    "API reference",
    "Edit this page",
    ".github/workflows/docs.yml",
    "pre-commit install",
    "CHANGELOG.md",
    "test-artifacts/screenshots/",
    "404",
    "Open Graph",
)
CACHE_OFF = '"ATTENTION_DOCS_CACHE": "on" if cache else "off"'


def readme_commands(root: Path) -> list[str]:
    """The shell commands of the README's ``bash`` blocks, one per line."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.S)
    return [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.startswith("#")
    ]


def check_workflow(root: Path) -> list[str]:
    """The Pages workflow tests and builds with the README's commands; main deploys."""
    workflow = yaml.safe_load((root / ".github/workflows/docs.yml").read_text())
    triggers = workflow.get(True, {})  # YAML 1.1 reads the key "on" as True
    jobs = workflow.get("jobs", {})
    build, deploy = jobs.get("build", {}), jobs.get("deploy", {})
    runs = "\n".join(step.get("run", "") for step in build.get("steps", []))
    uses = [s.get("uses", "") for s in build.get("steps", []) + deploy.get("steps", [])]
    commands = readme_commands(root)
    wanted = {
        "runs on pushes to main and on pull requests": (
            triggers.get("push", {}).get("branches") == ["main"]
            and "pull_request" in triggers
        ),
        "runs the README's test command": any(
            "pytest" in c and c in runs for c in commands
        ),
        "runs the README's build command": any(
            "mkdocs build" in c and c in runs for c in commands
        ),
        "uploads and deploys to GitHub Pages": (
            any(u.startswith("actions/upload-pages-artifact") for u in uses)
            and any(u.startswith("actions/deploy-pages") for u in uses)
        ),
        "deploys only from pushes to main, after the build": (
            deploy.get("if") == MAIN_ONLY and deploy.get("needs") == "build"
        ),
        "deploys with only the Pages permissions": (
            deploy.get("permissions") == {"pages": "write", "id-token": "write"}
        ),
    }
    problems = [
        f"docs.yml: the workflow no longer {w}" for w, ok in wanted.items() if not ok
    ]
    for command in commands:
        try:
            shlex.split(command)
        except ValueError as error:
            problems.append(f"README.md: {command!r} is not valid shell: {error}")
    return problems


def check_release_workflow(root: Path) -> list[str]:
    """Every push builds and checks the library; only version tags publish it."""
    workflow = yaml.safe_load((root / ".github/workflows/release.yml").read_text())
    triggers = workflow.get(True, {})
    jobs = workflow.get("jobs", {})
    dist, publish = jobs.get("dist", {}), jobs.get("publish", {})
    runs = "\n".join(step.get("run", "") for step in dist.get("steps", []))
    uses = [step.get("uses", "") for step in publish.get("steps", [])]
    wanted = {
        "runs on every push and on version tags": (
            triggers.get("push", {}).get("branches") == ["**"]
            and triggers.get("push", {}).get("tags") == ["v*"]
        ),
        "builds the wheel and the sdist": "python -m build" in runs,
        "checks them with twine": "twine check --strict" in runs,
        "publishes only from version tags, after the check": (
            publish.get("if") == "startsWith(github.ref, 'refs/tags/v')"
            and publish.get("needs") == "dist"
        ),
        "publishes by trusted publishing alone": (
            publish.get("permissions") == {"id-token": "write"}
            and any(u.startswith("pypa/gh-action-pypi-publish") for u in uses)
        ),
    }
    return [
        f".github/workflows/release.yml: {what}: no"
        for what, ok in wanted.items()
        if not ok
    ]


def check_contributor_files(root: Path) -> list[str]:
    """pre-commit runs ruff, the YAML and whitespace checks and the parity check."""
    config = yaml.safe_load((root / ".pre-commit-config.yaml").read_text())
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    wanted = {"ruff", "ruff-format", "check-yaml", "end-of-file-fixer"}
    wanted |= {"trailing-whitespace", "translation-parity", "repository-hygiene"}
    problems = [
        f".pre-commit-config.yaml: no {h} hook" for h in sorted(wanted - set(hooks))
    ]
    if hooks.get("check-yaml", {}).get("args") != ["--unsafe"]:
        problems.append(
            ".pre-commit-config.yaml: check-yaml needs --unsafe (mkdocs.yml)"
        )
    parity = hooks.get("translation-parity", {}).get("entry", "")
    if "attention_docs_site.translations status --check" not in parity:
        problems.append(
            ".pre-commit-config.yaml: translation-parity runs another command"
        )
    editorconfig = (root / ".editorconfig").read_text()
    if "root = true" not in editorconfig or "end_of_line = lf" not in editorconfig:
        problems.append(".editorconfig: needs root = true and end_of_line = lf")
    changelog = (root / "CHANGELOG.md").read_text()
    if not changelog.startswith("# Changelog") or "## Unreleased" not in changelog:
        problems.append("CHANGELOG.md: needs its title and an Unreleased section")
    return problems


def check_readme(root: Path) -> list[str]:
    """The README points to each feature a contributor looks for."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"README.md: does not mention {p!r}" for p in README_PHRASES if p not in readme
    ]


def check_benchmark_help(root: Path) -> list[str]:
    """``benchmarks/build.py --help`` shows its defaults."""
    result = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "build.py"), "--help"],
        capture_output=True,
        text=True,
    )
    text = " ".join(result.stdout.split())  # argparse wraps to the terminal
    if (
        result.returncode
        or "(default: 3)" not in text
        or "(default: 100000)" not in text
    ):
        return ["benchmarks/build.py --help: does not show its defaults"]
    return []


def check_tests_build_without_cache(root: Path) -> list[str]:
    """The tests' site builds run with the execution cache off unless asked."""
    if CACHE_OFF not in (root / "tests" / "helpers.py").read_text():
        return ["tests/helpers.py: site builds must run with the cache off by default"]
    return []


CHECKS: tuple[Callable[[Path], list[str]], ...] = (
    check_workflow,
    check_release_workflow,
    check_contributor_files,
    check_readme,
    check_benchmark_help,
    check_tests_build_without_cache,
)


def main(root: Path = ROOT) -> int:
    """Run every check; print each problem. Returns 1 if there is any."""
    problems = [problem for check in CHECKS for problem in check(root)]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Repository hygiene, checked in CI's lint step and by pre-commit.

The files contributors and CI read, rather than the site: the GitHub Pages
workflow runs CI's own script (`.ci/run`, the README's test command with lint
and the type check) in Debian and the README's build command, setup installs
the locked versions, pre-commit runs the locked tools and the editor settings
are in place, the README points to each feature, the benchmark's help shows
its defaults, the tests build the site with the execution cache off, and the
code is in small rooms: no module over 350 lines, no function over 50.

    .venv/bin/python scripts/check_repo.py     # prints each problem; exit 1 if any
    .venv/bin/python scripts/check_repo.py --sizes src benchmarks scripts
                                               # only the sizes, in these folders
"""

from __future__ import annotations

import argparse
import ast
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
    "scripts/lock.sh",
    "mypy",
    "Edit this page",
    ".github/workflows/docs.yml",
    "pre-commit install",
    "CHANGELOG.md",
    "test-artifacts/screenshots/",
    "404",
    "Open Graph",
)
CACHE_OFF = '"ATTENTION_DOCS_CACHE": "on" if cache else "off"'
# Debian bookworm with Python 3.11: the images whose Chromium is Debian's package.
CI_IMAGES = ("python:3.11-bookworm", "debian:bookworm")
CI_RUN = "bash .ci/run"
LINT = (
    ".venv/bin/ruff check .",
    ".venv/bin/ruff format --check .",
    ".venv/bin/mypy",
    ".venv/bin/python scripts/check_repo.py",
)
LOCK = "requirements/constraints.txt"
# The folders whose modules and functions are held to the sizes below.
SIZED = ("src/attention_docs", "src/attention_docs_site", "benchmarks", "scripts")
EVERYTHING = ("src", "benchmarks", "scripts")  # what --sizes checks by default
MAX_MODULE_LINES = 350
MAX_FUNCTION_LINES = 50  # from its def to its last line, its docstring left out
LOCAL_HOOKS = {
    "ruff": ".venv/bin/ruff check",
    "ruff-format": ".venv/bin/ruff format --check",
    "mypy": ".venv/bin/mypy",
}


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


def _runs(job: dict) -> str:
    """The shell commands of a workflow job's steps."""
    return "\n".join(step.get("run", "") for step in job.get("steps", []))


def _in_debian(job: dict) -> bool:
    """Whether a workflow job runs in one of the Debian bookworm images."""
    container = job.get("container", "")
    image = container.get("image", "") if isinstance(container, dict) else container
    return image in CI_IMAGES


def check_workflow(root: Path) -> list[str]:
    """The Pages workflow runs CI's script and the README's build; main deploys."""
    workflow = yaml.safe_load((root / ".github/workflows/docs.yml").read_text())
    triggers = workflow.get(True, {})  # YAML 1.1 reads the key "on" as True
    jobs = workflow.get("jobs", {})
    test, build = jobs.get("test", {}), jobs.get("build", {})
    deploy = jobs.get("deploy", {})
    uses = [s.get("uses", "") for s in build.get("steps", []) + deploy.get("steps", [])]
    commands = readme_commands(root)
    wanted = {
        "runs on pushes to main and on pull requests": (
            triggers.get("push", {}).get("branches") == ["main"]
            and "pull_request" in triggers
        ),
        "tests with .ci/run in Debian bookworm": (
            _in_debian(test) and CI_RUN in _runs(test).splitlines()
        ),
        "runs the README's build command in Debian bookworm": _in_debian(build)
        and any("mkdocs build" in c and c in _runs(build) for c in commands),
        "uploads and deploys to GitHub Pages": (
            any(u.startswith("actions/upload-pages-artifact") for u in uses)
            and any(u.startswith("actions/deploy-pages") for u in uses)
        ),
        "deploys only from pushes to main, after the tests and the build": (
            deploy.get("if") == MAIN_ONLY
            and sorted(deploy.get("needs", [])) == ["build", "test"]
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


def check_ci_script(root: Path) -> list[str]:
    """``.ci/run`` is the README's test command with lint and mypy in between."""
    lines = (root / ".ci" / "run").read_text().splitlines()
    test = next((c for c in readme_commands(root) if "pytest" in c), "")
    setup, _, pytest = test.partition(" && ")
    wanted = [setup, *LINT, pytest]
    found = [line for line in lines if line in wanted]
    if not setup or found != wanted:
        return [f".ci/run: must run, in this order: {'; '.join(wanted)}"]
    return []


def check_lock(root: Path) -> list[str]:
    """scripts/setup.sh installs everything with the lock that scripts/lock.sh makes."""
    setup = (root / "scripts" / "setup.sh").read_text().replace("\\\n", " ")
    installs = [
        line
        for line in setup.splitlines()
        if re.search(r"\binstall\b", line) and '"${pip[@]}"' in line
    ]
    unlocked = [
        line.strip()
        for line in installs
        if "pip>=" not in line and f"--constraint {LOCK}" not in line
    ]
    problems = [f"scripts/setup.sh: installs without {LOCK}: {u}" for u in unlocked]
    if not any('"torch==2.13.0"' in line and LOCK in line for line in installs):
        problems.append(f"scripts/setup.sh: torch is not installed with {LOCK}")
    if LOCK not in (root / "scripts" / "lock.sh").read_text():
        problems.append(f"scripts/lock.sh: does not write {LOCK}")
    if "bash scripts/lock.sh" not in (root / LOCK).read_text():
        problems.append(f"{LOCK}: does not say it is made by `bash scripts/lock.sh`")
    return problems


def check_contributor_files(root: Path) -> list[str]:
    """pre-commit runs the locked ruff and mypy, YAML, whitespace and parity checks."""
    config = yaml.safe_load((root / ".pre-commit-config.yaml").read_text())
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    wanted = {"ruff", "ruff-format", "mypy", "check-yaml", "end-of-file-fixer"}
    wanted |= {"trailing-whitespace", "translation-parity", "repository-hygiene"}
    problems = [
        f".pre-commit-config.yaml: no {h} hook" for h in sorted(wanted - set(hooks))
    ]
    for hook, entry in LOCAL_HOOKS.items():
        found = hooks.get(hook, {})
        if found and (found.get("entry"), found.get("language")) != (entry, "system"):
            problems.append(
                f".pre-commit-config.yaml: {hook} must run {entry} (the lock's)"
            )
    if hooks.get("mypy", {}).get("pass_filenames", True):
        problems.append(
            ".pre-commit-config.yaml: mypy needs pass_filenames: false "
            "(it checks the files pyproject.toml names)"
        )
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


def function_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines from its ``def`` to its last line, but its docstring's."""
    lines = (function.end_lineno or function.lineno) - function.lineno + 1
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str):
            lines -= (first.end_lineno or first.lineno) - first.lineno + 1
    return lines


def oversized(root: Path, folders: tuple[str, ...]) -> list[str]:
    """The modules over 350 lines and the functions over 50 in these folders."""
    problems = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            if (count := len(text.splitlines())) > MAX_MODULE_LINES:
                problems.append(
                    f"{name}: {count} lines (at most {MAX_MODULE_LINES}); "
                    "split it by concept"
                )
            for node in ast.walk(ast.parse(text, name)):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if (count := function_lines(node)) > MAX_FUNCTION_LINES:
                    problems.append(
                        f"{name}:{node.lineno}: {node.name} is {count} lines "
                        f"(at most {MAX_FUNCTION_LINES}, docstring left out)"
                    )
    return problems


def check_sizes(root: Path) -> list[str]:
    """The library, the benchmarks and the scripts are in small rooms."""
    return oversized(root, SIZED)


CHECKS: tuple[Callable[[Path], list[str]], ...] = (
    check_workflow,
    check_ci_script,
    check_lock,
    check_release_workflow,
    check_contributor_files,
    check_readme,
    check_benchmark_help,
    check_tests_build_without_cache,
    check_sizes,
)


def main(root: Path = ROOT) -> int:
    """Run every check; print each problem. Returns 1 if there is any."""
    return report([problem for check in CHECKS for problem in check(root)])


def report(problems: list[str]) -> int:
    """Print each problem. Returns 1 if there is any."""
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def command_line(argv: list[str] | None = None) -> int:
    """Every check, or with ``--sizes`` only the sizes, in the folders named."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        nargs="*",
        metavar="FOLDER",
        help="only check the sizes of modules and functions, in these folders "
        f"(default: {' '.join(EVERYTHING)})",
    )
    arguments = parser.parse_args(argv)
    if arguments.sizes is None:
        return main()
    return report(oversized(ROOT, tuple(arguments.sizes) or EVERYTHING))


if __name__ == "__main__":
    sys.exit(command_line())

"""Fixtures and hooks for the three folders and the three tiers of tests.

``unit/`` mirrors the teaching library, ``site/`` the build machinery and
``e2e/`` real builds, the browser, ``mkdocs serve`` and injected faults. Every
test under ``e2e/`` is marked slow by its folder, and so is every test marked
``release``. The tiers (README.md, "Tests in three tiers"): the fast one
leaves out what is slow, the README's command what is release-only, and
``-m release`` runs only that. Under pytest-xdist, the workers share one
strict build of the real site.
"""

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import (
    REAL_SITE,
    build_real_site,
    builds_folder,
    missing_chromium,
    shared_build,
    start_real_site,
)

E2E = Path(__file__).resolve().parent / "e2e"

# The tiers, by the marker expression a run was given.
TIERS = {"not slow": "the fast tier", "release": "the release tier"}
DEFAULT_TIER = "the README's test command"
READERS = {"built_site", "site_build", "warm_cache"}  # fixtures of the real build
# Fixtures of builds made once per run (helpers.shared_build), but for the
# real site's: the first test that asks starts the build, and the others wait.
SHARED_BUILDS = ("editions", "mini_cache", "speed_off_site")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the end-to-end and release tiers slow, and order the run for two workers.

    The real site's build starts in the background as soon as the tests are
    collected (:func:`pytest_collection_finish`), so the quick tiers come
    first: both workers run them while it builds. Then the slow tests that do
    not need the real site, then those that build from its cache (or are
    marked ``builds``), then the browser tests and other readers. With
    ``--maxschedchunk=1`` pytest-xdist hands out tests two at a time as
    workers free up, so the long builds overlap the browser tests rather than
    race each other at the end. Of the tests that share another build
    (:data:`SHARED_BUILDS`), the first goes with the builds and the rest to
    the end of their tier: the other worker would otherwise sit on the
    build's lock, idle, for minutes.
    """
    for item in items:
        if item.path.is_relative_to(E2E) or item.get_closest_marker("release"):
            item.add_marker(pytest.mark.slow)

    def tier(item: pytest.Item) -> int:
        if not item.get_closest_marker("slow"):
            return 0
        return 2 if READERS & set(getattr(item, "fixturenames", ())) else 1

    waiting = set()
    for name in SHARED_BUILDS:
        users = [i for i in items if name in getattr(i, "fixturenames", ())]
        waiting.update(users[1:])

    def builds(item: pytest.Item) -> bool:  # a build of its own
        fixtures = {"warm_cache", *SHARED_BUILDS} & set(
            getattr(item, "fixturenames", ())
        )
        return bool(fixtures) or item.get_closest_marker("builds") is not None

    items.sort(key=lambda item: (tier(item), item in waiting, not builds(item)))


# The library's test modules that compute its memoised experiments (training
# runs, the rates by dimension, every figure): one worker runs them all.
EXPERIMENTS = {
    f"tests/unit/{name}.py"
    for name in (
        "test_claims",
        "test_claims_attention_layer",
        "test_figures",
        "test_svg",
        "test_model",
        "test_explorables",
        "test_attention_layer_figures",
    )
}


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Hand out the library's experiments whole, every other test alone.

    The modules in :data:`EXPERIMENTS` share the library's memoised
    experiments (a training run, the rates by dimension): run by one worker,
    each is computed once. The other tests go one at a time as workers free
    up, in the order :func:`pytest_collection_modifyitems` gave them
    (``--no-loadscope-reorder``).
    """
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::")[0]
            return "the library's experiments" if path in EXPERIMENTS else nodeid

    return Scheduling(config, log)


_background: list[subprocess.Popen] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the real site's build if a test will read it; stop if Chromium is missing.

    One process starts it (the first worker, or pytest without xdist); the
    build takes its lock at once, and the readers wait there.
    """
    worker = getattr(session.config, "workerinput", {}).get("workerid", "gw0")
    needed = any(READERS & set(getattr(i, "fixturenames", ())) for i in session.items)
    if needed and worker == "gw0" and not session.config.option.collectonly:
        base = builds_folder(session.config._tmp_path_factory)
        _background.append(start_real_site(base))
    if hasattr(session.config, "workerinput"):
        return  # the browser was decided by pytest_sessionstart in the controller
    browser_tests = [i for i in session.items if i.path in BROWSER_TESTS]
    missing = missing_chromium() if browser_tests else None
    if missing:
        pytest.exit(
            f"{missing} ({len(browser_tests)} browser tests selected)",
            returncode=1,
        )


def pytest_sessionfinish(session: pytest.Session) -> None:
    for build in _background:  # a run stopped early (-x) leaves no build behind
        if build.poll() is None:
            os.killpg(build.pid, signal.SIGTERM)  # the build's mkdocs too
        build.wait()


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    """Name the tier and its wall time, and where the tests' time went."""
    if hasattr(config, "workerinput"):
        return
    wall = time.monotonic() - config._attention_docs_start
    spent: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                folder = report.nodeid.split("/")[1] if "/" in report.nodeid else "?"
                spent[folder] = spent.get(folder, 0.0) + report.duration
    marks = config.option.markexpr
    tier = TIERS.get(marks, DEFAULT_TIER if marks == "not release" else f"-m {marks!r}")
    if config.args and config.args != config.getini("testpaths"):
        tier += f" ({' '.join(config.args)})"
    by_folder = ", ".join(f"{name} {s:.0f} s" for name, s in sorted(spent.items()))
    terminalreporter.write_sep("=", f"{tier}: {wall:.0f} s wall time")
    terminalreporter.write_line(f"test time by folder (all workers): {by_folder}")


BROWSER_TESTS = (
    E2E / "test_browser.py",
    E2E / "test_explorables_browser.py",
    E2E / "test_figure_text.py",
    E2E / "test_offline_browser.py",
    E2E / "test_reader.py",
    E2E / "test_rtl_edition.py",
    E2E / "test_third_edition.py",
)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist, stop at once if the browser tests will need Chromium.

    Workers cannot stop the run cleanly, so the controller decides from the
    paths asked for (with -k or -m, each browser test fails on its own).
    """
    config = session.config
    config._attention_docs_start = time.monotonic()
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers:
        return
    missing = missing_chromium()
    if not missing:
        return
    if config.option.keyword or config.option.markexpr:
        return
    asked = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    if any(test.is_relative_to(path) for test in BROWSER_TESTS for path in asked):
        pytest.exit(f"{missing} (browser tests selected)", returncode=1)


@pytest.fixture(scope="session")
def site_build(tmp_path_factory):
    """The real site, built strictly once per test run: (folder, build log).

    The build (started in the background when the tests were collected)
    starts from an empty execution cache, so every block and notebook runs on
    the code under test (``test_real_build_executed_everything``), and it
    leaves the cache filled for :func:`warm_cache`.
    """
    return shared_build(tmp_path_factory, REAL_SITE, build_real_site)


@pytest.fixture(scope="session")
def built_site(site_build):
    """The folder of the real site, built once per test session."""
    return site_build[0]


@pytest.fixture
def warm_cache(site_build, tmp_path) -> Path:
    """A copy of the execution cache the real site's build filled.

    Builds of a copy of the site that test something other than execution
    start from it, and re-run only the blocks their change reaches: about a
    third of a cold build's time. Entries do not depend on the project's path.
    """
    cache = tmp_path / "warm-cache"
    shutil.copytree(site_build[0].parent / "real-site-cache", cache)
    return cache

"""Fixtures and hooks for the three tiers of tests.

``unit/`` mirrors the teaching library, ``site/`` the build machinery and
``e2e/`` real builds, the browser, ``mkdocs serve`` and injected faults. Every
test under ``e2e/`` is marked slow by its folder. Under pytest-xdist, the
workers share one strict build of the real site.
"""

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import (
    CHROMIUM,
    MISSING_CHROMIUM,
    ROOT,
    SOURCE_DATE_EPOCH,
    mkdocs_build,
    run_folder,
    shared_build,
)

E2E = Path(__file__).resolve().parent / "e2e"


# Fixtures of builds made once per run (helpers.shared_build), but for the
# real site's: the first test that asks starts the build, and the others wait.
SHARED_BUILDS = ("japanese", "arabic")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the end-to-end tier slow, and order the run for two workers.

    One test that reads the real site comes first (it starts the real build),
    then the slow tests that do not need it (the end-to-end tests that make
    their own builds from nothing, and the few unit tests that compute for
    minutes), then those that need it: first the ones that make a build of
    their own from its cache (or are marked ``builds``), then the browser
    tests and other readers, then the quick tiers. With
    ``--maxschedchunk=1`` pytest-xdist hands out tests two at a time as
    workers free up: one worker builds the real site while the other starts
    on its own builds, the long builds overlap the browser tests rather than
    race each other at the end, and no worker is left holding a queue of long
    builds while the other idles. Of the tests that share another build
    (:data:`SHARED_BUILDS`), the first goes with the builds and the rest to
    the end of their tier: the other worker would otherwise sit on the
    build's lock, idle, for minutes.
    """

    def tier(item: pytest.Item) -> int:
        if {"built_site", "site_build"} & set(getattr(item, "fixturenames", ())):
            return 1
        return 0 if item.get_closest_marker("slow") else 2

    for item in items:
        if item.path.is_relative_to(E2E):
            item.add_marker(pytest.mark.slow)
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
    readers = [item for item in items if tier(item) == 1]
    if readers:
        items.remove(readers[0])
        items.insert(0, readers[0])


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
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers or Path(CHROMIUM).exists():
        return
    if config.option.keyword or config.option.markexpr:
        return
    asked = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    if any(test.is_relative_to(path) for test in BROWSER_TESTS for path in asked):
        pytest.exit(f"{MISSING_CHROMIUM} (browser tests selected)", returncode=1)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Without xdist, stop before any test runs if the browser is missing.

    Without this, each browser test failed on its own, and pytest's summary cut
    the message short, dozens of times over.
    """
    if hasattr(session.config, "workerinput"):
        return  # decided by pytest_sessionstart in the controller
    browser_tests = [i for i in session.items if i.path in BROWSER_TESTS]
    if browser_tests and not Path(CHROMIUM).exists():
        pytest.exit(
            f"{MISSING_CHROMIUM} ({len(browser_tests)} browser tests selected)",
            returncode=1,
        )


@pytest.fixture(scope="session")
def site_build(tmp_path_factory):
    """The real site, built strictly once per test run: (folder, build log).

    The build starts from an empty execution cache, so every block and notebook
    runs on the code under test (``test_real_build_executed_everything``), and
    it leaves the cache filled for :func:`warm_cache`.
    """

    def make(site: Path) -> subprocess.CompletedProcess:
        return mkdocs_build(
            ROOT,
            site,
            pdf=True,
            cache=site.parent / "real-site-cache",
            env={"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH},
        )

    return shared_build(tmp_path_factory, "real-site", make)


@pytest.fixture(scope="session")
def built_site(site_build):
    """The folder of the real site, built once per test session."""
    return site_build[0]


@pytest.fixture
def warm_cache(site_build, tmp_path_factory, tmp_path) -> Path:
    """A copy of the execution cache the real site's build filled.

    Builds of a copy of the site that test something other than execution
    start from it, and re-run only the blocks their change reaches: about a
    third of a cold build's time. Entries do not depend on the project's path.
    """
    cache = tmp_path / "warm-cache"
    shutil.copytree(run_folder(tmp_path_factory) / "real-site-cache", cache)
    return cache

"""What the tests share: the repository's paths, and strict builds of a copy.

Test modules import these (``from helpers import ...``; pytest puts ``tests/``
on the import path); ``conftest.py`` keeps only fixtures and hooks.
"""

import fcntl
import functools
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from attention_docs_site.editions import read_editions
from attention_docs_site.site.book.chromium import MissingChromiumError, find_chromium
from attention_docs_site.site.book.static_server import serve_folder  # noqa: F401 (shared)

ROOT = Path(__file__).resolve().parents[1]
# The path the site is published under (site_url in mkdocs.yml), e.g. /attention_docs/.
SITE_URL = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(), re.M)[1]
SITE_PATH = urlsplit(SITE_URL).path
SITE_SOURCES = ("mkdocs.yml", "pyproject.toml", "LICENSE", "docs", "overrides", "src")


class _NavLoader(yaml.SafeLoader):
    """Reads mkdocs.yml, whose !!python tags need no evaluation here."""


_NavLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _nav_section(title: str) -> list[str]:
    """The pages of one section of mkdocs.yml's nav, as paths without ``.md``."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=_NavLoader)
    for entry in config["nav"]:
        if isinstance(entry, dict) and title in entry:
            return [page.removesuffix(".md") for page in entry[title]]
    raise LookupError(f"mkdocs.yml's nav has no section {title!r}")


# The site's pages, from its nav, so that a new page cannot miss a test.
CHAPTERS = _nav_section("Chapters")  # e.g. "attention-pooling"
NOTEBOOK_PAGES = _nav_section("Exercises")  # e.g. "exercises/attention-pooling"
NOTEBOOKS = [page.removeprefix("exercises/") for page in NOTEBOOK_PAGES]
REFERENCE_PAGES = _nav_section("Reference")
RELEASE = pytest.mark.release
# The editions, from mkdocs.yml's i18n languages: locale -> folder in the site.
EDITIONS = read_editions(ROOT / "mkdocs.yml")
LANGS = {edition.lang: edition.folder for edition in EDITIONS}
TRANSLATED = [edition.lang for edition in EDITIONS.translated]
# For checks of a minute or so that run the same code in every edition: the
# default edition in the README's command, the translated ones in the
# release tier too (``pytest.mark.parametrize("lang", DEFAULT_FIRST)``).
DEFAULT_FIRST = [
    lang if lang == EDITIONS.default.lang else pytest.param(lang, marks=RELEASE)
    for lang in LANGS
]
# The other way round, where the README's command checks an edition's words
# in one test and the default edition's in another.
TRANSLATED_FIRST = [
    pytest.param(lang, marks=RELEASE) if lang == EDITIONS.default.lang else lang
    for lang in LANGS
]
# The real site's build date (sitemap.xml), fixed so that a second clean build
# can be compared with it byte for byte.
SOURCE_DATE_EPOCH = "1763769600"


def missing_chromium() -> str | None:
    """Why the browser tests cannot run (no Chromium), or None."""
    try:
        find_chromium()
    except MissingChromiumError as error:
        return (
            f"{error}. The browser tests need it: `bash scripts/setup.sh test` "
            "installs it as root on Debian; otherwise install Debian's packages "
            "yourself: `apt-get update && apt-get install -y chromium "
            "fonts-noto-cjk`."
        )
    return None


# What `mkdocs build` reads but no test changes: linked, not copied (Pyodide's
# runtime and the carrier wheel, about 90 MB, which the build publishes).
SITE_LINKED = ("tools/pyodide",)


def copy_site(destination: Path) -> Path:
    """Copy what `mkdocs build` reads into a fresh folder, for fault injection."""
    destination.mkdir(parents=True)
    for name in SITE_SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name)
        else:
            shutil.copy2(source, destination / name)
    for name in SITE_LINKED:
        (destination / name).parent.mkdir(parents=True, exist_ok=True)
        (destination / name).symlink_to(ROOT / name, target_is_directory=True)
    return destination


MINI = ROOT / "tests" / "fixtures" / "mini"


def copy_mini_site(destination: Path) -> Path:
    """A copy of the site whose pages are the small fixture site's.

    Two pages, an API page and a notebook, in both editions, no PyTorch
    (``tests/fixtures/mini``), and no Run buttons, so no Pyodide runtime
    (``ATTENTION_DOCS_RUN_BUTTONS`` turns them on): the build machinery's own
    tests (faults, cache keys, ProperDocs) build it from nothing in a few
    seconds.
    """
    copy_site(destination)
    docs = destination / "docs"
    for page in docs.rglob("*.md"):
        page.unlink()
    shutil.copytree(MINI / "docs", docs, dirs_exist_ok=True)
    config = destination / "mkdocs.yml"
    nav = (MINI / "nav.yml").read_text("utf-8")
    text, count = re.subn(
        r"^nav:\n(?: {2}.*\n)+", nav, config.read_text("utf-8"), flags=re.M
    )
    assert count == 1, "mkdocs.yml has no nav to replace"
    text, count = re.subn(
        r"(run_buttons: !ENV \[ATTENTION_DOCS_RUN_BUTTONS), true\]", r"\1, false]", text
    )
    assert count == 1, "mkdocs.yml has no run_buttons option"
    config.write_text(text, "utf-8")
    return destination


def mkdocs_build(
    project: Path,
    site_dir: Path,
    *,
    notebooks: bool = True,
    pdf: bool = False,
    cache: Path | None = None,
    library: Path | None = None,
    env: dict[str, str] | None = None,
    executable: str = "mkdocs",
) -> subprocess.CompletedProcess:
    """Run a strict `mkdocs build` of a project folder; never raises on failure.

    With ``notebooks=False`` the exercise notebooks are rendered without being
    executed, for tests about other pages that need not wait for kernels. The
    execution cache is off unless ``cache`` names its folder, so figures come
    from the code under test. ``library`` puts another copy of the library's
    ``src`` folder first on the import path; ``env`` adds environment variables;
    ``executable`` is the module that builds (``"properdocs"``, MkDocs' fork).
    """
    environment = {
        **os.environ,
        **(env or {}),
        "NO_MKDOCS_2_WARNING": "1",
        "ATTENTION_DOCS_EXECUTE_NOTEBOOKS": str(notebooks).lower(),
        "ATTENTION_DOCS_PDF": str(pdf).lower(),
        "ATTENTION_DOCS_CACHE": "on" if cache else "off",
    }
    if cache:
        environment["ATTENTION_DOCS_CACHE_DIR"] = str(cache)
    if library:
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(library), os.environ.get("PYTHONPATH")])
        )
    return subprocess.run(
        [sys.executable, "-m", executable, "build", "--strict", "-f", "mkdocs.yml"]
        + ["-d", str(site_dir)],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def set_site_url(project: Path, url: str) -> None:
    """Publish a copy of the site at another address, as a fork's mkdocs.yml would."""
    config = project / "mkdocs.yml"
    text, count = re.subn(
        r"^site_url:.*$", f"site_url: {url}", config.read_text(), flags=re.M
    )
    assert count == 1, "mkdocs.yml has no site_url line"
    config.write_text(text)


def run_folder(tmp_path_factory) -> Path:
    """The test run's temporary folder, shared by the pytest-xdist workers."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    return base


# Set to a folder, the run's shared builds are made there and kept for later
# runs of the same sources (README.md, "Tests in three tiers"): .ci/run's
# release tier reads the builds of the README's command, and a contributor
# iterating on a browser test builds the site once. A change to the sources
# builds everything anew, a change to how the tests build a build that changed.
KEPT_BUILDS = "ATTENTION_DOCS_TEST_BUILDS"
# How the tests make builds is part of each build's key (build_once).
FINGERPRINTED = (*SITE_SOURCES, "site-plugin", "tools/pyodide/carrier.txt")


@functools.cache  # once per process: what the run started with
def sources_fingerprint() -> str:
    """A hash of the sources every shared build reads."""
    digest = hashlib.sha256()
    for name in FINGERPRINTED:
        source = ROOT / name
        files = sorted(source.rglob("*")) if source.is_dir() else [source]
        for path in files:
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def builds_folder(tmp_path_factory) -> Path:
    """Where the shared builds live: the run's folder, or the kept one (above)."""
    kept = os.environ.get(KEPT_BUILDS)
    if not kept:
        return run_folder(tmp_path_factory)
    folder = Path(kept).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "fingerprint.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp, fingerprint = folder / "fingerprint", sources_fingerprint()
        if not stamp.exists() or stamp.read_text() != fingerprint:
            for old in folder.iterdir():  # built from other sources
                if old.name != "fingerprint.lock":
                    shutil.rmtree(old) if old.is_dir() else old.unlink()
            stamp.write_text(fingerprint)
    return folder


def shared_build(
    tmp_path_factory,
    name: str,
    build: Callable[[Path], subprocess.CompletedProcess],
    key: str = "",
) -> tuple[Path, str]:
    """A build made once per test run, whichever worker asks first.

    Under pytest-xdist, the first worker to ask runs ``build(folder)`` while
    the others wait on a lock; they all read the same folder (no test writes
    to it). Sharing by lock rather than ``--dist=loadgroup`` keeps both workers
    busy; loadgroup also stopped grouping with pytest 9.2 (pytest-xdist #1386).

    ``key`` says what else the build depends on (a kept build made with
    another key is made anew).

    Returns:
        The build's folder and its log, once the build succeeded (every
        caller fails with the log otherwise).
    """
    return build_once(builds_folder(tmp_path_factory), name, build, key)


def build_once(
    base: Path,
    name: str,
    build: Callable[[Path], subprocess.CompletedProcess],
    key: str = "",
) -> tuple[Path, str]:
    """:func:`shared_build` in a given folder (also the background build's)."""
    folder, record = base / name, base / f"{name}.json"
    key += "".join(map(inspect.getsource, (copy_site, mkdocs_build, build_real_site)))
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists() or json.loads(record.read_text())["key"] != key:
            shutil.rmtree(folder, ignore_errors=True)
            result = build(folder)
            outcome = {
                "key": key,
                "returncode": result.returncode,
                "log": result.stdout + result.stderr,
            }
            record.write_text(json.dumps(outcome))
    outcome = json.loads(record.read_text())
    assert outcome["returncode"] == 0, outcome["log"]
    return folder, outcome["log"]


REAL_SITE = "real-site"


def build_real_site(site: Path) -> subprocess.CompletedProcess:
    """The real site, strict, with its PDFs, from an empty execution cache.

    Every block and notebook runs on the code under test, and the cache it
    fills (``real-site-cache`` beside the site) serves the builds of copies.
    """
    shutil.rmtree(site.parent / f"{REAL_SITE}-cache", ignore_errors=True)
    return mkdocs_build(
        ROOT,
        site,
        pdf=True,
        cache=site.parent / f"{REAL_SITE}-cache",
        env={"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH},
    )


def start_real_site(base: Path) -> subprocess.Popen:
    """Start the real site's build in the background (tests/conftest.py).

    It takes the build's lock at once; the tests that read the site wait for
    it there, and the others run meanwhile.
    """
    return subprocess.Popen(
        [sys.executable, __file__, str(base)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # ended as a group (tests/conftest.py)
    )


def shared_copy_build(
    tmp_path_factory,
    site_build,
    name: str,
    change: Callable[[Path], None],
    key: str = "",
    **options,
) -> tuple[Path, Path, str]:
    """A copy of the site, changed and built once per run from the real build's cache.

    Parameters:
        site_build: The real build (its cache is copied, so only what the
            change touched runs).
        name: The build's name among the run's shared builds.
        change: What to do to the copied project before the build.
        key: What else the change depends on, beside its own source (the
            module and files it reads), for builds kept between runs.
        **options: For :func:`mkdocs_build` (``pdf``, ``notebooks``).

    Returns:
        The project, its built site and the build's log.
    """

    def make(base: Path) -> subprocess.CompletedProcess:
        project = copy_site(base / "project")
        change(project)
        cache = base / "cache"
        shutil.copytree(site_build[0].parent / "real-site-cache", cache)
        return mkdocs_build(
            project, base / "site", cache=cache, library=project / "src", **options
        )

    key += inspect.getsource(change) + repr(sorted(options.items()))
    base, log = shared_build(tmp_path_factory, name, make, key)
    return base / "project", base / "site", log


def add_edition(project: Path, entry: str, lang: str, words: dict[str, str]) -> None:
    """Steps 1 and 2 of "Add a language": the i18n entry and the interface words.

    Parameters:
        project: A copy of the site (:func:`copy_site`).
        entry: The language's lines for mkdocs.yml's i18n ``languages``, put
            before the ``zh`` entry.
        lang: Its locale.
        words: Catalog values translated (the others stay as in English,
            which the catalog check allows: it checks keys and fields).
    """
    config = project / "mkdocs.yml"
    text, added = re.subn(
        r"(\n        - locale: zh\n)",
        lambda found: "\n" + entry.strip("\n") + found[1],
        config.read_text("utf-8"),
    )
    assert added == 1, f"mkdocs.yml lists no zh language to add {lang} beside"
    config.write_text(text, "utf-8")
    catalogs = project / "src" / "attention_docs_site" / "catalogs"
    catalog = (catalogs / "en.yml").read_text("utf-8")
    for key, value in words.items():
        catalog, found = re.subn(
            rf"^{key}: .*$", f"{key}: {value}", catalog, flags=re.M
        )
        assert found == 1, key
    (catalogs / f"{lang}.yml").write_text(catalog, "utf-8")


def translations(project: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run the translation command line in a copy of the site."""
    return subprocess.run(
        [sys.executable, "-m", "attention_docs_site.translations", *argv],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project / "src")},
        capture_output=True,
        text=True,
        timeout=120,
    )


if __name__ == "__main__":  # start_real_site's process
    build_once(Path(sys.argv[1]), REAL_SITE, build_real_site)


def different_files(one: Path, other: Path) -> list[str]:
    """The files whose bytes differ between two sites, which must have the
    same files (more than 50 of them)."""
    files = [
        sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
        for site in (one, other)
    ]
    assert files[0] == files[1]
    assert len(files[0]) > 50
    return [
        str(f) for f in files[0] if (one / f).read_bytes() != (other / f).read_bytes()
    ]

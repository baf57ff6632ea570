"""Debian's Chromium, the one browser the build, the scripts and the tests drive.

The PDFs are printed in it (``pdf.py``), ``scripts/screenshot.py`` takes the
README's screenshot in it, and the browser tests read the site in it. All of
them start it the same way, through Playwright: headless, without the
sandbox (which needs privileges a container lacks), and without the
background requests Chromium makes on its own, so that it asks no server but
the one it is pointed at.

Which Chromium: the one ``ATTENTION_DOCS_CHROMIUM`` names (a path, or a
command on ``PATH``), else the first of :data:`NAMES` on ``PATH``, else
Debian's ``/usr/bin/chromium`` (:func:`find_chromium`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

ENVIRONMENT = "ATTENTION_DOCS_CHROMIUM"
# The commands Chromium and Chrome are installed as (Debian, Ubuntu's older
# package, Google's packages, Homebrew's and others' links).
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DEBIAN = "/usr/bin/chromium"
LAUNCH_ARGS = ("--no-sandbox", "--disable-background-networking")


class MissingChromiumError(RuntimeError):
    """No Chromium was found (the message says where it was looked for)."""


def find_chromium() -> str:
    """The Chromium to start: its path.

    Returns:
        ``ATTENTION_DOCS_CHROMIUM``'s browser if set, else the first of
        :data:`NAMES` found on ``PATH``, else :data:`DEBIAN`.

    Raises:
        MissingChromiumError: If the variable names no program, or none was
            found; the message lists what was tried and how to install one.
    """
    chosen = os.environ.get(ENVIRONMENT, "").strip()
    if chosen:
        found = shutil.which(chosen)
        if found is None:
            raise MissingChromiumError(
                f"{ENVIRONMENT}={chosen} names no program this machine can run: "
                "set it to Chromium's or Chrome's path"
            )
        return found
    for name in NAMES:
        found = shutil.which(name)
        if found is not None:
            return found
    if shutil.which(DEBIAN) is not None:
        return DEBIAN
    tried = ", ".join([f"{ENVIRONMENT} (not set)", *NAMES, DEBIAN])
    raise MissingChromiumError(
        f"no Chromium found (tried {tried}): install one (on Debian, as root: "
        "`apt-get install -y chromium`), or set "
        f"{ENVIRONMENT} to a Chromium or Chrome program"
    )


def launch(
    playwright: Playwright,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
) -> Browser:
    """Start Chromium through a running Playwright; the caller closes it.

    Parameters:
        playwright: Playwright, started (``sync_playwright()``).
        env: The browser's environment, if not this process's.
        args: Command-line switches beside the usual ones.

    Returns:
        The browser, headless.

    Raises:
        MissingChromiumError: If Chromium is not installed.
    """
    executable = find_chromium()
    environment: dict[str, str | float | bool] | None = (
        None if env is None else dict(env)
    )
    return playwright.chromium.launch(
        executable_path=executable,
        args=[*LAUNCH_ARGS, *args],
        headless=True,
        env=environment,
    )


@contextmanager
def chromium() -> Iterator[Browser]:
    """Chromium, started with Playwright for the block and closed after it.

    Yields:
        The browser, headless.

    Raises:
        MissingChromiumError: If Chromium is not installed (before Playwright
            starts).
    """
    find_chromium()  # before Playwright starts
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()

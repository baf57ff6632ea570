"""Debian's Chromium, the one browser the build, the scripts and the tests drive.

The PDFs are printed in it (``pdf.py``), ``scripts/screenshot.py`` takes the
README's screenshot in it, and the browser tests read the site in it. All of
them start it the same way, through Playwright: headless, without the
sandbox (which needs privileges a container lacks), and without the
background requests Chromium makes on its own, so that it asks no server but
the one it is pointed at.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ("--no-sandbox", "--disable-background-networking")


class MissingChromiumError(RuntimeError):
    """Debian's Chromium is not installed."""


def require_chromium() -> None:
    """Check that Debian's Chromium is installed, before starting anything.

    Raises:
        MissingChromiumError: If it is not, with how to install it.
    """
    if not Path(CHROMIUM).exists():
        raise MissingChromiumError(
            f"Chromium is missing at {CHROMIUM}: install Debian's package "
            "chromium (`apt-get install -y chromium`, as root)"
        )


def launch(playwright: Playwright, env: Mapping[str, str] | None = None) -> Browser:
    """Start Chromium through a running Playwright; the caller closes it.

    Parameters:
        playwright: Playwright, started (``sync_playwright()``).
        env: The browser's environment, if not this process's.

    Returns:
        The browser, headless.

    Raises:
        MissingChromiumError: If Chromium is not installed.
    """
    require_chromium()
    environment: dict[str, str | float | bool] | None = (
        None if env is None else dict(env)
    )
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=list(LAUNCH_ARGS),
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
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()

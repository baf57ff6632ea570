"""The plugin's options in ``mkdocs.yml``, and the environment that overrides them.

Environment variables override the options (for CI and the tests):
``ATTENTION_DOCS_CACHE``, ``ATTENTION_DOCS_CACHE_DIR``,
``ATTENTION_DOCS_EXECUTE``, ``ATTENTION_DOCS_EXECUTE_NOTEBOOKS``,
``ATTENTION_DOCS_PDF`` and ``ATTENTION_DOCS_SPEED_EDITS``, with ``on``/``off``
(or ``true``/``false``, ``yes``/``no``, ``1``/``0``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError

_ON = {"1", "on", "true", "yes"}
_OFF = {"0", "off", "false", "no"}


class AttentionDocsConfig(base.Config):
    """The plugin's options in ``mkdocs.yml``."""

    cache = c.Type(bool, default=True)
    """Serve code blocks' and notebooks' output from the execution cache."""
    cache_dir = c.Type(str, default=".cache/attention_docs")
    """The cache folder, relative to ``mkdocs.yml``."""
    execute_code = c.Type(bool, default=True)
    """Run the pages' code blocks (off: a placeholder, the build's floor)."""
    execute_notebooks = c.Type(bool, default=True)
    """Run the exercise notebooks (off: rendered without outputs)."""
    pdf = c.Type(bool, default=True)
    """Print a PDF of each edition with Chromium (never under ``mkdocs serve``)."""
    speed_edits = c.Type(bool, default=True)
    """Apply the reaches into dependencies that are only for speed (upstream/)."""


def switch(name: str, default: bool) -> bool:
    """An on/off environment variable, or ``default`` when it is not set.

    Raises:
        PluginError: The variable is set to something that is neither.
    """
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _ON | _OFF:
        return value.strip().lower() in _ON
    raise PluginError(f"{name}={value!r}: use on or off (true/false, yes/no, 1/0)")


@dataclass(frozen=True)
class Settings:
    """The options of one build, with the environment's overrides applied."""

    cache: bool
    cache_dir: Path
    execute_code: bool
    execute_notebooks: bool
    pdf: bool
    speed_edits: bool


def settings(options: AttentionDocsConfig, config_file: str | None) -> Settings:
    """The build's settings: the options, overridden by the environment.

    Parameters:
        options: The plugin's options from ``mkdocs.yml``.
        config_file: ``mkdocs.yml``'s path: the cache folder is relative to it.
    """
    folder_name = os.environ.get("ATTENTION_DOCS_CACHE_DIR")
    if folder_name is None:
        folder = Path(config_file or ".").parent / options.cache_dir
    else:
        folder = Path(folder_name)
    return Settings(
        cache=switch("ATTENTION_DOCS_CACHE", options.cache),
        cache_dir=folder,
        execute_code=switch("ATTENTION_DOCS_EXECUTE", options.execute_code),
        execute_notebooks=switch(
            "ATTENTION_DOCS_EXECUTE_NOTEBOOKS", options.execute_notebooks
        ),
        pdf=switch("ATTENTION_DOCS_PDF", options.pdf),
        speed_edits=switch("ATTENTION_DOCS_SPEED_EDITS", options.speed_edits),
    )

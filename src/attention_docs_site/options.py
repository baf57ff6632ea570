"""The plugin's options in ``mkdocs.yml``, which the environment may set.

``mkdocs.yml`` reads each option from an environment variable with MkDocs'
own ``!ENV`` tag, for CI and the tests::

    - attention_docs:
        cache: !ENV [ATTENTION_DOCS_CACHE, true]

so ``ATTENTION_DOCS_CACHE=off`` turns the cache off. An on/off option takes
``on``/``off``, ``true``/``false``, ``yes``/``no`` or ``1``/``0``, and names
itself when given anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c

_ON = {"1", "on", "true", "yes"}
_OFF = {"0", "off", "false", "no"}


class OnOff(c.BaseConfigOption[bool]):
    """An on/off option, as YAML or an ``!ENV`` variable writes it."""

    def __init__(self, default: bool) -> None:
        super().__init__()
        self.default = default

    def run_validation(self, value: object) -> bool:
        """A bool, 0 or 1, or one of the words above (any case, spaces around).

        Raises:
            ValidationError: Anything else, quoted.
        """
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        word = value.strip().lower() if isinstance(value, str) else None
        if word in _ON | _OFF:
            return word in _ON
        raise base.ValidationError(
            f"{value!r}: use on or off (true/false, yes/no, 1/0)"
        )


class AttentionDocsConfig(base.Config):
    """The plugin's options in ``mkdocs.yml``."""

    cache = OnOff(default=True)
    """Serve code blocks' and notebooks' output from the execution cache."""
    cache_dir = c.Type(str, default=".cache/attention_docs")
    """The cache folder, relative to ``mkdocs.yml`` (or absolute)."""
    execute_code = OnOff(default=True)
    """Run the pages' code blocks (off: a placeholder, the build's floor)."""
    execute_notebooks = OnOff(default=True)
    """Run the exercise notebooks (off: rendered without outputs)."""
    pdf = OnOff(default=True)
    """Print a PDF of each edition with Chromium (never under ``mkdocs serve``)."""
    run_buttons = OnOff(default=True)
    """Offer Run buttons, and publish Pyodide's runtime for them (off: neither)."""
    speed_edits = OnOff(default=True)
    """Apply the reaches into dependencies that are only for speed (upstream/)."""


@dataclass(frozen=True)
class Settings:
    """The options of one build, the cache folder resolved."""

    cache: bool
    cache_dir: Path
    execute_code: bool
    execute_notebooks: bool
    pdf: bool
    run_buttons: bool
    speed_edits: bool


def settings(options: AttentionDocsConfig, config_file: str | None) -> Settings:
    """The build's settings, the cache folder relative to ``mkdocs.yml``.

    Parameters:
        options: The plugin's options from ``mkdocs.yml``.
        config_file: ``mkdocs.yml``'s path.
    """
    return Settings(
        cache=options.cache,
        cache_dir=Path(config_file or ".").parent / options.cache_dir,
        execute_code=options.execute_code,
        execute_notebooks=options.execute_notebooks,
        pdf=options.pdf,
        run_buttons=options.run_buttons,
        speed_edits=options.speed_edits,
    )

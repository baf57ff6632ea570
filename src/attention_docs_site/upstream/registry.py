"""Every reach, declared: importing this module imports every declaring module."""

from __future__ import annotations

from attention_docs_site.upstream import (
    i18n,
    ipython,
    material_bundle,
    material_css,
    material_html,
    material_search,
    mkdocs_jupyter,
    mkdocstrings,
    watchdog,
)
from attention_docs_site.upstream.guard import REACHES, Reach

MODULES = (
    i18n,
    ipython,
    material_bundle,
    material_css,
    material_html,
    material_search,
    mkdocs_jupyter,
    mkdocstrings,
    watchdog,
)


def reaches() -> list[Reach]:
    """Every declared reach, by name."""
    return [REACHES[name] for name in sorted(REACHES)]

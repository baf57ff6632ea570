"""Every reach, declared: this module imports every module of upstream/ that declares.

The canary (``scripts/canary.py``) and ``python -m attention_docs_site.upstream``
list the registry; a module added to this folder is in it without a line here.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from attention_docs_site.upstream.guard import REACHES, Reach

_NOT_DECLARING = {"__main__", "guard", "material_files", "registry"}
MODULES = tuple(
    importlib.import_module(f"{__package__}.{info.name}")
    for info in pkgutil.iter_modules([str(Path(__file__).parent)])
    if info.name not in _NOT_DECLARING
)


def reaches() -> list[Reach]:
    """Every declared reach, by name."""
    return [REACHES[name] for name in sorted(REACHES)]

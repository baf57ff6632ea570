"""The built site's file names that several stages share.

The page stage links the downloads the site stage writes; both take their
names from here.
"""

from __future__ import annotations

PDF_FOLDER = "pdf"
"""The editions' PDFs (site/book/)."""
OFFLINE_FOLDER = "offline"
"""The editions' offline copies (site/offline.py)."""
DIST_FOLDER = "dist"
"""The library's wheel (site/wheel.py)."""
NOTEBOOK_ZIP = "notebooks.zip"
"""Each edition's exercise notebooks, zipped, in its exercises folder."""


def pdf_name(lang: str) -> str:
    """The file name of an edition's PDF."""
    return f"attention_docs-{lang}.pdf"


def zip_name(lang: str, *, runtime: bool = True) -> str:
    """The file name of an edition's offline zip (``runtime``: with Pyodide's)."""
    return f"attention_docs-{lang}{'' if runtime else '-lite'}.zip"


PYODIDE_VERSION = "0.27.7"
"""The Pyodide release the Run button runs (tools/pyodide/, site/pyodide.py)."""
PYODIDE_FOLDER = f"pyodide/{PYODIDE_VERSION}"
"""Its runtime and packages, one folder per release."""
SITE_LOCK = "pyodide-lock.site.json"
"""In it, the lock the Run button's worker loads (site/pyodide.py, ``site_lock``)."""
COMPILED_FOLDER = "compiled"
"""Inside it, the warm start's compiled Python (site/bytecode.py)."""
COMPILED_STDLIB = "python_stdlib.zip"
"""The official standard library's archive with the ``.pyc`` of what a start imports."""
COMPILED_BUNDLE = "bytecode.zip"
"""The packages' ``.pyc`` that a start imports and matplotlib's font list."""
COMPILED_PACKAGES = "packages.tar.gz"
"""What the worker writes into Python's files: the start's packages, unpacked,
and :data:`COMPILED_BUNDLE`'s files."""

"""What a page with runnable code blocks tells ``docs/assets/run.js``.

The execute stage marks each block's output for the Run button
(:func:`attention_docs_site.execute.runnable.runnable`). A page with such
marks gets one ``#ad-run-data`` element, its JSON in an attribute: where
Pyodide and the library's wheel are published (relative to the page), and the
button's words in the page's language.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING

from attention_docs_site.layout import (
    COMPILED_FOLDER,
    COMPILED_STDLIB,
    NOTEBOOK_ZIP,
    PYODIDE_FOLDER,
    SITE_LOCK,
)

if TYPE_CHECKING:
    from attention_docs_site.editions import Edition
    from attention_docs_site.wheel import Wheel

MARK = "data-run-session="
WORDS = (
    "open",
    "open_torch",
    "close",
    "code",
    "run",
    "stop",
    "stopped",
    "interrupted",
    "long_run",
    "reset",
    "reset_done",
    "loading_runtime",
    "loading_packages",
    "loading_library",
    "running",
    "running_earlier",
    "done",
    "raised",
    "raised_line",
    "earlier_failed",
    "failed",
    "worker_failed",
    "load_failed",
    "lost_file",
    "retry",
    "file_protocol",
)


def run_data(content: str, page_url: str, edition: Edition, wheel: Wheel) -> str:
    """The ``#ad-run-data`` element of a page, or ``""`` if nothing on it runs.

    Parameters:
        content: The page's body.
        page_url: The page's URL relative to the site's root, e.g. ``zh/x/``.
        edition: The page's edition.
        wheel: The library's wheel, as the site publishes it.
    """
    if MARK not in content:
        return ""
    up = "../" * page_url.count("/")
    labels = {key: edition.word(f"run_{key}") for key in WORDS}
    notebooks = f"{up}{edition.folder}exercises/{NOTEBOOK_ZIP}"
    labels["needs_torch"] = edition.word("run_needs_torch", notebooks=notebooks)
    # {package} is the reader's: run-editor.js fills it in.
    labels["missing_package"] = edition.word(
        "run_missing_package", notebooks=notebooks, package="{package}"
    )
    data = {
        "runtime": f"{up}{PYODIDE_FOLDER}/",
        "lock": f"{up}{PYODIDE_FOLDER}/{SITE_LOCK}",
        "compiled": {
            "stdlib": f"{up}{PYODIDE_FOLDER}/{COMPILED_FOLDER}/{COMPILED_STDLIB}",
        },
        "wheel": f"{up}{wheel.path}",
        "labels": labels,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # An attribute, not a JSON <script>: instant navigation re-creates the
    # content's scripts as inline ones, which the security policy refuses.
    # In single quotes, JSON's many double quotes need no escaping (a page
    # of Chinese would carry 132 of "&quot;").
    attribute = html.escape(text, quote=False).replace("'", "&#39;")
    return f"<div id=\"ad-run-data\" hidden data-run='{attribute}'></div>"

"""Reach into IPython: the shell's traceback printer, while a notebook runs."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from attention_docs_site.upstream.guard import declare

QUIET_TRACEBACKS = declare(
    "ipython: tracebacks not printed",
    "ipython",
    "9.18.1",
    "sets the shell's private _showtraceback to do nothing while a cell runs",
    "a cell's error must become the notebook's error output (or fail the "
    "build), not text printed into the page",
    "correctness",
)


@contextlib.contextmanager
def quiet_tracebacks(shell: Any) -> Iterator[None]:  # noqa: ANN401 (IPython's shell)
    """Within the block, the shell prints no traceback."""
    QUIET_TRACEBACKS.require(
        callable(getattr(shell, "_showtraceback", None)),
        "the shell has no _showtraceback",
    )
    shell._showtraceback = lambda *_: None
    try:
        yield
    finally:
        del shell._showtraceback

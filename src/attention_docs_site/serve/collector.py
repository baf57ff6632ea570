"""Python's garbage collector under serve: the long-lived objects kept out of its way.

A serve process holds millions of objects that live as long as it does:
PyTorch, matplotlib, MkDocs, the theme's templates, the caches. Python's
oldest-generation collection walks all of them, and it falls due during about
every other partial rebuild: half a second of a two-second rebuild at four
times this site's size (``benchmarks/serve_profile.py``, which times each
collection). So once a full build has finished, everything it left alive is
collected once and then frozen (``gc.freeze``): later collections skip it.
The next full build unfreezes it first, so what the frozen objects later
stopped using (the last full build's pages, a library module an edit
replaced) is freed then, and no more than one full build's leftovers are ever
held.
"""

from __future__ import annotations

import gc

from attention_docs_site.upstream import guard

TRICK = "serve: long-lived objects frozen"


def full_build_starts() -> None:
    """Give the collector back what the last full build froze."""
    gc.unfreeze()


def full_build_finished() -> None:
    """Collect what the full build left as garbage, and freeze the rest."""
    if guard.speed_on(TRICK):
        gc.collect()
        gc.freeze()

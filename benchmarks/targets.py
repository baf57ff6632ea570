"""How the benchmarks word a target's outcome, after its figure."""

from __future__ import annotations


def met(condition: bool) -> str:
    return "met" if condition else "NOT met"


# The author's loop under mkdocs serve (#48): seconds from a save to the
# served page, at any size of the book.
SERVE_TARGETS = {
    "no change (file saved as it is)": 0.7,
    "prose edit": 1.0,
    "one figure's function (kernel_shapes)": 2.5,
}

"""How the benchmarks word a target's outcome, after its figure."""

from __future__ import annotations


def met(condition: bool) -> str:
    return "met" if condition else "NOT met"

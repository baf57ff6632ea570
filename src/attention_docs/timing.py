"""How a function's running time grows with the size of its input.

The attention-layer chapter states how the time of softmax and linear
attention grows with the sequence's length, measured while the site is
built. A wall-clock time on a shared machine moves with whatever else runs
there: on two busy cores, softmax attention's fitted exponent came out near
2.8 by the clock and near 2.1 in the calling thread's CPU time (the fastest of
seven calls per length). So :func:`growth_exponent` times CPU time of the
calling thread, takes the fastest call, and fits the exponent over a range of
sizes, which a caller then rounds to the growth rate it states.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Iterable

import numpy as np


def fastest_call(call: Callable[[], object], runs: int) -> float:
    """The fewest seconds of the calling thread's CPU time ``call()`` took.

    One untimed call comes first, so that caches and lazy set-up do not
    count. The fastest of ``runs`` calls is the least disturbed by other
    processes, which can only add time.

    Raises:
        ValueError: ``runs`` is not a positive whole number.
    """
    runs = _whole("runs", runs)
    call()
    best = math.inf
    for _ in range(runs):
        start = time.thread_time()
        call()
        best = min(best, time.thread_time() - start)
    return best


def growth_exponent(
    prepare: Callable[[int], Callable[[], object]],
    sizes: Iterable[int],
    runs: int = 7,
) -> float:
    """The exponent k of a least-squares fit of time ≈ c · n^k over ``sizes``.

    Args:
        prepare: Given a size n, returns the call to time, with its input
            already built (building it is not timed).
        sizes: At least two distinct positive whole numbers.
        runs: Timed calls per size; the fastest counts (:func:`fastest_call`).

    Only work done in the calling thread is timed: a call that hands its work
    to other threads (PyTorch's intra-op pool, for one) must be limited to one
    thread by the caller, or its time is undercounted.

    Raises:
        ValueError: Fewer than two distinct sizes, a size that is not a
            positive whole number, a bad ``runs``, or a call so fast that the
            thread clock's resolution would decide the fit.
    """
    sizes = [_whole("each size", n) for n in sizes]
    if len(set(sizes)) < 2:
        raise ValueError(f"need at least two distinct sizes to fit, got {sizes}")
    _whole("runs", runs)
    tick = time.get_clock_info("thread_time").resolution
    seconds = []
    for n in sizes:
        seconds.append(fastest_call(prepare(n), runs))
        if seconds[-1] < 100 * tick:
            raise ValueError(
                f"a call at size {n} took {seconds[-1]:.3g} s of thread CPU time, "
                f"too close to the clock's resolution ({tick:.3g} s) to fit; "
                "use larger sizes"
            )
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])


def _whole(name: str, value: object) -> int:
    """``value`` as a positive whole number (NumPy's too); the error names ``name``."""
    try:
        if isinstance(value, bool):
            raise TypeError
        whole = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        whole = 0
    if whole < 1:
        raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    return whole

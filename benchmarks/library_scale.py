"""The library at scale: nadaraya_watson on a large problem and against statsmodels.

Used by benchmarks/build.py, after the site's figures.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable


def scale(n: int) -> tuple[float, float, bool]:
    """Time and extra memory of nadaraya_watson with n queries and n keys."""
    import numpy as np

    from attention_docs import nadaraya_watson

    rng = np.random.default_rng(0)
    x, y, q = rng.uniform(0, 5, n), rng.normal(size=n), rng.uniform(0, 5, n)
    small = 3000
    chunked, _ = nadaraya_watson(
        x[:small], y[:small], q[:small], return_weights=False, chunk_size=7
    )
    whole, _ = nadaraya_watson(x[:small], y[:small], q[:small], chunk_size=small)
    same = bool(np.array_equal(chunked, whole))
    tracemalloc.start()
    start = time.perf_counter()
    nadaraya_watson(x, y, q, bandwidth=0.1, return_weights=False)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak / 2**20, same


def against_statsmodels(n: int, runs: int) -> tuple[float, float, float]:
    import numpy as np
    from statsmodels.nonparametric.kernel_regression import KernelReg

    from attention_docs import nadaraya_watson

    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(0, 5, n))
    y = 2 * np.sin(x) + x**0.8 + rng.normal(0, 0.5, n)
    q = np.linspace(0, 5, n)
    ours, theirs = [], []
    nadaraya_watson(x, y, q, bandwidth=0.3, return_weights=False)  # warm-up
    for _ in range(runs):
        start = time.perf_counter()
        pred, _ = nadaraya_watson(x, y, q, bandwidth=0.3, return_weights=False)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        model = KernelReg(y, x, var_type="c", reg_type="lc", bw=[0.3], rng=0)
        expected, _ = model.fit(q)
        theirs.append(time.perf_counter() - start)
    difference = float(np.max(np.abs(pred - expected)))
    return statistics.median(ours), statistics.median(theirs), difference


def report_library(n: int, step: Callable[[str], None]) -> None:
    """Print nadaraya_watson at scale and against statsmodels."""
    step(f"nadaraya_watson with {n} queries and keys")
    elapsed, peak, same = scale(n)
    step("nadaraya_watson against statsmodels at n = 5000")
    ours, theirs, difference = against_statsmodels(5000, 3)
    print(
        f"\nnadaraya_watson, {n} x {n}, predictions only: {elapsed:.1f} s, peak "
        f"extra memory {peak:.0f} MiB; chunked equals unchunked on 3000 x 3000: "
        f"{same}"
    )
    print(
        f"n = 5000: nadaraya_watson {ours:.3f} s, statsmodels KernelReg "
        f"{theirs:.3f} s, ratio {theirs / ours:.1f} x, max |difference| "
        f"{difference:.1e}"
    )

"""Choosing h by cross-validation: CV(h) at many bandwidths, two ways.

    .venv/bin/python benchmarks/cv.py [--runs 5]

Prints the median time, in one run, of CV(h) at 281 bandwidths (as many as
``bandwidth.cv_bandwidth`` scores) for n = 400 and 1600: from the table of
scores that ``bandwidth.LeaveOneOut`` reuses across bandwidths, and with one
``pooling.leave_one_out`` call per bandwidth, as before that table.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable


def median_time(function: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cross_validation(runs: int) -> None:
    import numpy as np

    from attention_docs import bandwidth
    from attention_docs.data import make_dataset
    from attention_docs.pooling import leave_one_out

    for n in (400, 1600):
        data = make_dataset(n, seed=0)
        x, y = data.x_train, data.y_train
        grid = np.geomspace(0.01, 5.0, 281)

        def table(x=x, y=y, grid=grid) -> np.ndarray:
            return bandwidth.loo_cv_error(x, y, grid)

        sweep = median_time(table, runs)

        def one_by_one(x=x, y=y, grid=grid) -> list[np.ndarray]:
            return [leave_one_out(x, y, bandwidth=h)[0] for h in grid]

        direct = median_time(one_by_one, max(1, runs // 2))
        print(
            f"CV(h) at 281 bandwidths, n = {n}: {sweep:.2f} s from one table, "
            f"{direct:.2f} s by leave_one_out ({direct / sweep:.1f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    cross_validation(runs)


if __name__ == "__main__":
    main()

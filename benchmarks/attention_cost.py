"""How the attention layer's time grows with n: softmax against linear attention.

Times one head (d = 64, float32, one thread) of the library's
``layers.scaled_dot_product_attention`` and ``linear_attention.linear_attention``
at doubling lengths, prints the median of each and the exponent of a
least-squares fit of log time against log n. The chapter prints only the
exponents, fitted while the site builds from the thread's CPU time at n = 256
to 2048 and rounded (``figures.time_growth``); the times themselves depend on
the machine, so they are here, by the wall clock, over a wider range of n.

    .venv/bin/python benchmarks/attention_cost.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch

from attention_docs.layers import scaled_dot_product_attention
from attention_docs.linear_attention import linear_attention

WIDTH = 64
LENGTHS = (512, 1024, 2048, 4096, 8192)
LAYERS = {"softmax": scaled_dot_product_attention, "linear": linear_attention}


def median_seconds(layer: str, n: int, runs: int) -> float:
    """The median wall time of one call on n positions, after a warm-up."""
    x = torch.randn(1, n, WIDTH, generator=torch.Generator().manual_seed(n))
    call = LAYERS[layer]
    call(x, x, x)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call(x, x, x)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        times = {
            layer: [median_seconds(layer, n, runs) for n in LENGTHS] for layer in LAYERS
        }
    finally:
        torch.set_num_threads(threads)
    print(f"one head, d = {WIDTH}, float32, one thread; medians of {runs} runs")
    print("| n | softmax (ms) | linear (ms) | softmax / linear |")
    print("|---|---|---|---|")
    for i, n in enumerate(LENGTHS):
        soft, lin = times["softmax"][i], times["linear"][i]
        print(f"| {n} | {soft * 1e3:.2f} | {lin * 1e3:.2f} | {soft / lin:.1f} |")
    for layer, seconds in times.items():
        slope = np.polyfit(np.log(LENGTHS[1:]), np.log(seconds[1:]), 1)[0]
        print(f"{layer}: time grows like n^{slope:.2f} (fit over n = {LENGTHS[1]}..)")


if __name__ == "__main__":
    main()

"""The counts of work and traffic against PyTorch's flop counter and tensor sizes."""

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from attention_docs.traffic import (
    decode_step,
    intensity,
    materialised_steps,
    tiled_step,
)


def flops(call):
    with FlopCounterMode(display=False) as counter:
        call()
    return counter.get_total_flops()


def test_the_materialised_steps_count_what_the_matrices_are():
    n, d = 96, 16
    q, k, v = (torch.randn(n, d) for _ in range(3))
    scores = torch.empty(n, n)
    steps = {step["name"]: step for step in materialised_steps(n, d)}
    # multiply-adds: half PyTorch's flop count of the two products
    assert steps["scores"]["multiply_adds"] == flops(lambda: q @ k.T) // 2
    assert steps["pooling"]["multiply_adds"] == flops(lambda: scores @ v) // 2
    size = lambda *ts: sum(t.nelement() * t.element_size() for t in ts)  # noqa: E731
    assert steps["scores"]["bytes_moved"] == size(q, k, scores)
    assert steps["softmax"]["bytes_moved"] == size(scores, scores)
    assert steps["pooling"]["bytes_moved"] == size(scores, v, q)


def test_tiling_keeps_the_work_and_cuts_the_traffic_by_the_tile():
    n, d = 4096, 64
    work = sum(step["multiply_adds"] for step in materialised_steps(n, d))
    moved = sum(step["bytes_moved"] for step in materialised_steps(n, d))
    tiled = tiled_step(n, d, 128)
    assert tiled["multiply_adds"] == work
    # K and V once per tile of 128 queries, plus Q and O once
    assert tiled["bytes_moved"] == 4 * (2 * n * d + (n // 128) * 2 * n * d)
    assert moved / tiled["bytes_moved"] > 3.5
    assert intensity(tiled) == pytest.approx(3.94 * work / moved, rel=1e-2)


def test_a_short_last_tile_reads_the_keys_and_values_once_more():
    # 10 queries in tiles of 4: three tiles, the last of 2 queries
    assert tiled_step(10, 2, 4, element_bytes=1)["bytes_moved"] == 2 * 10 * 2 * (1 + 3)
    assert tiled_step(8, 2, 4, element_bytes=1)["bytes_moved"] == 2 * 8 * 2 * (1 + 2)


def test_a_decode_step_reads_the_cache_once_per_key_value_head():
    mha = decode_step(1000, heads=32, kv_heads=32, head_dim=128)
    gqa = decode_step(1000, heads=32, kv_heads=8, head_dim=128)
    assert mha["multiply_adds"] == gqa["multiply_adds"] == 2 * 1000 * 128 * 32
    assert mha["bytes_moved"] == 4 * gqa["bytes_moved"] == 2 * 1000 * 128 * 32 * 2
    assert intensity(mha) == 0.5  # a multiply-add per two bytes, at 16 bits
    q, k = torch.randn(32, 1, 128), torch.randn(32, 1000, 128)
    assert mha["multiply_adds"] == flops(lambda: (q @ k.mT) @ k) // 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: materialised_steps(0, 4), "n must be a positive integer"),
        (lambda: tiled_step(8, 4, 0), "block must be a positive integer"),
        (
            lambda: decode_step(8, heads=4, kv_heads=3, head_dim=2),
            "multiple of kv_heads",
        ),
    ],
)
def test_bad_sizes_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()

"""The numbers and comparisons the attention-layer chapter states in words.

As in ``test_claims.py``: each test quotes the sentence it guards, in both
languages, and recomputes what the sentence says from the library.
"""

import math

import numpy as np
import pytest
import torch
from test_claims import assert_stated

from attention_docs import figures
from attention_docs.layers import MultiHeadAttention, sinusoidal_positions
from attention_docs.linear_attention import linear_attention_weights
from attention_docs.saturation import saturation

PAGE = "attention-layer"


def test_unscaled_weights_saturate_and_the_jacobian_shrinks_eightfold():
    table = figures.saturation_table()
    assert figures.SATURATION_DIMENSIONS[-1] == 1024
    assert f"{table['top_raw'][-1]:.2f}" == "0.97"
    assert 1 / 9 < table["jacobian_raw"][-1] / table["jacobian_scaled"][-1] < 1 / 7
    assert_stated(
        PAGE,
        en="the mean largest weight climbs to 0.97 at $d = 1024$, and the Jacobian's "
        "norm falls to about an eighth of its scaled value",
        zh="最大权重的平均值在 $d = 1024$ 时升到 0.97，雅可比矩阵（Jacobian）的范数降到"
        "缩放时的八分之一左右",
    )


def test_w_q_times_sqrt_d_gives_the_raw_dot_product_s_weights():
    d = figures.SATURATION_DIMENSIONS[-1]
    assert saturation(d, temperature=1 / math.sqrt(d)) == pytest.approx(
        saturation(d, scaled=False)
    )
    assert_stated(
        PAGE,
        en="With $c = \\sqrt{d}$ the scaled layer gives exactly the raw dot product's "
        "weights.",
        zh="取 $c = \\sqrt{d}$ 时，缩放后的层给出的权重与直接用点积时完全相同。",
    )


def test_the_raw_dot_product_gives_one_key_nearly_everything():
    weights = figures.scoring_weights()
    assert weights["dot"].max(axis=1).mean() > 0.85
    assert weights["scaled"].max(axis=1).mean() < 0.4
    assert_stated(
        PAGE,
        en="The raw dot product puts nearly all of each row's weight on one key",
        zh="直接用点积时，每一行几乎全部权重都落在一个键上",
    )


def test_one_head_s_weights_at_8192_positions_take_256_mib():
    rows = {row["n"]: row for row in figures.cost_rows()}
    assert rows[8192]["mib"] == 256
    lengths = sorted(rows)
    for short, long in zip(lengths, lengths[1:], strict=False):
        assert long == 4 * short
        assert rows[long]["mib"] == 16 * rows[short]["mib"]
        assert rows[long]["softmax"] == 16 * rows[short]["softmax"]
    assert_stated(
        PAGE,
        en="Each fourfold step in $n$ multiplies the memory and the work by 16; at "
        "$n = 8192$ one head's weights take 256 MiB.",
        zh="$n$ 每增大到原来的 4 倍，内存和计算量就变为原来的 16 倍；$n = 8192$ 时，"
        "一个头的权重要占 256 MiB。",
    )


def test_the_measured_times_grow_as_the_counts_say():
    """The build times both layers and rounds the fitted exponents: 2 and 1.

    Measured again here, on the machine that runs the tests, as the build does.
    """
    from attention_docs.figures.attention_layer_cost import (
        COST_WIDTH,
        COUNTED_POWERS,
        TIME_ATTEMPTS,
        TIME_LENGTHS,
        TIME_RUNS,
    )

    assert (COST_WIDTH, TIME_LENGTHS, TIME_RUNS, TIME_ATTEMPTS) == (
        64,
        (256, 512, 1024, 2048),
        7,
        3,
    )
    rows = {row["n"]: row for row in figures.cost_rows()}
    for name, power in COUNTED_POWERS.items():  # the powers of n in the counts
        assert rows[8192][name] == 4**power * rows[2048][name]
    grown = figures.time_growth()
    assert abs(grown["softmax"] - 2) < 0.5 and abs(grown["linear"] - 1) < 0.5, grown
    table = figures.growth_table(lang="en")
    assert "<td>n<sup>2</sup></td><td>2n<sup>2</sup>d</td>" in table
    assert "<td>n</td><td>2nd<sup>2</sup></td>" in table
    assert rows[2048]["mib"] == 16  # the scores, and the weights, at n = 2048
    assert_stated(
        PAGE,
        en="one head with $d = 64$, on the machine that builds this page, with PyTorch "
        "held to one thread: at $n$ = 256, 512, 1024 and 2048, after one untimed call, "
        "the fastest of 7 calls, in that thread's CPU time.",
        zh="一个头，$d = 64$）的耗时，并把 PyTorch 限制为单线程：$n$ 取 256、512、1024 "
        "和 2048，每个 $n$ 先做一次不计时的调用，再取 7 次调用中最快的一次",
    )
    assert_stated(
        PAGE,
        en="$n \\times n$ scores and weights (16 MiB each at $n = 2048$)",
        zh="$n \\times n$ 分数矩阵和权重矩阵（$n = 2048$ 时各占 16 MiB）",
    )
    assert_stated(
        PAGE,
        en="if a slope is half a power or more from its count three times running, the "
        "build stops with an error.",
        zh="如果连续三次测得的斜率都与乘加次数中 $n$ 的幂次相差半个幂次或更多，"
        "构建就会报错停止",
    )


def test_linear_attention_s_weights_are_nearly_uniform_here():
    found = figures.linear_comparison()
    assert f"{found['top_linear']:.2f}" == "0.04"
    assert f"{found['top_softmax']:.2f}" == "0.14"
    assert f"{found['tv_linear']:.2f}" == "0.32"
    assert f"{found['tv_uniform']:.2f}" == "0.35"
    assert figures.attention_layer_cost.LINEAR_SHAPE == (32, 16)
    assert 1 / 32 < found["top_linear"] < 2 / 32  # "hardly above the uniform 1/32"
    assert_stated(
        PAGE,
        en="its mean largest weight is 0.04 against 0.14, hardly above the uniform "
        "$1/32$, and its total variation distance from the softmax weights, 0.32, "
        "is little less than that of uniform weights, 0.35.",
        zh="它的最大权重平均只有 0.04，仅略高于均匀权重 $1/32$，而 softmax 注意力为 "
        "0.14；它与 softmax 权重之间的总变差距离（total variation distance）为 0.32，"
        "只比均匀权重的 0.35 小一点。",
    )


def test_only_the_unmasked_layer_without_positions_ignores_order():
    found = figures.order_differences()
    assert found["plain"] < 1e-12 < 1e-2 < min(found["causal"], found["positions"])
    assert_stated(
        PAGE,
        en="under a causal mask they do not agree.",
        zh="加上因果掩蔽，两者就不再一致。",
    )


def test_cross_attention_ignores_the_order_of_its_key_value_pairs():
    layer = MultiHeadAttention(8, 2, seed=1)
    generator = torch.Generator().manual_seed(6)
    queries = torch.randn(1, 3, 8, generator=generator, dtype=torch.float64)
    memory = torch.randn(1, 7, 8, generator=generator, dtype=torch.float64)
    order = torch.tensor([3, 6, 0, 2, 5, 1, 4])
    with torch.no_grad():
        out = layer(queries, memory, memory)[0]
        moved = layer(queries, memory[:, order], memory[:, order])[0]
    torch.testing.assert_close(moved, out, rtol=1e-12, atol=1e-12)
    assert_stated(
        PAGE,
        en="reordering the\nkeys with their values changes nothing at all",
        zh="把键连同它们的值一起重新排序，输出完全不变",
    )


def test_most_unscaled_queries_get_no_gradient_and_no_scaled_one_is_flat():
    table = figures.saturation_table()
    dims = figures.SATURATION_DIMENSIONS
    assert f"{table['flat_raw'][-1]:.0%}" == "70%"
    assert max(table["flat_scaled"]) == 0
    from_16 = [t for d, t in zip(dims, table["top_scaled"], strict=True) if d >= 16]
    assert max(from_16) - min(from_16) < 0.02
    assert table["top_scaled"][0] < min(from_16) - 0.05  # d = 1 still lower
    assert_stated(
        PAGE,
        en="at $d = 1024$, 70% of the queries have a Jacobian whose norm is below "
        "$10^{-3}$",
        zh="$d = 1024$ 时，70% 的查询的雅可比矩阵范数小于 $10^{-3}$",
    )


def test_the_encodings_dot_product_depends_on_the_offset_alone():
    encoding = sinusoidal_positions(60, 16).numpy()
    rates = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    for k in (1, 5, 20):
        products = np.sum(encoding[:-k] * encoding[k:], axis=1)
        np.testing.assert_allclose(products, np.cos(k * rates).sum(), atol=1e-12)


def test_an_offset_between_positions_is_the_same_rotation_everywhere():
    """The encoding of p + k is the encoding of p turned by angles of k alone."""
    n, d, k = 40, 16, 3
    encoding = sinusoidal_positions(n, d).numpy()
    rates = 10000.0 ** (-np.arange(0, d, 2) / d)
    rotation = np.zeros((d, d))
    for i, rate in enumerate(rates):  # (sin, cos) pairs turned by k·rate
        c, s = math.cos(k * rate), math.sin(k * rate)
        rotation[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    np.testing.assert_allclose(encoding[:-k] @ rotation, encoding[k:], atol=1e-12)
    assert_stated(
        PAGE,
        en="an offset between two positions is a fixed linear map, the same wherever "
        "the two stand.",
        zh="两个位置之间的偏移是一个固定的线性映射，无论这两个位置在哪里都一样。",
    )


@pytest.mark.parametrize("heads", [1, 2, 4, 8, 16])
def test_exercise_3_the_layer_has_1088_parameters_for_any_number_of_heads(heads):
    layer = MultiHeadAttention(d_model=16, num_heads=heads)
    assert sum(p.numel() for p in layer.parameters()) == 1088
    assert_stated(
        PAGE, en="$4 \\cdot (256 + 16) = 1088$", zh="$4 \\cdot (256 + 16) = 1088$"
    )


def test_exercise_4_one_dimensional_linear_attention_ignores_the_query():
    generator = torch.Generator().manual_seed(5)
    q = torch.randn(7, 1, generator=generator, dtype=torch.float64)
    k = torch.randn(9, 1, generator=generator, dtype=torch.float64)
    weights = linear_attention_weights(q, k)
    torch.testing.assert_close(weights, weights[:1].expand_as(weights))


NOTEBOOK = "exercises/attention-layer"


def test_the_notebook_s_dot_product_variances_are_within_1_percent_of_d_sigma4():
    """'Each measured variance is within 1% of dσ⁴. With σ = 2 the scores
    spread four times as wide in standard deviation' (exercise notebook 1;
    the notebook's draws, in its order)"""
    assert_stated(
        NOTEBOOK,
        en="Each measured variance is within 1% of $d\\sigma^4$. With $\\sigma = 2$ "
        "the scores spread four times as wide in standard deviation",
        zh="每个测得的方差与 $d\\sigma^4$ 相差都不到 1%。$\\sigma = 2$ 时，分数的标准差"
        "是 $\\sigma = 1$ 时的 4 倍",
    )
    generator = torch.Generator().manual_seed(0)
    spread = {}
    for d in (4, 64):
        for sigma in (1.0, 2.0):
            q = sigma * torch.randn(
                200_000, d, generator=generator, dtype=torch.float64
            )
            k = sigma * torch.randn(
                200_000, d, generator=generator, dtype=torch.float64
            )
            variance = float(np.var((q * k).sum(dim=1).numpy(), ddof=1))
            assert variance == pytest.approx(d * sigma**4, rel=0.01)
            spread[d, sigma] = math.sqrt(variance)
    for d in (4, 64):
        assert spread[d, 2.0] / spread[d, 1.0] == pytest.approx(4, rel=0.01)


def test_only_the_leave_one_out_mask_lets_position_3_see_token_4():
    """'Under the causal mask only positions 4 and 5 change, whether the whole
    token changes or only its value ... Under the leave-one-out mask every
    position changes, position 3 among them ... when only the value changes,
    position 4 is the one output that stays' (exercise notebook 2), from
    softmax written out, one query at a time."""
    assert_stated(
        NOTEBOOK,
        en="Under the causal mask only positions 4 and 5 change, whether the whole "
        "token changes or only its value",
        zh="在因果掩蔽（causal mask）下，无论改动整个词元还是只改动它的值，"
        "都只有位置 4 和位置 5 的输出变了",
    )
    assert_stated(
        NOTEBOOK,
        en="Under the leave-one-out mask every position changes, position 3 among them",
        zh="在留一掩蔽（leave-one-out mask）下，每个位置的输出都变了，其中包括位置 3",
    )
    assert_stated(
        NOTEBOOK,
        en="when only the value changes, position 4 is the one output that stays",
        zh="只改动值的时候，位置 4 是唯一不变的输出",
    )
    generator = torch.Generator().manual_seed(1)
    tokens = torch.randn(6, 8, generator=generator, dtype=torch.float64).numpy()
    changed = tokens.copy()
    changed[4] += 1.0

    def output(x, v, i, visible):
        scores = np.array([x[i] @ x[j] for j in visible]) / math.sqrt(8)
        weights = np.exp(scores - scores.max())
        return (weights / weights.sum()) @ v[visible]

    rules = {"causal": lambda i: list(range(i + 1)),
             "leave-one-out": lambda i: [j for j in range(6) if j != i]}  # fmt: skip

    def moved(x, v):
        return {
            name: [
                i
                for i in range(6)
                if not np.allclose(
                    output(tokens, tokens, i, see(i)), output(x, v, i, see(i))
                )
            ]
            for name, see in rules.items()
        }

    assert moved(changed, changed) == {
        "causal": [4, 5],
        "leave-one-out": [0, 1, 2, 3, 4, 5],
    }
    assert moved(tokens, changed) == {
        "causal": [4, 5],
        "leave-one-out": [0, 1, 2, 3, 5],
    }


def test_a_layer_of_width_16_has_1088_parameters_for_any_number_of_heads():
    """'Always 4 · (16² + 16) = 1088' (exercise notebook 3)"""
    assert_stated(
        NOTEBOOK,
        en="Always $4 \\cdot (16^2 + 16) = 1088$",
        zh="$4 \\cdot (16^2 + 16) = 1088$",
    )
    reference = torch.nn.MultiheadAttention(16, 4, bias=True)  # same four matrices
    assert sum(p.numel() for p in reference.parameters()) == 1088
    for heads in (1, 2, 4, 8, 16):
        layer = MultiHeadAttention(d_model=16, num_heads=heads)
        assert sum(p.numel() for p in layer.parameters()) == 1088


def test_in_one_dimension_every_query_gets_the_same_linear_weights():
    """'Every query gets the same linear weights ... the query at −2 puts its
    largest weight on the smallest key, the query at 2 on the largest, and the
    query at 0 weighs all four alike' (notebook 4)"""
    assert_stated(
        NOTEBOOK,
        en="Every query gets the same linear weights, "
        "$\\phi(k_j) / \\sum_l \\phi(k_l)$",
        zh="每个查询从线性注意力得到的权重都相同，即 $\\phi(k_j) / \\sum_l \\phi(k_l)$",
    )
    assert_stated(
        NOTEBOOK,
        en="the query at $-2$ puts its largest weight on the smallest key, the query "
        "at $2$ on the largest, and the query at $0$ weighs all four alike",
        zh="位于 $-2$ 的查询把最大的权重给最小的键，位于 $2$ 的查询给最大的键，"
        "位于 $0$ 的查询则给 4 个键相同的权重",
    )
    queries, keys = np.linspace(-2, 2, 5), np.linspace(-1, 1, 4)
    phi = np.where(keys > 0, keys + 1, np.exp(keys))  # elu(x) + 1
    weights = linear_attention_weights(
        torch.tensor(queries)[:, None], torch.tensor(keys)[:, None]
    ).numpy()
    np.testing.assert_allclose(weights, np.tile(phi / phi.sum(), (5, 1)))
    assert (weights.argmax(axis=1) == 3).all()
    kernel = np.exp(np.outer(queries, keys))
    softmax = kernel / kernel.sum(axis=1, keepdims=True)
    assert softmax[0].argmax() == 0 and softmax[-1].argmax() == 3
    np.testing.assert_allclose(softmax[2], 0.25)

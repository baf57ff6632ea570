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
        zh="最大权重的平均值在 $d = 1024$ 时升到 0.97，雅可比矩阵的范数降到缩放时的"
        "八分之一左右",
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


def test_the_raw_dot_product_gives_one_key_most_of_each_row():
    weights = figures.scoring_weights()
    tops = weights["dot"].max(axis=1)
    assert f"{tops.min():.2f}" == "0.74" and f"{tops.max():.2f}" == "1.00"
    assert f"{tops.mean():.2f}" == "0.89"
    assert weights["scaled"].max(axis=1).mean() < 0.4
    assert_stated(
        PAGE,
        en="The raw dot product puts most of each row's weight on one key, between "
        "0.74 and 1.00 of it, 0.89 on average",
        zh="直接用点积时，每一行的大部分权重都落在一个键上：这个键分到的权重在 "
        "0.74 到 1.00 之间，平均为 0.89",
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
        zh="把键连同它们的值一起重新排序，输出除舍入误差外完全不变",
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
        zh="位置相差 $k$，就对应一个固定的线性映射（逐对旋转），"
        "与两个位置本身在哪里无关。",
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
        zh="在因果掩蔽（causal mask）下，无论改动整个词元还是只改动它在值矩阵中的"
        "那一行，都只有位置 4 和位置 5 的输出变了",
    )
    assert_stated(
        NOTEBOOK,
        en="Under the leave-one-out mask every position changes, position 3 among them",
        zh="在留一掩蔽（leave-one-out mask）下，每个位置的输出都变了，其中包括位置 3",
    )
    assert_stated(
        NOTEBOOK,
        en="when only the value changes, position 4 is the one output that stays",
        zh="只改动值矩阵中的那一行时，位置 4 是唯一不变的输出",
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
        zh="取值为 $-2$ 的查询把最大的权重给最小的键，取值为 $2$ 的查询给最大的键，"
        "取值为 $0$ 的查询则给 4 个键相同的权重",
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


def test_the_gradient_reaching_an_unscaled_query_is_erratic_not_small():
    table = figures.query_gradients()
    at = figures.GRADIENT_DIMENSIONS.index(1024)
    mean_raw, mean_scaled = table["mean_raw"][at], table["mean_scaled"][at]
    assert f"{mean_raw:.3g}" == "1.37" and f"{mean_scaled:.3g}" == "0.347"
    assert round(mean_raw / mean_scaled) == 4
    assert f"{table['median_raw'][at]:.1e}" == "5.5e-05"
    assert f"{table['p99_raw'][at]:.3g}" == "15.5"
    assert round(table["p99_raw"][at] / table["p99_scaled"][at], -1) == 40
    scaled = [
        table[f"{s}_scaled"][i] for s in ("mean", "median", "p99") for i in range(3)
    ]
    assert 0.34 <= min(scaled) and max(scaled) <= 0.45
    assert_stated(
        PAGE,
        en="at $d = 1024$ its mean is 1.37, about four times the scaled 0.347",
        zh="$d = 1024$ 时，它的平均值是 1.37，约为缩放时 0.347 的 4 倍",
    )
    assert_stated(
        PAGE,
        en="The median query gets $5.5 \\times 10^{-5}$, almost nothing, while the top "
        "1% get 15.5 or more, about forty times the scaled 99th percentile.",
        zh="梯度的中位数只有 $5.5 \\times 10^{-5}$，几乎为零；而梯度最大的 1% 的查询"
        "得到 15.5 或更多，约为缩放时第 99 百分位数的 40 倍。",
    )
    assert_stated(
        PAGE,
        en="Scaled, the median, the mean and the 99th percentile all lie between 0.34 "
        "and 0.45, at every $d$ in the table.",
        zh="缩放之后，在表中的每个 $d$ 下，中位数、平均值和第 99 百分位数都在 0.34 "
        "与 0.45 之间。",
    )

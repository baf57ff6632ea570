"""The numbers and comparisons the memory-wall chapter states in words.

As in ``test_claims.py``: each test quotes the sentence it guards, and
recomputes what the sentence says from the library or from exact math.
"""

import math

import numpy as np
import pytest
import torch
from test_claims import assert_stated

from attention_docs import figures
from attention_docs.layers import MultiHeadAttention, scaled_dot_product_attention
from attention_docs.tiled_attention import tiled_attention
from attention_docs.traffic import kv_cache_bytes

PAGE = "memory-wall"


def test_the_softmax_layer_holds_twice_its_weights_and_the_others_grow_as_n():
    rows = figures.memory_rows()
    at = figures.MEMORY_LENGTHS.index(2048)
    assert f"{rows['full'][at]:.3g}" == "32.5" and rows["weights"][at] == 16
    assert 2 <= rows["full"][at] / rows["weights"][at] < 2.1
    assert f"{rows['tiled'][at]:.3g}" == "0.603"
    assert f"{rows['linear'][at]:.3g}" == "1.59"
    for name in ("tiled", "linear"):  # affine in n: the increments double
        increments = np.diff(rows[name])
        np.testing.assert_allclose(increments[1:] / increments[:-1], 2, rtol=0.05)
    assert rows["full"][at] / rows["full"][at - 1] > 3.9  # quadratic
    assert_stated(
        PAGE,
        en="At $n = 2048$ softmax attention holds 32.5 MiB at its peak, twice the "
        "16 MiB of its weights",
        zh="$n = 2048$ 时，softmax 注意力的峰值内存为 32.5 MiB，是其权重所占 16 MiB "
        "的两倍",
    )
    assert_stated(
        PAGE,
        en="Tiled attention holds 0.603 MiB at the same length, and causal linear "
        "attention 1.59 MiB, and both grow as $n$ plus a fixed part for a tile or a "
        "chunk: from one length to the next, what each adds doubles with $n$.",
        zh="同样长度下，分块注意力占用 0.603 MiB，因果线性注意力占用 1.59 MiB。"
        "两者的内存都由两部分组成：与 $n$ 成正比的一项，加上一块或一段所需的固定"
        "部分；所以表中的长度每翻一番，两者各自增加的内存也翻一番。",
    )


def test_the_fifth_key_moves_the_maximum_and_the_last_estimate_is_the_softmax():
    scores, values, steps = figures.online_steps()
    assert scores[4] == 2.3 and scores[:3].max() == -0.5
    assert [s["maximum"] for s in steps] == [-0.5, 2.3, 2.3]
    assert steps[0]["estimate"] > 0 > steps[1]["estimate"]
    weights = np.exp(scores - scores.max())
    assert steps[-1]["estimate"] == pytest.approx(weights @ values / weights.sum())
    assert_stated(
        PAGE,
        en="moves the maximum from −0.5 to 2.3; the sums of the first block shrink "
        "by $e^{-2.8}$, and the estimate changes sign",
        zh="把最大值从 −0.5 提高到 2.3；第 1 块的两个和缩小为原来的 $e^{-2.8}$ 倍，"
        "估计值也变了号",
    )


@pytest.mark.parametrize(
    ("n_q", "n_k", "causal"), [(50, 50, False), (50, 50, True), (13, 50, True)]
)
def test_tiled_attention_agrees_within_1e_11_with_gradients(n_q, n_k, causal):
    from attention_docs.layers import causal_mask

    generator = torch.Generator().manual_seed(0)

    def draw(n):
        x = torch.randn(2, n, 8, generator=generator, dtype=torch.float64)
        return x.requires_grad_()

    q, k, v = draw(n_q), draw(n_k), draw(n_k)
    mask = causal_mask(n_q, n_k, align="bottom-right") if causal else None
    full, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    tiled = tiled_attention(q, k, v, block=16, causal=causal)
    assert (full - tiled).abs().max() < 1e-11
    grads = [torch.autograd.grad(out.sum(), (q, k, v)) for out in (full, tiled)]
    assert max((a - b).abs().max() for a, b in zip(*grads, strict=True)) < 1e-11
    assert_stated(
        PAGE,
        en="the outputs and the gradients agree to within $10^{-11}$",
        zh="输出和梯度的差都在 $10^{-11}$ 以内",
    )


def test_the_traffic_table_s_sentences():
    rows = {row["name"]: row for row in figures.traffic_rows()}
    mib = 2**20
    assert round(rows["materialised"]["bytes_moved"] / mib) == 130
    assert rows["softmax"]["bytes_moved"] / mib == 64
    assert rows["softmax"]["multiply_adds"] == 0
    assert round(rows["tiled"]["bytes_moved"] / mib) == 33
    assert f"{rows['materialised']['intensity']:.3g}" == "15.8"
    assert f"{rows['tiled']['intensity']:.3g}" == "62.1"
    assert_stated(
        PAGE,
        en="Written out step by step, the layer moves 130 MiB, and the softmax step "
        "moves 64 MiB of it while doing no multiply-add at all",
        zh="逐步计算、把每一步的结果都写回主存时，这个层要搬运 130 MiB，其中 softmax "
        "这一步搬运 64 MiB，却一次乘加也不做",
    )
    assert_stated(
        PAGE,
        en="the work per byte rises from 15.8 to 62.1",
        zh="每字节的乘加次数从 15.8 升到 62.1",
    )


def test_what_the_backward_pass_keeps():
    rows = figures.backward_rows()
    assert rows["weights"] == 4 and f"{rows['full']:.3g}" == "4.75"
    inputs = 3 * 1024 * 64 * 4 / 2**20  # queries, keys and values, float32
    assert rows["full"] == pytest.approx(rows["weights"] + inputs)
    assert f"{rows['tiled']:.2g}" == "1"
    assert rows["model"] == 32  # 8 · 32 · 8192² · 2 bytes, in GiB
    assert 8 * 32 * 8192**2 * 2 == 32 * 2**30
    assert_stated(
        PAGE,
        en="Of the 4.75 MiB, the weights are 4 and the queries, keys and values the "
        "rest.",
        zh="在 4.75 MiB 中，权重占 4 MiB，其余是查询、键和值。",
    )
    assert_stated(PAGE, en="and it keeps 1 MiB.", zh="它只保留 1 MiB。")
    assert_stated(
        PAGE,
        en="for a batch of 8 sequences of 8192 positions, one layer of 32 heads keeps "
        "32 GiB of weights in 16-bit floats",
        zh="一批 8 个序列、每个 8192 个位置时，一个 32 头的层按 16 位浮点数计"
        "就要保留 32 GiB 的权重",
    )


def test_the_decode_table_s_sentences():
    rows = {row["kv_heads"]: row for row in figures.decode_rows()}
    assert rows[32]["intensity"] == 0.5
    assert rows[32]["cache"] == 4 and rows[8]["cache"] == 1
    assert rows[8]["intensity"] == 4 * rows[32]["intensity"]
    assert_stated(
        PAGE,
        en="each byte read from the cache serves half a multiply-add",
        zh="从缓存读出的每个字节只对应半次乘加",
    )
    assert_stated(
        PAGE,
        en="Eight key-value heads cut the cache of 8192 positions from 4 GiB to 1 GiB "
        "and raise the work per byte fourfold.",
        zh="8 个键值头把 8192 个位置的缓存从 4 GiB 减到 1 GiB，每字节的乘加次数提高到 "
        "4 倍。",
    )


def test_float16_turns_a_large_negative_mask_into_minus_infinity():
    assert torch.finfo(torch.float16).max == 65504
    assert torch.tensor(-1e6, dtype=torch.float16) == -math.inf
    assert f"{math.log(65504):.1f}" == "11.1"
    assert torch.exp(torch.tensor(11.2, dtype=torch.float16)) == math.inf
    assert torch.exp(torch.tensor(11.0, dtype=torch.float16)) < math.inf
    assert torch.tensor(-1e6, dtype=torch.bfloat16).item() == -999424
    assert_stated(
        PAGE,
        en="its largest number is 65504",
        zh="float16 的表示范围小：它能表示的最大数是 65504",
    )
    assert_stated(
        PAGE, en="$s > \\ln 65504 \\approx 11.1$", zh="$s > \\ln 65504 \\approx 11.1$"
    )
    assert_stated(
        PAGE,
        en="$-10^6$ stays finite there (it rounds to $-999424$)",
        zh="$-10^6$ 在其中仍是有限数（舍入为 $-999424$）",
    )


def test_exercise_3_cache_and_projection_sizes():
    assert kv_cache_bytes(8192, layers=32, kv_heads=32, head_dim=128) == 4 * 2**30
    assert kv_cache_bytes(8192, layers=32, kv_heads=8, head_dim=128) == 2**30
    # W_k and W_v of the library's layer map d_model to h_kv · d_k each
    small = MultiHeadAttention(32, 4, num_kv_heads=1, bias=False)
    assert small.w_k.weight.numel() + small.w_v.weight.numel() == 2 * 32 * 8
    assert f"{2 * 4096 * 4096 / 1e6:.1f}" == "33.6"
    assert f"{2 * 4096 * 1024 / 1e6:.1f}" == "8.4"
    assert f"{2 * 4096 * 4096 / 1e4:.0f}" == "3355"  # the Chinese page counts in 万
    assert f"{2 * 4096 * 1024 / 1e4:.0f}" == "839"
    assert_stated(
        PAGE,
        en="about 33.6 million, with 32 key-value heads",
        zh="32 个键值头时共 $2 \\cdot 4096 \\cdot 4096$ 个参数，约 3355 万",
    )
    assert_stated(
        PAGE,
        en="about 8.4 million, with 8.",
        zh="8 个键值头时共 $2 \\cdot 4096 \\cdot 1024$ 个，约 839 万。",
    )


def test_linear_attention_s_weights_are_flat_and_scaling_does_not_sharpen_them():
    from attention_docs.figures.attention_layer_cost import LINEAR_SHAPE
    from attention_docs.figures.attention_layer_tables import _generator
    from attention_docs.linear_attention import linear_attention_weights

    found = figures.linear_comparison()
    n, d = LINEAR_SHAPE
    assert f"{found['top_linear'] * n:.1f}" == "1.3"
    generator = _generator(2)  # the same draw as linear_comparison's
    q = torch.randn(n, d, generator=generator, dtype=torch.float64)
    k = torch.randn(n, d, generator=generator, dtype=torch.float64)
    softmax = torch.softmax(64 * q @ k.T / math.sqrt(d), dim=-1)
    linear = linear_attention_weights(64 * q, k)
    assert f"{softmax.max(-1).values.mean():.2f}" == "0.95"
    assert f"{linear.max(-1).values.mean():.2f}" == "0.05"
    # the limit: the weights of the query's positive part
    limit = linear_attention_weights(1e6 * q, k)
    positive = q.clamp(min=0) @ torch.nn.functional.elu(k).add(1).T
    torch.testing.assert_close(
        limit, positive / positive.sum(-1, keepdim=True), rtol=1e-5, atol=1e-6
    )
    assert_stated(
        PAGE,
        en="about 1.3 times the uniform $1/32$",
        zh="约为均匀权重 $1/32$ 的 1.3 倍",
    )
    assert_stated(
        PAGE,
        en="With the same queries multiplied by 64, softmax attention's mean largest "
        "weight rises to 0.95, and linear attention's only to 0.05.",
        zh="把同样的查询乘以 64，softmax 注意力的最大权重平均值升到 0.95，"
        "线性注意力的只升到 0.05。",
    )


def test_the_causal_linear_layer_s_peak_against_softmax_s():
    rows = figures.memory_rows()
    at = figures.MEMORY_LENGTHS.index(2048)
    assert f"{rows['linear'][at]:.3g}" == "1.59" and f"{rows['full'][at]:.3g}" == "32.5"
    assert_stated(
        PAGE,
        en="at $n = 2048$ with $d = d_v = 64$, its peak is 1.59 MiB, against 32.5 MiB "
        "for softmax attention",
        zh="$n = 2048$、$d = d_v = 64$ 时，它的峰值内存（peak memory）为 1.59 MiB，"
        "而不加掩蔽的 softmax 注意力为 32.5 MiB",
    )


@pytest.mark.parametrize("d_model", [64, 512, 4096])
def test_the_crossovers_of_the_layer_and_the_block(d_model):
    def layer(n):  # projections against scores and pooling
        return 2 * n * n * d_model - 4 * n * d_model**2

    def block(n):  # with a feed-forward layer four times as wide
        return 2 * n * n * d_model - (4 + 8) * n * d_model**2

    assert layer(2 * d_model) == 0 and layer(2 * d_model + 1) > 0
    assert block(6 * d_model) == 0 and block(6 * d_model + 1) > 0

    def causal(n, projections):  # a kernel that skips the masked half
        return n * n * d_model - projections * n * d_model**2

    assert causal(4 * d_model, 4) == 0 and causal(12 * d_model, 12) == 0
    assert_stated(
        PAGE,
        en="the crossover for the whole block is $n > 6 d_{\\text{model}}$",
        zh="对整个块来说，分界点是 $n > 6 d_{\\text{model}}$",
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
        en="Each fourfold step in $n$ multiplies softmax attention's memory and work "
        "by 16; at $n = 8192$ one head's weights take 256 MiB.",
        zh="$n$ 每增大到原来的 4 倍，softmax 注意力的内存和计算量就变为原来的 16 倍；"
        "$n = 8192$ 时，一个头的权重要占 256 MiB。",
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
        zh="一个头，$d = 64$，并把 PyTorch 限制为单线程；"
        "$n$ 取 256、512、1024 和 2048，每个 $n$ 先做一次不计时的调用，"
        "再取 7 次调用中最快的一次",
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
        zh="如果连续 3 次测得的斜率都与乘加次数中 $n$ 的幂次相差半个幂次或更多，"
        "构建就会报错停止",
    )


def test_linear_attention_s_weights_are_nearly_uniform_here():
    found = figures.linear_comparison()
    assert f"{found['top_linear']:.2f}" == "0.04"
    assert f"{found['top_softmax']:.2f}" == "0.14"
    assert f"{found['tv_linear']:.2f}" == "0.32"
    assert f"{found['tv_uniform']:.2f}" == "0.35"
    assert figures.attention_layer_cost.LINEAR_SHAPE == (32, 16)
    assert 1 / 32 < found["top_linear"] < 2 / 32  # "about 1.3 times the uniform 1/32"
    assert_stated(
        PAGE,
        en="its mean largest weight is 0.04 against 0.14, about 1.3 times the uniform "
        "$1/32$. Their total variation distance from the softmax weights (half the "
        "sum of the absolute differences of a query's two rows of weights, averaged "
        "over the queries), 0.32, is little less than that of uniform weights, 0.35.",
        zh="它的最大权重平均只有 0.04，约为均匀权重 $1/32$ 的 1.3 倍，而 softmax 注意力"
        "为 0.14。它与 softmax 权重之间的总变差距离（total variation distance，即两行"
        "权重之差的绝对值之和的一半，再对各查询取平均）为 0.32，只比均匀权重与 "
        "softmax 权重之间的距离（0.35）小一点",
    )


def test_a_causal_tiled_layer_skips_nearly_half_the_work():
    from torch.utils.flop_counter import FlopCounterMode

    x = torch.zeros(1, 512, 64)  # in tiles of 32: 16 of queries by 16 of keys

    def flops(causal):
        with FlopCounterMode(display=False) as counter, torch.no_grad():
            tiled_attention(x, x, x, causal=causal, block=32)
        return counter.get_total_flops()

    share = flops(True) / flops(False)
    assert 0.5 < share < 0.55  # the diagonal's tiles are computed whole
    assert_stated(
        PAGE,
        en="it skips the tiles that lie wholly after every query of a",
        zh="它会跳过这样的键块：块中每个键都位于这块查询的最后一个查询之后；"
        "这省下将近一半的计算。",
    )
    assert_stated(PAGE, en="nearly half the work.")


def test_the_model_s_weights_outnumber_its_cache():
    d_model, layers = 32 * 128, 32
    weights = layers * (4 + 8) * d_model**2  # attention's four maps, feed-forward's two
    assert f"{weights / 1e9:.1f}" == "6.4"
    cache_numbers = kv_cache_bytes(8192, layers=32, kv_heads=32, head_dim=128) / 2
    assert weights > cache_numbers
    assert_stated(
        PAGE,
        en="about 6.4 billion for this model's attention and feed-forward layers",
        zh="仍按每个查询头配一个键值头计，这个模型的注意力层和前馈网络共约 "
        "64 亿个参数，比这个长度下的缓存还多。",
    )


def test_the_causal_linear_form_does_about_twice_the_work():
    from torch.utils.flop_counter import FlopCounterMode

    from attention_docs.linear_attention import linear_attention

    x = torch.zeros(1, 1024, 64)

    def flops(causal):
        with FlopCounterMode(display=False) as counter, torch.no_grad():
            linear_attention(x, x, x, causal=causal)
        return counter.get_total_flops()

    # about 2nd² multiply-adds (and n d for the denominator), two flops each
    assert flops(False) / 2 == pytest.approx(2 * 1024 * 64 * 64, rel=0.01)
    assert 1.5 < flops(True) / flops(False) < 2.5
    assert_stated(PAGE, en="the causal form below does about twice that work.")

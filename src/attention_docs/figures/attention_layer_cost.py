"""The attention-layer chapter's cost tables, and linear attention beside softmax.

What one head's weights take in memory and work against the sequence's
length, how its time grows when measured during the build, and how far
linear attention's weights are from softmax attention's. Each is computed
from the library during the build and printed as HTML.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Callable

from ..labels import label
from .attention_layer_tables import _generator
from .panels import html_table

COST_LENGTHS = (128, 512, 2048, 8192)
COST_WIDTH = 64  # d_k of one head
TIME_LENGTHS = (256, 512, 1024, 2048)  # the lengths timed while the site builds
TIME_RUNS = 7  # timed calls per length; the fastest counts
TIME_ATTEMPTS = 3  # measurements before a build gives up
COUNTED_POWERS = {"softmax": 2, "linear": 1}  # of n, in 2n²d and 2nd²
LINEAR_SHAPE = (32, 16)  # positions, d


def cost_rows() -> list[dict[str, float]]:
    """What one head's weights cost at each of :data:`COST_LENGTHS`.

    Returns:
        Per length n: ``n``; ``mib``, the bytes of the n × n float32 weights
        the library's scaled dot-product attention returns, in MiB (measured
        on the tensor); ``softmax``, the multiply-adds of
        the scores and the pooling, 2 n² d; ``linear``, linear attention's,
        2 n d² (d = :data:`COST_WIDTH`).
    """
    from .._torch import torch
    from ..layers import scaled_dot_product_attention

    d = COST_WIDTH
    rows = []
    for n in COST_LENGTHS:
        x = torch.zeros(1, n, d, dtype=torch.float32)
        weights = scaled_dot_product_attention(x, x, x)[1]
        size = weights.element_size() * weights.nelement()
        del weights
        rows.append(
            {
                "n": n,
                "mib": size / 2**20,
                "softmax": 2 * n * n * d,
                "linear": 2 * n * d * d,
            }
        )
    return rows


def _power(value: float) -> str:
    """``value`` as HTML: 2.1 × 10<sup>6</sup>."""
    exponent = math.floor(math.log10(value))
    return f"{value / 10**exponent:.1f} × 10<sup>{exponent}</sup>"


def cost_table(lang: str = "en") -> str:
    """:func:`cost_rows` as an HTML table."""
    cells = [
        [
            str(row["n"]),
            f"{row['mib']:g}",
            _power(row["softmax"]),
            _power(row["linear"]),
        ]
        for row in cost_rows()
    ]
    keys = ("n", "mib", "softmax", "linear")
    return html_table(
        [label(f"cost_table_{k}", lang, d=COST_WIDTH) for k in keys], cells
    )


@functools.cache
def time_growth() -> dict[str, float]:
    """How the time of one head grows with n, measured now, on this machine.

    Times the library's ``scaled_dot_product_attention`` and
    ``linear_attention`` (neither masked) on seeded random inputs of width
    :data:`COST_WIDTH`, at each of :data:`TIME_LENGTHS`, with PyTorch held to
    one thread (restored after), and fits the exponent k of time ≈ c · n^k
    with :func:`attention_docs.timing.growth_exponent`. A fit that does not
    round to the power of n in the layer's counted work
    (:data:`COUNTED_POWERS`) is measured again, up to :data:`TIME_ATTEMPTS`
    times in all.

    Returns:
        The fitted exponents, by name: ``softmax`` and ``linear``.

    Raises:
        RuntimeError: Every attempt's fits strayed half a power or more from
            the counts: the page would print a growth its prose contradicts.
    """
    for _ in range(TIME_ATTEMPTS):
        fits = _fit_growth()
        if all(abs(fits[name] - power) < 0.5 for name, power in COUNTED_POWERS.items()):
            return fits
    raise RuntimeError(
        f"the time of one attention head grew unlike its counted work in "
        f"{TIME_ATTEMPTS} measurements: fitted exponents of n "
        + ", ".join(f"{name} {k:.2f}" for name, k in fits.items())
        + ", counted "
        + ", ".join(f"{name} {p}" for name, p in COUNTED_POWERS.items())
        + "; was the machine swapping or throttled? Build again when it is quieter"
    )


def _fit_growth() -> dict[str, float]:
    """One measurement of :func:`time_growth`'s exponents."""
    from .._torch import torch
    from ..layers import scaled_dot_product_attention
    from ..linear_attention import linear_attention
    from ..timing import growth_exponent

    def timed(layer: Callable[..., object]) -> Callable[[int], Callable[[], object]]:
        def prepare(n: int) -> Callable[[], object]:
            x = torch.randn(1, n, COST_WIDTH, generator=_generator(n))
            return lambda: layer(x, x, x)

        return prepare

    layers: dict[str, Callable[..., object]] = {
        "softmax": scaled_dot_product_attention,
        "linear": linear_attention,
    }
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with torch.no_grad():
            return {
                name: growth_exponent(timed(layer), TIME_LENGTHS, TIME_RUNS)
                for name, layer in layers.items()
            }
    finally:
        torch.set_num_threads(threads)


def growth_table(lang: str = "en") -> str:
    """:func:`time_growth`, rounded to whole powers, beside the counted work."""
    grown = time_growth()

    def power(k: float) -> str:
        return "n" if round(k) == 1 else f"n<sup>{round(k)}</sup>"

    cells = [
        [html.escape(label(f"growth_{name}", lang)), power(grown[name]), work]
        for name, work in (
            ("softmax", "2n<sup>2</sup>d"),
            ("linear", "2nd<sup>2</sup>"),
        )
    ]
    keys = ("layer", "time", "work")
    return html_table(
        [label(f"growth_table_{k}", lang, d=COST_WIDTH) for k in keys], cells
    )


@functools.cache
def linear_comparison() -> dict[str, float]:
    """Linear attention's weights beside softmax attention's, on random data.

    Returns:
        Means over the queries of :data:`LINEAR_SHAPE`: ``tv_linear``, the
        total variation distance ½ Σ|α − β| between the softmax weights α
        (scores q·k/√d) and linear attention's β; ``tv_uniform``, between α
        and uniform weights; ``top_softmax`` and ``top_linear``, the largest
        weight of each.
    """
    from .._torch import torch
    from ..linear_attention import linear_attention_weights

    n, d = LINEAR_SHAPE
    generator = _generator(2)
    q = torch.randn(n, d, generator=generator, dtype=torch.float64)
    k = torch.randn(n, d, generator=generator, dtype=torch.float64)
    alpha = torch.softmax(q @ k.T / math.sqrt(d), dim=-1)
    beta = linear_attention_weights(q, k)
    uniform = torch.full_like(alpha, 1 / n)
    return {
        "tv_linear": float(0.5 * (alpha - beta).abs().sum(-1).mean()),
        "tv_uniform": float(0.5 * (alpha - uniform).abs().sum(-1).mean()),
        "top_softmax": float(alpha.max(-1).values.mean()),
        "top_linear": float(beta.max(-1).values.mean()),
    }

"""The memory-wall chapter's figure and tables: what exact attention costs.

Peak memory is counted with :func:`attention_docs.memory.peak_bytes` on the
library's layers while the page is built; traffic and cache sizes are exact
counts (:mod:`attention_docs.traffic`, :mod:`attention_docs.kv_cache`). Each
returns the same numbers in every build.
"""

from __future__ import annotations

import contextlib
import functools
import html
from collections.abc import Callable, Iterator

import numpy as np

from ..labels import label
from ..online_softmax import Partial
from ..svg import Drawing
from .attention_layer_cost import _power
from .attention_layer_tables import _generator
from .panels import html_table

MEMORY_LENGTHS = (256, 512, 1024, 2048)
MEMORY_WIDTH = 64  # d of one head, float32
MEMORY_LAYERS = ("full", "tiled", "linear")
ONLINE_KEYS, ONLINE_BLOCK, ONLINE_SEED = 8, 3, 5
TRAFFIC = {"n": 4096, "d": 64, "block": 128, "element_bytes": 2}
BACKWARD = {"n": 1024, "d": 64}  # float32, measured
# The model-sized examples: 32 layers of 32 heads of width 128, 16-bit numbers.
MODEL = {"layers": 32, "heads": 32, "head_dim": 128, "n": 8192, "batch": 8}
KV_HEADS = (32, 8, 1)  # multi-head, grouped-query, multi-query
MIB, GIB = 2**20, 2**30


def _layer(name: str) -> Callable[..., object]:
    from ..layers import scaled_dot_product_attention
    from ..linear_attention import linear_attention
    from ..tiled_attention import tiled_attention

    return {
        "full": lambda q, k, v: scaled_dot_product_attention(q, k, v)[0],
        "tiled": tiled_attention,
        "linear": lambda q, k, v: linear_attention(q, k, v, causal=True),
    }[name]


@functools.cache
def memory_rows() -> dict[str, tuple[float, ...]]:
    """The peak memory of one head's forward pass, in MiB, at each length.

    Returns:
        Tuples over :data:`MEMORY_LENGTHS`, by key: ``full`` (the library's
        scaled dot-product attention), ``tiled`` (tiled attention, tiles of
        64), ``linear`` (causal linear attention, chunks of 64), and
        ``weights``, the n × n float32 weights alone; queries, keys and values
        of width :data:`MEMORY_WIDTH`, made before the count starts.
    """
    from .._torch import torch
    from ..memory import peak_bytes

    rows: dict[str, list[float]] = {name: [] for name in (*MEMORY_LAYERS, "weights")}
    for n in MEMORY_LENGTHS:
        x = torch.randn(1, n, MEMORY_WIDTH, generator=_generator(n))
        with torch.no_grad(), _one_thread():
            for name in MEMORY_LAYERS:
                call = functools.partial(_layer(name), x, x, x)
                rows[name].append(peak_bytes(call) / MIB)
        rows["weights"].append(4 * n * n / MIB)
    return {name: tuple(values) for name, values in rows.items()}


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """PyTorch on one thread, restored after.

    The counts do not change, and on a busy machine the thread pool's waiting
    costs more than these small products gain.
    """
    from .._torch import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def memory_figure(lang: str = "en") -> Drawing:
    """Peak memory against n, log-log: the full layer, tiled and causal linear."""
    from ..plotting import curves

    rows = memory_rows()
    series = [
        (label(f"memory_{name}", lang), np.array(rows[name]))
        for name in ("weights", *MEMORY_LAYERS)
    ]
    fig = curves(
        np.array(MEMORY_LENGTHS, dtype=float),
        series,
        xlabel=label("memory_length", lang),
        ylabel=label("memory_peak", lang),
        styles=[":"],
        log_x=True,
        log_y=True,
        xticks=MEMORY_LENGTHS,
        lang=lang,
    )
    at = MEMORY_LENGTHS.index(2048)
    alt = label(
        "memory_alt",
        lang,
        full=rows["full"][at],
        weights=rows["weights"][at],
        tiled=rows["tiled"][at],
        linear=rows["linear"][at],
    )
    return Drawing(fig, alt)


def memory_table(lang: str = "en") -> str:
    """:func:`memory_rows` as an HTML table, MiB to three significant digits."""
    rows = memory_rows()
    cells = [
        [str(n), *(f"{rows[name][i]:.3g}" for name in ("weights", *MEMORY_LAYERS))]
        for i, n in enumerate(MEMORY_LENGTHS)
    ]
    keys = ("length", "weights", *MEMORY_LAYERS)
    return html_table([label(f"memory_table_{k}", lang) for k in keys], cells)


@functools.cache
def online_steps() -> tuple[np.ndarray, np.ndarray, list[Partial]]:
    """One query's seeded scores and values, and its online softmax by blocks."""
    from ..online_softmax import online_pooling

    rng = np.random.default_rng(ONLINE_SEED)
    scores = np.round(rng.normal(size=ONLINE_KEYS) * 2, 1)
    values = np.round(rng.normal(size=ONLINE_KEYS), 1)
    return (
        scores,
        values,
        online_pooling(scores, values, ONLINE_BLOCK),
    )


def online_table(lang: str = "en") -> str:
    """The online softmax of :func:`online_steps`, a row per block, then at once."""
    scores, values, steps = online_steps()
    weights = np.exp(scores - scores.max())
    at_once = float(weights @ values / weights.sum())
    cells = [
        [
            str(step["keys"]),
            _number(step["maximum"], ".1f"),
            _number(step["total"], ".4f"),
            _number(step["estimate"], ".4f"),
        ]
        for step in steps
    ]
    cells.append(
        [html.escape(label("online_at_once", lang)), "", "", _number(at_once, ".4f")]
    )
    keys = ("keys", "maximum", "total", "estimate")
    return html_table([label(f"online_table_{k}", lang) for k in keys], cells)


def online_inputs(lang: str = "en") -> str:
    """The scores and values of :func:`online_steps`, a row per key."""
    scores, values, _ = online_steps()
    rows = [
        [str(j), _number(s, ".1f"), _number(v, ".1f")]
        for j, (s, v) in enumerate(zip(scores, values, strict=True))
    ]
    header = [label(f"online_{k}", lang) for k in ("key", "scores", "values")]
    return html_table(header, rows)


def _number(value: float, digits: str) -> str:
    """``value`` formatted, with a true minus sign."""
    return format(value, digits).replace("-", "−")


def traffic_rows() -> list[dict[str, float | str]]:
    """Work and traffic of one head at :data:`TRAFFIC`: each step, all, tiled."""
    from ..traffic import Step, intensity, materialised_steps, tiled_step

    n, d, size = TRAFFIC["n"], TRAFFIC["d"], TRAFFIC["element_bytes"]
    steps = materialised_steps(n, d, element_bytes=size)
    total = Step(
        name="materialised",
        multiply_adds=sum(s["multiply_adds"] for s in steps),
        bytes_moved=sum(s["bytes_moved"] for s in steps),
    )
    tiled = tiled_step(n, d, TRAFFIC["block"], element_bytes=size)
    return [
        {
            "name": step["name"],
            "multiply_adds": step["multiply_adds"],
            "bytes_moved": step["bytes_moved"],
            "intensity": intensity(step),
        }
        for step in (*steps, total, tiled)
    ]


def traffic_table(lang: str = "en") -> str:
    """:func:`traffic_rows` as an HTML table."""
    cells = []
    for row in traffic_rows():
        work, moved = int(row["multiply_adds"]), int(row["bytes_moved"])
        cells.append(
            [
                html.escape(label(f"traffic_{row['name']}", lang, **TRAFFIC)),
                _power(work) if work else "0",
                f"{moved / MIB:.1f}",
                f"{float(row['intensity']):.3g}",
            ]
        )
    keys = ("step", "work", "moved", "intensity")
    return html_table(
        [label(f"traffic_table_{k}", lang, **TRAFFIC) for k in keys], cells
    )


@functools.cache
def backward_rows() -> dict[str, float]:
    """What the backward pass keeps, measured at :data:`BACKWARD`, in MiB.

    Returns:
        ``full`` and ``tiled``: the bytes autograd keeps for one head's forward
        pass (:func:`attention_docs.memory.saved_bytes`), float32; ``weights``,
        the n × n weights alone; ``model``, the weights of every head of one
        layer of :data:`MODEL` for its batch, at 16 bits, in GiB.
    """
    from .._torch import torch
    from ..memory import saved_bytes

    n, d = BACKWARD["n"], BACKWARD["d"]
    generator = _generator(n)
    q, k, v = (
        torch.randn(1, n, d, generator=generator).requires_grad_() for _ in range(3)
    )
    with _one_thread():
        kept = {
            name: saved_bytes(functools.partial(_layer(name), q, k, v)) / MIB
            for name in ("full", "tiled")
        }
    model = MODEL["batch"] * MODEL["heads"] * MODEL["n"] ** 2 * 2 / GIB
    return {**kept, "weights": 4 * n * n / MIB, "model": model}


def backward_table(lang: str = "en") -> str:
    """:func:`backward_rows` for one head, as an HTML table."""
    rows = backward_rows()
    cells = [
        [html.escape(label(f"backward_{name}", lang)), f"{rows[name]:.3g}"]
        for name in ("full", "tiled")
    ]
    keys = ("layer", "kept")
    return html_table(
        [label(f"backward_table_{k}", lang, **BACKWARD) for k in keys], cells
    )


def decode_rows() -> list[dict[str, float]]:
    """The cache and one token's attention for :data:`MODEL`, per number of kv heads.

    Returns:
        Per entry of :data:`KV_HEADS`: ``kv_heads``; ``cache``, the cache of one
        sequence of ``n`` positions in GiB; ``work`` and ``moved``, one new
        token's multiply-adds and bytes read from the cache in one layer
        (MiB); ``intensity``, their ratio.
    """
    from ..traffic import decode_step, intensity, kv_cache_bytes

    rows = []
    for kv_heads in KV_HEADS:
        step = decode_step(
            MODEL["n"],
            heads=MODEL["heads"],
            kv_heads=kv_heads,
            head_dim=MODEL["head_dim"],
        )
        cache = kv_cache_bytes(
            MODEL["n"],
            layers=MODEL["layers"],
            kv_heads=kv_heads,
            head_dim=MODEL["head_dim"],
        )
        rows.append(
            {
                "kv_heads": kv_heads,
                "cache": cache / GIB,
                "work": step["multiply_adds"],
                "moved": step["bytes_moved"] / MIB,
                "intensity": intensity(step),
            }
        )
    return rows


def decode_table(lang: str = "en") -> str:
    """:func:`decode_rows` as an HTML table: a column per kind of attention."""
    rows = decode_rows()
    shown = {
        "cache": lambda v: f"{v:g}",
        "work": _power,
        "moved": lambda v: f"{v:g}",
        "intensity": lambda v: f"{v:g}",
    }
    cells = [
        [html.escape(label(f"decode_table_{key}", lang, **MODEL))]
        + [show(row[key]) for row in rows]
        for key, show in shown.items()
    ]
    header = [label("decode_table_kind", lang, **MODEL)] + [
        label(f"decode_kind_{i}", lang, kv=int(row["kv_heads"]))
        for i, row in enumerate(rows)
    ]
    return html_table(header, cells)

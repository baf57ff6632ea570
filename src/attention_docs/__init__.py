"""attention_docs: the tested library behind every figure of the attention_docs site."""

from __future__ import annotations

# The one version number: the wheel's (pyproject.toml reads it from here), the
# site's footer, the PDFs' title pages and the notebooks' setup cell.
__version__ = "0.1.0"

from .data import Dataset, make_dataset, true_function
from .kernels import KERNELS, boxcar, constant, epanechnikov, gaussian, get_kernel
from .plotting import heatmaps
from .pooling import attention_weights, average_pooling, nadaraya_watson
from .svg import Drawing, figure_to_svg

__all__ = [
    "KERNELS",
    "Dataset",
    "Drawing",
    "attention_weights",
    "average_pooling",
    "boxcar",
    "constant",
    "epanechnikov",
    "figure_to_svg",
    "gaussian",
    "get_kernel",
    "heatmaps",
    "make_dataset",
    "nadaraya_watson",
    "true_function",
]

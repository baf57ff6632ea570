"""One function per figure published on the site, each returning inline SVG.

Each figure function returns a ``Drawing`` (``attention_docs.svg``): the
inline SVG the page prints, which also keeps the matplotlib Figure and its
text alternative for code that wants them.

Pages call these, one call per figure, with the language of the page. The
English and the Chinese page run the same code; only ``lang`` differs. Every
figure is computed from the library: the data set, the pooling functions and
the trained model.
"""

from __future__ import annotations

from .cues import (
    QKV_LABELS,
    identity_heatmap,
    qkv_diagram,
    qkv_text,
    saliency_cue,
    softmax_heatmap,
    task_cue,
    volitional_cue,
    weights_heatmap,
)
from .experiments import (
    COMPARED_KERNELS,
    COMPARED_KERNELS_WITH_WIDTH,
    COMPARED_STDS,
    CV_GRID,
    DATA_SEED,
    DOT_PRODUCT_BANDWIDTH,
    DOT_PRODUCT_DIMENSIONS,
    FIXED_BANDWIDTH,
    LONG_RECIPE,
    N_TRAIN,
    SAMPLE_SEEDS,
    SAMPLE_SIZES,
    SHORT_RECIPE,
    SLOW_RECIPE,
    SampleSizeErrors,
    chapter_data,
    compared_bandwidth,
    cv_curve,
    gaussian_and_dot_product_weights,
    kernel_comparison_predictions,
    sample_size_errors,
    trained,
)
from .explorables import (
    gradient_descent_explorer,
    nadaraya_watson_explorer,
    soft_lookup_explorer,
)
from .nonparametric import (
    average_pooling_fit,
    error_against_sample_size,
    kernel_comparison,
    kernel_shapes,
    nadaraya_watson_fit,
    nadaraya_watson_weights,
    source_listing,
)
from .parametric import (
    bandwidth_summary,
    cv_bandwidth_curve,
    dot_product_check,
    gaussian_as_dot_product,
    gradient_descent_path,
    parametric_fit,
    parametric_loss_curve,
    parametric_weights,
)

__all__ = [
    "DATA_SEED",
    "N_TRAIN",
    "SHORT_RECIPE",
    "LONG_RECIPE",
    "SLOW_RECIPE",
    "DOT_PRODUCT_BANDWIDTH",
    "DOT_PRODUCT_DIMENSIONS",
    "SAMPLE_SIZES",
    "SAMPLE_SEEDS",
    "FIXED_BANDWIDTH",
    "COMPARED_KERNELS",
    "COMPARED_KERNELS_WITH_WIDTH",
    "COMPARED_STDS",
    "CV_GRID",
    "chapter_data",
    "trained",
    "cv_curve",
    "compared_bandwidth",
    "kernel_comparison_predictions",
    "gaussian_and_dot_product_weights",
    "SampleSizeErrors",
    "sample_size_errors",
    "saliency_cue",
    "volitional_cue",
    "task_cue",
    "QKV_LABELS",
    "qkv_text",
    "qkv_diagram",
    "identity_heatmap",
    "weights_heatmap",
    "softmax_heatmap",
    "average_pooling_fit",
    "nadaraya_watson_fit",
    "nadaraya_watson_weights",
    "kernel_shapes",
    "kernel_comparison",
    "error_against_sample_size",
    "source_listing",
    "parametric_loss_curve",
    "parametric_fit",
    "parametric_weights",
    "cv_bandwidth_curve",
    "gradient_descent_path",
    "gaussian_as_dot_product",
    "dot_product_check",
    "bandwidth_summary",
    "nadaraya_watson_explorer",
    "soft_lookup_explorer",
    "gradient_descent_explorer",
]

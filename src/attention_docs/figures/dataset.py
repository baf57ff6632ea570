"""The chapters' data set: its size, its seed, and the data every figure draws from.

The attention-pooling chapters' figures and the explorables use it as it is;
"Kernel regression, further" draws more data sets of its size.
"""

from __future__ import annotations

from ..data import Dataset, make_dataset

DATA_SEED = 0


N_TRAIN = 50


def chapter_data() -> Dataset:
    """The data set used by every figure of the attention-pooling chapter."""
    return make_dataset(N_TRAIN, seed=DATA_SEED)

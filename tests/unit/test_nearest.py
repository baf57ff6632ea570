"""The sorted fast paths of attention_docs.nearest against its all-pairs path."""

import numpy as np
import pytest

from attention_docs import nearest


def all_pairs(keys, queries, hidden):
    """The brackets by comparing every key with every query (the general path)."""
    rows = np.broadcast_to(keys, (queries.size, keys.size)).copy()
    return nearest._brackets(rows, queries, hidden)  # 2-D keys: never sorted


@pytest.mark.parametrize("seed", range(40))
def test_sorted_brackets_match_the_all_pairs_brackets(seed):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 25)), int(rng.integers(1, 25))
    keys = np.round(rng.normal(size=n) * 2) / 2  # duplicates
    if seed % 3 == 0:
        keys = rng.normal(size=n)
    queries = np.concatenate(
        [rng.normal(size=m), keys[rng.integers(0, n, m)], [1e17, -1e300, 1.7e308]]
    )
    for got, want in zip(
        nearest._brackets(keys, queries, None),
        all_pairs(keys, queries, None),
        strict=True,
    ):
        np.testing.assert_array_equal(got, want)
    if n >= 2:  # leave-one-out: the queries are the keys, each hides its own
        own = np.eye(n, dtype=bool)
        assert nearest._only_self_hidden(keys, keys, own)
        for got, want in zip(
            nearest._brackets(keys, keys, own),
            all_pairs(keys, keys, own),
            strict=True,
        ):
            np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(
            nearest.nearest_key(keys, keys, own),
            nearest.nearest_keys(keys, keys, own)[0],
        )


def test_another_mask_takes_the_all_pairs_path():
    keys = np.array([0.0, 1.0, 2.0, 3.0])
    hidden = np.eye(4, dtype=bool)
    hidden[0, 1] = True  # query 0 may not use key 1 either
    assert not nearest._only_self_hidden(keys, keys, hidden)
    assert nearest.nearest_key(keys, keys, hidden)[0] == 2.0
    assert not nearest._only_self_hidden(keys, keys + 0.5, np.eye(4, dtype=bool))

"""The online softmax against the softmax average, computed at once."""

import numpy as np
import pytest

from attention_docs.online_softmax import online_pooling


@pytest.mark.parametrize("block", [1, 3, 8, 100])
def test_the_last_estimate_is_the_softmax_average(block):
    rng = np.random.default_rng(block)
    scores, values = rng.normal(size=17) * 5, rng.normal(size=17)
    weights = np.exp(scores - scores.max())
    steps = online_pooling(scores, values, block)
    assert steps[-1]["estimate"] == pytest.approx(
        weights @ values / weights.sum(), rel=1e-13
    )
    assert [s["keys"] for s in steps][-1] == 17
    for step in steps:  # each estimate is the softmax average of the keys so far
        seen = scores[: step["keys"]]
        assert step["maximum"] == seen.max()
        assert step["total"] == pytest.approx(
            np.exp(seen - seen.max()).sum(), rel=1e-13
        )


def test_scores_that_overflow_exp_are_fine():
    steps = online_pooling([1000.0, 2000.0, 1999.0], [1.0, 2.0, 3.0], 1)
    assert steps[-1]["estimate"] == pytest.approx(
        (2 + 3 * np.exp(-1)) / (1 + np.exp(-1))
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1.0, 2.0], [1.0], 1), "one entry per key"),
        (([1.0], [1.0], 0), "block must be a positive integer"),
        (([], [], 1), "scores must not be empty"),
        (([np.nan], [1.0], 1), "NaN"),
    ],
)
def test_bad_input_is_refused(args, message):
    with pytest.raises(ValueError, match=message):
        online_pooling(*args)

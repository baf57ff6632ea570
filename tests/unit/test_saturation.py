"""The √d argument, measured: against exact math and against torch's autograd."""

import math

import numpy as np
import pytest
import torch
from scipy.special import softmax

from attention_docs.saturation import (
    random_queries_keys,
    saturation,
    softmax_jacobian,
    softmax_rows,
)

DIMENSIONS = [1, 4, 16, 64, 256, 1024]


def test_softmax_rows_is_scipy_s_and_survives_large_scores():
    scores = np.random.default_rng(1).normal(size=(3, 4, 7)) * 50
    np.testing.assert_allclose(
        softmax_rows(scores), softmax(scores, axis=-1), rtol=1e-12
    )
    assert np.isfinite(softmax_rows([[1000.0, 0.0]])).all()


def test_the_jacobian_is_autograd_s():
    scores = torch.tensor(np.random.default_rng(2).normal(size=6) * 3)
    expected = torch.autograd.functional.jacobian(
        lambda s: torch.softmax(s, -1), scores
    )
    found = softmax_jacobian(softmax_rows(scores.numpy()))
    np.testing.assert_allclose(found, expected.numpy(), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("d", DIMENSIONS)
def test_unscaled_scores_spread_as_the_square_root_of_d_and_scaled_ones_do_not(d):
    """Var(q·k) = d for independent standard normal entries (exact), so the
    scores' standard deviation is √d, and 1 once divided by √d (measured over
    enough keys that one draw of them does not decide it)."""
    sample = {"n_queries": 500, "n_keys": 200}
    unscaled = saturation(d, scaled=False, **sample).score_std
    assert unscaled == pytest.approx(math.sqrt(d), rel=0.05)
    assert saturation(d, **sample).score_std == pytest.approx(1.0, rel=0.05)


def test_unscaled_weights_saturate_and_their_gradient_vanishes_as_d_grows():
    raw = [saturation(d, scaled=False) for d in DIMENSIONS]
    tops = [m.top_weight for m in raw]
    gradients = [m.jacobian for m in raw]
    assert tops == sorted(tops) and tops[-1] > 0.95
    assert gradients[1:] == sorted(gradients[1:], reverse=True)
    assert gradients[-1] < gradients[0] / 5
    # With the scale, d no longer moves them (beyond d = 1's ties and noise).
    scaled = [saturation(d) for d in DIMENSIONS[1:]]
    assert max(m.top_weight for m in scaled) - min(m.top_weight for m in scaled) < 0.06
    assert min(m.jacobian for m in scaled) > 0.3


def test_a_query_projection_times_c_is_the_temperature_one_over_c():
    """Scaled scores with W_q multiplied by √d are exactly the unscaled ones."""
    d = 256
    sharpened = saturation(d, temperature=1 / math.sqrt(d))
    assert sharpened == pytest.approx(saturation(d, scaled=False))
    queries, keys = random_queries_keys(d, 5, 10)
    by_hand = softmax((math.sqrt(d) * queries) @ keys.T / math.sqrt(d), axis=-1)
    np.testing.assert_allclose(by_hand, softmax(queries @ keys.T, axis=-1), rtol=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: saturation(0), "d must be an integer >= 1"),
        (lambda: saturation(4, temperature=0.0), "temperature must be a positive"),
        (lambda: saturation(4, n_keys=0), "n_keys must be an integer >= 1"),
        (lambda: softmax_rows([[np.nan, 1.0]]), "NaN"),
        (lambda: softmax_rows(np.zeros((2, 0))), "at least one column"),
        (lambda: softmax_jacobian([0.5, 0.2]), "sum to 1"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("scaled", [True, False])
def test_the_query_gradient_is_pytorch_s_jacobian_of_the_weights(scaled):
    import torch

    from attention_docs.saturation import query_gradient_norms, random_queries_keys

    d = 8
    norms = query_gradient_norms(d, scaled=scaled, n_queries=5, n_keys=4, seed=3)
    queries, keys = random_queries_keys(d, 5, 4, seed=3)
    scale = 1 / np.sqrt(d) if scaled else 1.0
    k = torch.tensor(keys)
    for q, norm in zip(queries, norms, strict=True):
        weights = lambda x: torch.softmax(scale * (k @ x), dim=-1)  # noqa: E731
        jacobian = torch.autograd.functional.jacobian(weights, torch.tensor(q))
        assert norm == pytest.approx(float(torch.linalg.norm(jacobian)), rel=1e-12)

"""Queries far from every key get the limit of the formula: the nearest key's value.

The reference decides the nearest key with exact rational arithmetic
(fractions.Fraction), so it cannot share the library's floating-point shortcuts.
"""

from fractions import Fraction

import numpy as np
import pytest
import torch

from attention_docs import figures, nadaraya_watson
from attention_docs.data import make_dataset_2d
from attention_docs.kernels import get_kernel
from attention_docs.model import NadarayaWatsonRegressor, predict, train
from attention_docs.smoothers import cv_error_nd, nadaraya_watson_nd

DATA = figures.chapter_data()
BIGGEST = float(np.finfo(float).max)
FAR = (1e17, -1e17, 1e300, -1e300, BIGGEST, -BIGGEST)
CLIPPED = ("gaussian", "boxcar", "epanechnikov")  # every kernel but the constant


def nearest_value(keys: np.ndarray, values: np.ndarray, query: float) -> float:
    """Mean value over the keys exactly nearest to the query (exact arithmetic)."""
    distances = [abs(Fraction(query) - Fraction(key)) for key in keys]
    nearest = min(distances)
    tied = [value for value, d in zip(values, distances, strict=True) if d == nearest]
    return float(np.mean(tied))


def slow_nadaraya_watson(keys, values, query, kernel, bandwidth):
    """One query at a time, the formula as written, with the largest term shifted."""
    logs = [
        float(get_kernel(kernel).log_function(np.array((query - k) / bandwidth)))
        for k in keys
    ]
    top = max(logs)
    weights = [np.exp(s - top) for s in logs]
    return sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)


@pytest.mark.parametrize("kernel", CLIPPED)
@pytest.mark.parametrize("bandwidth", [0.2, 1.0, 50.0])
def test_a_far_query_gets_its_nearest_keys_value(kernel, bandwidth):
    queries = np.array(FAR)
    predictions, weights = nadaraya_watson(
        DATA.x_train, DATA.y_train, queries, kernel=kernel, bandwidth=bandwidth
    )
    expected = [nearest_value(DATA.x_train, DATA.y_train, q) for q in queries]
    np.testing.assert_array_equal(predictions, expected)
    assert predictions[0] != pytest.approx(DATA.y_train.mean())  # not all tied
    np.testing.assert_array_equal(weights.sum(axis=1), 1.0)


def test_the_constant_kernel_stays_average_pooling_however_far():
    predictions, _ = nadaraya_watson(
        DATA.x_train, DATA.y_train, np.array(FAR), kernel="constant"
    )
    np.testing.assert_allclose(predictions, DATA.y_train.mean(), rtol=1e-14)


@pytest.mark.parametrize("w", [0.3, 4.93, -23.3])
def test_the_trained_models_prediction_gets_the_nearest_keys_value(w):
    queries = np.array(FAR)
    predictions, weights = predict(
        NadarayaWatsonRegressor(w), DATA.x_train, DATA.y_train, queries
    )
    expected = [nearest_value(DATA.x_train, DATA.y_train, q) for q in queries]
    np.testing.assert_array_equal(predictions, expected)
    assert np.all(np.isfinite(weights))


@pytest.mark.parametrize("w", [2e154, -1e200, 1e308])
def test_a_model_with_a_huge_w_still_pools_the_nearest_keys(w):
    """w² alone overflows past |w| ≈ 1.3e154: the nearest key's 0 must stay 0."""
    keys, values = np.array([0.0, 1.0, 2.0, 2.0]), np.array([10.0, 20.0, 30.0, 50.0])
    queries = np.array([1.5, 0.5, 0.9, 1e17, -1e300])
    predictions, weights = predict(NadarayaWatsonRegressor(w), keys, values, queries)
    # 1.5: the keys 1 and 2, 2 tie; 0.5: 0 and 1 tie; then 1, then 2, 2; then 0
    np.testing.assert_allclose(predictions, [100 / 3, 15, 20, 40, 10], rtol=1e-15)
    assert np.all(np.isfinite(weights))


def test_a_model_after_training_too():
    model = train(DATA.x_train, DATA.y_train, epochs=5).model
    predictions, _ = predict(model, DATA.x_train, DATA.y_train, np.array([-1e17]))
    assert predictions[0] == DATA.y_train[np.argmin(DATA.x_train)]  # 0.2384


@pytest.mark.parametrize("kernel", CLIPPED)
@pytest.mark.parametrize(
    ("keys", "values", "query", "expected"),
    [
        ([0.0, 0.0, 3.0], [1.0, 2.0, 9.0], -1e300, 1.5),  # duplicates pool
        ([2.0, 5.0, 5.0], [9.0, 1.0, 4.0], BIGGEST, 2.5),
        ([1e17, 1e17 + 32], [0.0, 2.0], 1e17 + 16, 1.0),  # equidistant: split
        ([1e17, 1e17 + 48], [0.0, 2.0], 1e17 + 16, 0.0),  # not quite: no split
        ([-3.0, 3.0], [0.0, 2.0], 0.0, 1.0),
    ],
)
def test_keys_tied_for_nearest_share_the_weight(kernel, keys, values, query, expected):
    bandwidth = 0.1  # no key inside the compact kernels' window
    prediction, weights = nadaraya_watson(
        np.array(keys),
        np.array(values),
        np.array([query]),
        kernel=kernel,
        bandwidth=bandwidth,
    )
    assert prediction[0] == expected
    assert prediction[0] == nearest_value(np.array(keys), np.array(values), query)
    model_prediction = predict(
        NadarayaWatsonRegressor(1 / bandwidth), keys, values, [query]
    )[0]
    assert model_prediction[0] == expected


@pytest.mark.parametrize("kernel", ["gaussian", "boxcar", "epanechnikov", "constant"])
@pytest.mark.parametrize("bandwidth", [0.05, 0.3, 2.0])
def test_the_ordinary_regime_matches_the_formula_query_by_query(kernel, bandwidth):
    rng = np.random.default_rng(7)
    keys = np.sort(rng.uniform(0, 5, 30))
    values = rng.normal(size=30)
    queries = np.concatenate([rng.uniform(-10, 15, 40), keys[:5]])
    predictions, _ = nadaraya_watson(
        keys, values, queries, kernel=kernel, bandwidth=bandwidth
    )
    for query, prediction in zip(queries, predictions, strict=True):
        slow = slow_nadaraya_watson(keys, values, query, kernel, bandwidth)
        if not np.isfinite(slow):  # no key in a compact window: the nearest key
            slow = nearest_value(keys, values, query)
        assert prediction == pytest.approx(slow, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("w", [0.3, 2.0, 20.0])
def test_the_models_ordinary_regime_matches_the_formula(w):
    rng = np.random.default_rng(3)
    queries = rng.uniform(-10, 15, 40)
    predictions, _ = predict(
        NadarayaWatsonRegressor(w), DATA.x_train, DATA.y_train, queries
    )
    for query, prediction in zip(queries, predictions, strict=True):
        slow = slow_nadaraya_watson(
            DATA.x_train, DATA.y_train, query, "gaussian", 1 / w
        )
        assert prediction == pytest.approx(slow, rel=1e-12, abs=1e-12)


def test_the_training_gradient_is_unchanged_by_the_shift():
    """The shifted scores give the same loss and gradient as -((x - k) w)²/2."""
    x = torch.tensor(DATA.x_train)
    y = torch.tensor(DATA.y_train)
    w = torch.tensor([1.7], dtype=torch.float64, requires_grad=True)
    keys = x.expand(x.numel(), -1)
    mask = torch.eye(x.numel(), dtype=torch.bool)
    plain = (-(((x[:, None] - keys) * w) ** 2) / 2).masked_fill(mask, -torch.inf)
    loss = (((torch.softmax(plain, dim=1) * y).sum(dim=1) - y) ** 2).sum()
    (grad,) = torch.autograd.grad(loss, w)
    model = NadarayaWatsonRegressor(1.7)
    model_loss = ((model(x, keys, y.expand(x.numel(), -1), mask)[0] - y) ** 2).sum()
    model_loss.backward()
    assert model_loss.item() == pytest.approx(loss.item(), rel=1e-12)
    assert model.w.grad.item() == pytest.approx(grad.item(), rel=1e-10)


def nearest_value_nd(keys, values, query, widths):
    """Mean value over the keys exactly nearest in the scaled distance."""
    distances = [
        sum(
            ((Fraction(q) - Fraction(k)) / Fraction(w)) ** 2
            for q, k, w in zip(query, key, widths, strict=True)
        )
        for key in keys
    ]
    nearest = min(distances)
    return float(
        np.mean([v for v, d in zip(values, distances, strict=True) if d == nearest])
    )


@pytest.mark.parametrize(
    ("widths", "queries"),
    [
        ((0.3, 0.5), [[1e17, 2.0], [-1e300, -1e300], [2.0, -1e17], [1e300, -3e299]]),
        ((1.0, 1.0), [[BIGGEST, 0.0], [-BIGGEST, BIGGEST], [1e17, 1e17]]),
    ],
)
def test_a_far_query_with_two_inputs_gets_its_nearest_keys_value(widths, queries):
    data = make_dataset_2d()
    queries = np.array(queries)
    predictions = nadaraya_watson_nd(
        data.x_train, data.y_train, queries, bandwidths=widths
    )
    expected = [
        nearest_value_nd(data.x_train, data.y_train, q, widths) for q in queries
    ]
    np.testing.assert_array_equal(predictions, expected)


def test_two_inputs_in_the_ordinary_regime_match_the_formula():
    rng = np.random.default_rng(5)
    keys, values = rng.uniform(0, 5, (40, 2)), rng.normal(size=40)
    queries = rng.uniform(-10, 15, (30, 2))
    widths = np.array([0.4, 1.5])
    predictions = nadaraya_watson_nd(keys, values, queries, bandwidths=widths)
    for query, prediction in zip(queries, predictions, strict=True):
        logs = [-0.5 * np.sum(((query - k) / widths) ** 2) for k in keys]
        weights = np.exp(np.array(logs) - max(logs))
        assert prediction == pytest.approx(weights @ values / weights.sum(), rel=1e-12)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda x, y, q: nadaraya_watson_nd(x, y, q, bandwidths=0.5), "x_query"),
        (lambda x, y, q: nadaraya_watson_nd(q, y[:1], x, bandwidths=0.5), "x_train"),
        (
            lambda x, y, q: cv_error_nd(np.vstack([x, q]), np.append(y, 0), 0.5),
            "x_train",
        ),
    ],
)
def test_a_point_beyond_what_a_narrow_width_can_scale_is_refused_by_name(call, name):
    """Past about 1.8e308 x h no score exists in float64: a clear error, no NaN."""
    data = make_dataset_2d(20, seed=0)
    query = np.array([[np.finfo(float).max, 0.0]])
    with pytest.raises(
        ValueError, match=f"^{name} divided by the bandwidths overflows"
    ):
        call(data.x_train, data.y_train, query)
    assert np.isfinite(
        nadaraya_watson_nd(data.x_train, data.y_train, query, bandwidths=1.0)
    ).all()  # at h = 1 the same query still gets a value

"""The kernel smoothers of "Kernel regression, further", against slow references."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attention_docs import KERNELS, nadaraya_watson
from attention_docs.scores import pooling_gradient
from attention_docs.smoothers import (
    class_probabilities,
    cv_error_nd,
    expected_squared_error_nd,
    kernel_density,
    local_linear,
    nadaraya_watson_nd,
)

RNG = np.random.default_rng(7)
X = np.sort(RNG.uniform(0, 5, 40))
Y = np.sin(X) + RNG.normal(0, 0.3, 40)
DENSITY_KERNELS = ["gaussian", "boxcar", "epanechnikov"]


@pytest.mark.parametrize("kernel", DENSITY_KERNELS)
@pytest.mark.parametrize("h", [0.2, 1.0])
def test_the_density_estimate_integrates_to_one(kernel, h):
    grid = np.linspace(-10, 15, 250_001)
    density = kernel_density(X, grid, kernel=kernel, bandwidth=h)
    assert np.all(density >= 0)
    assert np.trapezoid(density, grid) == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("kernel", DENSITY_KERNELS)
def test_the_density_estimate_matches_a_loop_over_samples(kernel):
    queries = np.array([-1.0, 0.0, 0.3, 2.5, 4.99, 7.0])
    h, area = 0.4, {"gaussian": 1.0, "boxcar": 2.0, "epanechnikov": 1.0}[kernel]
    expected = [
        sum(KERNELS[kernel].function(np.array((q - x) / h)) for x in X)
        / (X.size * h * area)
        for q in queries
    ]
    assert np.allclose(kernel_density(X, queries, kernel=kernel, bandwidth=h), expected)


def test_the_gaussian_density_is_the_mean_of_normal_densities():
    h, q = 0.3, np.array([1.0, 2.0])
    normal = np.exp(-((q[:, None] - X) ** 2) / (2 * h * h)) / (h * np.sqrt(2 * np.pi))
    assert np.allclose(kernel_density(X, q, bandwidth=h), normal.mean(axis=1))


@pytest.mark.parametrize("kernel", DENSITY_KERNELS)
def test_nadaraya_watson_is_a_ratio_of_two_kernel_estimates(kernel):
    queries = np.linspace(0.2, 4.8, 17)
    h = 0.7
    numerator = [
        np.sum(KERNELS[kernel].function((q - X) / h) * Y)
        / (X.size * h * KERNELS[kernel].area)
        for q in queries
    ]
    density = kernel_density(X, queries, kernel=kernel, bandwidth=h)
    prediction, _ = nadaraya_watson(X, Y, queries, kernel=kernel, bandwidth=h)
    assert np.allclose(prediction, np.array(numerator) / density)


def test_the_constant_kernel_gives_no_density():
    with pytest.raises(ValueError, match="constant kernel has an infinite integral"):
        kernel_density(X, X, kernel="constant")


def test_class_probabilities_are_nadaraya_watson_on_each_class_indicator():
    labels = (X > 1.5).astype(int) + (X > 3.5).astype(int)
    queries = np.linspace(0, 5, 23)
    probabilities = class_probabilities(X, labels, queries, bandwidth=0.5)
    assert probabilities.shape == (23, 3)
    assert np.allclose(probabilities.sum(axis=1), 1.0)
    for c in range(3):
        expected, _ = nadaraya_watson(X, labels == c, queries, bandwidth=0.5)
        assert np.allclose(probabilities[:, c], expected)


def test_class_probabilities_keep_classes_without_examples():
    labels = np.zeros(X.size, dtype=int)
    probabilities = class_probabilities(X, labels, [1.0], n_classes=4)
    assert np.allclose(probabilities, [[1.0, 0.0, 0.0, 0.0]])


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (np.full(X.size, 0.5), "integers"),
        (np.full(X.size, -1), "non-negative"),
        (np.zeros(X.size - 1, dtype=int), "same length"),
    ],
)
def test_class_probabilities_reject_bad_labels(labels, message):
    with pytest.raises(ValueError, match=message):
        class_probabilities(X, labels, [1.0])


def test_class_probabilities_reject_labels_beyond_n_classes():
    with pytest.raises(ValueError, match="below n_classes=2"):
        class_probabilities(X, np.full(X.size, 2), [1.0], n_classes=2)


def _local_linear_loop(x, y, queries, kernel, h):
    """One weighted least-squares fit per query, by numpy's polyfit."""
    out = []
    for q in queries:
        weights = KERNELS[kernel].function((q - x) / h)
        slope, intercept = np.polyfit(x - q, y, 1, w=np.sqrt(weights))
        out.append(intercept)
    return np.array(out)


@pytest.mark.parametrize("kernel", ["gaussian", "epanechnikov"])
@pytest.mark.parametrize("h", [0.5, 1.5])
def test_local_linear_matches_weighted_least_squares(kernel, h):
    queries = np.linspace(0, 5, 21)
    expected = _local_linear_loop(X, Y, queries, kernel, h)
    actual = local_linear(X, Y, queries, kernel=kernel, bandwidth=h)
    assert np.allclose(actual, expected, atol=1e-9)


def test_local_linear_reproduces_a_line_exactly_even_at_the_ends():
    line = 3.0 - 2.0 * X
    queries = np.array([-1.0, 0.0, 2.0, 5.0, 6.0])
    fit = local_linear(X, line, queries, bandwidth=0.3)
    assert np.allclose(fit, 3.0 - 2.0 * queries)
    nw, _ = nadaraya_watson(X, line, queries, bandwidth=0.3)
    assert abs(nw[1] - 3.0) > 0.1  # the constant fit is biased at the end


def test_local_linear_with_one_key_in_reach_gives_its_value():
    x, y = np.array([0.0, 10.0]), np.array([1.0, 5.0])
    assert local_linear(x, y, [0.2], kernel="boxcar", bandwidth=1.0).tolist() == [1.0]


def test_local_linear_rejects_mismatched_targets():
    with pytest.raises(ValueError, match="same length"):
        local_linear(X, Y[:-1], [1.0])


def _nd_loop(x, y, queries, widths, exclude_self=False):
    out = []
    for i, q in enumerate(queries):
        scores = np.array(
            [-0.5 * np.sum(((q - key) / widths) ** 2) for key in x], dtype=float
        )
        if exclude_self:
            scores[i] = -np.inf
        weights = np.exp(scores - scores.max())
        out.append(weights @ y / weights.sum())
    return np.array(out)


POINTS = RNG.uniform(0, 5, (60, 3))
TARGETS = np.sin(POINTS[:, 0]) + POINTS[:, 1] + RNG.normal(0, 0.2, 60)


def test_nadaraya_watson_nd_in_one_dimension_is_nadaraya_watson():
    queries = np.linspace(-1, 6, 15)
    one, _ = nadaraya_watson(X, Y, queries, bandwidth=0.4)
    assert np.allclose(
        nadaraya_watson_nd(X[:, None], Y, queries[:, None], bandwidths=0.4), one
    )


@pytest.mark.parametrize("widths", [0.5, [0.2, 1.0, 3.0]])
def test_nadaraya_watson_nd_matches_a_loop(widths):
    queries = RNG.uniform(-1, 6, (9, 3))
    expected = _nd_loop(POINTS, TARGETS, queries, np.broadcast_to(widths, 3))
    actual = nadaraya_watson_nd(POINTS, TARGETS, queries, bandwidths=widths)
    assert np.allclose(actual, expected)


def test_a_width_per_coordinate_is_a_rescaling_of_the_inputs():
    widths = np.array([0.2, 1.0, 3.0])
    queries = RNG.uniform(0, 5, (5, 3))
    scaled = nadaraya_watson_nd(POINTS / widths, TARGETS, queries / widths)
    assert np.allclose(
        nadaraya_watson_nd(POINTS, TARGETS, queries, bandwidths=widths), scaled
    )


def test_a_far_query_gets_the_nearest_value_not_nan():
    far = nadaraya_watson_nd(POINTS, TARGETS, [[1e3, 0, 0]], bandwidths=0.01)
    nearest = np.argmin(np.sum((POINTS - [1e3, 0, 0]) ** 2, axis=1))
    assert far.tolist() == [TARGETS[nearest]]


def test_cv_error_nd_matches_a_leave_one_out_loop():
    widths = np.array([0.5, 1.0, 2.0])
    loo = _nd_loop(POINTS, TARGETS, POINTS, widths, exclude_self=True)
    expected = np.mean((TARGETS - loo) ** 2)
    assert cv_error_nd(POINTS, TARGETS, widths) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nadaraya_watson_nd(POINTS, TARGETS, [[1.0, 2.0]]), "must agree"),
        (lambda: nadaraya_watson_nd(POINTS, TARGETS[:5], POINTS), "must agree"),
        (lambda: nadaraya_watson_nd(POINTS[:, 0], TARGETS, POINTS), r"shape \(n, d\)"),
        (
            lambda: nadaraya_watson_nd(POINTS, TARGETS, POINTS, bandwidths=[1, 2]),
            "one per coordinate",
        ),
        (
            lambda: nadaraya_watson_nd(POINTS, TARGETS, POINTS, bandwidths=[1, 0, 2]),
            "positive",
        ),
        (lambda: nadaraya_watson_nd(POINTS * np.nan, TARGETS, POINTS), "NaN"),
        (lambda: cv_error_nd(POINTS[:1], TARGETS[:1], 1.0), "n_train ≥ 2"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_expected_error_is_the_monte_carlo_mean_over_the_noise():
    x, queries = POINTS[:30], RNG.uniform(1, 4, (7, 3))
    truth_x, truth_q = np.sin(x).sum(axis=1), np.sin(queries).sum(axis=1)
    noise = np.random.default_rng(0).normal(0, 0.5, (20_000, 30))
    errors = [
        np.mean(
            (nadaraya_watson_nd(x, truth_x + e, queries, bandwidths=0.8) - truth_q) ** 2
        )
        for e in noise[:2000]
    ]
    exact = expected_squared_error_nd(
        x, truth_x, queries, truth_q, noise_std=0.5, bandwidths=0.8
    )
    assert exact == pytest.approx(np.mean(errors), rel=0.03)


def test_expected_error_without_noise_is_the_squared_bias():
    queries = RNG.uniform(1, 4, (7, 3))
    truth_x, truth_q = POINTS.sum(axis=1), queries.sum(axis=1)
    bias = nadaraya_watson_nd(POINTS, truth_x, queries, bandwidths=0.8) - truth_q
    exact = expected_squared_error_nd(
        POINTS, truth_x, queries, truth_q, noise_std=0.0, bandwidths=0.8
    )
    assert exact == pytest.approx(np.mean(bias**2))


@pytest.mark.parametrize(("score", "h"), [("dot_product", 1.0), ("gaussian", 0.6)])
@pytest.mark.parametrize(("n", "d"), [(1, 1), (4, 2), (30, 5)])
def test_the_pooling_gradient_is_the_autograd_jacobian(score, h, n, d):
    rng = np.random.default_rng(n * d)
    query, keys = rng.normal(size=d), rng.normal(size=(n, d))
    k = torch.tensor(keys)

    def pooled(q):
        if score == "dot_product":
            scores = k @ q
        else:
            scores = -((q - k) ** 2).sum(dim=1) / (2 * h * h)
        return torch.softmax(scores, dim=0) @ k

    expected = torch.autograd.functional.jacobian(pooled, torch.tensor(query)).numpy()
    actual = pooling_gradient(query, keys, score=score, bandwidth=h)
    assert np.allclose(actual, expected, atol=1e-12)
    assert np.all(np.linalg.eigvalsh(actual) > -1e-12)  # a covariance


def test_the_pooling_gradient_names_a_bad_score():
    with pytest.raises(ValueError, match="score must be"):
        pooling_gradient([1.0], [[1.0]], score="cosine")


def test_complex_points_and_bandwidths_are_refused():
    from attention_docs.smoothers import nadaraya_watson_nd

    points = np.zeros((3, 2))
    with pytest.raises(TypeError, match="must be an array of real numbers"):
        nadaraya_watson_nd(points + 1j, np.ones(3), points)
    with pytest.raises(TypeError, match="bandwidths must be an array of real"):
        nadaraya_watson_nd(points, np.ones(3), points, bandwidths=[1.0, 1j])

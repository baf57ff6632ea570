import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import cdist
from scipy.special import softmax as scipy_softmax
from statsmodels.nonparametric.kernel_regression import KernelReg

from attention_docs import attention_weights, average_pooling, nadaraya_watson
from attention_docs.bandwidth import LeaveOneOut, cv_bandwidth, loo_cv_error
from attention_docs.pooling import exp_scores, gaussian_attention_pooling, leave_one_out
from attention_docs.scores import dot_product_scores, gaussian_scores, softmax

KERNEL_NAMES = ["gaussian", "boxcar", "constant", "epanechnikov"]


def reference_kernel(name, u):
    """Textbook kernel formulas, written independently of the library."""
    if name == "gaussian":
        return math.exp(-u * u / 2) / math.sqrt(2 * math.pi)
    if name == "boxcar":
        return 1.0 if abs(u) <= 1 else 0.0
    if name == "constant":
        return 1.0
    return 0.75 * (1 - u * u) if abs(u) <= 1 else 0.0


def loop_nadaraya_watson(x_train, y_train, x_query, kernel, bandwidth):
    """Slow, direct Nadaraya-Watson with the documented no-key-in-reach rule."""
    predictions, weights = [], []
    for q in x_query:
        k = [reference_kernel(kernel, (q - x) / bandwidth) for x in x_train]
        total = sum(k)
        if total == 0:  # no key in reach: share the weight among the nearest keys
            d = [abs(q - x) for x in x_train]
            k = [1.0 if di == min(d) else 0.0 for di in d]
            total = sum(k)
        row = [ki / total for ki in k]
        weights.append(row)
        predictions.append(sum(w * y for w, y in zip(row, y_train, strict=True)))
    return np.array(predictions), np.array(weights)


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    x_train = np.sort(rng.uniform(0, 5, 40))
    y_train = np.sin(x_train) + rng.normal(0, 0.3, 40)
    x_query = np.linspace(-0.5, 5.5, 37)
    return x_train, y_train, x_query


@pytest.mark.parametrize("kernel", KERNEL_NAMES)
@pytest.mark.parametrize("bandwidth", [0.05, 0.3, 1.0, 4.0])
def test_matches_loop_reference(data, kernel, bandwidth):
    x_train, y_train, x_query = data
    pred, weights = nadaraya_watson(
        x_train, y_train, x_query, kernel=kernel, bandwidth=bandwidth
    )
    ref_pred, ref_weights = loop_nadaraya_watson(
        x_train, y_train, x_query, kernel, bandwidth
    )
    np.testing.assert_allclose(weights, ref_weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(pred, ref_pred, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("bandwidth", [0.2, 0.7, 2.0])
def test_matches_statsmodels_local_constant(seed, bandwidth):
    rng = np.random.default_rng(seed)
    x_train = rng.uniform(-3, 3, 80)
    y_train = x_train**2 + rng.normal(0, 1, 80)
    x_query = rng.uniform(-3, 3, 25)
    model = KernelReg(
        y_train, x_train, var_type="c", reg_type="lc", bw=[bandwidth], rng=seed
    )
    expected, _ = model.fit(x_query)
    pred, _ = nadaraya_watson(x_train, y_train, x_query, bandwidth=bandwidth)
    np.testing.assert_allclose(pred, expected, rtol=0, atol=1e-10)


def test_shapes_and_rows_sum_to_one(data):
    x_train, y_train, x_query = data
    pred, weights = nadaraya_watson(x_train, y_train, x_query)
    assert pred.shape == (37,)
    assert weights.shape == (37, 40)
    np.testing.assert_allclose(weights.sum(axis=1), 1, rtol=0, atol=1e-12)
    np.testing.assert_allclose(pred, weights @ y_train, rtol=1e-12)


def test_attention_weights_equal_nadaraya_watson_weights(data):
    x_train, y_train, x_query = data
    _, weights = nadaraya_watson(x_train, y_train, x_query, bandwidth=0.4)
    np.testing.assert_array_equal(
        attention_weights(x_train, x_query, bandwidth=0.4), weights
    )


def test_constant_kernel_is_average_pooling(data):
    x_train, y_train, x_query = data
    pred, _ = nadaraya_watson(x_train, y_train, x_query, kernel="constant")
    np.testing.assert_allclose(pred, average_pooling(y_train, x_query), rtol=1e-13)


def test_average_pooling():
    np.testing.assert_array_equal(
        average_pooling([1.0, 2.0, 6.0], np.zeros(4)), [3] * 4
    )
    assert average_pooling([1.0], []).shape == (0,)


@pytest.mark.parametrize("kernel", KERNEL_NAMES)
def test_far_query_returns_nearest_value(kernel):
    x_train = np.array([0.0, 1.0, 2.0, 3.0])
    y_train = np.array([10.0, 20.0, 30.0, 40.0])
    h = 0.1
    x_query = np.array([3.0 + 1e5 * h, -1e5 * h])
    pred, weights = nadaraya_watson(
        x_train, y_train, x_query, kernel=kernel, bandwidth=h
    )
    assert np.all(np.isfinite(weights))
    if kernel == "constant":  # every key is in reach of a constant kernel
        np.testing.assert_allclose(pred, [25.0, 25.0])
    else:
        np.testing.assert_array_equal(pred, [40.0, 10.0])
        np.testing.assert_array_equal(weights[0], [0, 0, 0, 1])


@pytest.mark.parametrize("kernel", ["gaussian", "boxcar", "epanechnikov"])
def test_far_query_between_tied_keys_returns_their_mean(kernel):
    x_train = np.array([-1.0, 1.0, 5.0])
    y_train = np.array([2.0, 8.0, 100.0])
    pred, weights = nadaraya_watson(
        x_train, y_train, np.array([0.0]), kernel=kernel, bandwidth=1e-5
    )
    np.testing.assert_array_equal(pred, [5.0])
    np.testing.assert_array_equal(weights, [[0.5, 0.5, 0.0]])


def test_naive_formula_fails_where_stable_one_does_not():
    """Guards the reason for the log-space form: exp underflows to 0/0 here."""
    x_train, y_train, q = np.array([0.0, 1.0]), np.array([1.0, 3.0]), 50.0
    with np.errstate(invalid="ignore"):
        k = np.exp(-((q - x_train) ** 2) / 2)
        assert np.isnan((k @ y_train) / k.sum())
    pred, _ = nadaraya_watson(x_train, y_train, [q])
    np.testing.assert_array_equal(pred, [3.0])


def test_chunked_equals_unchunked():
    rng = np.random.default_rng(3)
    x_train, y_train = rng.normal(size=300), rng.normal(size=300)
    x_query = rng.normal(size=1000)
    whole, weights = nadaraya_watson(x_train, y_train, x_query, chunk_size=1000)
    for chunk_size in (1, 7, 256):
        pred, chunk_weights = nadaraya_watson(
            x_train, y_train, x_query, chunk_size=chunk_size
        )
        np.testing.assert_array_equal(pred, whole)
        np.testing.assert_array_equal(chunk_weights, weights)
    pred, none = nadaraya_watson(
        x_train, y_train, x_query, return_weights=False, chunk_size=13
    )
    assert none is None
    np.testing.assert_array_equal(pred, whole)


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(
    x_train=arrays(float, st.integers(1, 30), elements=finite),
    data=st.data(),
    kernel=st.sampled_from(KERNEL_NAMES),
    bandwidth=st.floats(1e-6, 1e6),
)
def test_weights_are_a_convex_combination(x_train, data, kernel, bandwidth):
    y_train = data.draw(arrays(float, x_train.shape, elements=finite))
    x_query = data.draw(arrays(float, st.integers(1, 10), elements=finite))
    pred, weights = nadaraya_watson(
        x_train, y_train, x_query, kernel=kernel, bandwidth=bandwidth
    )
    assert np.all((weights >= 0) & (weights <= 1))
    np.testing.assert_allclose(weights.sum(axis=1), 1, rtol=0, atol=1e-12)
    slack = 1e-12 * max(1.0, np.abs(y_train).max())
    assert np.all(pred >= y_train.min() - slack)
    assert np.all(pred <= y_train.max() + slack)


BAD_INPUTS = [
    ({"x_train": [0.0, 1.0], "y_train": [1.0]}, "same length"),
    ({"x_train": [], "y_train": []}, "x_train must not be empty"),
    ({"bandwidth": 0.0}, "bandwidth must be positive"),
    ({"bandwidth": -1.0}, "bandwidth must be positive"),
    ({"bandwidth": float("nan")}, "bandwidth must be positive"),
    ({"bandwidth": float("inf")}, "bandwidth must be positive"),
    ({"x_train": [0.0, float("nan")]}, "x_train contains NaN"),
    ({"y_train": [0.0, float("inf")]}, "y_train contains NaN"),
    ({"x_query": [float("nan")]}, "x_query contains NaN"),
    ({"x_query": [[0.0]]}, "x_query must be one-dimensional"),
    ({"kernel": "triangular"}, "unknown kernel 'triangular'"),
    ({"chunk_size": 0}, "chunk_size"),
]


@pytest.mark.parametrize(("change", "message"), BAD_INPUTS)
def test_bad_input_names_the_problem(change, message):
    args = {"x_train": [0.0, 1.0], "y_train": [1.0, 2.0], "x_query": [0.5]}
    args.update(change)
    x_train, y_train, x_query = (
        args.pop("x_train"),
        args.pop("y_train"),
        args.pop("x_query"),
    )
    with pytest.raises(ValueError, match=message):
        nadaraya_watson(x_train, y_train, x_query, **args)


@pytest.mark.parametrize("bandwidth", ["1", None, True])
def test_bandwidth_must_be_a_number(bandwidth):
    with pytest.raises(TypeError, match="bandwidth"):
        nadaraya_watson([0.0], [1.0], [0.0], bandwidth=bandwidth)


def test_average_pooling_rejects_bad_values():
    with pytest.raises(ValueError, match="y_train must not be empty"):
        average_pooling([], [0.0])
    with pytest.raises(ValueError, match="y_train contains NaN"):
        average_pooling([float("nan")], [0.0])


def loop_leave_one_out(x_train, y_train, kernel, bandwidth):
    predictions = []
    for i in range(len(x_train)):
        others = [j for j in range(len(x_train)) if j != i]
        pred, _ = loop_nadaraya_watson(
            x_train[others], y_train[others], [x_train[i]], kernel, bandwidth
        )
        predictions.append(pred[0])
    return np.array(predictions)


@pytest.mark.parametrize("kernel", KERNEL_NAMES)
@pytest.mark.parametrize("bandwidth", [0.05, 0.5, 3.0])
def test_leave_one_out_matches_loop_reference(data, kernel, bandwidth):
    x_train, y_train, _ = data
    pred, weights = leave_one_out(x_train, y_train, kernel=kernel, bandwidth=bandwidth)
    expected = loop_leave_one_out(x_train, y_train, kernel, bandwidth)
    np.testing.assert_allclose(pred, expected, rtol=1e-12, atol=1e-12)
    assert np.all(np.diag(weights) == 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1, atol=1e-12)


def test_loo_cv_error_is_the_mean_squared_leave_one_out_error(data):
    x_train, y_train, _ = data
    bandwidths = [0.1, 0.3, 2.0]
    expected = [
        np.mean((y_train - loop_leave_one_out(x_train, y_train, "gaussian", h)) ** 2)
        for h in bandwidths
    ]
    np.testing.assert_allclose(loo_cv_error(x_train, y_train, bandwidths), expected)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cv_bandwidth_matches_statsmodels_cv_ls(seed):
    rng = np.random.default_rng(seed)
    x_train = np.sort(rng.uniform(0, 5, 50))
    y_train = 2 * np.sin(x_train) + x_train**0.8 + rng.normal(0, 0.5, 50)
    model = KernelReg(y_train, x_train, var_type="c", reg_type="lc", bw="cv_ls", rng=0)
    h = cv_bandwidth(x_train, y_train)
    # statsmodels stops its Nelder-Mead search at a looser tolerance.
    assert h == pytest.approx(model.bw[0], rel=2e-3)
    # ... and ours is at least as good a minimum of the same criterion.
    ours, theirs = loo_cv_error(x_train, y_train, [h, model.bw[0]])
    assert ours <= theirs + 1e-12


def test_cv_bandwidth_is_the_minimum_of_a_fine_grid(data):
    x_train, y_train, _ = data
    h = cv_bandwidth(x_train, y_train, kernel="epanechnikov", low=0.05, high=5)
    grid = np.geomspace(0.05, 5, 4001)
    errors = loo_cv_error(x_train, y_train, grid, kernel="epanechnikov")
    best = loo_cv_error(x_train, y_train, [h], kernel="epanechnikov")[0]
    assert best <= errors.min() + 1e-12


def test_leave_one_out_errors():
    with pytest.raises(ValueError, match="at least 2"):
        leave_one_out([1.0], [1.0])
    with pytest.raises(ValueError, match="same length"):
        leave_one_out([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="bandwidths contains NaN"):
        loo_cv_error([1.0, 2.0], [1.0, 2.0], [float("nan")])
    with pytest.raises(ValueError, match="low < high"):
        cv_bandwidth([1.0, 2.0], [1.0, 2.0], low=1.0, high=0.5)


# --- robustness: extreme magnitudes, duplicates, single keys, large n --------------

# Finite numbers from 1e-300 to 1e300 in size, of either sign, and zero.
MAGNITUDE = st.sampled_from([0.0, 1e-300, 1e-150, 1e-8, 1.0, 3.5, 1e8, 1e150, 1e300])
EXTREME = st.builds(lambda m, s: m * s, MAGNITUDE, st.sampled_from([-1.0, 1.0]))
# A few values drawn from a small pool, so keys repeat (duplicates and ties).
POOL = st.lists(EXTREME, min_size=1, max_size=4)
BANDWIDTH = st.sampled_from([1e-300, 1e-150, 1e-8, 0.3, 1.0, 1e8, 1e150, 1e300])


@st.composite
def extreme_problem(draw, max_keys=20):
    pool = draw(POOL)
    n = draw(st.integers(1, max_keys))
    x_train = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)))
    # Values up to 1e300: the sum of n such weighted values cannot overflow.
    y_train = np.array(draw(st.lists(EXTREME, min_size=n, max_size=n)))
    x_query = np.array(
        draw(
            st.lists(st.one_of(EXTREME, st.sampled_from(pool)), min_size=1, max_size=8)
        )
    )
    return x_train, y_train, x_query


def assert_convex_combination(pred, weights, y_train):
    assert np.isfinite(weights).all() and (weights >= 0).all()
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-12)
    assert np.isfinite(pred).all()
    # Rounding can land a weighted mean of huge values a few ulps outside.
    slack = 1e-12 * np.abs(y_train).max() * len(y_train)
    assert (pred >= y_train.min() - slack).all() and (
        pred <= y_train.max() + slack
    ).all()


@settings(max_examples=300, deadline=None)
@given(
    problem=extreme_problem(), kernel=st.sampled_from(KERNEL_NAMES), bandwidth=BANDWIDTH
)
def test_extreme_inputs_give_finite_convex_combinations(problem, kernel, bandwidth):
    x_train, y_train, x_query = problem
    pred, weights = nadaraya_watson(
        x_train, y_train, x_query, kernel=kernel, bandwidth=bandwidth
    )
    assert pred.shape == (len(x_query),) and weights.shape == (
        len(x_query),
        len(x_train),
    )
    assert_convex_combination(pred, weights, y_train)
    np.testing.assert_array_equal(
        weights, attention_weights(x_train, x_query, kernel=kernel, bandwidth=bandwidth)
    )
    # Keys at the same place always get the same weight.
    for key in np.unique(x_train):
        same = weights[:, x_train == key]
        assert (same == same[:, :1]).all()


@settings(max_examples=100, deadline=None)
@given(
    problem=extreme_problem(max_keys=1),
    kernel=st.sampled_from(KERNEL_NAMES),
    bandwidth=BANDWIDTH,
)
def test_a_single_key_gets_all_the_weight(problem, kernel, bandwidth):
    x_train, y_train, x_query = problem
    pred, weights = nadaraya_watson(
        x_train, y_train, x_query, kernel=kernel, bandwidth=bandwidth
    )
    assert (weights == 1.0).all()
    assert (pred == y_train[0]).all()


@settings(max_examples=100, deadline=None)
@given(y_train=st.lists(EXTREME, min_size=1, max_size=30), n_queries=st.integers(1, 5))
def test_average_pooling_of_extreme_values_stays_in_range(y_train, n_queries):
    y_train = np.array(y_train)
    pred = average_pooling(y_train, np.zeros(n_queries))
    assert np.isfinite(pred).all() and (pred == pred[0]).all()
    slack = 1e-12 * np.abs(y_train).max() * len(y_train)
    assert y_train.min() - slack <= pred[0] <= y_train.max() + slack


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    kernel=st.sampled_from(KERNEL_NAMES),
    scale=MAGNITUDE.filter(bool),
)
def test_large_n_matches_small_chunks(seed, kernel, scale):
    rng = np.random.default_rng(seed)
    x_train = scale * rng.uniform(-1, 1, 5000)
    y_train = rng.normal(size=5000)
    x_query = scale * rng.uniform(-1.2, 1.2, 700)
    bandwidth = scale * 0.05
    whole, weights = nadaraya_watson(
        x_train, y_train, x_query, kernel=kernel, bandwidth=bandwidth
    )
    chunked, _ = nadaraya_watson(
        x_train,
        y_train,
        x_query,
        kernel=kernel,
        bandwidth=bandwidth,
        return_weights=False,
        chunk_size=64,
    )
    assert_convex_combination(whole, weights, y_train)
    np.testing.assert_allclose(chunked, whole, rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    problem=extreme_problem(), kernel=st.sampled_from(KERNEL_NAMES), bandwidth=BANDWIDTH
)
def test_leave_one_out_on_extreme_inputs(problem, kernel, bandwidth):
    x_train, y_train, _ = problem
    if len(x_train) < 2:
        with pytest.raises(ValueError, match="at least 2"):
            leave_one_out(x_train, y_train, kernel=kernel, bandwidth=bandwidth)
        return
    pred, weights = leave_one_out(x_train, y_train, kernel=kernel, bandwidth=bandwidth)
    assert_convex_combination(pred, weights, y_train)
    assert (np.diag(weights) == 0).all()
    slack = 1e-12 * np.abs(y_train).max() * len(y_train)
    # Each prediction uses only the other pairs.
    for i in range(len(x_train)):
        others = np.arange(len(x_train)) != i
        alone, _ = nadaraya_watson(
            x_train[others],
            y_train[others],
            x_train[i : i + 1],
            kernel=kernel,
            bandwidth=bandwidth,
        )
        np.testing.assert_allclose(pred[i], alone[0], rtol=1e-9, atol=slack)


@pytest.mark.parametrize(
    ("x_train", "y_train", "message"),
    [
        ([0.0, np.inf], [1.0, 2.0], "x_train contains NaN or infinite"),
        ([0.0, 1.0], [1.0, np.nan], "y_train contains NaN or infinite"),
        ([0.0, 1.0], [1.0, -np.inf], "y_train contains NaN or infinite"),
    ],
)
def test_non_finite_inputs_are_refused(x_train, y_train, message):
    with pytest.raises(ValueError, match=message):
        nadaraya_watson(
            np.array(x_train), np.array(y_train), np.zeros(2), bandwidth=1.0
        )


@settings(max_examples=60, deadline=None)
@given(problem=extreme_problem(), kernel=st.sampled_from(KERNEL_NAMES))
def test_cross_validation_on_extreme_inputs(problem, kernel):
    x_train, y_train, _ = problem
    if len(x_train) < 2:
        with pytest.raises(ValueError, match="at least 2"):
            cv_bandwidth(x_train, y_train, kernel=kernel)
        return
    errors = loo_cv_error(x_train, y_train, [1e-300, 1.0, 1e300], kernel=kernel)
    assert not np.isnan(errors).any() and (errors >= 0).all()
    if np.abs(y_train).max() <= 1e150:  # squared residuals fit in a float
        assert np.isfinite(errors).all()
        for h, error in zip([1e-300, 1.0, 1e300], errors, strict=True):
            pred, _ = leave_one_out(x_train, y_train, kernel=kernel, bandwidth=h)
            assert error == pytest.approx(np.mean((y_train - pred) ** 2), rel=1e-12)
    h_cv = cv_bandwidth(x_train, y_train, kernel=kernel, tol=1e-3)
    assert 1e-3 <= h_cv <= 1e3


@settings(max_examples=60, deadline=None)
@given(
    n_keys=st.integers(1, 30),
    n_queries=st.integers(1, 20),
    bandwidth=st.floats(0.05, 20),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_short_reference_equals_nadaraya_watson(n_keys, n_queries, bandwidth, seed):
    rng = np.random.default_rng(seed)
    keys, values = rng.uniform(-5, 5, n_keys), rng.normal(size=n_keys)
    queries = rng.uniform(-8, 8, n_queries)
    expected, expected_weights = nadaraya_watson(
        keys, values, queries, bandwidth=bandwidth
    )
    got, weights = gaussian_attention_pooling(queries, keys, values, bandwidth)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-10, atol=1e-14)


# Gaussian scores as dot products


def random_points(d, seed, n_queries=7, n_keys=11):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_queries, d)), rng.normal(size=(n_keys, d))


@pytest.mark.parametrize("d", [1, 2, 3, 8, 64])
@pytest.mark.parametrize("bandwidth", [0.3, 1.0, 5.0])
def test_gaussian_scores_are_scaled_squared_distances(d, bandwidth):
    queries, keys = random_points(d, seed=d)
    expected = -cdist(queries, keys, "sqeuclidean") / (2 * bandwidth**2)
    np.testing.assert_allclose(
        gaussian_scores(queries, keys, bandwidth), expected, rtol=1e-12
    )


@pytest.mark.parametrize("d", [1, 2, 3, 8, 64])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("bandwidth", [0.5, 1.0, 4.0])
def test_gaussian_attention_is_dot_product_attention_with_a_key_bias(
    d, seed, bandwidth
):
    """−‖q − k‖²/2h² = q·k/h² − ‖k‖²/2h² − ‖q‖²/2h², and the last term cancels."""
    queries, keys = random_points(d, seed)
    gaussian = gaussian_scores(queries, keys, bandwidth)
    dot = dot_product_scores(queries, keys, bandwidth)
    query_term = np.sum(queries**2, axis=1) / (2 * bandwidth**2)  # (n_queries,)
    np.testing.assert_allclose(dot - query_term[:, None], gaussian, atol=1e-9)
    np.testing.assert_allclose(
        softmax(dot), scipy_softmax(gaussian, axis=1), rtol=1e-9, atol=1e-15
    )
    # The Gaussian weights are the library's Nadaraya-Watson weights for d = 1.
    if d == 1:
        _, weights = nadaraya_watson(
            keys[:, 0], np.zeros(len(keys)), queries[:, 0], bandwidth=bandwidth
        )
        np.testing.assert_allclose(softmax(dot), weights, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("d", [2, 8, 64])
def test_with_keys_of_equal_norm_it_is_scaled_dot_product_attention(d):
    queries, keys = random_points(d, seed=d)
    keys /= np.linalg.norm(keys, axis=1, keepdims=True)  # every key on the unit sphere
    h = d**0.25  # temperature h² = √d, the Transformer's scaling
    plain = scipy_softmax(queries @ keys.T / np.sqrt(d), axis=1)
    np.testing.assert_allclose(
        softmax(gaussian_scores(queries, keys, h)), plain, rtol=1e-9, atol=1e-15
    )


def test_softmax_matches_scipy_and_takes_minus_infinity_as_zero():
    scores = np.random.default_rng(0).normal(scale=30, size=(5, 9))
    np.testing.assert_allclose(softmax(scores), scipy_softmax(scores, axis=1))
    scores[:, 0] = -np.inf
    weights = softmax(scores)
    assert np.all(weights[:, 0] == 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: softmax(np.zeros(3)), "2-D"),
        (lambda: softmax([[np.nan, 0.0]]), "NaN"),
        (lambda: softmax([[-np.inf, -np.inf]]), "every score of a row is -inf"),
        (lambda: gaussian_scores(np.zeros((2, 3)), np.zeros((2, 4)), 1.0), "dimension"),
        (
            lambda: dot_product_scores(np.zeros((0, 3)), np.zeros((2, 3)), 1.0),
            "non-empty",
        ),
        (lambda: gaussian_scores([1.0], [np.inf], 1.0), "keys contains NaN"),
        (lambda: dot_product_scores([1.0], [1.0], 0.0), "bandwidth must be positive"),
    ],
)
def test_bad_scores_and_points_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("argument", ["x_train", "y_train", "x_query"])
def test_complex_input_is_refused_not_cast_to_real(argument):
    # NumPy alone would drop the imaginary part with a warning and predict.
    args = {"x_train": [0.0, 1.0], "y_train": [1.0, 2.0], "x_query": [0.5]}
    args[argument] = np.asarray(args[argument]) + 1j
    with pytest.raises(TypeError, match=f"{argument} must be an array of real numbers"):
        nadaraya_watson(args["x_train"], args["y_train"], args["x_query"])
    args[argument] = [complex(v) for v in np.real(args[argument])]  # a list, too
    with pytest.raises(TypeError, match="complex"):
        nadaraya_watson(args["x_train"], args["y_train"], args["x_query"])


@pytest.mark.parametrize("bandwidth", [1e-3, 0.05, 0.5, 3.0, 1e3, 1e160])
def test_the_bandwidth_sweep_agrees_with_leave_one_out(data, bandwidth):
    """LeaveOneOut scores P/h² from one table; leave_one_out, (k-k*)/h times
    the reach over h: the same to rounding, and the same bits for h² beyond a
    float (1e160), which the sweep hands to leave_one_out."""
    x_train, y_train, _ = data
    sweep = LeaveOneOut(x_train, y_train, "gaussian")
    assert sweep.scores is not None
    expected, _ = leave_one_out(x_train, y_train, bandwidth=bandwidth)
    np.testing.assert_allclose(sweep.predictions(bandwidth), expected, rtol=1e-12)
    loop = loop_leave_one_out(x_train, y_train, "gaussian", bandwidth)
    if bandwidth >= 0.05:  # narrower, the loop's kernel values underflow
        np.testing.assert_allclose(sweep.predictions(bandwidth), loop, rtol=1e-12)


@pytest.mark.parametrize(
    "scale", [1e200, 1e-200], ids=["keys past 1e154", "keys closer than 1e-154"]
)
def test_the_sweep_hands_extreme_keys_to_leave_one_out(data, scale):
    x_train, y_train, _ = data
    sweep = LeaveOneOut(x_train * scale, y_train, "gaussian")
    assert sweep.scores is None  # P would overflow, or lose digits as a subnormal
    expected, _ = leave_one_out(x_train * scale, y_train, bandwidth=0.5 * scale)
    assert np.array_equal(sweep.predictions(0.5 * scale), expected)


@pytest.mark.parametrize("kernel", ["boxcar", "constant", "epanechnikov"])
def test_the_sweep_of_a_compact_kernel_is_leave_one_out(data, kernel):
    x_train, y_train, _ = data
    sweep = LeaveOneOut(x_train, y_train, kernel)
    expected, _ = leave_one_out(x_train, y_train, kernel=kernel, bandwidth=0.3)
    assert np.array_equal(sweep.predictions(0.3), expected)


def test_the_sweep_refuses_what_leave_one_out_refuses():
    with pytest.raises(ValueError, match="at least 2"):
        LeaveOneOut([1.0], [1.0], "gaussian")
    with pytest.raises(ValueError, match="same length"):
        LeaveOneOut([1.0, 2.0], [1.0], "gaussian")
    with pytest.raises(ValueError, match="unknown kernel"):
        LeaveOneOut([1.0, 2.0], [1.0, 2.0], "cosine")
    with pytest.raises(ValueError, match="positive and finite"):
        LeaveOneOut([1.0, 2.0], [1.0, 2.0], "gaussian").predictions(0.0)


def test_exp_scores_gives_np_exp_s_bits():
    """Scores below -746 become -inf before exp: the same 0.0, without the
    C library's slow path for underflowing arguments."""
    rng = np.random.default_rng(3)
    scores = np.concatenate(
        [
            rng.uniform(-800, 0, 5000),
            rng.uniform(-746.5, -743.5, 5000),  # subnormal results and the cut
            [-np.inf, -746.0, np.nextafter(-746.0, 0), -0.0, 0.0],
        ]
    )
    expected = np.exp(scores)
    assert np.array_equal(exp_scores(scores.copy()), expected)
    assert np.count_nonzero((expected > 0) & (expected < np.finfo(float).tiny)) > 100

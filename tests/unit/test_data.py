import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_docs import make_dataset, true_function


def test_true_function_matches_formula():
    x = np.array([0.0, 0.5, 1.0, 4.9])
    expected = [2 * np.sin(v) + v**0.8 for v in x]
    np.testing.assert_allclose(true_function(x), expected, rtol=0, atol=1e-15)


def test_training_inputs_sorted_and_in_range():
    data = make_dataset(200, seed=3)
    assert data.x_train.shape == data.y_train.shape == (200,)
    assert np.all(np.diff(data.x_train) >= 0)
    assert data.x_train.min() >= 0 and data.x_train.max() < 5


def test_test_grid_and_truth():
    data = make_dataset(seed=0)
    np.testing.assert_allclose(data.x_test, np.arange(50) * 0.1, atol=1e-12)
    np.testing.assert_array_equal(data.y_truth, true_function(data.x_test))


def test_seed_reproduces_and_differs():
    a, b, c = make_dataset(seed=1), make_dataset(seed=1), make_dataset(seed=2)
    np.testing.assert_array_equal(a.y_train, b.y_train)
    assert not np.array_equal(a.y_train, c.y_train)


def test_noise_has_the_stated_spread():
    data = make_dataset(20_000, seed=0)
    residuals = data.y_train - true_function(data.x_train)
    assert abs(residuals.mean()) < 0.02
    assert abs(residuals.std() - 0.5) < 0.01


@pytest.mark.parametrize("n_train", [0, -1, 2.5, True])
def test_bad_n_train(n_train):
    with pytest.raises(ValueError, match="n_train"):
        make_dataset(n_train)


@pytest.mark.parametrize("step", [0, -0.1, float("nan"), 7])
def test_bad_step(step):
    with pytest.raises(ValueError, match="step"):
        make_dataset(step=step)


def test_true_function_rejects_negative_inputs():
    with pytest.raises(ValueError, match="non-negative"):
        true_function(np.array([-1.0]))


@settings(max_examples=200)
@given(
    x=st.lists(
        st.sampled_from([0.0, 1e-300, 1e-150, 1e-8, 0.5, 4.9, 1e8, 1e150, 1e300]),
        min_size=1,
        max_size=10,
    )
)
def test_true_function_is_finite_over_extreme_inputs(x):
    x = np.array(x)
    y = true_function(x)
    assert np.isfinite(y).all()
    for value, result in zip(x, y, strict=True):  # one value at a time, by math
        assert result == pytest.approx(2 * math.sin(value) + value**0.8, rel=1e-12)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_true_function_rejects_non_finite_inputs(bad):
    with pytest.raises(ValueError, match="NaN or infinite"):
        true_function(np.array([1.0, bad]))


def test_large_data_set():
    data = make_dataset(100_000, seed=1)
    assert np.all(np.diff(data.x_train) >= 0)
    assert np.isfinite(data.y_train).all()
    assert (0 <= data.x_train).all() and (data.x_train < 5).all()

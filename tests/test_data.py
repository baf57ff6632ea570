import numpy as np
import pytest

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

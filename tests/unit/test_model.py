import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.nonparametric.kernel_regression import KernelReg
from test_pooling import assert_convex_combination, extreme_problem

from attention_docs import make_dataset, nadaraya_watson
from attention_docs.bandwidth import cv_bandwidth, loo_cv_error
from attention_docs.model import (
    NadarayaWatsonRegressor,
    leave_one_out_mask,
    leave_one_out_pairs,
    predict,
    train,
)
from attention_docs.pooling import leave_one_out

DATA = make_dataset(50, seed=0)


def test_forward_is_gaussian_nadaraya_watson_with_bandwidth_one_over_w():
    model = NadarayaWatsonRegressor(w=-2.5)  # the sign of w does not matter
    pred, weights = predict(model, DATA.x_train, DATA.y_train, DATA.x_test)
    expected, expected_weights = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=0.4
    )
    assert model.bandwidth == pytest.approx(0.4)
    np.testing.assert_allclose(pred, expected, rtol=1e-12)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-10, atol=1e-15)


def test_forward_shapes_use_batch_matrix_multiplication():
    model = NadarayaWatsonRegressor()
    queries = torch.zeros(4, dtype=torch.float64)
    keys = torch.arange(12, dtype=torch.float64).reshape(4, 3)
    pred, weights = model(queries, keys, keys * 2)
    assert pred.shape == (4,) and weights.shape == (4, 3)
    torch.testing.assert_close(weights.sum(dim=1), torch.ones(4, dtype=torch.float64))


def test_forward_rejects_mismatched_shapes():
    model = NadarayaWatsonRegressor()
    with pytest.raises(ValueError, match="expected queries"):
        model(torch.zeros(3), torch.zeros(3, 2), torch.zeros(3, 4))


def test_leave_one_out_pairs_drop_exactly_the_own_pair():
    x = torch.tensor([10.0, 20.0, 30.0, 40.0])
    keys, values = leave_one_out_pairs(x, x + 1)
    expected = [[20, 30, 40], [10, 30, 40], [10, 20, 40], [10, 20, 30]]
    torch.testing.assert_close(keys, torch.tensor(expected, dtype=x.dtype))
    torch.testing.assert_close(values, keys + 1)
    with pytest.raises(ValueError, match="n >= 2"):
        leave_one_out_pairs(x[:1], x[:1])


def loss_weights_and_gradient(model, x, y, keys, values, mask=None):
    model.zero_grad()
    predictions, weights = model(x, keys, values, mask)
    loss = ((predictions - y) ** 2).sum()
    loss.backward()
    return loss.item(), weights.detach(), model.w.grad.item()


@pytest.mark.parametrize("w", [0.3, 4.9, -23.3])
def test_a_diagonal_mask_is_the_leave_one_out_pairs(w):
    """Masking the full score matrix gives the weights, loss and gradient of the
    (n, n - 1) leave-one-out keys: the same model trained two ways."""
    x, y = torch.tensor(DATA.x_train), torch.tensor(DATA.y_train)
    n = x.shape[0]
    model = NadarayaWatsonRegressor(w)
    loss, weights, grad = loss_weights_and_gradient(
        model, x, y, x.expand(n, n), y.expand(n, n), leave_one_out_mask(n)
    )
    pair_loss, pair_weights, pair_grad = loss_weights_and_gradient(
        model, x, y, *leave_one_out_pairs(x, y)
    )
    assert torch.all(weights.diagonal() == 0)
    others = ~torch.eye(n, dtype=torch.bool)
    torch.testing.assert_close(
        weights[others].reshape(n, n - 1), pair_weights, rtol=1e-12, atol=1e-15
    )
    assert loss == pytest.approx(pair_loss, rel=1e-12)
    assert grad == pytest.approx(pair_grad, rel=1e-10)
    assert loss / n == pytest.approx(
        loo_cv_error(DATA.x_train, DATA.y_train, [1 / abs(w)])[0], rel=1e-10
    )


def test_the_mask_still_rescues_a_far_query_among_the_visible_keys():
    model = NadarayaWatsonRegressor(1.0)
    keys = torch.tensor([[0.0, 1e190, 2e190]], dtype=torch.float64)
    values = torch.tensor([[10.0, 20.0, 30.0]], dtype=torch.float64)
    query = torch.tensor([1e200], dtype=torch.float64)  # squares overflow
    mask = torch.tensor([[False, False, True]])  # the nearest key is hidden
    prediction, weights = model(query, keys, values, mask)
    assert prediction.item() == 20.0
    torch.testing.assert_close(weights, torch.tensor([[0.0, 1.0, 0.0]]).double())


def test_bad_masks_are_named():
    model = NadarayaWatsonRegressor()
    x = torch.zeros(3, dtype=torch.float64)
    keys = torch.zeros(3, 3, dtype=torch.float64)
    with pytest.raises(ValueError, match="boolean tensor of shape"):
        model(x, keys, keys, torch.zeros(3, 3))
    with pytest.raises(ValueError, match="boolean tensor of shape"):
        model(x, keys, keys, torch.zeros(3, 2, dtype=torch.bool))
    with pytest.raises(ValueError, match="hides every key"):
        model(x, keys, keys, torch.ones(3, 3, dtype=torch.bool))
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        leave_one_out_mask(1)


def test_training_loss_is_n_times_the_cv_criterion():
    result = train(DATA.x_train, DATA.y_train, epochs=0, w=3.0)
    pred, _ = leave_one_out(DATA.x_train, DATA.y_train, bandwidth=1 / 3)
    expected = np.sum((pred - DATA.y_train) ** 2)
    assert result.losses[0] == pytest.approx(expected, rel=1e-12)


def test_training_without_the_mask_uses_the_in_sample_error():
    result = train(DATA.x_train, DATA.y_train, epochs=0, w=3.0, leave_one_out=False)
    pred, _ = nadaraya_watson(DATA.x_train, DATA.y_train, DATA.x_train, bandwidth=1 / 3)
    expected = np.sum((pred - DATA.y_train) ** 2)
    assert result.losses[0] == pytest.approx(expected, rel=1e-12)


def test_training_lowers_the_loss():
    result = train(DATA.x_train, DATA.y_train, epochs=5, lr=0.5)
    assert result.losses.shape == result.ws.shape == (6,)
    assert result.losses[-1] < result.losses[0]
    assert result.ws[-1] == result.model.w.item()


def test_training_is_deterministic_for_a_seed():
    a = train(DATA.x_train, DATA.y_train, epochs=5, seed=3)
    b = train(DATA.x_train, DATA.y_train, epochs=5, seed=3)
    c = train(DATA.x_train, DATA.y_train, epochs=5, seed=4)
    assert a.losses.tobytes() == b.losses.tobytes()
    assert a.ws[0] != c.ws[0]


def test_converged_bandwidth_is_the_cross_validation_bandwidth():
    result = train(DATA.x_train, DATA.y_train, epochs=300, lr=0.5)
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    assert result.model.bandwidth == pytest.approx(h_cv, rel=1e-6)
    statsmodels_h = KernelReg(
        DATA.y_train, DATA.x_train, var_type="c", reg_type="lc", bw="cv_ls", rng=0
    ).bw[0]
    assert result.model.bandwidth == pytest.approx(statsmodels_h, rel=2e-3)


def test_short_high_learning_rate_recipe_overshoots():
    short = train(DATA.x_train, DATA.y_train, epochs=5, lr=0.5)
    w_cv = 1 / cv_bandwidth(DATA.x_train, DATA.y_train)
    assert short.model.w.item() > 2 * w_cv


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"epochs": -1}, "epochs"),
        ({"lr": 0.0}, "lr"),
        ({"lr": float("nan")}, "lr"),
        ({"w": 0.0}, "w must be finite"),
    ],
)
def test_training_rejects_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        train(DATA.x_train, DATA.y_train, **kwargs)


def test_training_rejects_nan_data():
    y = DATA.y_train.copy()
    y[3] = np.nan
    with pytest.raises(ValueError, match="y_train contains NaN"):
        train(DATA.x_train, y)


def test_predict_rejects_bad_shapes():
    with pytest.raises(ValueError, match="1-D"):
        predict(NadarayaWatsonRegressor(), [1.0, 2.0], [1.0], [0.0])


@settings(max_examples=150, deadline=None)
@given(problem=extreme_problem(), w=st.sampled_from([-3.5, 1e-8, 0.5, 1.0, 3.5, 1e8]))
def test_predict_on_extreme_inputs_matches_the_numpy_library(problem, w):
    """No NaN even where every distance overflows; same answer as the library."""
    x_train, y_train, x_query = problem
    pred, weights = predict(NadarayaWatsonRegressor(w=w), x_train, y_train, x_query)
    expected, expected_weights = nadaraya_watson(
        x_train, y_train, x_query, bandwidth=1 / abs(w)
    )
    assert_convex_combination(pred, weights, y_train)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-6, atol=1e-12)
    slack = 1e-12 * np.abs(y_train).max() * len(y_train)
    np.testing.assert_allclose(pred, expected, rtol=1e-6, atol=slack)


TRAIN_IN_A_FRESH_PROCESS = """
import sys, torch
torch.manual_seed(int(sys.argv[1]))  # global state must not matter
from attention_docs import make_dataset
from attention_docs.model import train
data = make_dataset(50, seed=0)
result = train(data.x_train, data.y_train, epochs=20, seed=3)
sys.stdout.write(result.losses.tobytes().hex() + result.ws.tobytes().hex())
"""


@pytest.mark.release  # trains in fresh processes, each importing torch
def test_training_is_bit_identical_across_processes_and_global_seeds():
    runs = [
        subprocess.run(
            [sys.executable, "-c", TRAIN_IN_A_FRESH_PROCESS, str(global_seed)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for global_seed in (0, 12345)
    ]
    here = train(DATA.x_train, DATA.y_train, epochs=20, seed=3)
    assert runs[0] == runs[1] == here.losses.tobytes().hex() + here.ws.tobytes().hex()


def test_without_torch_the_model_module_names_the_extra(monkeypatch):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "attention_docs.model")
    with pytest.raises(ModuleNotFoundError, match=r"'attention_docs\[model\]'"):
        importlib.import_module("attention_docs.model")

"""The numbers and comparisons that the chapter pages state in words.

Each test is named for the sentence it guards and quotes it; if the library or
the data change so that a sentence is no longer true, the test fails and the
page must be rewritten. The figures the pages print come from the same
functions, so a sentence and its figure cannot disagree silently.
"""

from pathlib import Path

import numpy as np
import pytest
import torch

from attention_docs import KERNELS, figures, nadaraya_watson
from attention_docs.bandwidth import cv_bandwidth, loo_cv_error
from attention_docs.figures import explorables
from attention_docs.model import NadarayaWatsonRegressor, leave_one_out_pairs, train
from attention_docs.scores import lookup_scores, soft_lookup

DATA = figures.chapter_data()
N = DATA.x_train.size
DOCS = Path(__file__).resolve().parents[2] / "docs"


def assert_stated(page: str, **phrases: str) -> None:
    """Each language's page still says the phrase the test guards.

    Parameters:
        page: The page, e.g. ``exercises/attention-pooling``.
        **phrases: The phrase per language (``en``, ``zh``); line breaks and
            runs of spaces count as one space.
    """
    for lang, phrase in phrases.items():
        path = DOCS / (f"{page}.md" if lang == "en" else f"{page}.{lang}.md")
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert " ".join(phrase.split()) in text, (path.name, phrase)


def loss_and_gradient(w: float) -> tuple[float, float]:
    """The training loss L(w) and dL/dw, computed by the torch model."""
    x, y = torch.tensor(DATA.x_train), torch.tensor(DATA.y_train)
    keys, values = leave_one_out_pairs(x, y)
    model = NadarayaWatsonRegressor(1.0)
    with torch.no_grad():
        model.w.fill_(w)
    loss = ((model(x, keys, values)[0] - y) ** 2).sum()
    loss.backward()
    return loss.item(), model.w.grad.item()


def local_minima(values: np.ndarray) -> int:
    inner = values[1:-1]
    return int(np.sum((inner < values[:-2]) & (inner < values[2:])))


HS = np.geomspace(0.01, 10, 2000)


def test_the_naive_formula_breaks_about_39_units_from_every_key():
    """'With h = 1 that happens once the query is about 39 units from the
    nearest key.' (attention-pooling, Computing the weights safely)"""
    keys = np.array([0.0, 0.5, 1.0])

    def naive(query):
        with np.errstate(invalid="ignore"):
            kernel = np.exp(-((query - keys) ** 2) / 2)
            return kernel / kernel.sum()

    assert np.all(np.isfinite(naive(1.0 + 38.0)))
    assert np.all(np.isnan(naive(1.0 + 39.0)))


def test_the_squared_distance_overflows_once_the_distance_is_about_1e154():
    """'Only when the distance reaches about 10^154 and its square overflows
    does the library return that limit directly.' (attention-pooling, and
    the forward pass in parametric-attention-pooling)"""
    with np.errstate(over="ignore"):
        assert np.isfinite(np.float64(1e154) ** 2)
        assert np.isinf(np.float64(2e154) ** 2)
    for distance in (1e153, 2e154):  # keys far apart enough not to tie
        keys, values = np.array([0.0, distance / 10]), np.array([3.0, 5.0])
        query = np.array([distance])
        prediction, _ = nadaraya_watson(keys, values, query, bandwidth=1.0)
        assert prediction[0] == 5.0  # the nearest key's value, either way
        model = NadarayaWatsonRegressor(1.0)
        with torch.no_grad():
            out, _ = model(
                torch.tensor(query),
                torch.tensor(keys[None]),
                torch.tensor(values[None]),
            )
        assert out.item() == 5.0


def test_the_h1_gaussian_fit_is_biased_to_about_1_6_at_x_0():
    """'at x = 0 the truth is 0, but ... the prediction is pulled up to
    about 1.6' (attention-pooling, The Gaussian kernel)"""
    prediction, _ = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=1.0
    )
    assert DATA.x_test[0] == 0 and DATA.y_truth[0] == 0
    assert prediction[0] == pytest.approx(1.6, abs=0.05)
    assert np.all(DATA.x_train > 0)  # every key lies to the right of x = 0


def test_at_equal_spread_the_width_matters_more_than_the_kernel():
    """'Within a column the three fits are close. Along a row the error against
    the truth is U-shaped: about three times smaller at σ = 0.25 than at either
    end' (attention-pooling)"""
    assert figures.COMPARED_STDS == (0.1, 0.25, 0.6)
    predictions = figures.kernel_comparison_predictions()  # (kernel, std, test)
    errors = ((predictions - DATA.y_truth) ** 2).mean(axis=2)  # (kernel, std)
    across_kernels = errors.max(axis=0) / errors.min(axis=0)  # per column
    assert across_kernels.max() < 1.5
    middle_gain = errors[:, [0, 2]] / errors[:, [1]]  # each end against the middle
    assert 2.5 < middle_gain.min() and middle_gain.max() < 4


def test_at_equal_h_the_gaussian_alone_flattens_the_peak():
    """'At h = 1 the Gaussian fit flattens the peak while the boxcar and
    Epanechnikov fits still follow it' (attention-pooling, kernel widths)"""
    spans = {}
    for kernel in ("gaussian", "boxcar", "epanechnikov"):
        prediction, _ = nadaraya_watson(
            DATA.x_train, DATA.y_train, DATA.x_test, kernel=kernel, bandwidth=1.0
        )
        spans[kernel] = np.ptp(prediction) / np.ptp(DATA.y_truth)
    assert spans["gaussian"] < 0.4
    assert min(spans["boxcar"], spans["epanechnikov"]) > 0.65


def test_the_optimum_loss_is_n_times_cv_at_h_cv_and_the_short_run_stops_above():
    """'the lowest loss any w can reach is n · CV(h_cv), about 15.8 on this
    data, and this run stops near 22.0' (attention-pooling, training)"""
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    optimum = N * loo_cv_error(DATA.x_train, DATA.y_train, [h_cv])[0]
    assert loss_and_gradient(1 / h_cv)[0] == pytest.approx(optimum, rel=1e-10)
    assert optimum == pytest.approx(15.8, abs=0.05)
    grid = [loss_and_gradient(w)[0] for w in np.geomspace(0.05, 200, 400)]
    assert min(grid) >= optimum - 1e-9
    short = figures.trained(**figures.SHORT_RECIPE)
    assert short.losses[-1] == pytest.approx(22.0, abs=0.05)


def test_the_five_epoch_run_is_one_jump_then_four_small_steps():
    """'Its first step takes w from about 0.97 to about 23.3 ... the next four
    steps lower w by only about 0.14 each' (attention-pooling)"""
    ws = figures.trained(**figures.SHORT_RECIPE).ws
    assert ws[0] == pytest.approx(0.97, abs=0.005)
    assert ws[1] == pytest.approx(23.3, abs=0.05)
    steps = np.diff(ws[1:])
    assert steps.size == 4
    np.testing.assert_allclose(steps, -0.14, atol=0.01)


def test_the_loss_is_even_in_w_stationary_at_0_and_flat_far_out():
    """'L is even in w, so w = 0 is a stationary point and −1/h_cv a mirror
    minimum; as w grows the gradient fades away' (attention-pooling)"""
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    for w in (0.3, 1 / h_cv, 40.0):
        assert loss_and_gradient(-w)[0] == pytest.approx(loss_and_gradient(w)[0])
    assert loss_and_gradient(0.0)[1] == 0.0
    assert abs(loss_and_gradient(-1 / h_cv)[1]) < 1e-6
    assert abs(loss_and_gradient(1e3)[1]) < 1e-6 * abs(loss_and_gradient(1.0)[1])


def test_the_gaussian_cv_curve_has_one_minimum_and_the_epanechnikov_many():
    """'For the Gaussian kernel on this data CV(h) has a single minimum ...
    the Epanechnikov CV curve has many' (attention-pooling)"""
    gaussian = loo_cv_error(DATA.x_train, DATA.y_train, HS, kernel="gaussian")
    epanechnikov = loo_cv_error(DATA.x_train, DATA.y_train, HS, kernel="epanechnikov")
    assert local_minima(gaussian) == 1
    assert local_minima(epanechnikov) > 5


def test_the_long_run_reaches_the_cross_validated_bandwidth():
    """'the stationary point that gradient descent reaches from a positive
    start is the global minimiser w = 1/h_cv' (attention-pooling)"""
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    long = figures.trained(**figures.LONG_RECIPE)
    assert long.model.bandwidth == pytest.approx(h_cv, rel=1e-6)
    gaussian = loo_cv_error(DATA.x_train, DATA.y_train, HS, kernel="gaussian")
    assert HS[np.argmin(gaussian)] == pytest.approx(h_cv, rel=0.01)


def test_at_cv_the_epanechnikov_and_gaussian_fits_are_close():
    """'as a standard deviation σ the two selected widths are close. So are
    the two leave-one-out errors. The error against the truth ... is slightly
    lower for the Epanechnikov fit' (exercise notebook, pooling 2)"""
    found = {}
    for kernel in ("gaussian", "epanechnikov"):
        h = cv_bandwidth(DATA.x_train, DATA.y_train, kernel=kernel)
        cv = loo_cv_error(DATA.x_train, DATA.y_train, [h], kernel=kernel)[0]
        prediction, _ = nadaraya_watson(
            DATA.x_train, DATA.y_train, DATA.x_test, kernel=kernel, bandwidth=h
        )
        error = np.mean((prediction - DATA.y_truth) ** 2)
        found[kernel] = (h * KERNELS[kernel].std, cv, error)
    (sd_g, cv_g, error_g), (sd_e, cv_e, error_e) = found.values()
    assert found["epanechnikov"][0] > 0 and sd_e / sd_g == pytest.approx(1, abs=0.2)
    assert cv_e / cv_g == pytest.approx(1, abs=0.01)
    assert error_e < error_g


def test_without_the_mask_w_keeps_growing_slowly():
    """'After its first large step, w never stops growing, but it grows
    slowly' (exercise notebook, pooling 4)"""
    unmasked = train(
        DATA.x_train, DATA.y_train, epochs=300, lr=0.5, leave_one_out=False
    )
    steps = np.diff(unmasked.ws)
    assert steps[0] > 10  # the first large step
    assert np.all(steps[1:] > 0) and np.all(steps[1:] < 0.2)
    assert np.all(np.diff(unmasked.losses) < 0)


def test_the_fast_recipe_jumps_far_below_h_cv_and_the_slow_one_slides_down():
    """'With learning rate 0.5 the first step throws h from about 1.03 to about
    0.043 ... With learning rate 0.05 the first step lands at about 0.31, every
    step lowers CV(h), and after 300 epochs h is within 1% of h_cv'
    (parametric-attention-pooling, Watching gradient descent move)"""
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    fast = 1 / figures.trained(**figures.SHORT_RECIPE).ws
    assert fast[0] == pytest.approx(1.03, abs=0.005)
    assert fast[1] == pytest.approx(0.043, abs=0.0005) and fast[1] < h_cv / 4
    # 'a step of 0.14 in w near w = 23 moves h by only about 0.0003'
    assert np.diff(fast[1:]) == pytest.approx(np.full(4, 0.0003), abs=0.00005)
    slow = figures.trained(**figures.SLOW_RECIPE)
    assert figures.SLOW_RECIPE == {"epochs": 300, "lr": 0.05}
    assert 1 / slow.ws[1] == pytest.approx(0.31, abs=0.005)
    assert np.all(np.diff(slow.losses) < 0)
    assert slow.model.bandwidth == pytest.approx(h_cv, rel=0.01)


def test_every_iterate_lies_on_the_cv_curve():
    """'The training loss is n·CV(h) at h = 1/|w|, so every iterate lies on the
    curve' (parametric-attention-pooling)"""
    for recipe in (figures.SHORT_RECIPE, figures.SLOW_RECIPE):
        result = figures.trained(**recipe)
        on_curve = loo_cv_error(DATA.x_train, DATA.y_train, 1 / np.abs(result.ws))
        np.testing.assert_allclose(result.losses / N, on_curve, rtol=1e-10)


def check_sample_size_trend(errors, *, plateau, drop, slope):
    assert errors.fixed[-1] > plateau * errors.fixed[0]  # h = 1: bias stays
    assert errors.cv[0] / errors.cv[-1] > drop
    assert np.all(errors.cv < errors.fixed)
    assert slope[0] < errors.slopes[1] < slope[1]


def test_a_fixed_h_levels_off_while_h_cv_falls_about_as_n_to_minus_four_fifths():
    """'With h = 1 the error falls by less than 10% from 25 to 400 examples ...
    with h_cv it falls more than tenfold ... The fitted slope of the
    cross-validated error is about −0.9, steeper than −4/5' (exercise
    notebook, pooling 1); checked on the figure's eight seeds, and the trend
    again on eight others."""
    check_sample_size_trend(
        figures.sample_size_errors(), plateau=0.9, drop=10, slope=(-1.0, -0.8)
    )
    others = figures.sample_size_errors((25, 50, 100, 200), tuple(range(8, 16)))
    check_sample_size_trend(others, plateau=0.9, drop=4, slope=(-1.2, -0.6))


def test_gaussian_and_dot_product_weights_agree_to_rounding():
    """'the two heatmaps are the same matrix: they differ by at most 1e-15'
    (parametric-attention-pooling, From Gaussian kernels to dot products)"""
    gaussian, dot = figures.gaussian_and_dot_product_weights()
    assert np.abs(gaussian - dot).max() < 1e-15
    _, weights = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=figures.DOT_PRODUCT_BANDWIDTH
    )
    np.testing.assert_allclose(gaussian, weights, rtol=1e-12, atol=1e-300)


def test_a_far_key_can_win_under_the_dot_product_but_not_under_the_distance():
    """queries-keys-values: "With the dot product, a key far from the origin
    can win even when another key lies closer to the query; the negative
    squared distance always favours the nearest key." Checked at every query
    position the soft-lookup figure's sliders offer."""
    grid = explorables.slider_positions(*explorables.LOOKUP_QUERIES)
    queries = np.array([(a, b) for a in grid for b in grid])
    keys = np.array(explorables.LOOKUP_KEYS)
    distances = np.linalg.norm(queries[:, None] - keys[None], axis=2)
    rows = np.arange(len(queries))
    for score, margin in (("dot_product", 1.0), ("negative_squared_distance", 1e-12)):
        best = lookup_scores(queries, keys, score).argmax(axis=1)
        farther = distances[rows, best] - distances.min(axis=1)  # 0: the nearest won
        assert (farther.max() > margin) == (score == "dot_product"), score
    # Where a farther key wins under q·k, it lies farther from the origin.
    best = lookup_scores(queries, keys, "dot_product").argmax(axis=1)
    nearest = distances.argmin(axis=1)
    beaten = best != nearest
    norms = np.linalg.norm(keys, axis=1)
    assert beaten.any() and np.all(norms[best[beaten]] > norms[nearest[beaten]])


def test_at_q_1_minus_half_key_e_is_nearest_but_a_wins_the_dot_product():
    """queries-keys-values: "At q = (1, -0.5), key E is the nearest but key A
    wins"."""
    names, keys = explorables.LOOKUP_NAMES, np.array(explorables.LOOKUP_KEYS)
    query = np.array([1.0, -0.5])
    assert names[int(np.linalg.norm(keys - query, axis=1).argmin())] == "E"
    assert names[int(lookup_scores([query], keys, "dot_product").argmax())] == "A"


def test_the_soft_lookups_average_is_5_and_scaling_by_root_2_is_a_temperature():
    """queries-keys-values: "every key gets 1/5, and the output is 5, the mean
    of the values" and "The scaled dot product divides the scores by √d = √2
    here ..., the same as multiplying T by √2"."""
    keys, values = explorables.LOOKUP_KEYS, explorables.LOOKUP_VALUES
    output, weights = soft_lookup(
        [(0.3, -1.2)], keys, values, score="dot_product", temperature=np.inf
    )
    assert weights.tolist() == [[0.2] * 5] and output[0] == 5 == np.mean(values)
    for t in (0.1, 1.0, 7.0):
        scaled = soft_lookup(
            [(1.0, 0.5)], keys, values, score="scaled_dot_product", temperature=t
        )[1]
        dot = soft_lookup(
            [(1.0, 0.5)], keys, values, score="dot_product", temperature=t * np.sqrt(2)
        )[1]
        np.testing.assert_allclose(scaled, dot, rtol=1e-12)


def test_the_explorer_opens_at_h_05_x_15_and_has_a_gap_at_x_03():
    """attention-pooling: "with the boxcar kernel and h = 0.05, put the query
    at x = 0.3. No key lies within h, so the estimate is 0/0, and the figure
    shows the library's fallback, the nearest key's value" and "the setting
    it opens with (Gaussian kernel, h = 0.5, x = 1.5)"."""
    assert explorables.NW_DEFAULT == {
        "kernel": "gaussian",
        "bandwidth": 0.5,
        "query": 1.5,
    }
    assert (explorables.NW_GAP_KERNEL, explorables.NW_GAP_BANDWIDTH) == ("boxcar", 0.05)
    assert explorables.gap_query() == 0.3
    distances = np.abs(DATA.x_train - 0.3)
    assert distances.min() > 0.05
    prediction, _ = nadaraya_watson(
        DATA.x_train, DATA.y_train, [0.3], kernel="boxcar", bandwidth=0.05
    )
    assert prediction[0] == DATA.y_train[distances.argmin()]


def test_the_boundary_point_takes_a_growing_share_of_the_averaged_error():
    """'about 10% at n = 25, and between 20% and 27% for n = 50 to 400 ...
    about 28% at n = 800 and 35% at n = 1600 ... leave it out and the slope
    is steeper still, about −0.94 ... roughly like n^−0.4' (exercise
    notebook, pooling 1): the test point x = 0, one of 50."""
    assert_stated(
        "exercises/attention-pooling",
        en="about 10% at $n = 25$, and between 20% and 27% for $n = 50$ to 400",
        zh="$n = 25$ 时约为 10%，$n = 50$ 到 400 时在 20% 到 27% 之间",
    )
    assert_stated(
        "exercises/attention-pooling",
        en="about 28% at $n = 800$ and 35% at $n = 1600$",
        zh="$n = 800$ 时约为 28%，$n = 1600$ 时约为 35%",
    )
    assert_stated("exercises/attention-pooling", en="about $-0.94$", zh="约为 $-0.94$")
    assert_stated(
        "exercises/attention-pooling",
        en="roughly like $n^{-0.4}$ here",
        zh="在这里大约是 $n^{-0.4}$",
    )
    data = figures.chapter_data()
    assert data.x_test[0] == 0 and data.x_test.size == 50
    errors = figures.sample_size_errors()
    share = errors.boundary_share
    assert share[0] == pytest.approx(0.10, abs=0.01)
    assert np.all((share[1:] > 0.195) & (share[1:] < 0.275))
    interior = errors.cv * (1 - share)  # the other 49 points, up to a factor
    slope = np.polyfit(np.log(errors.sizes), np.log(interior), 1)[0]
    assert slope == pytest.approx(-0.94, abs=0.01)
    larger = figures.sample_size_errors((400, 800, 1600))
    assert larger.boundary_share[1:] == pytest.approx([0.28, 0.35], abs=0.01)
    at_zero = larger.cv * larger.boundary_share  # its error, up to a factor
    slope = np.polyfit(np.log(larger.sizes), np.log(at_zero), 1)[0]
    assert slope == pytest.approx(-0.4, abs=0.05)


def test_without_the_mask_the_fit_interpolates_the_noise():
    """'At h = 10^-4 its mean squared error against the true function is
    about 0.31, no better than the far too wide h = 1 (0.30) and about ten
    times that of h_cv (0.03).' (parametric-attention-pooling, Training with
    leave-one-out keys)"""
    assert_stated(
        "parametric-attention-pooling",
        en="At $h = 10^{-4}$ its mean squared error against the true function "
        "is about 0.31, no better than the far too wide $h = 1$ (0.30) and "
        "about ten times that of $h_{\\mathrm{cv}}$ (0.03).",
        zh="$h = 10^{-4}$ 时，它相对真实函数的均方误差约为 0.31，并不比过宽的 "
        "$h = 1$（0.30）好，约为 $h_{\\mathrm{cv}}$（0.03）的十倍。",
    )
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    errors = []
    for h in (1e-4, 1.0, h_cv):
        prediction, _ = nadaraya_watson(
            DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=h
        )
        errors.append(np.mean((prediction - DATA.y_truth) ** 2))
    tiny, wide, cv = errors
    assert (round(tiny, 2), round(wide, 2), round(cv, 2)) == (0.31, 0.30, 0.03)
    assert 8 < tiny / cv < 12
    # Between training inputs it takes the nearest training output.
    nearest = np.abs(DATA.x_test[:, None] - DATA.x_train[None, :]).argmin(axis=1)
    prediction, _ = nadaraya_watson(
        DATA.x_train, DATA.y_train, DATA.x_test, bandwidth=1e-4
    )
    np.testing.assert_allclose(prediction, DATA.y_train[nearest])


def epochs_to_h_cv(lr: float) -> int:
    """Epochs of the chapter's start until h is within 1% of h_cv (300 at most)."""
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    result = figures.trained(epochs=300, lr=lr)
    close = np.abs(1 / np.abs(result.ws) - h_cv) < 0.01 * h_cv
    assert close.any() and close[np.argmax(close) :].all()  # reached, and stays
    return int(np.argmax(close))


def test_the_five_epoch_recipe_fails_for_lack_of_epochs():
    """'with the same learning rate h is within 1% of h_cv after 132 epochs'
    ... 'h is within 1% of h_cv after 224 epochs, later than with the larger
    rate' (parametric-attention-pooling, and its exercise 1, which prints
    both counts)"""
    assert_stated(
        "parametric-attention-pooling",
        en="within 1% of $h_{\\mathrm{cv}}$ after 132 epochs",
        zh="训练 132 个迭代周期后 $h$ 与 $h_{\\mathrm{cv}}$ 的差距就不到 1%",
    )
    assert_stated(
        "parametric-attention-pooling",
        en="within 1% of $h_{\\mathrm{cv}}$ after 224 epochs",
        zh="训练 224 个迭代周期后，$h$ 与 $h_{\\mathrm{cv}}$ 的差距不到 1%",
    )
    assert epochs_to_h_cv(0.5) == 132
    assert epochs_to_h_cv(0.05) == 224
    assert figures.SHORT_RECIPE == {"epochs": 5, "lr": 0.5}


def test_cv_has_a_second_shallow_minimum_just_outside_the_plotted_range():
    """'Just outside it, at h ≈ 0.0047 (w ≈ 211), lies a second, very shallow
    one' (parametric-attention-pooling, What the learned bandwidth is)"""
    assert_stated(
        "parametric-attention-pooling",
        en="at $h \\approx 0.0047$ ($w \\approx 211$), lies a second, very shallow",
        zh="$h \\approx 0.0047$（$w \\approx 211$）处还有第二个非常浅的极小值",
    )
    hs = np.geomspace(0.001, 0.05, 4000)
    cv = loo_cv_error(DATA.x_train, DATA.y_train, hs)
    inner = np.flatnonzero((cv[1:-1] < cv[:-2]) & (cv[1:-1] < cv[2:])) + 1
    (minimum,) = hs[inner]  # one minimum below h = 0.05
    assert minimum == pytest.approx(0.0047, abs=0.00005)
    assert 1 / minimum == pytest.approx(211, abs=1)
    assert minimum < figures.CV_GRID[0]  # outside the plotted range
    h_cv = cv_bandwidth(DATA.x_train, DATA.y_train)
    # shallow: far above the global minimum, and barely below its shoulders
    low = loo_cv_error(DATA.x_train, DATA.y_train, [h_cv])[0]
    assert cv[inner[0]] > 1.5 * low
    assert cv[inner[0]] > 0.95 * cv[inner[0] - 400 : inner[0] + 400].max()


def test_the_query_independent_part_of_a_score_is_the_key_norm_term():
    """'every key gets +‖k‖²/2 whatever the query ... the Gaussian score
    carries −‖k‖²/(2h²) instead' (queries-keys-values, From cues to a
    framework): score = match + key term + a constant per query."""
    assert_stated(
        "queries-keys-values",
        en="so every key gets $+\\lVert \\mathbf{k} \\rVert^2/2$ whatever the query",
        zh="每个键都会得到 $+\\lVert \\mathbf{k} \\rVert^2/2$",
    )
    assert_stated(
        "queries-keys-values",
        en="the Gaussian score carries $-\\lVert \\mathbf{k} \\rVert^2/(2h^2)$",
        zh="高斯分数中对应的项则是 $-\\lVert \\mathbf{k} \\rVert^2/(2h^2)$",
    )
    from attention_docs.scores import dot_product_scores, gaussian_scores, softmax

    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(4, 3)), rng.normal(size=(6, 3))
    h = 0.7
    key_norm = (k**2).sum(axis=1)  # (n_keys,)
    distance = ((q[:, None, :] - k[None, :, :]) ** 2).sum(axis=2)  # (4, 6)
    row = (q**2).sum(axis=1)[:, None] / 2  # the same for every key of a query
    np.testing.assert_allclose(q @ k.T, row + key_norm / 2 - distance / 2)
    # The Gaussian score's softmax is the match's softmax with the key term.
    gaussian = softmax(gaussian_scores(q, k, h))
    np.testing.assert_allclose(
        gaussian, softmax(q @ k.T / h**2 - key_norm / (2 * h**2)), atol=1e-12
    )
    np.testing.assert_allclose(gaussian, softmax(dot_product_scores(q, k, h)))

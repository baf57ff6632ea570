import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from attention_docs import KERNELS, boxcar, constant, epanechnikov, gaussian, get_kernel

U = np.linspace(-3, 3, 601)
NAMES = sorted(KERNELS)


def test_gaussian_is_the_standard_normal_density():
    np.testing.assert_allclose(gaussian(U), stats.norm.pdf(U), rtol=1e-14)


def test_epanechnikov_is_the_true_epanechnikov():
    expected = np.where(np.abs(U) <= 1, 0.75 * (1 - U**2), 0)
    np.testing.assert_allclose(epanechnikov(U), expected, atol=1e-15)
    # Not the triangular kernel 1 - |u| that is sometimes mislabelled with its name.
    assert epanechnikov(np.array([0.5]))[0] == pytest.approx(0.5625)


@pytest.mark.parametrize("kernel", [gaussian, epanechnikov])
def test_density_kernels_integrate_to_one(kernel):
    u = np.linspace(-10, 10, 200_001)
    assert np.trapezoid(kernel(u), u) == pytest.approx(1, abs=1e-8)


def test_boxcar_and_constant():
    np.testing.assert_array_equal(
        boxcar(np.array([-1.5, -1, 0, 1, 1.01])), [0, 1, 1, 1, 0]
    )
    np.testing.assert_array_equal(constant(np.array([-1e9, 0, 3])), [1, 1, 1])


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_log_function_is_log_of_function(name):
    kernel = get_kernel(name)
    with np.errstate(divide="ignore"):
        expected = np.log(kernel.function(U))
    np.testing.assert_allclose(kernel.log_function(U), expected, rtol=1e-13)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernels_are_symmetric_and_non_negative(name):
    k = get_kernel(name).function
    np.testing.assert_array_equal(k(U), k(-U))
    assert np.all(k(U) >= 0)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_compact_flag_matches_support(name):
    kernel = get_kernel(name)
    outside = kernel.function(np.array([1.0001, 5.0, -2.0]))
    assert np.all(outside == 0) == kernel.compact


@pytest.mark.parametrize("name", ["triangular", "Gaussian", "", None])
def test_unknown_kernel_is_named(name):
    with pytest.raises(ValueError, match="unknown kernel"):
        get_kernel(name)


# Finite numbers from 1e-300 to 1e300 in size, of either sign, and zero.
EXTREME_U = st.builds(
    lambda m, s: m * s,
    st.sampled_from([0.0, 1e-300, 1e-150, 0.5, 1.0, 1.5, 1e150, 1e300]),
    st.sampled_from([-1.0, 1.0]),
)
PEAK = {"gaussian": 1 / np.sqrt(2 * np.pi), "boxcar": 1.0, "constant": 1.0}
PEAK["epanechnikov"] = 0.75


@settings(max_examples=200)
@given(u=st.lists(EXTREME_U, min_size=1, max_size=20), name=st.sampled_from(NAMES))
def test_extreme_arguments_give_finite_bounded_values(u, name):
    kernel = get_kernel(name)
    u = np.array(u)
    values = kernel.function(u)  # warnings are errors: no overflow warning either
    assert np.isfinite(values).all()
    assert (values >= 0).all() and (values <= PEAK[name]).all()
    np.testing.assert_array_equal(values, kernel.function(-u))
    logs = kernel.log_function(u)
    assert not np.isnan(logs).any() and (logs <= np.log(PEAK[name]) + 1e-15).all()
    np.testing.assert_allclose(np.exp(logs), values, rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", ["gaussian", "boxcar", "epanechnikov"])
def test_kernel_std_is_the_standard_deviation_of_its_density(name):
    from scipy.integrate import quad

    kernel = KERNELS[name]
    low, high = (-1, 1) if kernel.compact else (-np.inf, np.inf)

    def moment(power):
        return quad(lambda u: u**power * kernel.function(np.array([u]))[0], low, high)[
            0
        ]

    assert kernel.std == pytest.approx(np.sqrt(moment(2) / moment(0)), rel=1e-9)


def test_constant_kernel_has_no_finite_standard_deviation():
    assert KERNELS["constant"].std == np.inf

"""attention_docs.timing: the fastest call, the fitted exponent, its errors."""

import itertools

import numpy as np
import pytest

from attention_docs import timing


def loop(power: int):
    """A call whose work is n**power iterations of pure Python."""

    def prepare(n: int):
        count = n**power

        def call() -> int:
            total = 0
            for i in range(count):
                total += i
            return total

        return call

    return prepare


# Calls of 10 to 40 ms of CPU time: a millisecond's call was 1.33 for 1 on a
# machine under a load of 20 (the thread clock's cost and the caches' misses
# weigh on a short call).
@pytest.mark.parametrize(
    ("power", "sizes"), [(1, (250_000, 500_000, 1_000_000)), (2, (500, 700, 1000))]
)
def test_the_exponent_of_a_loop_of_known_work(power, sizes):
    grown = timing.growth_exponent(loop(power), sizes, runs=5)
    assert grown == pytest.approx(power, abs=0.3)


def test_the_fastest_of_the_timed_calls_counts(monkeypatch):
    # Readings of the thread clock: the warm-up reads none, then a pair per call.
    readings = iter([0.0, 5.0, 10.0, 12.0, 20.0, 27.0])
    monkeypatch.setattr(timing.time, "thread_time", lambda: next(readings))
    calls = itertools.count()
    assert timing.fastest_call(lambda: next(calls), runs=3) == 2.0
    assert next(calls) == 4  # one warm-up and three timed calls


def test_the_fit_recovers_an_exact_power(monkeypatch):
    # A clock that advances by n**1.5 seconds per call of size n.
    now = [0.0]
    monkeypatch.setattr(timing.time, "thread_time", lambda: now[0])

    def prepare(n):
        def call():
            now[0] += n**1.5

        return call

    assert timing.growth_exponent(prepare, [10, 20, 40, 80], runs=2) == pytest.approx(
        1.5
    )


@pytest.mark.parametrize(
    ("sizes", "runs", "message"),
    [
        ([100], 3, "two distinct sizes"),
        ([100, 100], 3, "two distinct sizes"),
        ([0, 100], 3, "each size must be a positive whole number, got 0"),
        ([1.5, 100], 3, "each size must be a positive whole number, got 1.5"),
        ([True, 100], 3, "each size must be a positive whole number, got True"),
        (["10", 100], 3, "each size must be a positive whole number, got '10'"),
        ([10, 100], 0, "runs must be a positive whole number, got 0"),
        ([10, 100], 2.0, "runs must be a positive whole number, got 2.0"),
    ],
)
def test_bad_arguments_are_named(sizes, runs, message):
    with pytest.raises(ValueError, match=message):
        timing.growth_exponent(loop(1), sizes, runs=runs)


def test_a_bad_runs_is_named_before_any_input_is_built():
    built = []
    with pytest.raises(ValueError, match="runs must be"):
        timing.growth_exponent(lambda n: built.append(n), [10, 20], runs=-1)
    assert built == []


def test_numpy_sizes_and_a_generator_of_sizes_are_taken():
    sizes = np.array([20_000, 40_000, 80_000])
    grown = timing.growth_exponent(loop(1), (int(n) for n in sizes), runs=3)
    assert grown == pytest.approx(1, abs=0.3)
    assert timing.growth_exponent(loop(1), sizes, runs=3) == pytest.approx(1, abs=0.3)


def test_a_call_too_fast_for_the_clock_is_an_error(monkeypatch):
    monkeypatch.setattr(timing.time, "thread_time", lambda: 1.0)
    with pytest.raises(
        ValueError, match="call at size 10 took 0 s .* use larger sizes"
    ):
        timing.growth_exponent(loop(1), [10, 20], runs=2)

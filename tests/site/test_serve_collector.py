"""The serve stage's collector: what a full build left alive, frozen."""

from __future__ import annotations

import gc
import weakref

import pytest

from attention_docs_site.serve import collector
from attention_docs_site.upstream import guard


class _Node:
    """An object that can be in a reference cycle and be watched by a weakref."""

    other: object = None


@pytest.fixture
def thawed():
    gc.unfreeze()
    yield
    gc.unfreeze()
    guard.start_build(speed_edits=True)


def test_a_full_build_freezes_what_it_left_alive_and_the_next_thaws_it(thawed):
    guard.start_build(speed_edits=True)
    garbage, alive = _Node(), _Node()
    garbage.other = garbage  # a cycle, which only the collector frees
    alive.other = alive
    gone = weakref.ref(garbage)
    del garbage
    collector.full_build_finished()
    assert gone() is None  # collected before the freeze, not frozen with the rest
    assert gc.get_freeze_count() > 0 and alive.other is alive
    collector.full_build_starts()
    assert gc.get_freeze_count() == 0


def test_with_the_speed_edits_off_nothing_is_frozen(thawed):
    guard.start_build(speed_edits=False)
    collector.full_build_finished()
    assert gc.get_freeze_count() == 0


def test_the_benchmarks_switch_turns_the_freeze_off(thawed, monkeypatch):
    monkeypatch.setenv(guard.BENCHMARK_VARIABLE, collector.TRICK)
    guard.start_build(speed_edits=True)
    collector.full_build_finished()
    assert gc.get_freeze_count() == 0

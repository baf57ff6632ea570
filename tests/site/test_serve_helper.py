"""The serve stage's second process, which renders the pages it is given; its collector.

The byte-for-byte check that a rebuild with its help writes what a full build
writes is ``tests/e2e/test_serve.py`` (a save reaching two pages per edition).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from attention_docs_site.serve import helper as stage
from attention_docs_site.serve.helper import Helper

forks = pytest.mark.skipif(
    not stage.second_core(), reason="the helper needs Linux and a second core"
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@forks
def test_every_other_page_from_the_second_is_the_helper_s(tmp_path):
    def render(page: str) -> None:
        print("noise from the helper")  # silenced: the log is the parent's
        (tmp_path / page).write_text(str(os.getpid()), "utf-8")

    helper = Helper()
    theirs = helper.start(["a", "b", "c", "d", "e"], render)
    assert theirs == ["b", "d"]
    pid = helper.pid
    helper.wait_for("a")  # the build's own page: no wait, nothing written
    assert not (tmp_path / "a").exists()
    helper.wait_for("b")
    assert (tmp_path / "b").read_text("utf-8") == str(pid)
    helper.wait_for("d")  # the last one: the helper is reaped
    assert (tmp_path / "d").read_text("utf-8") == str(pid)
    assert helper.pid is None and pid is not None and not _alive(pid)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "d"]


@forks
def test_the_helper_prints_nothing(tmp_path, capfd):
    helper = Helper()
    helper.start(["a", "b"], lambda page: print("noise", flush=True))
    helper.wait_for("b")
    assert "noise" not in capfd.readouterr().out


def test_one_page_needs_no_helper():
    helper = Helper()
    assert helper.start(["a"], lambda page: None) == []
    assert helper.pid is None


def test_without_a_second_core_the_build_renders_everything(monkeypatch):
    monkeypatch.setattr(stage, "second_core", lambda: False)
    helper = Helper()
    assert helper.start(["a", "b", "c"], lambda page: None) == []
    assert helper.pid is None


@forks
def test_a_helper_that_fails_does_not_hold_the_build(tmp_path):
    def render(page: str) -> None:
        raise RuntimeError("a block raised")

    helper = Helper()
    helper.start(["a", "b", "c", "d"], render)
    pid = helper.pid
    started = time.monotonic()
    helper.wait_for("b")
    helper.wait_for("d")
    assert time.monotonic() - started < 30
    assert helper.pid is None and pid is not None and not _alive(pid)


@forks
def test_a_helper_that_takes_too_long_is_stopped(monkeypatch, caplog):
    monkeypatch.setattr(stage, "PATIENCE_SECONDS", 0.5)
    helper = Helper()
    helper.start(["a", "b"], lambda page: time.sleep(60))
    pid = helper.pid
    started = time.monotonic()
    with caplog.at_level("INFO", logger="mkdocs.plugins.attention_docs"):
        helper.wait_for("b")
    assert time.monotonic() - started < 10
    assert pid is not None and not _alive(pid)
    assert "it is stopped and the build runs the blocks itself" in caplog.text


@forks
def test_a_new_start_ends_the_last_helper(tmp_path):
    helper = Helper()
    helper.start(["a", "b"], lambda page: time.sleep(0.2))
    first = helper.pid
    helper.start(["c", "d"], lambda page: Path(tmp_path / page).touch())
    assert first is not None and not _alive(first)
    helper.wait_for("d")
    assert (tmp_path / "d").exists()


class _Node:
    """An object that can be in a reference cycle and be watched by a weakref."""

    other: object = None


def test_a_full_build_freezes_what_it_left_alive_and_the_next_thaws_it():
    import gc
    import weakref

    from attention_docs_site.serve import collector

    gc.unfreeze()
    try:
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
    finally:
        gc.unfreeze()

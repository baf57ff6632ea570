"""Which Chromium the PDFs, the screenshot and the browser tests start."""

import os
import stat

import pytest

from attention_docs_site.site.book import chromium


def program(folder, name):
    path = folder / name
    path.write_text("#!/bin/sh\n", "utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A PATH of one empty folder, no variable set, and no Debian Chromium."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.delenv(chromium.ENVIRONMENT, raising=False)
    monkeypatch.setattr(chromium, "DEBIAN", str(tmp_path / "usr-bin-chromium"))
    return folder


def test_the_variable_comes_first_as_a_path_or_a_command(
    machine, tmp_path, monkeypatch
):
    program(machine, "chromium")
    chosen = program(tmp_path, "my-chrome")
    monkeypatch.setenv(chromium.ENVIRONMENT, str(chosen))
    assert chromium.find_chromium() == str(chosen)
    program(machine, "google-chrome")
    monkeypatch.setenv(chromium.ENVIRONMENT, "google-chrome")
    assert chromium.find_chromium() == str(machine / "google-chrome")


def test_a_variable_that_names_no_program_is_an_error_naming_it(machine, monkeypatch):
    program(machine, "chromium")  # not taken instead: the reader asked for another
    monkeypatch.setenv(chromium.ENVIRONMENT, "/opt/nowhere/chrome")
    with pytest.raises(chromium.MissingChromiumError, match="/opt/nowhere/chrome"):
        chromium.find_chromium()


def test_then_the_usual_names_on_the_path_in_order(machine):
    program(machine, "google-chrome-stable")
    assert chromium.find_chromium() == str(machine / "google-chrome-stable")
    program(machine, "chromium-browser")
    assert chromium.find_chromium() == str(machine / "chromium-browser")
    program(machine, "chromium")
    assert chromium.find_chromium() == str(machine / "chromium")


def test_then_debian_s_path_and_else_an_error_that_lists_what_was_tried(
    machine, tmp_path, monkeypatch
):
    with pytest.raises(chromium.MissingChromiumError) as raised:
        chromium.find_chromium()
    message = str(raised.value)
    for tried in (chromium.ENVIRONMENT, *chromium.NAMES, chromium.DEBIAN):
        assert tried in message
    assert "apt-get install -y chromium" in message
    debian = program(tmp_path, "usr-bin-chromium")
    assert chromium.find_chromium() == str(debian)


def test_a_file_that_is_not_executable_is_not_a_browser(machine):
    (machine / "chromium").write_text("", "utf-8")  # no execute permission
    assert not os.access(machine / "chromium", os.X_OK)
    with pytest.raises(chromium.MissingChromiumError):
        chromium.find_chromium()

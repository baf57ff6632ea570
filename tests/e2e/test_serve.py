"""`mkdocs serve` survives a broken page and recovers without a restart.

A real server process on 127.0.0.1 serves a copy of the site; the test edits
files and polls, every wait bounded.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from helpers import NOTEBOOKS, SITE_PATH, copy_site

WAIT = 180  # seconds, for any one step


class Serve:
    """A `mkdocs serve` process whose output is collected as it comes."""

    def __init__(self, project: Path, cache: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPATH": str(project / "src"),
            "ATTENTION_DOCS_CACHE_DIR": str(cache),
            "ATTENTION_DOCS_EXECUTE_NOTEBOOKS": "false",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_for_log(self, pattern: str, after: int = 0) -> re.Match:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = re.search(pattern, "".join(self.lines[after:]))
            if found:
                return found
            assert self.process.poll() is None, f"server died:\n{self.log}"
            time.sleep(0.2)
        raise AssertionError(f"no {pattern!r} within {WAIT} s:\n{self.log}")

    def get(self, path: str) -> tuple[int, str]:
        url = f"http://127.0.0.1:{self.port}{SITE_PATH}{path}"
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, ""
        except (TimeoutError, urllib.error.URLError):
            # MkDocs holds a request while it rebuilds; a slow rebuild on a
            # loaded machine is not an answer yet: wait_for_page asks again.
            return 0, ""

    def wait_for_page(self, path: str, text: str) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            status, body = self.get(path)
            if status == 200 and text in body:
                return
            assert self.process.poll() is None, f"server died:\n{self.log}"
            time.sleep(0.5)
        raise AssertionError(f"{path} never showed {text!r}:\n{self.log}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        self._reader.join(timeout=30)  # it stops at the end of the output
        self.process.stdout.close()


CACHE_LINE = r"attention_docs cache \(on\): (\d+) hits, (\d+) misses"


def cache_counts(text: str) -> list[tuple[int, int]]:
    return [(int(h), int(m)) for h, m in re.findall(CACHE_LINE, text)]


def test_broken_page_under_serve_shows_the_error_and_recovers(tmp_path, warm_cache):
    project = copy_site(tmp_path / "project")
    page = project / "docs" / "glossary.md"
    original = page.read_text(encoding="utf-8")
    # From the real build's entries: no block runs again; only the notebooks,
    # rendered here unexecuted, are new.
    server = Serve(project, warm_cache)
    try:
        server.wait_for_log(r"Serving on http://127\.0\.0\.1")
        first = cache_counts(server.log)
        assert first == [(hits, len(NOTEBOOKS)) for hits, _ in first], server.log
        assert len(first) == 2 and all(hits > 10 for hits, _ in first)
        server.wait_for_page("glossary/", "attention cue")
        # Livereload's inline script runs: no security policy blocks it.
        _, served = server.get("glossary/")
        assert "livereload(" in served and "Content-Security-Policy" not in served

        mark = len(server.lines)
        page.write_text(
            original
            + '\n```python exec="on"\nraise RuntimeError("edit gone wrong")\n```\n',
            encoding="utf-8",
        )
        server.wait_for_log(r"edit gone wrong", after=mark)
        server.wait_for_log(
            r"docs/glossary\.md: markdown_exec: Execution of python code block",
            after=mark,
        )
        # MkDocs holds requests until a rebuild succeeds ("The server will appear
        # stuck until build errors are resolved"); the process must stay alive.
        server.wait_for_log(r"An error happened during the rebuild", after=mark)
        time.sleep(2)
        assert server.process.poll() is None

        mark = len(server.lines)
        page.write_text(original + "\nFixed without a restart.\n", encoding="utf-8")
        server.wait_for_page("glossary/", "Fixed without a restart.")
        server.wait_for_log(r"Reloading browsers", after=mark)  # rebuild done
        # State is reset on each rebuild: the counts are this rebuild's own, every
        # block is served from the cache, and the earlier failure left no trace.
        again = cache_counts("".join(server.lines[mark:]))
        assert len(again) == 2, server.log
        assert again == [(hits + misses, 0) for hits, misses in first], server.log
        assert "edit gone wrong" not in "".join(server.lines[mark:])
    finally:
        server.stop()

"""`mkdocs serve`: a broken page and its recovery, and partial rebuilds.

A real server process on 127.0.0.1 serves a copy of the site; the tests edit
files and poll, every wait bounded. A rebuild renders only the pages a save
can change (``attention_docs_site.serve``); what it leaves in the served
folder must be what a full build of the same files writes, byte for byte.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from helpers import NOTEBOOKS, SITE_PATH, SOURCE_DATE_EPOCH, copy_site

WAIT = 180  # seconds, for any one step


class Serve:
    """A `mkdocs serve` process whose output is collected as it comes."""

    def __init__(self, project: Path, cache: Path, temp: Path | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPATH": str(project / "src"),
            "ATTENTION_DOCS_CACHE_DIR": str(cache),
            "ATTENTION_DOCS_EXECUTE_NOTEBOOKS": "false",
            "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH,
        }
        if temp is not None:  # where serve makes the folder it serves
            temp.mkdir(parents=True, exist_ok=True)
            env["TMPDIR"] = str(temp)
        self.temp = temp
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

    @property
    def site(self) -> Path:
        """The folder serve builds into (``mkdocs_*`` in its temporary folder)."""
        assert self.temp is not None
        (folder,) = self.temp.glob("mkdocs_*")
        return folder

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


def _tree(site: Path, port: int) -> dict[str, bytes]:
    """Every file of a served folder, its server's port written as PORT.

    The served address, with its port, is the build's ``site_url``, which the
    notebooks in the zips hold too: a zip is compared member by member, and a
    gzipped file unzipped (its header holds a time).
    """
    files = {}
    port_written = f"127.0.0.1:{port}".encode()
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        name = path.relative_to(site).as_posix()
        data = path.read_bytes()
        members = {name: data}
        if path.suffix == ".gz":
            members = {name: gzip.decompress(data)}
        elif path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                members = {f"{name}!{m}": archive.read(m) for m in archive.namelist()}
        for member, content in members.items():
            files[member] = content.replace(port_written, b"127.0.0.1:PORT")
    return files


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name} no longer has {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


# After which saves the served folder is compared with a fresh serve's: the
# prose and figure edits, the edit that reaches two pages of each edition, and the
# Chinese page, title and unchanged saves. A file a save wrote wrong stays
# wrong until the next check, unless a later save renders it again.
CHECKED_AFTER = (1, 2, 5)


def test_a_partial_rebuild_writes_what_a_full_build_writes(tmp_path, warm_cache):
    """Each kind of save, then the served folder against a full build's."""
    project = copy_site(tmp_path / "project")
    docs, library = project / "docs", project / "src" / "attention_docs"
    saves = [
        # (what, the save, what the rebuild's log must say)
        (
            "an English chapter's prose: it and its translation's notice",
            lambda: _edit(
                docs / "attention-pooling.md", "small enough", "small enough (edited)"
            ),
            r"en: 2 of \d+ pages rendered\n  api\.md \(API entries\)\n  "
            r"attention-pooling\.md \(its source changed\)",
        ),
        (
            "a figure's function: the pages whose blocks ran it",
            lambda: _edit(
                library / "figures" / "nonparametric.py",
                "u = np.linspace(-2.5, 2.5, 501)",
                "u = np.linspace(-2.5, 2.5, 401)",
            ),
            r"attention-pooling\.zh\.md \(library code its blocks ran changed\)",
        ),
        (
            "a drawing function two pages of each edition reach",
            lambda: _edit(
                library / "figures" / "panels.py", "panel_size=3.4", "panel_size=3.3"
            ),
            r"attention-pooling\.zh\.md \(library code its blocks ran changed\)\n  "
            r"parametric-attention-pooling\.zh\.md \(library code its blocks ran "
            r"changed\)",
        ),
        (
            "a Chinese page alone",
            lambda: _edit(
                docs / "glossary.zh.md", "# 术语表", "# 术语表\n\n新的一段。"
            ),
            r"zh: 2 of \d+ pages rendered",
        ),
        (
            "a title, which every page's navigation shows",
            lambda: _edit(docs / "references.md", "# References", "# Works cited"),
            r"the title, icon or status of references\.md changed",
        ),
        (
            "the same bytes saved again",
            lambda: (docs / "index.md").write_bytes((docs / "index.md").read_bytes()),
            r"no file a build reads changed: no build",
        ),
    ]
    server = Serve(project, warm_cache, tmp_path / "served")
    try:
        server.wait_for_log(r"Serving on http://127\.0\.0\.1")
        before = None  # the cache as it was before the saves since the last check
        for number, (what, save, said) in enumerate(saves):
            if before is None:
                before = tmp_path / f"cache-{number}"
                shutil.copytree(warm_cache, before)
            mark = len(server.lines)
            save()
            server.wait_for_log(r"Reloading browsers", after=mark)
            log = "".join(server.lines[mark:])
            assert re.search(said, log, re.S), f"{what}:\n{log}"
            if number not in CHECKED_AFTER:
                continue
            # The reference: a fresh serve on its own copy of the cache as it
            # was before these saves, so what the partial rebuilds stored (a
            # block re-run after an import-only replay of the blocks before
            # it) is not what the reference reads: it runs those blocks itself.
            partial = _tree(server.site, server.port)
            full = Serve(project, before, tmp_path / f"full-{number}")
            try:
                full.wait_for_log(r"Serving on http://127\.0\.0\.1")
                expected = _tree(full.site, full.port)
            finally:
                full.stop()
            assert sorted(partial) == sorted(expected), what
            differ = [name for name in expected if partial[name] != expected[name]]
            assert not differ, f"{what}: {differ[:10]}"
            shutil.rmtree(tmp_path / f"full-{number}")
            shutil.rmtree(before)
            before = None
    finally:
        server.stop()

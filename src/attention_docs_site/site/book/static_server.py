"""A quiet static HTTP server on 127.0.0.1, for a folder of built files.

The PDFs are printed from the built site served this way, and the tests,
the benchmark and ``scripts/screenshot.py`` serve builds with it too; the
browser tests and the screenshot serve the site under the path it is
published at, as links from its root need.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging each request."""

    def log_message(self, *args: object) -> None:
        """Say nothing."""


class GzipHandler(QuietHandler):
    """Serves text files gzip-compressed to clients that accept it.

    As GitHub Pages does: the reader benchmark measures pages as readers get them.
    """

    COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map"}

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        """A text file gzip-compressed; anything else as the plain server would."""
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in self.COMPRESSED):
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)


class IsolatedHandler(QuietHandler):
    """Serves pages cross-origin isolated (COOP and COEP headers), as some hosts can.

    There a page has SharedArrayBuffer, and the Run button's Stop interrupts
    Python instead of ending its worker (docs/assets/run-editor.js).
    """

    def end_headers(self) -> None:
        """The isolation headers, then the others' end."""
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True  # join request threads, closing their sockets

    def handle_error(self, request: object, client_address: object) -> None:
        """Report an error, but not a client that hung up.

        A browser that leaves a page before its files arrived hangs up: that is
        how browsers behave, and the run's output should not show a traceback.
        """
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextmanager
def serve_folder(
    folder: Path, *, compress: bool = False, isolated: bool = False
) -> Iterator[str]:
    """Serve a folder on 127.0.0.1 while the block runs.

    The port is chosen and bound before anything need be in the folder, so
    a build can be given the address it will be served at.

    Parameters:
        folder: What to serve, at the server's root.
        compress: Send text files gzip-compressed (:class:`GzipHandler`).
        isolated: Send the headers of cross-origin isolation (:class:`IsolatedHandler`).

    Yields:
        The server's address, ``http://127.0.0.1:PORT`` (no slash at the end).
    """
    if compress and isolated:
        raise ValueError("serve_folder: compress or isolated, not both")
    kind = GzipHandler if compress else IsolatedHandler if isolated else QuietHandler
    handler = functools.partial(kind, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextmanager
def serve_site(
    site: Path, path: str, *, compress: bool = False, isolated: bool = False
) -> Iterator[str]:
    """Serve a built site on 127.0.0.1 under its published path while the block runs.

    Parameters:
        site: The built site's folder.
        path: The path of the site's address (``site_url``), e.g.
            ``/attention_docs/``.
        compress: Send text files gzip-compressed, as GitHub Pages does.
        isolated: Send the headers of cross-origin isolation, as GitHub Pages
            does not.

    Yields:
        The site's address, e.g. ``http://127.0.0.1:PORT/attention_docs/``.
    """
    folder = path.strip("/")
    if not folder:  # published at the root of its host
        with serve_folder(site, compress=compress, isolated=isolated) as address:
            yield address + "/"
        return
    with tempfile.TemporaryDirectory() as root:
        mount = Path(root) / folder
        mount.parent.mkdir(parents=True, exist_ok=True)
        mount.symlink_to(site.resolve(), target_is_directory=True)
        with serve_folder(Path(root), compress=compress, isolated=isolated) as address:
            yield address + "/" + folder + "/"

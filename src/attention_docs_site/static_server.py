"""A quiet static HTTP server on 127.0.0.1, for a folder of built files.

The PDFs are printed from the built site served this way, and the tests,
the benchmark and ``scripts/screenshot.py`` serve builds with it too.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging each request."""

    def log_message(self, *args: object) -> None:
        """Say nothing."""


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True  # join request threads, closing their sockets


@contextmanager
def serve_folder(folder: Path) -> Iterator[str]:
    """Serve a folder on 127.0.0.1 while the block runs.

    The port is chosen and bound before anything need be in the folder, so
    a build can be given the address it will be served at.

    Parameters:
        folder: What to serve, at the server's root.

    Yields:
        The server's address, ``http://127.0.0.1:PORT`` (no slash at the end).
    """
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)

"""A second process that runs some pages' code blocks while the build runs others.

After a library edit, a partial build renders the pages whose blocks reached
the edited code, and runs those blocks again: most of such a rebuild's time
when several pages call the edited function. On a machine with a second core,
:class:`Helper` forks the serve process as an edition's build starts, and the
copy renders every other one of those pages, in the order the build will
reach them. Their blocks' outputs land in the execution cache; when the build
reaches one of the helper's pages, it waits until the helper has reported
that page, and its blocks are then served from the cache.

The cache's key is the contract between the two processes: the helper's
rendering is thrown away, and an entry it did not store, or stored under
another key, is a miss that the build computes itself. So a helper that
fails, or is slow, costs time, not correctness. It writes no file but the
cache's (each stored atomically), prints nothing, and ends with ``os._exit``,
which runs no clean-up of the process it was copied from.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import sys
from collections.abc import Callable, Sequence

log = logging.getLogger("mkdocs.plugins.attention_docs")

# The longest the build waits for one of the helper's pages before it stops
# the helper and renders the page itself.
PATIENCE_SECONDS = 120.0


def second_core() -> bool:
    """Whether this process may run on two cores and copy itself with ``fork``."""
    if sys.platform != "linux":  # fork is missing on Windows, unsafe on macOS
        return False
    return len(os.sched_getaffinity(0)) >= 2


class Helper:
    """At most one forked helper at a time, and the pages it was given."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.reader: int | None = None  # the pipe it reports finished pages on
        self.pending: set[str] = set()
        self.reported: set[str] = set()
        self._buffer = b""

    def start(self, pages: Sequence[str], render: Callable[[str], None]) -> list[str]:
        """Fork a helper that renders every other page, from the second on.

        Parameters:
            pages: The pages whose blocks will run, in the build's order.
            render: Renders one page (in the helper's process).

        Returns:
            The pages the helper renders; none when there are fewer than two
            pages or no second core.
        """
        self.finish()
        theirs = list(pages[1::2])
        if not theirs or not second_core():
            return []
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the helper
            os.close(reader)
            _run(theirs, render, writer)
        os.close(writer)
        self.pid, self.reader = pid, reader
        self.pending = set(theirs)
        return theirs

    def wait_for(self, page: str) -> None:
        """Return once the helper has rendered ``page``, has ended, or is stopped."""
        if page not in self.pending or self.reader is None:
            return
        while page not in self.reported:
            ready, _, _ = select.select([self.reader], [], [], PATIENCE_SECONDS)
            chunk = os.read(self.reader, 4096) if ready else b""
            if not chunk:  # it ended without this page, or took too long
                if not ready:
                    log.info(
                        "attention_docs serve: the second process took over %d s "
                        "on %s; it is stopped and the build runs the blocks itself",
                        PATIENCE_SECONDS,
                        page,
                    )
                self.finish(stop=not ready)
                return
            self._buffer += chunk
            *lines, self._buffer = self._buffer.split(b"\n")
            self.reported.update(line.decode() for line in lines)
        self.pending.discard(page)
        if not self.pending:
            self.finish()

    def finish(self, *, stop: bool = False) -> None:
        """Wait for the helper to end (or stop it), and forget its pages."""
        if self.pid is not None:
            if stop:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        if self.reader is not None:
            os.close(self.reader)
        self.pid = self.reader = None
        self.pending, self.reported, self._buffer = set(), set(), b""


def _run(pages: list[str], render: Callable[[str], None], writer: int) -> None:
    """The helper's life: quiet, one thread for PyTorch, each page, then exit."""
    status = 0
    try:
        logging.disable(logging.CRITICAL)
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        sys.stdout = sys.stderr = open(quiet, "w", closefd=False)  # noqa: SIM115
        torch = sys.modules.get("torch")
        if torch is not None:  # OpenMP's pool does not survive a fork
            torch.set_num_threads(1)
        for page in pages:
            render(page)
            os.write(writer, f"{page}\n".encode())
    except BaseException:  # noqa: BLE001 (the build renders what is missing)
        status = 1
    finally:
        os._exit(status)

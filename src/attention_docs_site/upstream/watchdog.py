"""Reach into watchdog: how often, and when, ``mkdocs serve``'s file watcher polls."""

from __future__ import annotations

import contextlib
import inspect
import threading
from collections.abc import Callable, Iterator

from attention_docs_site.upstream.guard import declare

POLL_INTERVAL = declare(
    "watchdog: serve polls every 0.1 s",
    "watchdog",
    "7.1.0",
    "sets the private _timeout of the polling observer MkDocs' LiveReloadServer "
    "makes, and of each watch's emitter (watchdog has no setter)",
    "at 0.5 s a save waited 0.25 s on average before its rebuild began: a "
    "sixth of a prose edit's whole loop",
    "speed",
    report="watchdog: no public way to set a polling observer's interval",
)


def poll_every(observer: object, seconds: float) -> bool:
    """Make watchdog's polling observer, and the watches it has, poll this often.

    MkDocs' server makes a polling observer: one without the interval this
    sets fails the reach, as a moved anchor does.

    Returns:
        Whether it was set: False when the switch is off (or, under the
        canary, when the reach failed).
    """
    if not POLL_INTERVAL.active:
        return False
    pollers = [observer, *getattr(observer, "emitters", ())]
    if not POLL_INTERVAL.require(
        all(isinstance(getattr(p, "_timeout", None), float) for p in pollers),
        "the serve's observer (or a watch's emitter) has no float _timeout",
    ):
        return False
    for poller in pollers:
        poller._timeout = seconds
    return True


PAUSE_WHILE_BUILDING = declare(
    "watchdog: no polling while serve builds",
    "watchdog",
    "7.1.0",
    "wraps the queue_events method of each emitter of the polling observer "
    "MkDocs' LiveReloadServer makes, so that it waits while a build runs",
    "each watch's thread stats every file under it each tenth of a second and "
    "takes the interpreter's lock from the build's thread hundreds of times a "
    "poll: a partial rebuild at 4 x took about a fifth longer with them than "
    "when they polled every half second. A paused emitter's next snapshot is "
    "compared with the one before the build, so no save made meanwhile is lost",
    "speed",
    report="watchdog: no public way to set a polling observer's interval",
)

_IDLE = threading.Event()  # set when no build is under way
_IDLE.set()


def pause_while_building(observer: object) -> bool:
    """Make every watch of a polling observer wait while :func:`building` runs.

    The emitters' class is wrapped, not the emitters: serve adds the watches
    of ``watch:`` in ``mkdocs.yml`` after the plugins' ``on_serve``.

    Returns:
        Whether it was set: False when the switch is off.
    """
    if not PAUSE_WHILE_BUILDING.active:
        return False
    emitter = getattr(observer, "_emitter_class", None)
    queue_events = getattr(emitter, "queue_events", None)
    if not PAUSE_WHILE_BUILDING.require(
        isinstance(emitter, type)
        and callable(queue_events)
        and list(inspect.signature(queue_events).parameters) == ["self", "timeout"],
        "the observer's _emitter_class.queue_events no longer takes (self, timeout)",
    ):
        return False
    assert isinstance(emitter, type) and queue_events is not None
    if not getattr(queue_events, "_attention_docs", False):
        emitter.queue_events = _paused(queue_events)  # type: ignore[attr-defined]
    return True


def _paused(
    queue_events: Callable[[object, float], None],
) -> Callable[[object, float], None]:
    def paused(self: object, timeout: float) -> None:
        _IDLE.wait()
        queue_events(self, timeout)

    paused._attention_docs = True  # type: ignore[attr-defined]
    return paused


@contextlib.contextmanager
def building() -> Iterator[None]:
    """While this runs, the paused emitters take no snapshot."""
    _IDLE.clear()
    try:
        yield
    finally:
        _IDLE.set()

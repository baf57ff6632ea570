"""Reach into watchdog: the polling interval of ``mkdocs serve``'s file watcher."""

from __future__ import annotations

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
)


def poll_every(observer: object, seconds: float) -> bool:
    """Make watchdog's polling observer, and the watches it has, poll this often.

    Returns:
        Whether it was set: False when the switch is off, or for another kind
        of observer (an inotify one, say), which has no interval to set.
    """
    if not POLL_INTERVAL.active:
        return False
    pollers = [observer, *getattr(observer, "emitters", ())]
    if not all(isinstance(getattr(p, "_timeout", None), float) for p in pollers):
        return False
    for poller in pollers:
        poller._timeout = seconds
    return True

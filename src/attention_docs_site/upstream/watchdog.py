"""Reach into watchdog: how often ``mkdocs serve``'s file watcher polls."""

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

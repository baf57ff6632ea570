"""The ``python`` code fence: markdown-exec's formatter behind the execution cache."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from .exec_cache import ExecCache

if TYPE_CHECKING:
    from markdown import Markdown

NOT_EXECUTED = '<p class="ad-not-executed"><em>(code not executed)</em></p>'
EXEC_LOGGER = "mkdocs.plugins.markdown_exec"


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class CachedFence:
    """A markdown-exec fence formatter with the execution cache in front of it.

    The plugin registers it as the format of ``python`` custom fences (with
    markdown-exec's validator). A block's key includes the sources of the
    earlier blocks of its session, and its entry the library code they reached
    as well as its own. On a miss in a session whose earlier blocks were
    served from the cache, those blocks are run first (their output
    discarded), so the session holds what the block may use.

    Parameters:
        cache: Where outputs are kept.
        execute: When False, blocks are not run and a placeholder is shown
            (the build benchmark's floor).
    """

    def __init__(self, cache: ExecCache, *, execute: bool = True) -> None:
        self.cache = cache
        self.execute = execute
        # Sources of the blocks run so far, per markdown-exec session, in page order.
        self.sessions: dict[str, list[str]] = {}
        # Sessions whose interpreter state is behind (an earlier block was cached).
        self.stale: set[str] = set()
        # Library units reached so far by the blocks of each session.
        self.reached: dict[str, frozenset[str]] = {}

    def __call__(
        self,
        source: str,
        language: str,
        css_class: str,
        options: dict[str, Any],
        md: Markdown,
        **kwargs: Any,  # noqa: ANN401 (SuperFences' others, for markdown-exec)
    ) -> str:
        """Format one block: its cached output, or markdown-exec's on a miss."""
        session = options.get("session") or ""
        history = self.sessions.setdefault(session, []) if session else []
        earlier = list(history)
        if session:
            history.append(source)
        if not self.execute:
            return NOT_EXECUTED
        parts = {
            "language": language,
            "session": session,
            "earlier": earlier,
            "source": source,
            "options": {k: v for k, v in options.items() if k != "md"},
        }
        args = (language, css_class, options, md)
        result = self.cache.cached(
            "block",
            f"block in session {session!r}",
            lambda: self._run(source, session, earlier, args, kwargs),
            carried=self.reached.get(session, frozenset()),
            **parts,
        )
        if session:
            self.reached[session] = result.units
            if result.hit:
                self.stale.add(session)
        return result.value

    def _run(
        self,
        source: str,
        session: str,
        earlier: list[str],
        args: tuple[str, str, dict[str, Any], Markdown],
        kwargs: dict[str, Any],
    ) -> tuple[str, bool]:
        """Run a block with markdown-exec: ``(html, whether to cache it)``.

        The earlier blocks of a stale session run first; a block that logged a
        warning (it raised) is never cached.
        """
        if session in self.stale:
            for old in earlier:
                _markdown_exec(old, *args, **kwargs)
            self.stale.discard(session)
        watcher = _Warnings()
        exec_logger = logging.getLogger(EXEC_LOGGER)
        exec_logger.addHandler(watcher)
        try:
            html = _markdown_exec(source, *args, **kwargs)
        finally:
            exec_logger.removeHandler(watcher)
        return html, watcher.count == 0


def _markdown_exec(
    source: str,
    language: str,
    css_class: str,
    options: dict[str, Any],
    md: Markdown,
    **kwargs: Any,  # noqa: ANN401 (markdown-exec's own type)
) -> str:
    import markdown_exec

    return markdown_exec.formatter(source, language, css_class, options, md, **kwargs)

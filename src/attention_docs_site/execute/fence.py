"""The ``python`` code fence: markdown-exec's formatter behind the execution cache."""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING, Any

from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.runnable import runnable
from attention_docs_site.execute.sessions import BlockNames, _Session, block_names

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
    earlier blocks of its session. Its entry holds the library code it reached
    and the code reached by the earlier blocks it depends on: those that bound
    or used a name it reads (:class:`_Session`). So an edit to a function one
    figure's block called re-runs that block, and the later blocks that read
    what it made; not every later block of the page. On a miss, the earlier
    blocks it depends on that this build served from the cache run first
    (their output discarded), so the session holds what the block may use.

    Parameters:
        cache: Where outputs are kept.
        execute: When False, blocks are not run and a placeholder is shown
            (the build benchmark's floor).
        marks: When False, outputs carry no mark for the Run button.
    """

    def __init__(
        self, cache: ExecCache, *, execute: bool = True, marks: bool = True
    ) -> None:
        self.cache = cache
        self.execute = execute
        self.marks = marks
        # Each markdown-exec session's blocks so far, in page order.
        self.sessions: dict[str, _Session] = {}
        self._unnamed = itertools.count()  # sessions for blocks without one

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
        name = options.get("session") or ""
        state = self._session(name)
        earlier = [block.source for block in state.blocks]
        names = block_names(source)
        needs = state.depends(names)
        if not self.execute:
            state.add(source, names, needs, frozenset(), ran=False)
            return NOT_EXECUTED
        # Left out: css_class and SuperFences' kwargs (classes, id, attributes),
        # which markdown-exec's formatter ignores; the Markdown configuration
        # and the versions are in every key (ExecCache.key).
        parts = {
            # The output, and whether the block's own run reached PyTorch.
            "form": "html, and whether its own run (memos included) reached torch",
            "language": language,
            "session": name,
            "earlier": earlier,
            "source": source,
            "options": {k: v for k, v in options.items() if k != "md"},
        }
        args = (language, css_class, options, md)
        carried = frozenset().union(*(state.blocks[i].units for i in needs))
        result = self.cache.cached(
            "block",
            f"block in session {name!r}",
            lambda: self._run(source, state, needs, args, kwargs),
            carried=carried,
            **parts,
        )
        torch = self._needs_torch(source, names, state, result.value["torch"])
        state.add(source, names, needs, result.units, ran=not result.hit, torch=torch)
        if not self.marks:
            return result.value["html"]
        session = name or f"block-{next(self._unnamed)}"
        return runnable(
            result.value["html"],
            source,
            session,
            html=bool(options.get("html")),
            torch=torch,
        )

    def _session(self, name: str) -> _Session:
        """The blocks so far of the session of that name (none for no name)."""
        fresh = _Session(library=self.cache.source.package)
        return self.sessions.setdefault(name, fresh) if name else fresh

    def _needs_torch(
        self, source: str, names: BlockNames, state: _Session, reached: bool
    ) -> bool:
        """Whether a block uses PyTorch: its code, its own run, or what it reads."""
        return (
            self.cache.source.code_needs_torch(source)
            or reached
            or state.reads_torch(names)
        )

    def _run(
        self,
        source: str,
        state: _Session,
        needs: frozenset[int],
        args: tuple[str, str, dict[str, Any], Markdown],
        kwargs: dict[str, Any],
    ) -> tuple[dict[str, Any], bool]:
        """Run a block with markdown-exec: ``(output, whether to cache it)``.

        The output is ``{"html": ..., "torch": ...}``: ``torch`` says whether
        the block's own run (not the replay of earlier ones) reached library
        code that uses PyTorch. The earlier blocks it depends on that were
        served from the cache run first, in page order (of a block that only
        imports what this one reads, its import statements alone:
        :meth:`_Session.replay`); a block that logged a warning (it raised)
        is never cached.
        """
        for i, imports in state.replay(block_names(source), needs):
            block = state.blocks[i]
            if imports is not None:  # only names it imports are needed
                if not (block.ran or block.imports_ran):
                    _markdown_exec(imports, *args, **kwargs)
                    block.imports_ran = True
            elif not block.ran:
                _markdown_exec(block.source, *args, **kwargs)
                block.ran = True
        watcher = _Warnings()
        exec_logger = logging.getLogger(EXEC_LOGGER)
        exec_logger.addHandler(watcher)
        try:
            with self.cache.recorder.within() as own:
                html = _markdown_exec(source, *args, **kwargs)
        finally:
            exec_logger.removeHandler(watcher)
        torch = bool(own & self.cache.source.torch)
        return {"html": html, "torch": torch}, watcher.count == 0


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


# Calls through which a block can reach any name of its session.

"""The ``python`` code fence: markdown-exec's formatter behind the execution cache."""

from __future__ import annotations

import ast
import functools
import itertools
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.runnable import runnable

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
    """

    def __init__(self, cache: ExecCache, *, execute: bool = True) -> None:
        self.cache = cache
        self.execute = execute
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
        state = self.sessions.setdefault(name, _Session()) if name else _Session()
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
        session = name or f"block-{next(self._unnamed)}"
        return runnable(
            result.value["html"],
            source,
            session,
            html=bool(options.get("html")),
            torch=torch,
        )

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
_DYNAMIC = frozenset({"globals", "locals", "vars", "exec", "eval", "__import__"})


@dataclass(frozen=True)
class BlockNames:
    """What a block's code reads from its session and binds in it, by name.

    ``reads`` over-approximates (every name loaded anywhere in the block, its
    own included); ``imported`` are the names it binds by ``import`` alone;
    ``dynamic`` says it may touch any name (``globals()``, ``exec``, a star
    import), or could not be parsed.
    """

    reads: frozenset[str]
    binds: frozenset[str]
    imported: frozenset[str]
    dynamic: bool


@functools.lru_cache(maxsize=1024)
def block_names(source: str) -> BlockNames:
    """The names a block reads and binds (:class:`BlockNames`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return BlockNames(frozenset(), frozenset(), frozenset(), dynamic=True)
    reads: set[str] = set()
    binds: set[str] = set()
    imported: set[str] = set()
    dynamic = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                reads.add(node.id)
                dynamic |= node.id in _DYNAMIC
            else:  # Store, Del
                binds.add(node.id)
                reads.add(node.id)  # an augmented or deleted name was there
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    dynamic = True
                imported.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            dynamic = True
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
            dynamic = True
    return BlockNames(
        frozenset(reads),
        frozenset(binds | imported),
        frozenset(imported - binds),
        dynamic,
    )


@dataclass
class _Block:
    source: str
    units: frozenset[str]
    ran: bool  # run in this build, so its effects are in the session
    torch: bool = False  # it, or an earlier block it depends on, uses PyTorch
    imports_ran: bool = False  # its import statements alone were run


def _imports(source: str, wanted: set[str]) -> str | None:
    """The top-level import statements of a block, if they bind every ``wanted`` name.

    None when one of those names is bound by an import elsewhere (inside an
    ``if`` or a function): the whole block must run.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    statements = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    bound = {
        alias.asname or alias.name.split(".")[0]
        for statement in statements
        for alias in statement.names
    }
    if not wanted <= bound:
        return None
    return "\n".join(ast.get_source_segment(source, n) or "" for n in statements)


@dataclass
class _Session:
    """The blocks of one session so far, and which earlier blocks each name needs.

    A name's blocks are those whose effects its value may carry: the block
    that bound it and, transitively, what that block read; and every later
    block that read it (a method call may change the object). Names that one
    block reads or binds together may share objects (``b = a``), so they are
    merged into one group and share their blocks. A name bound by ``import``
    alone is a module or a library object, changed by no call; a block that
    only reads it does not join it. A dynamic block depends on every earlier
    block, and every later block on it and on what it depends on.
    """

    blocks: list[_Block] = field(default_factory=list)
    groups: dict[str, set[int]] = field(default_factory=dict)  # name -> its blocks
    # Names a block that needs PyTorch bound other than by import (the Run
    # button still runs its imports; see docs/assets/run-worker.js).
    torch_names: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)
    importer: dict[str, int] = field(default_factory=dict)  # the block that did
    # The dynamic blocks, and the blocks they depend on.
    everything: set[int] = field(default_factory=set)

    def reads_torch(self, names: BlockNames) -> bool:
        """Whether a block reads what a block that needs PyTorch made."""
        return bool(names.reads & self.torch_names) or (
            names.dynamic and bool(self.torch_names)
        )

    def depends(self, names: BlockNames) -> frozenset[int]:
        """The earlier blocks a block with these names depends on."""
        if names.dynamic:
            return frozenset(range(len(self.blocks)))
        needs = set(self.everything)
        for name in names.reads:
            needs |= self.groups.get(name, set())
        return frozenset(needs)

    def replay(
        self, names: BlockNames, needs: frozenset[int]
    ) -> list[tuple[int, str | None]]:
        """What of the earlier blocks ``needs`` to run, in page order, before a block.

        A block that bound a name it reads by ``import`` alone, and is needed
        for nothing else, runs its import statements alone (the code that
        follows them may draw a figure the block does not read); the blocks
        that one depends on do not run for it. Every other block runs whole.

        Returns:
            ``(block, None)`` to run a block whole, ``(block, its imports)``
            to run its import statements only.
        """
        if names.dynamic:
            return [(i, None) for i in sorted(needs)]
        whole = set(self.everything)
        wanted: dict[int, set[str]] = {}
        for name in names.reads:
            if name in self.imported and name in self.importer:
                wanted.setdefault(self.importer[name], set()).add(name)
            else:
                whole |= self.groups.get(name, set())
        imports = {i: _imports(self.blocks[i].source, n) for i, n in wanted.items()}
        for i, statements in imports.items():
            if statements is None:  # the whole block, and what it needs
                for name in wanted[i]:
                    whole |= self.groups.get(name, set())
        return [
            (i, None if i in whole else imports[i])
            for i in sorted(needs)
            if i in whole or i in imports
        ]

    def add(
        self,
        source: str,
        names: BlockNames,
        needs: frozenset[int],
        units: frozenset[str],
        *,
        ran: bool,
        torch: bool = False,
    ) -> None:
        """Record a block, after it was run or served from the cache."""
        index = len(self.blocks)
        self.blocks.append(_Block(source, units, ran, torch))
        if torch:
            self.torch_names |= names.binds - names.imported
        mine = needs | {index}
        if names.dynamic:  # with what it needs, so that a replay of it can run
            self.everything |= mine
        self.imported -= names.binds - names.imported
        self.imported |= names.imported
        # The names whose objects this block may have made, changed or shared.
        touched = (names.reads - self.imported) & (set(self.groups) | names.binds)
        touched |= names.binds - names.imported
        merged = [self.groups[n] for n in touched if n in self.groups]
        group = set(mine).union(*merged)
        for name, blocks in self.groups.items():  # every name of a merged group
            if any(blocks is other for other in merged):
                self.groups[name] = group
        for name in touched:
            self.groups[name] = group
        for name in names.imported:
            self.groups[name] = set(mine)
            self.importer[name] = index
        for name in names.binds - names.imported:
            self.importer.pop(name, None)

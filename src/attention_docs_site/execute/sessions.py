"""A markdown-exec session's blocks: what each reads and binds, and what to replay.

A page's blocks share a session (one namespace). A block served from the
execution cache does not run; when a later block of its session must run, it
needs the effects of the earlier blocks it reads from, and of every earlier
block that may have changed state outside the session's names: a module's
(``np.random.seed(0)``, ``plt.rcParams[...] = ...``, ``setattr(module, ...)``),
which any later block may see through any name. :class:`_Session` says which
(:meth:`_Session.depends`) and how little of each to run again
(:meth:`_Session.replay`); :func:`block_names` reads a block's names.

Two assumptions: a call of the teaching library changes no state outside
what it returns (it seeds its own generators and sets matplotlib's options
per figure; ``tests/unit/test_figures.py`` checks every figure and table);
and a session reads no state another session left in a module (the replay
is within a session; README.md, "Fast rebuilds", asks pages not to).
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

from attention_docs_site.execute.effects import changes_outside, imports_alone

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
    needs: frozenset[int] = frozenset()  # the earlier blocks it depended on
    # It may have changed state outside the session's names
    # (:func:`changes_outside`), and whether through its imports alone.
    world: bool = False
    by_imports: bool = False


@dataclass
class _Session:
    """The blocks of one session so far, and which earlier blocks each name needs.

    A name's blocks are those whose effects its value may carry: the block
    that bound it and, transitively, what that block read; and every later
    block that read it (a method call may change the object). Names that one
    block reads or binds together may share objects (``b = a``), so they are
    merged into one group and share their blocks. A name bound by ``import``
    alone is a module or a library object; a block that only reads it does
    not join it. A block that may change state outside the session's names
    (:func:`changes_outside`: a seed, a module's option) is one every later
    block depends on, with what it depends on. A dynamic block depends on every
    earlier block, and every later block on it and on what it depends on.
    """

    library: str = "attention_docs"  # the teaching library's package
    blocks: list[_Block] = field(default_factory=list)
    groups: dict[str, set[int]] = field(default_factory=dict)  # name -> its blocks
    # Names a block that needs PyTorch bound other than by import (the Run
    # button still runs its imports; see docs/assets/run-worker.js).
    torch_names: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)
    importer: dict[str, int] = field(default_factory=dict)  # the block that did
    # The dynamic blocks, and the blocks they depend on.
    everything: set[int] = field(default_factory=set)
    # The blocks that may have changed state outside the session's names,
    # and the blocks they depend on.
    world: set[int] = field(default_factory=set)
    # Names bound by import alone to the library, and names bound to other
    # modules or by blocks in ``world`` (:func:`changes_outside`).
    library_names: set[str] = field(default_factory=set)
    modules: set[str] = field(default_factory=set)

    def reads_torch(self, names: BlockNames) -> bool:
        """Whether a block reads what a block that needs PyTorch made."""
        return bool(names.reads & self.torch_names) or (
            names.dynamic and bool(self.torch_names)
        )

    def depends(self, names: BlockNames) -> frozenset[int]:
        """The earlier blocks a block with these names depends on."""
        if names.dynamic:
            return frozenset(range(len(self.blocks)))
        needs = self.everything | self.world
        for name in names.reads:
            needs |= self.groups.get(name, set())
        return frozenset(needs)

    def replay(
        self, names: BlockNames, needs: frozenset[int]
    ) -> list[tuple[int, str | None]]:
        """What of the earlier blocks ``needs`` to run, in page order, before a block.

        A block whose only effects a later block can see are its imports
        (it bound a name the later block reads by ``import`` alone, or it
        changes outside state by importing alone) and whose other statements
        only call the library and print, runs its import statements alone
        (the code that follows them may draw a figure the block does not
        read); the blocks that one depends on do not run for it. Every other
        block runs whole: each that may have changed outside state, and those
        that made what the block reads.

        Returns:
            ``(block, None)`` to run a block whole, ``(block, its imports)``
            to run its import statements only.
        """
        if names.dynamic:
            return [(i, None) for i in sorted(needs)]
        whole = set(self.everything)
        wanted: dict[int, set[str]] = {}
        for i in self.world:
            block = self.blocks[i]
            if block.world and block.by_imports:
                wanted.setdefault(i, set())
            elif block.world:
                whole |= block.needs | {i}
        for name in names.reads:
            if name in self.imported and name in self.importer:
                wanted.setdefault(self.importer[name], set()).add(name)
            else:
                whole |= self.groups.get(name, set())
        imports = {
            i: imports_alone(self.blocks[i].source, n, self.library)
            for i, n in wanted.items()
        }
        for i, statements in imports.items():
            if statements is None:  # the whole block, and what it needs
                whole |= self.blocks[i].needs | {i}
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
        block = _Block(source, units, ran, torch, needs=needs)
        self.blocks.append(block)
        if torch:
            self.torch_names |= names.binds - names.imported
        mine = needs | {index}
        if names.dynamic:  # with what it needs, so that a replay of it can run
            self.everything |= mine
        else:
            block.world, block.by_imports, library, modules = changes_outside(
                source,
                (names.reads, names.binds, names.imported),
                self.library,
                self.library_names,
                self.modules,
            )
            rebound = names.binds - names.imported
            self.library_names = (self.library_names - names.binds) | library
            self.modules = (self.modules - rebound - library) | modules
            if block.world:  # with what it needs, as for a dynamic block
                self.world |= mine
                self.modules |= names.binds - library
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

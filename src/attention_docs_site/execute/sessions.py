"""A markdown-exec session's blocks: what each reads and binds, and what to replay.

A page's blocks share a session (one namespace). A block served from the
execution cache does not run; when a later block of its session must run, it
needs the effects of the earlier blocks it reads from. :class:`_Session`
says which (:meth:`_Session.depends`) and how little of each to run again
(:meth:`_Session.replay`); :func:`block_names` reads a block's names.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

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


def _imports(source: str, wanted: set[str], library: str) -> str | None:
    """A block's import statements, when running them alone is running the block.

    That is, for a later block that reads only ``wanted`` of it: the block's
    top-level imports bind every ``wanted`` name, and the rest of it only
    calls the library (which keeps no state between calls: a figure's
    function draws and returns) and prints, as a page's figure block does.
    None otherwise (an import inside an ``if``, a seed set, a name bound):
    the whole block must run.
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
    ours = _library_names(statements, library)
    rest = [n for n in tree.body if n not in statements]
    if not wanted <= bound or not all(_calls_library(n, ours) for n in rest):
        return None
    return "\n".join(ast.get_source_segment(source, n) or "" for n in statements)


def _library_names(
    statements: list[ast.Import | ast.ImportFrom], library: str
) -> set[str]:
    """The names that import statements bind to the library or its modules."""
    names = set()
    for statement in statements:
        if isinstance(statement, ast.ImportFrom):
            module = statement.module or ""
            if statement.level == 0 and module.split(".")[0] == library:
                names |= {alias.asname or alias.name for alias in statement.names}
        else:
            for alias in statement.names:
                if alias.name.split(".")[0] == library:
                    names.add(alias.asname or alias.name.split(".")[0])
    return names


def _calls_library(statement: ast.stmt, library: set[str]) -> bool:
    """Whether a statement only prints what calls of the library's names return."""
    if not isinstance(statement, ast.Expr):
        return False
    for node in ast.walk(statement):
        if isinstance(node, ast.Call):
            root = node.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name):
                return False
            if root.id not in library and not (
                root.id == "print" and node is statement.value
            ):
                return False
        elif isinstance(node, (ast.NamedExpr, ast.Lambda, ast.Await)):
            return False
    return True


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
        self, names: BlockNames, needs: frozenset[int], library: str = "attention_docs"
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
        imports = {
            i: _imports(self.blocks[i].source, n, library) for i, n in wanted.items()
        }
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

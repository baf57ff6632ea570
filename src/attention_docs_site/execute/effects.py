"""What running a block can leave behind besides the names it binds.

:mod:`attention_docs_site.execute.sessions` replays the earlier blocks of a
session before a block that runs again; these say how little of a block
that is: its import statements alone (:func:`imports_alone`), when the rest
only calls the teaching library and prints, and whether it may have changed
state outside the session's names (:func:`changes_outside`).
"""

from __future__ import annotations

import ast
from collections.abc import Set


def changes_outside(
    source: str,
    names: tuple[Set[str], Set[str], Set[str]],
    package: str,
    library: set[str],
    modules: set[str],
) -> tuple[bool, bool, set[str], set[str]]:
    """Whether a block may change state outside its session's names.

    It may if it imports anything but the teaching library (an import runs a
    module's code: ``import seaborn`` restyles matplotlib), reads a name
    bound to such a module or to what a block like this one made (``np``,
    ``rng``, ``arr``), or uses a name bound to the library other than by
    calling it (``lib.x = 1``, ``setattr(lib, ...)``, ``f(lib)``).

    Parameters:
        source: The block's code.
        names: The names it reads, binds and binds by import alone
            (``sessions.BlockNames``).
        package: The teaching library's top-level package.
        library: The names the session's earlier blocks bound to the library
            by import alone.
        modules: The names the earlier blocks bound to other modules, or
            that blocks which may change outside state bound.

    Returns:
        ``(outside, by its imports alone, names it binds to the library by
        import, names it binds to other modules by import)``.
    """
    reads, binds, imported = names
    tree = ast.parse(source)  # a block that is not parsed is dynamic
    own_library: set[str] = set()
    own_modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom):
                ours = node.level == 0 and (node.module or "").split(".")[0] == package
            else:
                ours = all(a.name.split(".")[0] == package for a in node.names)
            bound = {a.asname or a.name.split(".")[0] for a in node.names}
            (own_library if ours else own_modules).update(bound)
    rebound = binds - imported
    lib = ((library - rebound) | own_library) & reads
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            root = node.func
            while isinstance(root, ast.Attribute):
                root = root.value
            called.add(id(root))
    misused = any(
        isinstance(node, ast.Name)
        and isinstance(node.ctx, ast.Load)
        and node.id in lib
        and id(node) not in called
        for node in ast.walk(tree)
    )
    reads_outside = bool(reads & ((modules - rebound) | own_modules))
    by_imports = bool(own_modules) and not (reads_outside or misused)
    return (
        bool(own_modules) or reads_outside or misused,
        by_imports,
        (own_library & imported),
        own_modules,
    )


def imports_alone(source: str, wanted: set[str], library: str) -> str | None:
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

"""The library names a page's prose writes in code style must exist.

A page may name a library function in an inline code span, such as
``scores.gaussian_scores`` or ``train(x_train, y_train)``. A student who
follows it needs it to exist where the page says. Before a page is rendered,
every such name is resolved against the library ``attention_docs``:

- a dotted name whose first part is ``attention_docs`` or one of its
  modules (``pooling.x``, ``figures.y``) must import and resolve to an
  attribute, or the build fails naming the page, the name and where a thing
  of that name does live;
- a call written as ``name(...)`` must name something one of the library's
  modules defines, and ``module.name(...)`` must resolve as above.

Other spans (variables such as ``x_train``, file names, commands) are left
alone.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from attention_docs_site.blocks import blocks
from attention_docs_site.execute.fingerprints import library_folder

LIBRARY = "attention_docs"
# An inline code span: a run of backticks, its text, the same run.
_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_DOTTED = re.compile(r"\A[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\Z")
_CALL = re.compile(r"\A([A-Za-z_][\w.]*)\(.*\)\Z", re.S)


class UnknownLibraryName(ValueError):
    """A page names, in code style, a library name that does not exist."""


@dataclass
class _Module:
    """What one module of the library defines and imports, read from its source."""

    defined: set[str] = field(default_factory=set)  # functions, classes, data
    callables: set[str] = field(default_factory=set)  # functions and classes
    # class (without bases) -> the members its body defines
    members: dict[str, set[str]] = field(default_factory=dict)
    # name -> (library module it comes from, its name there); None if another package's
    imported: dict[str, tuple[str, str] | None] = field(default_factory=dict)


def _targets(node: ast.stmt) -> list[str]:
    """The plain names an assignment binds."""
    if isinstance(node, ast.Assign):
        found = [t for target in node.targets for t in ast.walk(target)]
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        found = [node.target]
    else:
        return []
    return [t.id for t in found if isinstance(t, ast.Name)]


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """A module's statements, with those under ``if`` and ``try`` at top level."""
    statements = []
    for node in body:
        statements.append(node)
        if isinstance(node, ast.If):
            statements += _top_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            statements += _top_level(node.body + handlers + node.orelse)
    return statements


def _read_module(path: Path, name: str, package: bool) -> _Module:
    module = _Module()
    for node in _top_level(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            module.defined.add(node.name)
            module.callables.add(node.name)
        # A class with bases has members its source does not show.
        if isinstance(node, ast.ClassDef) and not node.bases:
            module.members[node.name] = {
                bound
                for member in node.body
                for bound in (
                    [member.name]
                    if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef)
                    else _targets(member)
                )
            }
        module.defined.update(_targets(node))
        if isinstance(node, ast.Import):
            for alias in node.names:
                module.imported[alias.asname or alias.name.split(".")[0]] = None
        elif isinstance(node, ast.ImportFrom):
            origin = _origin(node, name, package)
            for alias in node.names:
                module.imported[alias.asname or alias.name] = (
                    (origin, alias.name) if origin is not None else None
                )
    return module


def _origin(node: ast.ImportFrom, name: str, package: bool) -> str | None:
    """The library module (short name) an import reads from, if the library's."""
    if node.level == 0:
        parts = (node.module or "").split(".")
        if parts[0] != LIBRARY:
            return None
        return ".".join(parts[1:]) or LIBRARY
    here = [] if name == LIBRARY else name.split(".")
    base = here if package else here[:-1]
    base = base[: len(base) - (node.level - 1)]
    dotted = ".".join([*base, *(node.module or "").split(".")]).strip(".")
    return dotted or LIBRARY


# A file's time stamp moves in ticks (a few milliseconds here, two seconds on
# some file systems), so two edits within one tick can leave its size and
# stamp unchanged: a file changed this recently is also told apart by its bytes.
_RECENT_NS = 2_000_000_000


@functools.lru_cache(maxsize=8)
def _index(
    stamp: tuple[tuple[str, int, int, str | None], ...],
) -> dict[str, _Module]:
    """Every module of the library by short name, for one state of its files."""
    modules = {}
    for file, *_ in stamp:
        path = Path(file)
        relative = path.relative_to(library_folder()).with_suffix("")
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        short = ".".join(parts) or LIBRARY
        modules[short] = _read_module(path, short, relative.name == "__init__")
    return modules


def library_modules() -> dict[str, _Module]:
    """The library's modules by short name (``pooling``, ``figures.cues``, ...).

    Read from the source, not imported, so that checking a page costs no
    import of torch or matplotlib. Read anew whenever a file of the library
    changes (under ``mkdocs serve``, between two rebuilds): its path, size or
    time stamp, or, for a file changed in the last two seconds, its bytes.
    """
    now = time.time_ns()
    stamp = []
    for file in sorted(library_folder().rglob("*.py")):
        info = file.stat()
        recent = now - info.st_mtime_ns < _RECENT_NS
        digest = hashlib.sha256(file.read_bytes()).hexdigest() if recent else None
        stamp.append((str(file), info.st_mtime_ns, info.st_size, digest))
    return _index(tuple(stamp))


def definition(short: str, name: str) -> tuple[str, str] | None:
    """Where the library defines what module ``short`` calls ``name``.

    Follows the library's own imports (``from .pooling import x``).

    Returns:
        ``(module, name)`` of the definition, or None when the module has no
        such name, or has it from another package or as a submodule.
    """
    modules = library_modules()
    seen = set()
    while (short, name) not in seen and short in modules:
        seen.add((short, name))
        module = modules[short]
        if name in module.defined:
            return short, name
        origin = module.imported.get(name)
        if origin is None:
            return None
        short, name = origin
    return None


def is_callable(short: str, name: str) -> bool:
    """Whether the name is a function or class the library defines."""
    found = definition(short, name)
    return found is not None and found[1] in library_modules()[found[0]].callables


def _has(short: str, name: str) -> bool:
    """Whether module ``short`` has an attribute ``name`` once imported."""
    modules = library_modules()
    module = modules[short]
    prefix = "" if short == LIBRARY else f"{short}."
    return (
        name in module.defined
        or name in module.imported
        or f"{prefix}{name}" in modules  # a submodule, imported by the library
    )


def _where(name: str) -> list[str]:
    """Full names of the library's things called ``name``, for the message."""
    return sorted(
        f"{LIBRARY}.{short}.{name}" if short != LIBRARY else f"{LIBRARY}.{name}"
        for short, module in library_modules().items()
        if name in module.defined  # where it is defined, not where it is imported
    )


def _resolves(dotted: str) -> bool | None:
    """Whether a dotted library name resolves; None when it is not the library's."""
    parts = dotted.split(".")
    prefixed = parts[0] == LIBRARY
    if prefixed:
        parts = parts[1:]
    modules = library_modules()
    # The longest leading run of parts that names a module, then attributes.
    for cut in range(len(parts), 0, -1):
        if ".".join(parts[:cut]) in modules:
            short = ".".join(parts[:cut])
            break
    else:
        if not prefixed:
            return None
        short, cut = LIBRARY, 0
    attributes = parts[cut:]
    if not attributes:
        return True
    if not _has(short, attributes[0]):
        return False
    if len(attributes) == 1:
        return True
    found = definition(short, attributes[0])
    members = library_modules()[found[0]].members.get(found[1]) if found else None
    if members is None:  # not a class whose members its source shows
        return None
    if attributes[1] not in members:
        return False
    return True if len(attributes) == 2 else None


def prose_spans(markdown: str) -> list[tuple[int, str]]:
    """The inline code spans of a page's prose: (line number, text)."""
    prose = markdown
    for block in blocks(markdown):  # blank fenced blocks, keeping line numbers
        blank = re.sub(r"[^\n]", " ", block.text)
        prose = prose[: block.start] + blank + prose[block.end :]
    return [
        (prose.count("\n", 0, match.start()) + 1, match[2].strip())
        for match in _SPAN.finditer(prose)
    ]


def check_code_names(markdown: str, page: str) -> None:
    """Fail when the prose names, in code style, a library name that does not exist.

    Parameters:
        markdown: The page's Markdown.
        page: The page's source, for the message.

    Raises:
        UnknownLibraryName: Naming the page, the line, the name and where a
            thing of that name lives in the library, if anywhere.
    """
    problems = []
    for line, text in prose_spans(markdown):
        if _DOTTED.match(text):
            if _resolves(text) is False:
                problems.append((line, text, text.rsplit(".", 1)[1]))
        elif call := _CALL.match(text):
            name = call[1]
            if "." in name and _resolves(name) is False:
                problems.append((line, text, name.rsplit(".", 1)[1]))
            elif "." not in name and not _where(name):
                problems.append((line, text, name))
    if problems:
        described = [
            f"{page}:{line}: `{text}` is not in the library"
            + (f" (it is {' or '.join(_where(last))})" if _where(last) else "")
            for line, text, last in problems
        ]
        raise UnknownLibraryName("\n".join(described))

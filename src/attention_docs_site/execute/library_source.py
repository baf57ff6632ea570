"""The teaching library's source cut into units, each with the digest of its text.

- each top-level function is a unit, named ``module:function``;
- each method of a top-level class, ``module:Class.method``;
- everything else in a module (imports, constants, tables, class headers and
  attributes, module-level lambdas) is one unit per module, ``module:<data>``.

:mod:`.library_reach` records which units a run executed; the execution cache
compares their digests with the current ones.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

DATA = "<data>"


@dataclass(frozen=True)
class _Module:
    """One source file of the library, cut into units."""

    name: str
    units: dict[str, str]  # unit name -> digest of its source
    memoised: frozenset[str]  # units of functions under a functools cache
    starts: list[int]  # first lines of the function units, sorted
    spans: list[tuple[int, int, str]]  # (first, last, unit), same order
    torch: frozenset[str]  # function units whose code names torch
    imports: dict[str, frozenset[str]]  # function unit -> library modules it imports


def _functions(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """Each function and method unit's node, with its qualified name."""
    for node in tree.body:
        if is_function(node):
            yield node, node.name
        elif isinstance(node, ast.ClassDef):
            yield from (
                (d, f"{node.name}.{d.name}") for d in node.body if is_function(d)
            )


def _function_spans(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of each function and method unit."""
    spans = []
    for definition, name in _functions(tree):
        assert is_function(definition)
        decorators = [d.lineno for d in definition.decorator_list]
        first = min([definition.lineno, *decorators])
        spans.append((first, definition.end_lineno or first, name))
    return sorted(spans)


def names_torch(node: ast.AST) -> bool:
    """Whether code uses PyTorch: names ``torch`` or imports it (or ``_torch``)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and child.id == "torch":
            return True
        if isinstance(child, ast.Import | ast.ImportFrom):
            modules = (
                [a.name for a in child.names] if isinstance(child, ast.Import) else []
            )
            if isinstance(child, ast.ImportFrom):
                modules.append(child.module or "")
            if any(m.split(".")[0] in {"torch", "_torch"} for m in modules):
                return True
    return False


def is_function(
    node: ast.AST,
) -> TypeGuard[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Whether a node defines a function (plain or async)."""
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


def _memoised(tree: ast.Module) -> set[str]:
    """Top-level functions decorated with ``functools.cache`` or ``lru_cache``."""
    return {
        node.name
        for node in tree.body
        if is_function(node)
        and any(
            "cache" in ast.unparse(decorator).split("(")[0]
            for decorator in node.decorator_list
        )
    }


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@functools.lru_cache(maxsize=512)
def _cut(name: str, text: str, here: str = "") -> _Module:
    """Cut one module's source into its units.

    Remembered: under ``mkdocs serve`` a library edit changes one file, and
    the others are not parsed again.
    """
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    spans = _function_spans(tree)
    units = {}
    data = list(lines)
    for first, last, unit in spans:
        units[f"{name}:{unit}"] = _digest("".join(lines[first - 1 : last]))
        data[first - 1 : last] = [""] * (last - first + 1)
        data[first - 1] = f"<{unit}>\n"
    units[f"{name}:{DATA}"] = _digest("".join(data))
    spans = [(first, last, f"{name}:{unit}") for first, last, unit in spans]
    memoised = frozenset(f"{name}:{function}" for function in _memoised(tree))
    torch = frozenset(
        f"{name}:{unit}" for node, unit in _functions(tree) if names_torch(node)
    )
    package = name.split(".")[0]
    imports = {
        f"{name}:{unit}": frozenset(_imported(node, package, here))
        for node, unit in _functions(tree)
    }
    starts = [s[0] for s in spans]
    return _Module(name, units, memoised, starts, spans, torch, imports)


def _imported(tree: ast.AST, package: str, here: str = "") -> set[str]:
    """The library's modules an import statement of ``tree`` names.

    ``here`` is the importing module's package (for relative imports).
    ``from attention_docs import model`` names both the package and the module.
    """
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] == package}


def _typing_only(node: ast.stmt) -> bool:
    """``if TYPE_CHECKING:`` (what it imports is never imported when run)."""
    if not isinstance(node, ast.If) or node.orelse:
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


@functools.lru_cache(maxsize=512)
def _top_level(text: str, package: str, here: str) -> tuple[bool, frozenset[str]]:
    """Whether a module's import-time code names torch, and what it imports then.

    The library's modules it imports; remembered, as :func:`_cut` is.
    """
    statements = [
        node
        for node in ast.parse(text).body
        if not is_function(node) and not _typing_only(node)
    ]
    module = ast.Module(body=statements, type_ignores=[])
    return names_torch(module), frozenset(_imported(module, package, here))


def _torch_modules(root: Path, package: str) -> frozenset[str]:
    """The library's modules whose import imports PyTorch (see LibrarySource)."""
    top_level: dict[str, frozenset[str]] = {}
    flagged = set()
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        dotted = ".".join((package, *parts)).removesuffix(".__init__")
        here = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
        torch, top_level[dotted] = _top_level(path.read_text("utf-8"), package, here)
        if torch:
            flagged.add(dotted)
    changed = True
    while changed:
        changed = False
        for name, imports in top_level.items():
            if name not in flagged and imports & flagged:
                flagged.add(name)
                changed = True
    return frozenset(flagged)


class LibrarySource:
    """The library's units and their digests, read from its files once.

    Parameters:
        root: The package folder.
        package: The package's import name (the folder's name by default).
    """

    def __init__(self, root: Path, package: str | None = None) -> None:
        self.root = Path(root)
        self.package = package or self.root.name
        self.modules: dict[str, _Module] = {}  # resolved file path -> module
        for path in sorted(self.root.rglob("*.py")):
            parts = path.relative_to(self.root).with_suffix("").parts
            dotted = ".".join((self.package, *parts)).removesuffix(".__init__")
            here = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
            text = path.read_text("utf-8")
            self.modules[str(path.resolve())] = _cut(dotted, text, here)
        self.digests = {
            unit: digest
            for module in self.modules.values()
            for unit, digest in module.units.items()
        }
        self.torch_modules = _torch_modules(self.root, self.package)
        """The modules that import PyTorch when imported (themselves or through
        a module they import first)."""
        self.torch = frozenset().union(
            *(m.torch for m in self.modules.values()),
            *(
                {
                    unit
                    for unit, names in m.imports.items()
                    if names & self.torch_modules
                }
                for m in self.modules.values()
            ),
        )
        """The function units that use PyTorch (which has no WebAssembly build):
        their code names torch, or imports a module that imports it."""
        # Function name -> the memoised units of that name.
        self.memoised: dict[str, set[str]] = {}
        for module in self.modules.values():
            for unit in module.memoised:
                self.memoised.setdefault(unit.split(":")[1], set()).add(unit)

    def code_needs_torch(self, source: str) -> bool:
        """Whether code names torch or imports a module of :attr:`torch_modules`.

        False for code that does not parse (markdown-exec reports it).
        """
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return False
        if names_torch(tree):
            return True
        return any(m in self.torch_modules for m in _imported(tree, self.package))

    def data_units(self) -> set[str]:
        """Every module's data unit: what any run may read without calling."""
        return {f"{module.name}:{DATA}" for module in self.modules.values()}

    def unit_at(self, filename: str, line: int) -> str | None:
        """The unit of code starting at a line of a file, None outside the library."""
        module = self.modules.get(filename)
        if module is None:
            return None
        index = bisect_right(module.starts, line) - 1
        if index >= 0:
            first, last, unit = module.spans[index]
            if first <= line <= last:
                return unit
        return f"{module.name}:{DATA}"

    def units_of_file(self, filename: str) -> set[str]:
        """Every unit of one file (empty outside the library)."""
        module = self.modules.get(filename)
        return set(module.units) if module else set()

    def current(self, units: set[str] | frozenset[str]) -> dict[str, str | None]:
        """The digest of each unit now (None for a unit that no longer exists)."""
        return {unit: self.digests.get(unit) for unit in sorted(units)}

    def is_fresh(self, recorded: dict[str, str | None]) -> bool:
        """Whether every recorded unit still has its recorded source."""
        return all(self.digests.get(unit) == sha for unit, sha in recorded.items())

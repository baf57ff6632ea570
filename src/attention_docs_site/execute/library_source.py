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
import hashlib
from bisect import bisect_right
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


def _function_spans(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of each function and method unit."""
    spans = []
    for node in tree.body:
        defs = [(node, node.name)] if is_function(node) else []
        if isinstance(node, ast.ClassDef):
            defs = [(d, f"{node.name}.{d.name}") for d in node.body if is_function(d)]
        for definition, name in defs:
            decorators = [d.lineno for d in definition.decorator_list]
            first = min([definition.lineno, *decorators])
            spans.append((first, definition.end_lineno or first, name))
    return sorted(spans)


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


def _cut(name: str, text: str) -> _Module:
    """Cut one module's source into its units."""
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
    return _Module(name, units, memoised, [s[0] for s in spans], spans)


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
            self.modules[str(path.resolve())] = _cut(dotted, path.read_text("utf-8"))
        self.digests = {
            unit: digest
            for module in self.modules.values()
            for unit, digest in module.units.items()
        }
        # Function name -> the memoised units of that name.
        self.memoised: dict[str, set[str]] = {}
        for module in self.modules.values():
            for unit in module.memoised:
                self.memoised.setdefault(unit.split(":")[1], set()).add(unit)

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

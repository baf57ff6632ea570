"""Which parts of the teaching library a run reached, and their current source.

The library's source is cut into *units*:

- each top-level function, named ``module:function``;
- each method of a top-level class, named ``module:Class.method``;
- everything else in a module (imports, constants, tables, class headers and
  attributes, module-level lambdas), one unit per module, ``module:<data>``.

:class:`Reach` records, while code runs, which function and method units
executed (with any function or lambda nested in them). A cache entry is then
keyed on the source of those units and of every module's data unit, so an
edit to one plotting function re-runs only the blocks that called it, and an
edit to a table re-runs all of them. Three ways a run can depend on code it
did not execute are closed here:

- *memoised results*: before each run, every ``functools`` cache of the
  library is emptied, so a memoised function runs (and is recorded) again;
- *source read as text* (``inspect.getsource``, through ``linecache``): the
  run depends on every unit of that module;
- *objects made by code generated at import time* (dataclasses' ``__init__``,
  for example): that code comes from a class header, which is data.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import linecache
import sys
import types
from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

DATA = "<data>"


@dataclass(frozen=True)
class _Module:
    """One source file of the library, cut into units."""

    name: str
    units: dict[str, str]  # unit name -> digest of its source
    starts: list[int]  # first lines of the function units, sorted
    spans: list[tuple[int, int, str]]  # (first, last, unit), same order


def _function_spans(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of each function and method unit."""
    spans = []
    for node in tree.body:
        defs = [(node, node.name)] if _is_function(node) else []
        if isinstance(node, ast.ClassDef):
            defs = [(d, f"{node.name}.{d.name}") for d in node.body if _is_function(d)]
        for definition, name in defs:
            decorators = [d.lineno for d in definition.decorator_list]
            first = min([definition.lineno, *decorators])
            spans.append((first, definition.end_lineno or first, name))
    return sorted(spans)


def _is_function(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _cut(name: str, text: str) -> _Module:
    """Cut one module's source into its units."""
    lines = text.splitlines(keepends=True)
    spans = _function_spans(ast.parse(text))
    units = {}
    data = list(lines)
    for first, last, unit in spans:
        units[f"{name}:{unit}"] = _digest("".join(lines[first - 1 : last]))
        data[first - 1 : last] = [""] * (last - first + 1)
        data[first - 1] = f"<{unit}>\n"
    units[f"{name}:{DATA}"] = _digest("".join(data))
    spans = [(first, last, f"{name}:{unit}") for first, last, unit in spans]
    return _Module(name, units, [s[0] for s in spans], spans)


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


@dataclass
class Reach:
    """Records the library units a run executes (use :meth:`tracing`)."""

    source: LibrarySource
    units: set[str] = field(default_factory=set)
    _seen: dict[types.CodeType, str | None] = field(default_factory=dict)

    @contextmanager
    def tracing(self) -> Iterator[Reach]:
        """Trace the calls made inside the ``with`` block (memo caches emptied first).

        A trace function set before (a debugger's, coverage's) keeps running.
        """
        clear_memos(self.source.package)
        previous = sys.gettrace()
        getlines = linecache.getlines.__code__

        def trace(frame: types.FrameType, event: str, arg: object) -> object:
            code = frame.f_code
            if code is getlines:
                read = _resolved(frame.f_locals["filename"])
                self.units |= self.source.units_of_file(read)
            elif code not in self._seen:
                self._seen[code] = self.source.unit_at(
                    _resolved(code.co_filename), code.co_firstlineno
                )
            if unit := self._seen.get(code):
                self.units.add(unit)
            return previous(frame, event, arg) if previous else None

        sys.settrace(trace)
        try:
            yield self
        finally:
            sys.settrace(previous)


@functools.cache
def _resolved(filename: str) -> str:
    try:
        return str(Path(filename).resolve())
    except (OSError, ValueError):
        return filename


def clear_memos(package: str) -> int:
    """Empty every ``functools`` cache held by a module of the package.

    Returns:
        How many caches were emptied.
    """
    cleared = 0
    for name, module in list(sys.modules.items()):
        if name != package and not name.startswith(f"{package}."):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)) and hasattr(
                value, "__wrapped__"
            ):
                value.cache_clear()
                cleared += 1
    return cleared

"""Which parts of the teaching library a run reached, and their current source.

The library's source is cut into *units* by :mod:`.library_source`: each
top-level function, each method of a top-level class, and each module's data.

While the build runs, the library's modules are imported *instrumented*: the
first statement of each function and method unit reports the unit (one small
call; no other code is slowed, unlike ``sys.settrace``, which doubled the
time of the pages' code). A :class:`Recorder` collects what a run reported.
A cache entry is then keyed on the source of those units and of every
module's data unit, so an edit to one plotting function re-runs only the
blocks that called it, and an edit to a table re-runs all of them. Nested
functions and lambdas belong to the unit that defines them, which ran to
define them. Three ways a run can depend on code it did not execute are
closed here:

- *memoised results*: a memo that serves a result brings the units of the run
  that filled it; a memo filled while nothing was recording is emptied before
  the next run;
- *source read as text* (``inspect.getsource``, through ``linecache``): the
  run depends on every unit of that module;
- *objects made by code generated at import time* (dataclasses' ``__init__``,
  for example): that code comes from a class header, which is data.
"""

from __future__ import annotations

import ast
import functools
import importlib.abc
import importlib.machinery
import linecache
import sys
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from attention_docs_site.execute.library_source import LibrarySource, is_function

_RECORDING: list[set[str]] = []  # the sets of the recordings under way
HOOK = "__attention_docs_reached__"


class _Memo(Protocol):
    """A function under ``functools.cache`` or ``lru_cache``, as used here."""

    def cache_info(self) -> functools._CacheInfo: ...

    def cache_clear(self) -> None: ...


def _reached(unit: str) -> None:
    """Called by the first statement of every instrumented function."""
    if _RECORDING:
        _RECORDING[-1].add(unit)


class _Instrument(ast.NodeTransformer):
    """Make each function and method unit report itself when it starts."""

    def __init__(self, module: str) -> None:
        self.module = module

    def visit_Module(self, node: ast.Module) -> ast.Module:
        for statement in node.body:
            if is_function(statement):
                self._report(statement, statement.name)
            elif isinstance(statement, ast.ClassDef):
                for member in statement.body:
                    if is_function(member):
                        self._report(member, f"{statement.name}.{member.name}")
        return node

    def _report(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str
    ) -> None:
        first = function.body[0]
        call = ast.Expr(
            ast.Call(
                ast.Name(HOOK, ast.Load()), [ast.Constant(f"{self.module}:{name}")], []
            )
        )
        ast.copy_location(call, first)
        ast.fix_missing_locations(call)
        docstring = (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        )
        function.body.insert(1 if docstring else 0, call)


class _Loader(importlib.machinery.SourceFileLoader):
    """Loads a library module with its functions instrumented (no bytecode cache)."""

    def get_code(self, fullname: str) -> types.CodeType:
        source = self.get_data(self.path).decode("utf-8")
        tree = _Instrument(fullname).visit(ast.parse(source, self.path))
        return compile(tree, self.path, "exec", dont_inherit=True)

    def exec_module(self, module: types.ModuleType) -> None:
        setattr(module, HOOK, _reached)
        super().exec_module(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the instrumented packages' modules and gives them :class:`_Loader`."""

    def __init__(self) -> None:
        self.packages: set[str] = set()

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] not in self.packages:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return spec
        spec.loader = _Loader(fullname, spec.loader.path)
        return spec


_FINDER = _Finder()


def instrument(package: str) -> None:
    """Import a package's modules instrumented from now on."""
    _FINDER.packages.add(package)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def drop_uninstrumented(package: str) -> bool:
    """Make the package import anew if any of its modules is not instrumented.

    A module imported before :func:`instrument` would run without reporting.
    All the package's modules are then removed from ``sys.modules`` together,
    so that they import again, instrumented, and refer to one another.

    Returns:
        Whether modules were removed.
    """
    names = [n for n in sys.modules if n.split(".")[0] == package]
    if all(hasattr(sys.modules[name], HOOK) for name in names):
        return False
    for name in names:
        del sys.modules[name]
    return True


def uninstrument(package: str) -> None:
    """Import the package normally again (modules already loaded stay as they are)."""
    _FINDER.packages.discard(package)


class Recorder:
    """Records the library units runs execute, across the runs of a build or serve.

    Creating a recorder makes the library's modules import instrumented: each
    function and method reports itself when it starts, at the cost of one
    small call, and no other code is slowed. Keep one recorder while the
    modules stay imported: it remembers what each memoised function reached.

    Parameters:
        source: The library's units.
    """

    def __init__(self, source: LibrarySource) -> None:
        self.source = source
        self.memo_units: dict[str, set[str]] = {}  # memoised unit -> its reach
        instrument(source.package)

    def _memos(self) -> dict[str, _Memo]:
        """The memoised functions that are imported, by unit."""
        found = {}
        for units in self.source.memoised.values():
            for unit in units:
                if (memo := _memo(unit)) is not None:
                    found[unit] = memo
        return found

    @contextmanager
    def recording(self) -> Iterator[set[str]]:
        """Record the units executed inside the ``with`` block into the set given.

        A memo filled while nothing recorded is emptied first. A memo that
        serves a result inside the block brings the units of the run that
        filled it; a memo filled inside the block keeps the block's units.
        Source read through ``linecache`` (as ``inspect.getsource`` does)
        brings every unit of its file.
        """
        drop_uninstrumented(self.source.package)
        for unit, memo in self._memos().items():
            if unit not in self.memo_units:
                memo.cache_clear()
        before = {unit: memo.cache_info() for unit, memo in self._memos().items()}
        reached: set[str] = set()
        getlines = linecache.getlines

        def reading(
            filename: str, module_globals: dict[str, Any] | None = None
        ) -> list[str]:
            units = self.source.units_of_file(_resolved(filename))
            for recording in _RECORDING:  # this one, and a cell's within it
                recording.update(units)
            return getlines(filename, module_globals)

        linecache.getlines = reading
        _RECORDING.append(reached)
        try:
            yield reached
        finally:
            _RECORDING.pop()
            linecache.getlines = getlines
            self._settle_memos(before, reached)

    @contextmanager
    def within(self) -> Iterator[set[str]]:
        """The units one part of a recording reached (one block, one cell).

        They are kept by the recording too. A memo that serves a result inside
        brings the units of the run that filled it, as for a whole recording.
        Outside a recording it records nothing.
        """
        units: set[str] = set()
        if not _RECORDING:
            yield units
            return
        before = {unit: memo.cache_info() for unit, memo in self._memos().items()}
        _RECORDING.append(units)
        try:
            yield units
        finally:
            _RECORDING.pop()
            for unit, memo in self._memos().items():
                old = before.get(unit)
                if memo.cache_info().hits > (old.hits if old else 0):
                    units |= self.memo_units.get(unit, set())
            _RECORDING[-1].update(units)

    def _settle_memos(
        self, before: dict[str, functools._CacheInfo], reached: set[str]
    ) -> None:
        after = {unit: memo.cache_info() for unit, memo in self._memos().items()}
        for unit, info in after.items():
            old = before.get(unit)
            if info.hits > (old.hits if old else 0):
                reached |= self.memo_units.get(unit, set())
        for unit, info in after.items():
            old = before.get(unit)
            if info.misses > (old.misses if old else 0):
                self.memo_units.setdefault(unit, set()).update(reached)


@functools.cache
def _resolved(filename: str) -> str:
    try:
        return str(Path(filename).resolve())
    except (OSError, ValueError):
        return filename


def _memo(unit: str) -> _Memo | None:
    """The ``functools`` cache of a memoised unit, if its module is imported."""
    module_name, function = unit.split(":")
    memo = getattr(sys.modules.get(module_name), function, None)
    return memo if callable(getattr(memo, "cache_info", None)) else None


def clear_memo(unit: str) -> bool:
    """Empty the ``functools`` cache of a memoised unit, if its module is imported.

    Returns:
        Whether a cache was found and emptied.
    """
    memo = _memo(unit)
    if memo is not None:
        memo.cache_clear()
    return memo is not None

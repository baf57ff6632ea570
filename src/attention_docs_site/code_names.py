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

import importlib
import pkgutil
import re
from types import ModuleType

from .blocks import blocks

LIBRARY = "attention_docs"
# An inline code span: a run of backticks, its text, the same run.
_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_DOTTED = re.compile(r"\A[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\Z")
_CALL = re.compile(r"\A([A-Za-z_][\w.]*)\(.*\)\Z", re.S)


class UnknownLibraryName(ValueError):
    """A page names, in code style, a library name that does not exist."""


def library_modules() -> dict[str, ModuleType]:
    """The library's modules by their short name (``pooling``, ``figures``, ...).

    Looked up each time (``sys.modules`` makes it cheap), so that under
    ``mkdocs serve`` a module the library reloads is seen as it is now.
    """
    package = importlib.import_module(LIBRARY)
    modules = {LIBRARY: package}
    for info in pkgutil.walk_packages(package.__path__, f"{LIBRARY}."):
        module = importlib.import_module(info.name)
        modules[info.name.removeprefix(f"{LIBRARY}.")] = module
    return modules


def _where(name: str) -> list[str]:
    """Full names of the library's things called ``name``, for the message."""
    return sorted(
        f"{LIBRARY}.{short}.{name}" if short != LIBRARY else f"{LIBRARY}.{name}"
        for short, module in library_modules().items()
        if name in vars(module)
        # where it is defined, not where it is imported
        and getattr(vars(module)[name], "__module__", module.__name__)
        == module.__name__
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
        module = modules.get(".".join(parts[:cut]))
        if module is not None:
            break
    else:
        if not prefixed:
            return None
        module, cut = modules[LIBRARY], 0
    target: object = module
    for attribute in parts[cut:]:
        if not hasattr(target, attribute):
            return False
        target = getattr(target, attribute)
    return True


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

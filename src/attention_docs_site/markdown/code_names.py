"""The library names a page's prose writes in code style must exist.

A page may name a library function in an inline code span, such as
``scores.gaussian_scores`` or ``train(x_train, y_train)``. A student who
follows it needs it to exist where the page says. Before a page is rendered,
every such name is resolved against the library ``attention_docs``, read from
its source by griffe (what mkdocstrings reads it with for the API page), not
imported:

- a dotted name whose first part is ``attention_docs`` or one of its
  modules (``pooling.x``, ``figures.y``) must resolve to a member, or the
  build fails naming the page, the name and where a thing of that name does
  live;
- a call written as ``name(...)`` must name something one of the library's
  modules defines, and ``module.name(...)`` must resolve as above.

Other spans (variables such as ``x_train``, file names, commands) are left
alone.
"""

from __future__ import annotations

import functools
import hashlib
import re
import time

import griffe

from attention_docs_site.blocks import blocks
from attention_docs_site.execute.fingerprints import library_folder

LIBRARY = "attention_docs"
# An inline code span: a run of backticks, its text, the same run.
_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_DOTTED = re.compile(r"\A[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\Z")
_CALL = re.compile(r"\A([A-Za-z_][\w.]*)\(.*\)\Z", re.S)


class UnknownLibraryName(ValueError):
    """A page names, in code style, a library name that does not exist."""


# A file's time stamp moves in ticks (a few milliseconds here, two seconds on
# some file systems), so two edits within one tick can leave its size and
# stamp unchanged: a file changed this recently is also told apart by its bytes.
_RECENT_NS = 2_000_000_000


def _short(path: str) -> str:
    """``attention_docs.figures.cues`` -> ``figures.cues``; the package itself."""
    return path.removeprefix(f"{LIBRARY}.") if path != LIBRARY else LIBRARY


@functools.lru_cache(maxsize=8)
def _index(
    stamp: tuple[tuple[str, int, int, str | None], ...],
) -> dict[str, griffe.Module]:
    """Every module of the library by short name, for one state of its files."""
    package = griffe.load(
        LIBRARY,
        search_paths=[str(library_folder().parent)],
        resolve_aliases=True,
        resolve_external=False,
    )
    assert isinstance(package, griffe.Module)
    modules: dict[str, griffe.Module] = {}
    pending = [package]
    while pending:
        module = pending.pop()
        modules[_short(module.path)] = module
        pending += [m for m in module.modules.values() if isinstance(m, griffe.Module)]
    return modules


def library_modules() -> dict[str, griffe.Module]:
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


def _described(member: griffe.Object | griffe.Alias) -> tuple[str, ...]:
    """What the checks and API links read of one member: kind and definition."""
    try:
        target = member.final_target if isinstance(member, griffe.Alias) else member
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return (member.name, "elsewhere")
    described: tuple[str, ...] = (member.name, target.kind.value, target.path)
    if isinstance(target, griffe.Class):
        bases = ",".join(str(base) for base in target.bases)
        described += (bases, *sorted(target.members))
    return described


def names_digest() -> str:
    """A digest of the library's names as the pages' checks and API links read them.

    Every module's members, each with its kind and where it is defined, and a
    class's bases and members: the same for an edit inside a function's body,
    different when a name is added, removed, renamed or moved.
    """
    described = sorted(
        (short, *_described(member))
        for short, module in library_modules().items()
        for member in module.members.values()
    )
    return hashlib.sha256(repr(described).encode()).hexdigest()


def _target(short: str, name: str) -> griffe.Object | None:
    """What module ``short`` calls ``name``, followed to its definition.

    None when the module has no such member, or has it from another package.
    """
    module = library_modules().get(short)
    member = module.members.get(name) if module is not None else None
    if member is None:
        return None
    try:
        target = member.final_target if isinstance(member, griffe.Alias) else member
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None  # another package's
    if not target.path.startswith(f"{LIBRARY}."):
        return None
    return target


def definition(short: str, name: str) -> tuple[str, str] | None:
    """Where the library defines what module ``short`` calls ``name``.

    Follows the library's own imports (``from .pooling import x``).

    Returns:
        ``(module, name)`` of the definition, or None when the module has no
        such name, or has it from another package or as a submodule.
    """
    target = _target(short, name)
    if target is None or target.is_module:
        return None
    return _short(target.module.path), target.name


def is_callable(short: str, name: str) -> bool:
    """Whether the name is a function or class the library defines."""
    target = _target(short, name)
    return target is not None and (target.is_function or target.is_class)


def _where(name: str) -> list[str]:
    """Full names of the library's things called ``name``, for the message."""
    return sorted(
        f"{LIBRARY}.{short}.{name}" if short != LIBRARY else f"{LIBRARY}.{name}"
        for short, module in library_modules().items()
        if name in module.members
        and not module.members[name].is_alias  # where defined, not imported
        and not module.members[name].is_module
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
    if attributes[0] not in modules[short].members:
        return False
    if len(attributes) == 1:
        return True
    target = _target(short, attributes[0])
    if not isinstance(target, griffe.Class) or target.bases:
        return None  # another package's, or a class with members griffe may not see
    if attributes[1] not in target.members:
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

"""Reaches into MkDocs and mkdocs-static-i18n: serve rebuilds what a save changed.

MkDocs has a partial build of its own: ``build(config, dirty=True)`` neither
cleans the site folder nor reads, renders or writes a page whose
``File.is_modified()`` is false. ``mkdocs serve --dirty`` uses it, decides a
page by time stamps alone and warns that the navigation may be wrong; the
i18n plugin passes the flag to its editions' builds by reading ``sys.argv``.

The serve stage (:mod:`attention_docs_site.serve`) decides instead, from what
it knows the page depends on, and falls back to the full build where a
partial one could differ. These reaches let it:

- pass ``dirty`` to the builds of plain ``mkdocs serve`` and of the i18n
  plugin's editions (:func:`dirty_builds`);
- drop MkDocs's warning about the dirty build, which ``strict`` would
  count, while the stage vouches for the result (:func:`quiet_dirty_warning`);
- say for each page whether to render it (:func:`render_only`);
- give a page it skips the title and front matter the navigation reads
  (:func:`keep_title`), and render one after all (:func:`render_now`).
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

from attention_docs_site.upstream.guard import declare
from attention_docs_site.upstream.material_search import SEARCH_INDEX

if TYPE_CHECKING:
    from jinja2 import BytecodeCache, Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page
    from mkdocs.theme import Theme

DIRTY_BUILDS = declare(
    "mkdocs: serve's rebuilds are partial",
    "mkdocs",
    "1.6.1",
    "replaces the `build` that mkdocs.commands.serve and mkdocs-static-i18n's "
    "plugin module call, passing dirty=True when the serve stage asks; "
    "filters MkDocs's warning about a dirty build on those builds",
    "a save under serve rendered every page of every edition (#48)",
    "speed",
)
PAGE_SKIP = declare(
    "mkdocs: a page skipped by a partial build",
    "mkdocs",
    "1.6.1",
    "sets File.is_modified on each page's file (the test of _populate_page "
    "and _build_page in a dirty build), gives a skipped page its last title "
    "and front matter (Page.title is a weak_property), and renders a page "
    "with _populate_page when the stage falls back to every page",
    "the navigation of a rendered page shows the titles of the pages it skips",
    "speed",
)
THEME_FILES = declare(
    "mkdocs: the theme's files listed once per serve",
    "mkdocs",
    "1.6.1",
    "wraps the theme's get_env so that the environment's list_templates, "
    "which Files.add_files_from_theme calls to find the theme's static "
    "files, answers a partial build with the list the last full build made",
    "listing and filtering the theme's 10,000 files (Material's icons) was a "
    "third of a partial rebuild; a partial build's theme has not changed",
    "speed",
)
_DIRTY_WARNING = "A 'dirty' build is being performed"


class _Switch:
    """Whether the builds under way are partial (read by the replaced ``build``)."""

    decide: Callable[[], bool | None] | None = None
    partial = False


_SWITCH = _Switch()


def dirty_builds(decide: Callable[[], bool | None]) -> bool:
    """Make serve's builds, and the editions' inside them, partial when ``decide`` says.

    ``decide`` is asked once per serve build, before MkDocs reads anything:
    True for a partial build, False for a full one, None for none at all
    (nothing changed). The editions' builds inside it follow the same
    answer. Idempotent.

    Returns:
        Whether the builds were replaced (False: the speed switch is off).
    """
    if not DIRTY_BUILDS.active:
        return False
    _SWITCH.decide = decide
    import mkdocs.commands.build
    import mkdocs.commands.serve
    import mkdocs_static_i18n.plugin

    original = mkdocs.commands.build.build
    # MkDocs' module under its own name (properdocs.commands.build under
    # ProperDocs, which aliases the mkdocs package): its logger's name.
    logging.getLogger(mkdocs.commands.build.__name__).addFilter(_quiet_dirty_warning)
    for module, outer in (
        (mkdocs.commands.serve, True),
        (mkdocs_static_i18n.plugin, False),
    ):
        current = getattr(module, "build", None)
        if getattr(current, "_attention_docs", False):
            continue  # replaced by an earlier serve in this process
        if DIRTY_BUILDS.require(
            current is original, f"{module.__name__}.build is not MkDocs's build"
        ):
            module.build = _partial_build(original, outer=outer)  # type: ignore[union-attr]
    return True


def _partial_build(
    original: Callable[..., None], *, outer: bool
) -> Callable[..., None]:
    signature = list(inspect.signature(original).parameters)
    DIRTY_BUILDS.require(
        signature == ["config", "serve_url", "dirty"],
        f"mkdocs.commands.build.build takes {signature}",
    )

    def build(
        config: MkDocsConfig, *, serve_url: str | None = None, dirty: bool = False
    ) -> None:
        # The stage decides; serve's --dirty, which i18n reads from sys.argv too,
        # would skip pages by time stamp alone.
        if not outer:
            original(config, serve_url=serve_url, dirty=_SWITCH.partial)
            return
        decision = _SWITCH.decide() if _SWITCH.decide else False
        if decision is None:
            return  # nothing changed: the site is what a build would write
        _SWITCH.partial = decision
        try:
            original(config, serve_url=serve_url, dirty=decision)
        finally:
            _SWITCH.partial = False

    build._attention_docs = True  # type: ignore[attr-defined]
    return build


def _quiet_dirty_warning(record: logging.LogRecord) -> bool:
    """Drop MkDocs's dirty-build warning on a build the serve stage made partial."""
    return not (_SWITCH.partial and str(record.msg).startswith(_DIRTY_WARNING))


def partial() -> bool:
    """Whether the build under way is one the serve stage made partial."""
    return _SWITCH.partial


def partial_allowed() -> bool:
    """Whether serve's rebuilds may be partial: the three reaches they need are on.

    The dirty build, the page skip that makes it partial, and the search
    index's entries, which a partial build must complete: with any of them
    off, a partial build would be wrong, so every rebuild is full.
    """
    return DIRTY_BUILDS.active and PAGE_SKIP.active and SEARCH_INDEX.active


def render_only(file: File, render: bool) -> None:
    """Make a partial build render the page of ``file`` or skip it."""
    if not (PAGE_SKIP.active and _asks_is_modified()):
        return
    file.is_modified = (lambda: True) if render else (lambda: False)  # type: ignore[method-assign]


@functools.cache
def _asks_is_modified() -> bool:
    """Check, once, that a dirty build still asks each page's file."""
    from mkdocs.commands import build

    return all(
        PAGE_SKIP.require(
            "page.file.is_modified()" in inspect.getsource(step),
            f"{step.__name__} no longer asks page.file.is_modified()",
        )
        for step in (build._populate_page, build._build_page)
    )


def keep_title(page: Page, title: str | None, meta: Mapping[str, Any]) -> None:
    """Give a page the partial build skips the title and front matter it had."""
    from mkdocs.structure.pages import Page as MkDocsPage
    from mkdocs.utils import weak_property

    if not PAGE_SKIP.require(
        isinstance(inspect.getattr_static(MkDocsPage, "title"), weak_property),
        "Page.title is no longer a weak_property",
    ):
        return
    page.title = title
    page.meta = dict(meta)


def render_now(page: Page, config: MkDocsConfig, files: Files) -> None:
    """Read and render a page the partial build skipped (its title is its own again)."""
    from mkdocs.commands import build

    if not PAGE_SKIP.require(
        list(inspect.signature(build._populate_page).parameters)
        == ["page", "config", "files", "dirty"],
        "_populate_page no longer takes (page, config, files, dirty)",
    ):
        return
    page.__dict__.pop("title", None)  # keep_title's, over the weak_property
    page.meta = {}
    build._populate_page(page, config, files)


# The theme's templates as the last full build listed them, by loader folders
# and static templates (what the filter of add_files_from_theme reads).
_LISTED: dict[tuple[object, ...], list[str]] = {}


def list_theme_once(theme: Theme, bytecode: BytecodeCache | None = None) -> None:
    """In a partial build, list the theme's files from the last full build's list.

    ``theme`` is the build's ``config.theme``; each environment its
    ``get_env`` makes remembers what ``list_templates`` found in a full
    build, and gives it back in a partial one (whose theme, overrides
    included, did not change: the serve stage builds everything otherwise).
    Each also compiles its templates through ``bytecode``, if given (the
    search plugin's words, the editions' directions are read from templates
    before the pages' environment exists).
    """
    if not THEME_FILES.active or getattr(theme.get_env, "_attention_docs", False):
        return
    from mkdocs.structure.files import Files

    if not THEME_FILES.require(
        "env.list_templates(" in inspect.getsource(Files.add_files_from_theme),
        "add_files_from_theme no longer calls env.list_templates",
    ):
        return
    make = theme.get_env

    def get_env() -> Environment:
        environment = make()
        if bytecode is not None:
            environment.bytecode_cache = bytecode
        listing = environment.list_templates
        folders = getattr(environment.loader, "searchpath", None)
        key = (tuple(folders or ()), tuple(sorted(theme.static_templates)))

        def list_templates(
            extensions: Collection[str] | None = None,
            filter_func: Callable[[str], bool] | None = None,
        ) -> list[str]:
            known = (key, extensions, getattr(filter_func, "__qualname__", None))
            if _SWITCH.partial and known in _LISTED:
                return list(_LISTED[known])
            found = listing(extensions=extensions, filter_func=filter_func)
            _LISTED[known] = list(found)
            return found

        environment.list_templates = list_templates  # type: ignore[method-assign]
        return environment

    get_env._attention_docs = True  # type: ignore[attr-defined]
    theme.get_env = get_env  # type: ignore[method-assign]

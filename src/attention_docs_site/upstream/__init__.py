"""Every reach into a dependency, declared and guarded in one place.

Enters: what a stage hands over to be edited (a built page, the theme's
bundle and palette sheet, a notebook page) or a dependency to patch. Leaves:
the same, changed exactly as declared, or an
:class:`~attention_docs_site.upstream.guard.UpstreamChanged` that names the
reach, the package and the installed version against the one it was written
for. ``README.md`` beside this file lists every reach and the reports for
the fixes that belong upstream; ``python -m attention_docs_site.upstream``
prints the declarations with the installed versions.

- ``guard``: :class:`~.guard.Reach`, the one mechanism, and the two switches
  (speed edits off; the canary's report);
- ``material_page``: edits of the theme's markup in a built page (Material,
  mkdocstrings), each a handler of the page's one walk (``html_walk``);
- ``material_html``: edits of the HTML of Material and MkDocs in the
  template's scripts block, a page's code annotations, the offline copies and
  the security policy;
- ``material_files``: the theme's files an edit or a check reads;
- ``material_bundle`` (with ``stagger.js``): the bundle's staggered start and
  the palette's colour-scheme meta;
- ``mkdocs_jupyter``: its converter replaced, its include check and tables
  of contents quickened, its notebook HTML edited;
- ``mkdocstrings``, ``material_search``: the API entries and the search
  entries served from the render cache (``execute/render_cache.py``);
- ``i18n``: mkdocs-static-i18n's warning and nested builds;
- ``ipython``: the shell's traceback printer; ``watchdog``: the poll interval;
- ``latex2mathml``: ordinary symbols as ``<mi>``, a row's leading operator's
  prefix form written out (the Markdown stage's MathML);
- ``registry``: every module above imported, so that the registry is whole.
"""

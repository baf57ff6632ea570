"""attention_docs_site: the MkDocs plugin that builds the attention_docs site.

The teaching library is :mod:`attention_docs`; this package only builds the
site from it (it imports the library, never the reverse). The plugin class is
:class:`attention_docs_site.plugin.AttentionDocsPlugin`, registered as
``attention_docs`` through the ``mkdocs.plugins`` entry point. Its folders are
the build's stages, in the order a page meets them; each opens with what
enters it and what leaves it:

- ``plugin``: MkDocs's events only, each handing over to a stage;
- ``options``, ``editions``, ``layout``, ``blocks``, ``wheel``, ``html_walk``,
  ``zips``: what every stage shares (the plugin's options, the editions and
  their words from ``catalogs/``, the built site's file names, the one parser
  of fenced code blocks, the one walk over a page's tags that edits it, the
  reproducible zips);
- ``markdown``: a page's Markdown (library names checked, API links);
- ``execute``: code blocks and notebooks run behind the execution cache, and
  the render caches of what the theme and plugins repeat;
- ``page``: a page's HTML (notices, math, notebook pages and downloads);
- ``site``: the whole built site once every edition is built (search per
  edition, wheel, zips, offline copies, security policy, math font, links),
  with ``site/book`` for each edition's PDF;
- ``serve``: under ``mkdocs serve``, which pages a save re-renders and what
  the others keep, so that a rebuild writes what a full build would;
- ``translations``: status, parity, scaffolding and the terminology check
  (``python -m attention_docs_site.translations``);
- ``upstream``: every reach into a dependency (a replaced function, an edit
  of its HTML, CSS or JavaScript), declared and guarded in one place.
"""

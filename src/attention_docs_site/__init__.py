"""attention_docs_site: the MkDocs plugin that builds the attention_docs site.

The teaching library is :mod:`attention_docs`; this package only builds the
site from it (it imports the library, never the reverse). The plugin class is
:class:`attention_docs_site.plugin.AttentionDocsPlugin`, registered as
``attention_docs`` through the ``mkdocs.plugins`` entry point. Each module
holds one concern:

- ``plugin``: the plugin, its options and its per-build state;
- ``editions``: the editions (``mkdocs.yml``'s i18n languages) and each one's
  interface words (``catalogs/<lang>.yml``);
- ``exec_cache``: the execution cache; ``fence``: the ``python`` code fence;
  ``blocks``: the one parser of fenced code blocks; ``library_source`` and
  ``library_reach``: the library's units, and which ones a block ran;
  ``render_cache``: the theme's and plugins' renderings (compiled templates,
  API entries, search entries) kept between editions and builds;
- ``notebook_run``: notebooks executed in-process; ``notebook_files``: the
  cached notebook converter and the ``.ipynb`` downloads; ``notebook_pages``:
  notebook page HTML; ``notebook_setup``: the downloads' setup cell;
  ``wheel``: the library's wheel, published with the site;
- ``mathml``, ``html_polish``, ``api_links``, ``code_names``, ``page_meta``,
  ``logo``: what each page gets;
- ``site_finish``: once every edition is built, the site-wide files:
  ``theme_css`` (the theme's palette sheet without a rule that restyles
  every element), ``theme_js`` (the theme's bundle, each component mounted
  in a task of its own), ``math_font`` (the math font cut to the formulas'
  characters), ``csp``
  (each page's Content-Security-Policy), ``search_split`` (a search index
  per edition), ``offline`` (offline
  copies), ``book`` and ``pdf`` (a PDF per edition, printed by ``chromium``,
  its Chinese text repaired by ``tounicode``) and ``links`` (the link check,
  also ``python -m attention_docs_site.site.links``);
- ``static_server``: a quiet local HTTP server for built sites;
- ``translations``: front matter, provenance, parity and status of every
  translated edition (``python -m attention_docs_site.translations``);
  ``terminology``: a translated glossary's check.
"""

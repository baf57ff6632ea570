"""attention_docs_site: the MkDocs plugin that builds the attention_docs site.

The teaching library is :mod:`attention_docs`; this package only builds the
site from it (it imports the library, never the reverse). The plugin class is
:class:`attention_docs_site.plugin.AttentionDocsPlugin`, registered as
``attention_docs`` through the ``mkdocs.plugins`` entry point. Each module
holds one concern:

- ``plugin``: the plugin, its options and its per-build state;
- ``exec_cache``: the execution cache; ``fence``: the ``python`` code fence;
- ``notebook_run``: notebooks executed in-process; ``notebook_files``: the
  cached notebook converter and the ``.ipynb`` downloads; ``notebook_pages``:
  notebook page HTML;
- ``mathml``, ``html_polish``, ``api_links``, ``page_meta``, ``logo``;
- ``links``: the link check (also ``python -m attention_docs_site.links``);
- ``translations``: front matter, provenance, parity and status of the Chinese
  pages (``python -m attention_docs_site.translations``); ``terminology``: the
  glossary check.
"""

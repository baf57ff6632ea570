"""The execution stage: code blocks and notebooks, run behind the caches.

Enters: a page's ``python`` fences (through markdown-exec, as Python-Markdown
renders the page) and each exercise notebook (through mkdocs-jupyter's
converter). Leaves: their output, HTML and executed ``.ipynb``, served from
the execution cache while nothing they depend on changed.

- ``setup``: one build's cache, fence and converter, and the cache report;
- ``cache``: the execution cache (keys, entries, checksums);
  ``fingerprints``: what its keys hold besides the code (the library's
  files, the packages' versions, the configuration made stable);
- ``fence``: the ``python`` fence, markdown-exec behind the cache;
  ``sessions``: what each block of a session reads and binds, and which
  earlier blocks to run again before it; ``effects``: what a block may
  leave behind besides its names (imports, state outside the session);
- ``notebooks``: the notebooks' cached converter, downloads and zips;
  ``notebook_run``: notebooks run in this process, outputs as Jupyter's;
- ``library_source``, ``library_reach``: the library cut into units, and
  which units a block or notebook ran (what invalidates an entry);
- ``render_cache``: what the theme and plugins repeat (compiled templates,
  API entries, search entries, notebook tables of contents), through the
  reaches of ``upstream/``; ``render_keys``: what those entries are keyed on.
"""

"""The site stage: what is made from the whole built site, once per build.

Enters: the built ``site/`` folder, once every edition is built (``finish``
is called by the plugin's last ``on_post_build``). Leaves: the site-wide
files, and a failed build if a link or anchor is broken.

- ``finish``: the steps, in order;
- ``logo``: the logo and favicon (the library's wheel, shared, is written too);
- ``counts``: the numbers the home page states about the built site;
- ``search_split``: one search index per edition;
- ``math_font``: the math font cut to the formulas' characters;
- ``csp``: each page's Content-Security-Policy;
- ``offline``: each edition's offline copy (a zip that works from ``file:``),
  with ``vendor/`` (the worker shim);
- ``links``: the check of every internal link and anchor;
- ``book``: each edition's book and its PDF.
"""

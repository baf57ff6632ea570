"""The page stage: a page's HTML, from what the Markdown made to the file written.

Enters: a page's body as Python-Markdown or mkdocs-jupyter rendered it
(``on_page_content``), then the whole page from the theme's templates
(``on_post_page``). Leaves: the page as written to ``site/``, and a notebook
page's ``.ipynb`` download beside it.

- ``content``: the two steps, in order;
- ``mathml``: notebooks' ``$...$`` as MathML (Markdown pages' math is
  typeset in Markdown, ``markdown/mathml.py``);
- ``meta``: translation notices, descriptions, the edition's data and
  downloads;
- ``notebook_pages``: notebook pages slimmed, their headings as on other
  pages; ``notebook_setup``: the downloads' setup cell and the "Run it
  yourself" box;
- ``polish``: the page as written, in one walk over its tags
  (``html_walk``): the head, the theme's markup (``upstream/material_page``)
  and blank lines.
"""

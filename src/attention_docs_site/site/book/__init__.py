"""Each edition's book: its chapters as one HTML page, printed to a PDF.

Enters: the built site and the nav of each edition. Leaves:
``pdf/attention_docs-<lang>.pdf``, reproducible for a ``SOURCE_DATE_EPOCH``.

- ``html`` (with ``book.css``): the book's page (title page, contents, chapters);
- ``pdf``: printed twice by Chromium for the page numbers
  (``write_pdfs``), its outline, the bookmarks, titled as the headings
  (``retitle_outline``), its node ids renumbered;
- ``tounicode``: repairs the Chinese text maps of the PDF (CJK radicals);
- ``chromium``: Debian's Chromium, its path and launch;
- ``static_server``: a quiet local HTTP server for built sites.
"""

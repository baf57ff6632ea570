"""Translation status, provenance and parity checks for the docs, with a command line.

Every translated page ``page.<lang>.md`` (``page.zh.md``) records in its
front matter which version of its English source ``page.md`` it translates::

    translation:
      source: page.md
      source_hash: 1f2e3d4c5b6a7988        # hash of the English text
      sections:                            # one short hash per English section
        "": 0a1b2c3d
        "A data set to regress": 4e5f6a7b

For exercise notebooks (jupytext Markdown) the same mapping lives under
``jupyter: attention_docs_translation:`` so that it becomes notebook metadata.
The hash ignores the English front matter and all differences in white space,
so re-wrapping a paragraph does not make a translation outdated.

Modules: ``pages`` (front matter, sections, hashes, provenance, paths),
``parity``, ``status``, ``scaffold`` (new translations and marking them done)
and ``cli``. Run ``python -m attention_docs_site.translations --help`` for the
commands.
"""

from attention_docs_site.translations.cli import main
from attention_docs_site.translations.pages import (
    TranslationError,
    english_pages,
    english_path,
    is_notebook_front,
    provenance,
    provenance_record,
    read_provenance,
    section_hashes,
    sections,
    source_hash,
    split_front_matter,
    translation_lang,
    translation_path,
    write_provenance,
)
from attention_docs_site.translations.parity import Violation, parity
from attention_docs_site.translations.scaffold import TODO, mark, scaffold
from attention_docs_site.translations.status import (
    PageStatus,
    orphans,
    page_status,
    status,
)

__all__ = [
    "TODO",
    "PageStatus",
    "TranslationError",
    "Violation",
    "english_pages",
    "english_path",
    "is_notebook_front",
    "main",
    "mark",
    "orphans",
    "page_status",
    "parity",
    "provenance",
    "provenance_record",
    "read_provenance",
    "scaffold",
    "section_hashes",
    "sections",
    "source_hash",
    "split_front_matter",
    "status",
    "translation_lang",
    "translation_path",
    "write_provenance",
]

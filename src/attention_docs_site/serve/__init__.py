"""The serve stage: under ``mkdocs serve``, a save re-renders what it changed.

Enters: each build's configuration, its files and pages, the execution
cache's record of the library code each page's blocks reached. Leaves: for a
rebuild, a decision per page (render it, or keep last build's output) and what
the pages it keeps still give the site (titles for the navigation, search
entries). :mod:`.partial` holds the rules, :mod:`.stamps` says which files
changed, and
:mod:`..upstream.mkdocs_dirty` holds the reaches into MkDocs that carry them out.
"""

from attention_docs_site.serve.partial import PartialBuilds

__all__ = ["PartialBuilds"]

"""The theme's files that an edit or a check reads, found by name pattern."""

from __future__ import annotations

from pathlib import Path

from attention_docs_site.upstream.guard import Reach


def theme_file(reach: Reach, theme_dirs: list[str], pattern: str, what: str) -> Path:
    """The theme's one file that matches a pattern, from the first folder that has it.

    Raises:
        UpstreamChanged: Naming ``reach``: no folder has such a file, or the
            first has several.
    """
    for folder in theme_dirs:
        found = sorted(Path(folder).glob(pattern))
        if len(found) > 1:
            raise reach.changed(f"the theme has {len(found)} {what}s")
        if found:
            return found[0]
    raise reach.changed(f"the theme has no {what} ({pattern}) in {theme_dirs}")

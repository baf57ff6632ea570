"""Edits to the theme's style sheets, each of which applies or fails the build.

Material's palette sets ``data-md-color-switching`` on the body as the page
starts, then takes it away a task later, and its style sheet stops
transitions under that attribute with ``[data-md-color-switching] *``. A
rule of that shape makes each change of the attribute restyle every element
of the page: on a long chapter, three whole restyles of some 2,000 elements
as the bundle starts (measured with Chromium's traces), though no colour
changes. The site drops the rule from the built copy of the style sheet and
stops transitions under its own attribute, which the page's head script sets
only while the palette really switches (``overrides/main.html``,
``assets/site.css``).
"""

from __future__ import annotations

import re
from pathlib import Path

from attention_docs_site.upstream.guard import Reach, declare

SWITCHING = declare(
    "material: palette's switching rule",
    "mkdocs-material",
    "9.8.2",
    "blanks [data-md-color-switching] *{transition-duration:0s} in the site's "
    "copy of the palette sheet (site.css stops transitions its own way)",
    "each change of that attribute restyled every element of the page (#31)",
    "speed",
)
PALETTE_SHEETS = "assets/stylesheets/palette.*.min.css"
# The rule, however the minifier spaces it or orders its selectors.
SWITCHING_RULE = re.compile(
    r"(?:\[data-md-color-switching\]\s*(?:\*|::?after|::?before)\s*,?\s*){3}"
    r"\{\s*transition-duration\s*:\s*0s\s*!\s*important\s*;?\s*\}"
)


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


def drop_palette_switching_rule(site: Path, theme_dirs: list[str]) -> Path | None:
    """Write the site's palette style sheet without the theme's switching rule.

    The text comes from the theme's own file each time, so a build that did
    not copy the sheet again (``mkdocs build --dirty``) edits it all the same.

    Parameters:
        site: The built site.
        theme_dirs: The theme's folders, first match wins (``config.theme.dirs``).

    Returns:
        The site's style sheet, as written, or None when the edit is off
        (the speed switch).

    Raises:
        UpstreamChanged: The theme's sheet lacks the rule, or has it more than
            once.
    """
    if not SWITCHING.active:
        return None  # MkDocs copied the theme's sheet as it is
    sheet = "palette style sheet"
    source = theme_file(SWITCHING, theme_dirs, PALETTE_SHEETS, sheet)
    text = source.read_text("utf-8")
    target = site / source.relative_to(source.parents[2])
    # Blanked, not cut: the sheet's source map keeps pointing at its rules.
    edited = SWITCHING.edit(SWITCHING_RULE, lambda m: " " * len(m[0]), text, count=1)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(edited, encoding="utf-8")
    return target

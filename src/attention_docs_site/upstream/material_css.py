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

from pathlib import Path

from attention_docs_site.page.polish import ThemeMarkupChanged

PALETTE_SHEETS = "assets/stylesheets/palette.*.min.css"
SWITCHING_RULE = (
    "[data-md-color-switching] *,[data-md-color-switching] :after,"
    "[data-md-color-switching] :before{transition-duration:0s!important}"
)


def theme_file(theme_dirs: list[str], pattern: str, what: str) -> Path:
    """The theme's one file that matches a pattern, from the first folder that has it.

    Raises:
        ThemeMarkupChanged: No folder has such a file, or the first has several.
    """
    for folder in theme_dirs:
        found = sorted(Path(folder).glob(pattern))
        if found:
            if len(found) > 1:
                raise ThemeMarkupChanged(f"the theme has {len(found)} {what}s")
            return found[0]
    raise ThemeMarkupChanged(f"the theme has no {what} ({pattern}) in {theme_dirs}")


def drop_palette_switching_rule(site: Path, theme_dirs: list[str]) -> Path:
    """Write the site's palette style sheet without the theme's switching rule.

    The text comes from the theme's own file each time, so a build that did
    not copy the sheet again (``mkdocs build --dirty``) edits it all the same.

    Parameters:
        site: The built site.
        theme_dirs: The theme's folders, first match wins (``config.theme.dirs``).

    Returns:
        The site's style sheet, as written.

    Raises:
        ThemeMarkupChanged: The theme's sheet lacks the rule, or has it more than
            once: an upgrade changed it (requirements/constraints.txt pins the
            version this edit was written for).
    """
    source = theme_file(theme_dirs, PALETTE_SHEETS, "palette style sheet")
    text = source.read_text("utf-8")
    if text.count(SWITCHING_RULE) != 1:
        raise ThemeMarkupChanged(
            f"the palette's switching rule: {source.name} has "
            f"{text.count(SWITCHING_RULE)} copies of {SWITCHING_RULE!r}, not one; "
            "a theme upgrade changed it (requirements/constraints.txt pins the "
            "version this edit was written for)"
        )
    target = site / source.relative_to(source.parents[2])
    # Blanked, not cut: the sheet's source map keeps pointing at its rules.
    blank = " " * len(SWITCHING_RULE)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace(SWITCHING_RULE, blank), encoding="utf-8")
    return target

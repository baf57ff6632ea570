"""The site's logo, favicon and social-preview image, drawn by the library."""

from __future__ import annotations

from pathlib import Path


def write_logos(site_dir: Path, logo: str, favicon: str, site_name: str) -> None:
    """Draw the logo, favicon and social-preview image into the site.

    They come from :func:`attention_docs.diagrams.logo`, like every other
    picture on the site, not from an image file.

    Parameters:
        site_dir: The built site's folder.
        logo: The logo's path in the site (the theme's ``logo``).
        favicon: The favicon's path in the site (the theme's ``favicon``).
        site_name: The images' text alternative.
    """
    from attention_docs import diagrams, svg

    drawings = {
        logo: diagrams.logo(),
        favicon: diagrams.logo(ink="#ffffff", background="#3f51b5"),
    }
    # Files, shown by <img> on the header (indigo in both schemes): the page's
    # colours cannot reach them, and they need none. Figures in pages follow
    # the scheme.
    for name, figure in drawings.items():
        path = site_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg.figure_to_svg(figure, alt=site_name, themed=False), "utf-8")
    # Social networks want a bitmap for link previews (og:image).
    social = diagrams.logo(ink="#ffffff", background="#3f51b5")
    social.savefig(
        site_dir / "assets" / "social.png",
        dpi=512 / social.get_figwidth(),
        metadata={"Software": None},
    )

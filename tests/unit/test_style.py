"""Figure colours that follow the page's scheme (attention_docs.style)."""

import re

import numpy as np
import pytest

from attention_docs.style import DATA_COLOURS, PALETTE, themed_colour

WHITE, BLACK = (255, 255, 255), (0, 0, 0)
# The dark scheme's values in docs/assets/site.css: ink, and Material's slate
# background, hsl(225deg 15% 14%).
SLATE_INK, SLATE = (0xE2, 0xE4, 0xE9), (30, 33, 41)


def rgb(colour):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def resolve(value, variables):
    """Evaluate a themed value the way CSS does, written apart from style.py.

    ``var(--name,fallback)`` takes the variable if it is given, else the
    fallback; ``color-mix(in srgb,A p%,B)`` is p of A and 1 - p of B.
    """

    def variable(match):
        name, fallback = match[1], match[2]
        if name not in variables:
            return fallback
        return "#" + "".join(f"{c:02x}" for c in variables[name])

    value = re.sub(r"var\((--[\w-]+),(#[0-9a-f]{3,6})\)", variable, value)
    value = re.sub(r"#([0-9a-f])([0-9a-f])([0-9a-f])\b", r"#\1\1\2\2\3\3", value)
    if value.startswith("#"):
        return np.array(rgb(value), dtype=float)
    mix = re.fullmatch(r"color-mix\(in srgb,(#\w{6}) ([\d.]+)%,(#\w{6})\)", value)
    assert mix, value
    share = float(mix[2]) / 100
    return share * np.array(rgb(mix[1])) + (1 - share) * np.array(rgb(mix[3]))


def luminance(channels):
    c = np.asarray(channels, dtype=float) / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


GREYS = [f"#{v:02x}{v:02x}{v:02x}" for v in range(256)]
TINTS = ["#fde2c8", "#d6e6f5", "#f9d2d3", "#e2f0d9", "#fff5cc", "#e8e0ff"]


@pytest.mark.parametrize("colour", [*GREYS, *TINTS, *DATA_COLOURS])
def test_without_the_pages_variables_a_colour_is_drawn_as_it_was(colour):
    """In a notebook, or in the light scheme (ink #000 on #fff), nothing changes."""
    for variables in ({}, {"--ad-fg": BLACK, "--ad-bg": WHITE}):
        drawn = resolve(themed_colour(colour), variables)
        assert np.abs(drawn - rgb(colour)).max() <= 0.5 + 1e-9, (colour, drawn)


@pytest.mark.parametrize("tint", TINTS)
def test_a_tint_stays_a_tint_behind_text_in_the_dark_scheme(tint):
    dark = {"--ad-fg": SLATE_INK, "--ad-bg": SLATE}
    drawn = resolve(themed_colour(tint), dark)
    assert contrast(SLATE_INK, drawn) >= 7  # the ink on it
    assert luminance(drawn) < 0.1  # a dark box, not a light one
    light = resolve(themed_colour(tint), {"--ad-fg": BLACK, "--ad-bg": WHITE})
    assert contrast(BLACK, light) >= 7


def test_greys_run_from_ink_to_paper_in_both_schemes():
    dark = {"--ad-fg": SLATE_INK, "--ad-bg": SLATE}
    assert tuple(resolve(themed_colour("#000000"), dark)) == SLATE_INK
    assert tuple(resolve(themed_colour("#ffffff"), dark)) == SLATE
    shades = [luminance(resolve(themed_colour(g), dark)) for g in GREYS]
    assert shades == sorted(shades, reverse=True)  # darker in light: lighter here


def test_data_colours_are_the_scheme_variables_and_readable_on_white():
    assert list(PALETTE) == list(DATA_COLOURS)
    for i, colour in enumerate(DATA_COLOURS):
        assert themed_colour(colour) == f"var(--ad-c{i},{colour})"
        assert contrast(rgb(colour), WHITE) >= 3, colour


@pytest.mark.parametrize("colour", ["#1f77b4", "#ff7f0e", "#99aabb", "#3f51b5"])
def test_a_colour_that_would_not_change_with_the_scheme_is_refused(colour):
    with pytest.raises(ValueError, match=f"figure colour {colour} would look the same"):
        themed_colour(colour)


@pytest.mark.parametrize("colour", ["red", "#fff", "#12345", None, "#1234567"])
def test_not_a_hex_colour(colour):
    with pytest.raises(ValueError, match="expected a #rrggbb colour"):
        themed_colour(colour)


def test_not_strict_keeps_a_colour_it_cannot_theme():
    assert themed_colour("#1f77b4", strict=False) == "#1f77b4"
    assert themed_colour("#000000", strict=False) == themed_colour("#000000")

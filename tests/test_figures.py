import base64
import io
import re

import matplotlib.image
import numpy as np
import pytest

from attention_docs import figures


def embedded_images(svg):
    """Decode every PNG embedded in an SVG into an RGBA array."""
    return [
        matplotlib.image.imread(io.BytesIO(base64.b64decode(data)), format="png")
        for data in re.findall(r'href="data:image/png;base64,([^"]+)"', svg)
    ]


@pytest.mark.parametrize("size", [3, 10])
def test_identity_heatmap_draws_the_identity(size):
    svg = figures.identity_heatmap("en", size=size)
    heatmap = embedded_images(svg)[0]
    assert heatmap.shape[:2] == (size, size)  # stored at native resolution
    dark = heatmap[..., :3].sum(axis=2) < 1.5  # the colour of weight 1 is dark red
    np.testing.assert_array_equal(dark, np.eye(size, dtype=bool))


def test_identity_heatmap_labels_per_language():
    en, zh = figures.identity_heatmap("en"), figures.identity_heatmap("zh")
    assert ">Keys</text>" in en and ">Queries</text>" in en
    assert ">键</text>" in zh and ">查询</text>" in zh
    assert "<title>Heatmap" in en and "<title>10×10 注意力权重矩阵" in zh


def test_identity_heatmap_is_deterministic():
    assert figures.identity_heatmap("zh") == figures.identity_heatmap("zh")


def test_identity_heatmap_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        figures.identity_heatmap("fr")

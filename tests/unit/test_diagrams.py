import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from attention_docs import diagrams

NAMES = {name: name.upper() for name in diagrams.SCENE_OBJECTS}


def gaze_end(fig):
    (arrow,) = [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]
    return arrow._posA_posB[1]  # the head, in data coordinates


@pytest.mark.parametrize("focus", diagrams.SCENE_OBJECTS)
def test_gaze_arrow_ends_under_the_focused_object(focus):
    fig = diagrams.attention_cue_scene(focus, names=NAMES, caption="cue")
    x, y = gaze_end(fig)
    centres = diagrams._CENTERS
    nearest = min(centres, key=lambda name: abs(centres[name] - x))
    assert nearest == focus
    assert y < diagrams._OBJECT_BOTTOM  # it points at the object from below


def test_scene_has_five_labelled_objects_and_only_the_cup_is_red():
    fig = diagrams.attention_cue_scene("cup", names=NAMES, caption="the cue")
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert {name.upper() for name in diagrams.SCENE_OBJECTS} | {"the cue"} <= texts
    objects = [p for p in fig.axes[0].patches if not isinstance(p, FancyArrowPatch)]
    red = [p for p in objects if to_hex(p.get_facecolor()) == diagrams.CUP_RED]
    assert len(red) == 1 and red[0].get_gid() == "cup-body"
    xs = red[0].get_xy()[:, 0]
    x_centre = (xs.min() + xs.max()) / 2
    assert x_centre == pytest.approx(diagrams._CENTERS["cup"])


def test_scene_bad_input():
    with pytest.raises(ValueError, match="focus"):
        diagrams.attention_cue_scene("lamp", names=NAMES, caption="c")
    with pytest.raises(ValueError, match="missing"):
        diagrams.attention_cue_scene("cup", names={"cup": "c"}, caption="c")


def test_qkv_framework_has_paired_keys_and_values_and_all_text():
    text = {name: name.upper() for name in diagrams.QKV_TEXT}
    fig = diagrams.qkv_framework(text=text)
    boxes = [p for p in fig.axes[0].patches if isinstance(p, FancyBboxPatch)]
    assert len(boxes) == 9  # 3 keys, 3 values, query, pooling, output
    texts = [t.get_text() for t in fig.axes[0].texts]
    for row in (1, 2, 3):
        assert f"KEY {row}" in texts and f"VALUE {row}" in texts
    for name in ("KEYS", "VALUES", "QUERY", "POOLING", "OUTPUT", "WEIGHTS"):
        assert name in texts


def test_qkv_framework_missing_text():
    with pytest.raises(ValueError, match="missing"):
        diagrams.qkv_framework(text={"key": "k"})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_qkv_framework_text_does_not_overlap(lang):
    # The "(nonvolitional cues)" and "(sensory inputs)" captions ran together.
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from attention_docs import figures

    assert set(figures.QKV_LABELS) == set(diagrams.QKV_TEXT)
    fig = diagrams.qkv_framework(text=figures.qkv_text(lang), lang=lang)
    renderer = FigureCanvasAgg(fig).get_renderer()
    boxes = [t.get_window_extent(renderer) for t in fig.axes[0].texts]
    figure_box = fig.bbox
    for i, box in enumerate(boxes):
        assert figure_box.contains(box.x0, box.y0) and figure_box.contains(
            box.x1, box.y1
        ), fig.axes[0].texts[i].get_text()
        for j in range(i):
            assert not box.overlaps(boxes[j]), (
                fig.axes[0].texts[i].get_text(),
                fig.axes[0].texts[j].get_text(),
            )

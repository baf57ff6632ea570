"""The explorable figures' data: references against slow loops, and the HTML."""

import html
import json
import math
import pickle
import re
import typing
from decimal import Decimal

import numpy as np
import pytest
from helpers import LANGS, ROOT

from attention_docs import figures
from attention_docs.data import true_function
from attention_docs.explorable import Explorable, data_json
from attention_docs.figures import explorables
from attention_docs.scores import lookup_scores, soft_lookup, tempered_softmax
from attention_docs.svg import Drawing

EXPLORERS = {
    "nadaraya-watson": figures.nadaraya_watson_explorer,
    "soft-lookup": figures.soft_lookup_explorer,
    "gradient-descent": figures.gradient_descent_explorer,
    "saturation": figures.saturation_explorer,
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def kernel_weight(kernel, u):
    """K(u) written out from the chapter's formulas, one number at a time."""
    inside = abs(u) <= 1
    return {
        "gaussian": math.exp(-u * u / 2) / math.sqrt(2 * math.pi),
        "boxcar": 1.0 if inside else 0.0,
        "epanechnikov": 0.75 * (1 - u * u) if inside else 0.0,
    }[kernel]


def loop_nadaraya_watson(keys, values, query, kernel, h):
    """Weights K/ΣK and their average, or the nearest key when no key is reached."""
    raw = [kernel_weight(kernel, (query - key) / h) for key in keys]
    if sum(raw) == 0:
        nearest = min(abs(query - key) for key in keys)
        raw = [float(abs(query - key) == nearest) for key in keys]
    weights = [r / sum(raw) for r in raw]
    return weights, sum(w * v for w, v in zip(weights, values, strict=True))


@pytest.fixture(scope="module")
def data():
    """Each figure's data, with the references the page does not carry."""
    made = {kind: explorer("en") for kind, explorer in EXPLORERS.items()}
    return {
        kind: {**made.data, "references": made.references}
        for kind, made in made.items()
    }


def test_nadaraya_watson_references_match_a_loop(data):
    nw = data["nadaraya-watson"]
    assert len(nw["references"]) == len(explorables.NW_REFERENCES) + 1
    for reference in nw["references"]:
        setting = (reference["kernel"], reference["bandwidth"])
        weights, prediction = loop_nadaraya_watson(
            nw["keys"], nw["values"], reference["query"], *setting
        )
        np.testing.assert_allclose(reference["weights"], weights, rtol=0, atol=1e-12)
        assert reference["prediction"] == pytest.approx(prediction, abs=1e-12)
        curve = [
            loop_nadaraya_watson(nw["keys"], nw["values"], x, *setting)[1]
            for x in nw["grid"]
        ]
        np.testing.assert_allclose(reference["curve"], curve, rtol=0, atol=1e-12)


def test_one_reference_sits_in_a_gap_that_no_key_reaches(data):
    nw = data["nadaraya-watson"]
    gap = nw["references"][-1]
    keys = np.asarray(nw["keys"])
    distances = np.abs(keys - gap["query"])
    assert gap["kernel"] == "boxcar" and distances.min() > gap["bandwidth"]
    assert gap["prediction"] == nw["values"][int(distances.argmin())]
    earlier = [q for q in nw["grid"] if q < gap["query"]]
    assert all(np.abs(keys - q).min() <= gap["bandwidth"] for q in earlier)


def test_slider_positions_are_the_decimals_a_browser_writes():
    for low, high, step in (
        explorables.NW_QUERIES,
        explorables.NW_BANDWIDTHS,
        explorables.LOOKUP_QUERIES,
    ):
        positions = explorables.slider_positions(low, high, step)
        assert positions[0] == low and positions[-1] == high
        for k, position in enumerate(positions):
            decimal = Decimal(str(low)) + k * Decimal(str(step))
            assert position == float(decimal), (k, position, decimal)


def loop_lookup(query, score, temperature):
    keys, values = explorables.LOOKUP_KEYS, explorables.LOOKUP_VALUES
    dots = [query[0] * k[0] + query[1] * k[1] for k in keys]
    scores = {
        "dot_product": dots,
        "scaled_dot_product": [d / math.sqrt(2) for d in dots],
        "negative_squared_distance": [
            -((query[0] - k[0]) ** 2 + (query[1] - k[1]) ** 2) / 2 for k in keys
        ],
    }[score]
    if temperature == 0:
        raw = [float(s == max(scores)) for s in scores]
    elif math.isinf(temperature):
        raw = [1.0] * len(scores)
    else:
        raw = [math.exp((s - max(scores)) / temperature) for s in scores]
    weights = [r / sum(raw) for r in raw]
    return weights, sum(w * v for w, v in zip(weights, values, strict=True))


def test_soft_lookup_references_match_a_loop_and_reach_both_limits(data):
    lookup = data["soft-lookup"]
    ends = {}
    for reference in lookup["references"]:
        t = explorables.lookup_temperature(reference["step"])
        weights, output = loop_lookup(reference["query"], reference["score"], t)
        np.testing.assert_allclose(reference["weights"], weights, rtol=0, atol=1e-12)
        assert reference["output"] == pytest.approx(output, abs=1e-12)
        ends.setdefault(t, []).append(reference["weights"])
    assert {0.0, math.inf} <= set(ends)
    for weights in ends[0.0]:  # the lookup: one key takes everything
        assert sorted(weights)[-1] == 1 and sorted(weights)[-2] == 0
    for weights in ends[math.inf]:  # the average
        assert list(weights) == [0.2] * 5


def test_the_slider_ends_are_the_limits_of_the_temperature():
    steps = explorables.LOOKUP_STEPS
    assert explorables.lookup_temperature(-steps - 1) == 0
    assert explorables.lookup_temperature(steps + 1) == math.inf
    assert explorables.lookup_temperature(0) == 1
    scores = lookup_scores([(1.0, 0.5)], explorables.LOOKUP_KEYS, "dot_product")
    sharpest = tempered_softmax(scores, explorables.lookup_temperature(-steps))
    flattest = tempered_softmax(scores, explorables.lookup_temperature(steps))
    np.testing.assert_allclose(sharpest, tempered_softmax(scores, 0), atol=1e-9)
    np.testing.assert_allclose(flattest, tempered_softmax(scores, np.inf), atol=0.02)
    with pytest.raises(ValueError, match="step must be in"):
        explorables.lookup_temperature(steps + 2)


def test_gradient_descent_references_are_the_trained_models_fits(data):
    gd = data["gradient-descent"]
    for reference in gd["references"]:
        recipe = explorables.GD_RECIPES[reference["run"]]
        w = figures.trained(**recipe).ws[reference["step"]]
        assert gd["runs"][reference["run"]]["w"][reference["step"]] == w
        assert reference["bandwidth"] == 1 / abs(w)
        fit = [
            loop_nadaraya_watson(gd["keys"], gd["values"], x, "gaussian", 1 / abs(w))[1]
            for x in gd["grid"]
        ]
        np.testing.assert_allclose(reference["fit"], fit, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(gd["truth"], true_function(np.asarray(gd["grid"])))
    assert gd["cv_grid"] == figures.CV_GRID
    np.testing.assert_array_equal(figures.cv_curve()[0], np.geomspace(*gd["cv_grid"]))


def test_saturation_references_match_torch_s_softmax_and_its_jacobian(data):
    import torch

    sat = data["saturation"]
    for reference in sat["references"]:
        d = reference["d"]
        scores = torch.tensor(sat["scores"][sat["dimensions"].index(d)])
        c = 2 ** (reference["step"] / 2)
        scale = (1 / math.sqrt(d) if reference["scaled"] else 1.0) * c
        weights = torch.softmax(scores * scale, dim=0)
        jacobian = (
            torch.autograd.functional.jacobian(
                lambda s, scale=scale: torch.softmax(s * scale, dim=0), scores
            )
            / scale
        )  # (n_keys, n_keys): d alpha / d (scaled score)
        np.testing.assert_allclose(reference["weights"], weights, rtol=0, atol=1e-12)
        assert reference["top"] == pytest.approx(float(weights.max()), abs=1e-12)
        assert reference["jacobian"] == pytest.approx(
            float(torch.linalg.norm(jacobian)), abs=1e-9
        )


def test_the_saturation_query_is_the_library_s_draw_and_c_sqrt_d_undoes_the_scale(
    data,
):
    sat = data["saturation"]
    rng = np.random.default_rng(explorables.SAT_SEED)
    query = rng.standard_normal((1, 1024))[0]  # one draw, followed through d
    keys = rng.standard_normal((explorables.SAT_KEYS, 1024))
    for d, scores in zip(sat["dimensions"], sat["scores"], strict=True):
        products = [sum(k[i] * query[i] for i in range(d)) for k in keys]
        expected = sorted(products, reverse=True)
        np.testing.assert_allclose(scores, expected, rtol=1e-12)
    raw, undone = (
        explorables.saturation_result(1024, *s) for s in ((False, 0), (True, 10))
    )
    np.testing.assert_allclose(raw["weights"], undone["weights"], rtol=1e-9, atol=1e-15)
    assert raw["top"] > 0.999 and sat["references"][0]["top"] < 0.5
    with pytest.raises(ValueError, match="d must be one of"):
        explorables.saturation_result(3, True, 0)
    with pytest.raises(ValueError, match="step must be in"):
        explorables.c_factor(explorables.SAT_C_STEPS + 1)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", EXPLORERS)
def test_the_html_carries_the_static_drawing_and_readable_data(kind, lang):
    explorable = EXPLORERS[kind](lang)
    assert isinstance(explorable, Explorable) and isinstance(
        explorable.drawing, Drawing
    )
    assert explorable.startswith(
        f'<figure class="ad-explorable" data-explorable="{kind}" '
    )
    assert explorable.drawing.strip() in explorable
    attribute = re.search(r"data-explorable-data='([^']*)'", explorable).group(1)
    assert json.loads(html.unescape(attribute)) == json.loads(
        data_json(explorable.data)
    )
    assert json.loads(html.unescape(attribute))["lang"] == lang
    for key, value in explorable.data["text"].items():
        words = re.sub(r"\{\w+\}", "", value)  # the script fills in the fields
        if lang == "zh" and re.search("[A-Za-z]{4}", words):
            assert CJK.search(words), key
    assert type(pickle.loads(pickle.dumps(explorable))) is str


def test_the_data_attribute_survives_any_text_and_json_refuses_nan():
    drawing = figures.identity_heatmap("en", size=3)
    data = {"text": 'it\'s <b>"quoted"</b> & </figure>', "n": np.arange(3)}
    explorable = Explorable("ok", drawing, data)
    attribute = re.search(r"data-explorable-data='([^']*)'", explorable).group(1)
    assert json.loads(html.unescape(attribute)) == {**data, "n": [0, 1, 2]}
    with pytest.raises(ValueError):
        data_json({"a": float("nan")})
    drawing = figures.identity_heatmap("en", size=3)
    with pytest.raises(ValueError, match="kind"):
        Explorable("Bad Kind", drawing, {})
    with pytest.raises(TypeError, match="Drawing"):
        Explorable("ok", str(drawing), {})


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: lookup_scores([(0, 0)], [(1, 1)], "cosine"), "unknown score"),
        (lambda: tempered_softmax([[1.0, 2.0]], -1), "temperature"),
        (lambda: tempered_softmax([[1.0, 2.0]], float("nan")), "temperature"),
        (lambda: tempered_softmax([[1.0, np.nan]], 1), "finite"),
        (
            lambda: soft_lookup(
                [(0, 0)], [(1, 1)], [1, 2], score="dot_product", temperature=1
            ),
            "one per key",
        ),
        (lambda: lookup_scores([(0, 0)], [(1, 1, 1)], "dot_product"), "same dimension"),
    ],
)
def test_bad_lookup_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_tempered_softmax_shares_the_lookup_between_tied_keys():
    weights = tempered_softmax([[2.0, 5.0, 5.0, 1.0]], 0)
    assert weights.tolist() == [[0.0, 0.5, 0.5, 0.0]]


SCRIPT = (ROOT / "docs" / "assets" / "explorables.js").read_text("utf-8")


def script_figures():
    """The script's figures: kind -> the body of the function that draws it."""
    table = re.search(r"const FIGURES = \{(.*?)\};", SCRIPT, re.S)[1]
    bodies = {}
    for kind, function in re.findall(r'"([\w-]+)": (\w+)', table):
        start = SCRIPT.index(f"function {function}(")
        end = SCRIPT.find("\nfunction ", start + 1)
        bodies[kind] = SCRIPT[start : end if end != -1 else None]
    return bodies


def test_the_script_draws_exactly_the_library_s_explorables():
    assert set(script_figures()) == set(EXPLORERS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(EXPLORERS))
def test_every_text_the_script_asks_for_is_in_the_data_with_its_fields(kind, lang):
    body = script_figures()[kind]
    text = EXPLORERS[kind](lang).data["text"]
    calls = re.findall(r'\bt\("(\w+)"(?:,\s*\{([^}]*)\})?', body)
    assert calls, kind
    for key, fields in calls:
        assert key in text, f"{kind}: the script asks for t({key!r}), not in the data"
        given = set(re.findall(r"(\w+)\s*(?::|,|$)", fields)) if fields else set()
        needed = set(re.findall(r"\{(\w+)\}", text[key]))
        assert needed <= given, f"{kind}: t({key!r}) leaves {needed - given} unfilled"


SCHEMAS = {
    "nadaraya-watson": explorables.NadarayaWatsonData,
    "soft-lookup": explorables.SoftLookupData,
    "gradient-descent": explorables.GradientDescentData,
    "saturation": explorables.SaturationData,
}


@pytest.mark.parametrize("kind", sorted(EXPLORERS))
def test_the_data_has_its_schema_s_fields_and_the_script_reads_them_all(kind):
    schema = set(typing.get_type_hints(SCHEMAS[kind]))
    assert set(EXPLORERS[kind]("en").data) == schema
    read = set(re.findall(r"\bdata\.(\w+)", script_figures()[kind]))
    assert read and read <= schema, f"{kind} reads {read - schema}, not in its schema"
    # and the page carries nothing the reader's script leaves unread (the
    # references, which only the tests read, stay off the page)
    own = schema - set(typing.get_type_hints(explorables.ScriptData))
    assert own <= read, f"{kind} ships {own - read}, which its script never reads"

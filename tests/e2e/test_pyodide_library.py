"""The library on Pyodide: what it prints there is what it prints on CPython.

The Run button (issue #47) runs the pages' code in the reader's browser, on
Pyodide 0.27.7's numpy 2.0.2 and matplotlib 3.8.4, from the site's own files.
Here the same files, published as the build publishes them
(:func:`.pyodide.write_runtime` and the library's wheel), run under Node.js,
and each case's output is compared with CPython's in this process: printed
text exactly; a figure's text, its drawn elements and their coordinates (to
2 pt: the two matplotlibs lay axes and legends out a little differently); an
explorable's data to rounding.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from helpers import ROOT

from attention_docs_site.site import pyodide
from attention_docs_site.wheel import write_wheel

# The library on Node's Pyodide (the browser sweep runs the same runtime).
pytestmark = pytest.mark.release

FIGURES = "from attention_docs import figures\n"
# One block of each kind the pages print: figures in both languages, a
# heatmap, tables, the explorables' data, a source listing and plain numbers.
CASES = {
    "fit": FIGURES + 'print(figures.nadaraya_watson_fit(lang="en", bandwidth=0.2))',
    "fit-zh": FIGURES + 'print(figures.kernel_shapes(lang="zh"))',
    "weights": FIGURES + 'print(figures.nadaraya_watson_weights(lang="en"))',
    "kernels": FIGURES + 'print(figures.kernel_comparison(lang="en"))',
    "heatmap": FIGURES + 'print(figures.identity_heatmap(lang="zh"))',
    "table": FIGURES + 'print(figures.boundary_table(lang="en"))',
    "rates": FIGURES + 'print(figures.rate_table(lang="zh"))',
    "explorer": FIGURES + 'print(figures.nadaraya_watson_explorer(lang="en"))',
    "saturation": FIGURES + 'print(figures.saturation_explorer(lang="zh"))',
    "listing": FIGURES
    + 'print(figures.source_listing("pooling.gaussian_attention_pooling"))',
    "numbers": (
        "from attention_docs import make_dataset, nadaraya_watson\n"
        "from attention_docs.bandwidth import cv_bandwidth\n"
        "data = make_dataset(50, seed=1)\n"
        "h = cv_bandwidth(data.x_train, data.y_train)\n"
        "x, y = data.x_train, data.y_train\n"
        "pred, w = nadaraya_watson(x, y, data.x_test, bandwidth=h)\n"
        "print(f'{h:.6f} {pred.mean():.9f} {w.max():.9f}')\n"
    ),
    "versions": "import numpy, matplotlib\n"
    "print(numpy.__version__, matplotlib.__version__)",
}
# matplotlib 3.8 lays axes and legends out up to 1.6 pt away from 3.11 (its
# text metrics differ); a changed curve or point moves by far more.
LAYOUT_PT = 2.0
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


@pytest.fixture(scope="module")
def in_pyodide(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each case's output in Pyodide under Node.js, from the published files."""
    node = shutil.which("node")
    assert node, "Node.js runs Pyodide here: install it (Debian's nodejs)"
    site = tmp_path_factory.mktemp("pyodide-site")
    pyodide.write_runtime(ROOT, site / "pyodide")
    wheel = write_wheel(ROOT, site)
    loader = (pyodide.runtime_folder(ROOT) / "pyodide.mjs").as_uri()
    script = ROOT / "tests" / "pyodide_run.mjs"
    run = subprocess.run(
        [node, script, loader, f"{site / 'pyodide'}/", str(wheel)],
        input=json.dumps(CASES),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]  # the traceback comes last
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def in_cpython() -> dict[str, str]:
    outputs = {}
    for name, code in CASES.items():
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(code, name, "exec"), {"__name__": "__main__"})
        outputs[name] = buffer.getvalue()
    return outputs


def _svgs(html: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", html, re.S)]


def _texts(svg: ET.Element) -> list[str]:
    return [
        "".join(e.itertext())
        for e in svg.iter()
        if e.tag.split("}")[-1] in {"text", "title", "desc"}
    ]


def _shapes(svg: ET.Element) -> list[tuple[str, list[float]]]:
    """Each drawn element's kind and coordinates."""
    shapes = []
    for element in svg.iter():
        tag = element.tag.split("}")[-1]
        if tag in {"path", "use", "rect", "line", "circle", "image"}:
            numbers = [
                float(n)
                for key in ("d", "x", "y", "width", "height", "points")
                for n in NUMBER.findall(element.get(key, ""))
            ]
            shapes.append((tag, numbers))
    return shapes


def _outside_svgs(html: str) -> str:
    return re.sub(r"<svg\b.*?</svg>", "<svg/>", html, flags=re.S)


def test_pyodide_runs_its_own_numpy_and_matplotlib(in_pyodide: dict[str, str]) -> None:
    lock = pyodide.read_lock(ROOT)["packages"]
    expected = f"{lock['numpy']['version']} {lock['matplotlib']['version']}"
    assert in_pyodide["versions"].strip() == expected


@pytest.mark.parametrize("case", [c for c in CASES if c != "versions"])
def test_the_text_printed_outside_figures_is_the_same(
    case: str, in_pyodide: dict[str, str], in_cpython: dict[str, str]
) -> None:
    pyodide_text = _outside_svgs(in_pyodide[case])
    cpython_text = _outside_svgs(in_cpython[case])
    if "data-explorable-data" in cpython_text:  # numbers compared below, to rounding
        pattern = r"data-explorable-data='[^']*'"
        pyodide_text, cpython_text = (
            re.sub(pattern, "", t) for t in (pyodide_text, cpython_text)
        )
    assert pyodide_text == cpython_text


@pytest.mark.parametrize(
    "case", ["fit", "fit-zh", "weights", "kernels", "heatmap", "explorer"]
)
def test_figures_show_the_same_text_and_data(
    case: str, in_pyodide: dict[str, str], in_cpython: dict[str, str]
) -> None:
    ours, theirs = _svgs(in_pyodide[case]), _svgs(in_cpython[case])
    assert ours and len(ours) == len(theirs)
    for svg, reference in zip(ours, theirs, strict=True):
        assert _texts(svg) == _texts(reference)
        shapes, expected = _shapes(svg), _shapes(reference)
        assert [kind for kind, _ in shapes] == [kind for kind, _ in expected]
        for (kind, numbers), (_, wanted) in zip(shapes, expected, strict=True):
            assert len(numbers) == len(wanted), kind
            assert all(
                math.isclose(a, b, abs_tol=LAYOUT_PT)
                for a, b in zip(numbers, wanted, strict=True)
            ), kind


@pytest.mark.parametrize("case", ["explorer", "saturation"])
def test_the_explorables_data_are_the_same_to_rounding(
    case: str, in_pyodide: dict[str, str], in_cpython: dict[str, str]
) -> None:
    def data(html: str) -> list[float]:
        (text,) = re.findall(r"data-explorable-data='([^']*)'", html)
        return [float(n) for n in NUMBER.findall(text)]

    ours, theirs = data(in_pyodide[case]), data(in_cpython[case])
    assert len(ours) == len(theirs) > 10
    assert all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        for a, b in zip(ours, theirs, strict=True)
    )

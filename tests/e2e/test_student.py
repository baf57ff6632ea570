"""A student runs the exercises on their own machine, with only what the site says.

The site is built strictly and served on 127.0.0.1 under its published path,
with ``site_url`` set to that address as a fork's would be. In a brand-new
virtual environment with only pip, nbclient and ipykernel, the notebooks
downloaded from it run in a real Jupyter kernel: their setup cell installs
the library (with PyTorch where a notebook needs it, held to the machine's
local CPU wheel as ``scripts/setup.sh`` holds it), and every line they print
must be the line the site shows.
"""

import json
import subprocess
import urllib.request
import zipfile
from pathlib import Path

import pytest
from helpers import (
    NOTEBOOKS,
    SITE_PATH,
    copy_site,
    mkdocs_build,
    serve_folder,
    set_site_url,
)
from student import (
    JUPYTER,
    execute,
    make_venv,
    printed,
    setup_output,
    shown,
    student_env,
    torch_constraints,
)

CHAPTERS = NOTEBOOKS  # the chapters that have an exercise notebook


def download(url: str, destination: Path) -> Path:
    destination.parent.mkdir(parents=True, exist_ok=True)
    with urllib.request.urlopen(url, timeout=60) as response:
        destination.write_bytes(response.read())
    return destination


def run_as_the_site_did(python: Path, notebook: Path, env: dict) -> str:
    """Execute a downloaded notebook: it prints the site's lines, shows its figures."""
    site = json.loads(notebook.read_text(encoding="utf-8"))
    executed = execute(python, notebook, env)
    assert printed(executed) == printed(site), notebook
    assert shown(executed) == shown(site), notebook
    assert any(printed(site)) or any(shown(site)), f"{notebook} has no outputs"
    return setup_output(executed)


@pytest.mark.release  # a new environment that installs PyTorch, ten kernels
def test_a_student_runs_every_notebook_from_the_site(tmp_path, warm_cache):
    root = tmp_path / "www"
    mount = root / SITE_PATH.strip("/")
    mount.parent.mkdir(parents=True)
    with serve_folder(root) as address:
        site_url = address + SITE_PATH
        project = copy_site(tmp_path / "project")
        set_site_url(project, site_url)
        build = mkdocs_build(project, mount, cache=warm_cache)
        assert build.returncode == 0, build.stdout + build.stderr

        python = make_venv(tmp_path / "venv", *JUPYTER)
        env = student_env(torch_constraints(tmp_path))
        # One notebook per chapter, downloaded on its own (languages taken in
        # turn): the first installs the library from the site's address, the
        # first that needs PyTorch installs the [model] extra.
        said = []
        for index, chapter in enumerate(CHAPTERS):
            folder = ("", "zh/")[index % 2] + f"exercises/{chapter}/"
            notebook = download(
                f"{site_url}{folder}{chapter}.ipynb",
                tmp_path / "single" / folder / f"{chapter}.ipynb",
            )
            said.append(run_as_the_site_did(python, notebook, env))
        (wheel,) = (mount / "dist").glob("*.whl")
        version = wheel.name.split("-")[1]
        assert said[0] == (
            f"Installing attention_docs from {site_url}dist/{wheel.name}\n"
            f"Installed attention_docs {version}.\n"
        ), said
        # queries-keys-values, in Chinese, imports torch
        assert said[1].startswith("正在从 ") and "attention_docs[model]" in said[1]
        assert said[2] == said[3] == "", said  # installed: the cell does nothing

        # Offline from the zips: with the library gone (PyTorch kept), the
        # first notebook run installs it from the wheel beside it. A zip's
        # notebook is the page's download byte for byte; each runs once, so
        # the zips run the four that the pages above did not.
        uninstall = [str(python), "-m", "pip", "uninstall", "-y", "attention_docs"]
        subprocess.run(uninstall, check=True, capture_output=True)
        for lang, folder in (("en", ""), ("zh", "zh/")):
            archive = download(
                f"{site_url}{folder}exercises/notebooks.zip",
                tmp_path / "zips" / f"{lang}.zip",
            )
            with zipfile.ZipFile(archive) as unpacked:
                unpacked.extractall(tmp_path / "zips")
        first = True
        for offset, lang in enumerate(("en", "zh")):
            unpacked = tmp_path / "zips" / f"attention_docs-exercises-{lang}"
            notebooks = sorted(unpacked.glob("*.ipynb"))
            assert [n.stem for n in notebooks] == sorted(CHAPTERS), lang
            assert len(list(unpacked.glob("*.whl"))) == 1, lang
            for index, chapter in enumerate(CHAPTERS):
                notebook = unpacked / f"{chapter}.ipynb"
                page = f"{site_url}{('', 'zh/')[offset]}exercises/{chapter}/"
                with urllib.request.urlopen(f"{page}{chapter}.ipynb") as response:
                    assert notebook.read_bytes() == response.read(), notebook
                if index % 2 == offset:
                    continue  # this very file ran above
                said = run_as_the_site_did(python, notebook, env)
                if first:
                    # queries-keys-values, in English, imports torch
                    assert said.startswith(
                        f"Installing attention_docs[model] from {unpacked.as_uri()}/"
                    ), said
                    first = False
                else:
                    assert said == "", (notebook, said)
        assert not first


ALONE = """
import importlib.util
from matplotlib import font_manager

for name in ("mkdocs", "attention_docs_site", "torch"):
    assert importlib.util.find_spec(name) is None, name
from attention_docs import figures, fonts

# As on a machine with no CJK font: only the library's own is left.
font_manager.fontManager.ttflist = [
    entry for entry in font_manager.fontManager.ttflist if "CJK" not in entry.name
]
fonts.cjk_family()
for lang in ("en", "zh"):
    drawing = figures.volitional_cue(lang=lang)
    assert drawing.startswith("<svg") and "<text" in drawing, lang
print("drew", font_manager.findfont(fonts.CJK_FAMILY, fallback_to_default=False))
try:
    import attention_docs.model
except ModuleNotFoundError as error:
    print("model:", error)
"""


@pytest.mark.release  # a second new environment
def test_the_wheel_alone_draws_figures_without_mkdocs_or_torch(built_site, tmp_path):
    (wheel,) = (built_site / "dist").glob("attention_docs-*.whl")
    python = make_venv(tmp_path / "venv", str(wheel))
    run = subprocess.run(
        [str(python), "-c", ALONE], capture_output=True, text=True, env=student_env()
    )
    assert run.returncode == 0, run.stderr
    drew, model = run.stdout.splitlines()
    assert drew.endswith("attention_docs/font_files/NotoSansCJKsc-figures.otf")
    assert model == (
        "model: attention_docs.model needs PyTorch, which the library installs "
        "only with its 'model' extra: pip install 'attention_docs[model]'"
    )

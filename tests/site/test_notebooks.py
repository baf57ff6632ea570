"""In-process notebook execution, checked against a real Jupyter kernel."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from attention_docs_site.execute import notebook_run as notebooks

CELLS = [
    "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)",
    "x = 6 * 7\nx",
    "from IPython.display import HTML, display\n"
    "display(HTML('<b>shown</b>'))\nprint('after')\nHTML('<i>result</i>')",
    "for i in range(3):\n    print(i)",
    "x = 1  # no output",
    "x + 1;",
]


def notebook(*sources: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_markdown_cell("# A title")]
    nb.cells += [nbformat.v4.new_code_cell(source) for source in sources]
    return nb


def comparable(nb: nbformat.NotebookNode) -> list[list[dict]]:
    """Each code cell's outputs, without what legitimately differs."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            outputs = []
            for output in cell.outputs:
                output = dict(output)
                if "data" in output:
                    output["data"] = dict(output["data"])
                output.pop("metadata", None)
                outputs.append(output)
            cells.append([cell.execution_count, outputs])
    return cells


@pytest.mark.slow
def test_outputs_match_a_jupyter_kernel(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    reference = NotebookClient(notebook(*CELLS), kernel_name="python3").execute()
    ours = notebooks.execute(notebook(*CELLS), str(path))
    assert comparable(ours) == comparable(reference)
    nbformat.validate(ours)


def test_outputs_keep_their_kind_and_order(tmp_path: Path) -> None:
    nb = notebooks.execute(notebook(*CELLS), str(tmp_path / "nb.ipynb"))
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == [1, 2, 3, 4, 5, 6]
    assert [(o.output_type, o.name) for o in code[0].outputs] == [
        ("stream", "stdout"),
        ("stream", "stderr"),
    ]
    assert code[1].outputs[0].data["text/plain"] == "42"
    kinds = [o.output_type for o in code[2].outputs]
    assert kinds == ["display_data", "stream", "execute_result"]
    assert code[2].outputs[0].data["text/html"] == "<b>shown</b>"
    assert code[2].outputs[2].data["text/html"] == "<i>result</i>"
    assert code[3].outputs[0].text == "0\n1\n2\n"  # one stream, not three
    assert code[4].outputs == code[5].outputs == []


def test_each_notebook_starts_with_a_fresh_namespace(tmp_path: Path) -> None:
    notebooks.execute(notebook("secret = 1"), str(tmp_path / "a.ipynb"))
    with pytest.raises(notebooks.NotebookCellError, match="NameError"):
        notebooks.execute(notebook("secret"), str(tmp_path / "b.ipynb"))


def test_a_notebook_run_forces_no_full_garbage_collection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IPython's output cache ends each reset with gc.collect(): 0.3 s apiece
    in a build's heap, twice per notebook. The shell keeps no such cache."""
    import gc

    collections = []
    monkeypatch.setattr(gc, "collect", lambda *a: collections.append(a) or 0)
    nb = notebooks.execute(notebook("x = [1]\nx", "x"), str(tmp_path / "a.ipynb"))
    assert collections == []
    assert [c.outputs[0]["data"]["text/plain"] for c in nb.cells[1:]] == ["[1]"] * 2


def test_open_pyplot_figures_are_shown_as_svg_and_closed(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    source = "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\nNone"
    nb = notebooks.execute(notebook(source), str(tmp_path / "nb.ipynb"))
    (output,) = nb.cells[1].outputs
    assert output.output_type == "display_data"
    assert output.data["image/svg+xml"].startswith("<svg")
    assert plt.get_fignums() == []


def test_cells_run_in_the_notebook_folder(tmp_path: Path) -> None:
    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "data.txt").write_text("beside the notebook")
    here = os.getcwd()
    nb = notebooks.execute(
        notebook("from pathlib import Path\nprint(Path('data.txt').read_text())"),
        str(folder / "nb.ipynb"),
    )
    assert nb.cells[1].outputs[0].text == "beside the notebook\n"
    assert os.getcwd() == here


@pytest.mark.parametrize(
    ("source", "kind"),
    [("1 / 0", "ZeroDivisionError"), ("def broken(:\n    pass", "SyntaxError")],
)
def test_a_raising_cell_names_the_notebook_and_the_cell(
    tmp_path: Path, source: str, kind: str
) -> None:
    path = str(tmp_path / "broken.ipynb")
    nb = notebook("x = 1", source, "print('never')")
    with pytest.raises(notebooks.NotebookCellError) as caught:
        notebooks.execute(nb, path)
    message = str(caught.value)
    assert message.startswith(f"{path}: code cell 2 ({source.splitlines()[0]!r})")
    assert kind in message
    assert nb.cells[3].outputs == []  # stopped at the failure


def test_allowed_errors_become_error_outputs(tmp_path: Path) -> None:
    nb = notebook("print('before')\n1 / 0", "print('after')")
    notebooks.execute(nb, str(tmp_path / "nb.ipynb"), allow_errors=True)
    stream, error = nb.cells[1].outputs
    assert stream.text == "before\n"
    assert (error.output_type, error.ename) == ("error", "ZeroDivisionError")
    assert nb.cells[2].outputs[0].text == "after\n"
    nbformat.validate(nb)


def test_read_gives_the_same_cell_ids_every_time() -> None:
    path = Path("docs/exercises/attention-pooling.md")
    first, second = notebooks.read(path), notebooks.read(path)
    ids = [cell.id for cell in first.cells]
    assert ids == [cell.id for cell in second.cells]
    assert len(set(ids)) == len(ids)
    nbformat.validate(first)


def test_a_zip_stores_what_is_already_compressed_and_deflates_the_rest(tmp_path):
    """Pyodide's wheels and standard library go in as they are; pages are
    deflated; the same members give the same bytes, and unpack to them."""
    import zipfile

    from attention_docs_site.zips import write_zip

    members = {
        "pyodide/numpy.whl": bytes(range(256)) * 64,
        "pyodide/python_stdlib.zip": b"PK" + bytes(1000),
        "index.html": b"<p>attention</p>" * 100,
    }
    first, second = tmp_path / "first.zip", tmp_path / "second.zip"
    write_zip(first, "top", members)
    write_zip(second, "top", dict(reversed(members.items())))
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        kinds = {i.filename: i.compress_type for i in archive.infolist()}
        assert {name: archive.read(f"top/{name}") for name in members} == members
    assert kinds == {
        "top/index.html": zipfile.ZIP_DEFLATED,
        "top/pyodide/numpy.whl": zipfile.ZIP_STORED,
        "top/pyodide/python_stdlib.zip": zipfile.ZIP_STORED,
    }

"""A student's machine: fresh virtual environments that run downloaded notebooks.

Shared by ``tests/e2e/test_student.py`` and ``benchmarks/build.py --student``.
A fresh environment has only pip, nbclient and ipykernel; each notebook runs
there in a real Jupyter kernel, with its working directory the notebook's own
folder (as Jupyter starts it), so its setup cell installs the library as it
would for a reader.
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

# What a reader's Jupyter has before the notebook's first cell.
JUPYTER = ("nbclient", "ipykernel")
SETUP_TAG = "attention-docs-setup"
# PyTorch as scripts/setup.sh installs it: this version from the machine's
# local wheel (pip's find-links), never a multi-GB build from the registry.
TORCH = "torch==2.13.0"

_RUN = textwrap.dedent(
    """
    import sys, nbformat
    from nbclient import NotebookClient
    path = sys.argv[1]
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(
        notebook, timeout=900, kernel_name="python3",
        resources={"metadata": {"path": sys.argv[2]}},
    ).execute()
    nbformat.write(notebook, sys.argv[3])
    """
)


def make_venv(folder: Path, *packages: str) -> Path:
    """A new virtual environment with only pip and ``packages``; its python."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    if packages:
        pip_install(python, *packages)
    return python


def pip_install(python: Path, *requirements: str) -> None:
    """Install requirements into an environment; raise with pip's output."""
    command = [str(python), "-m", "pip", "install", "--quiet"]
    command += ["--disable-pip-version-check", *requirements]
    run = subprocess.run(command, capture_output=True, text=True, env=student_env())
    if run.returncode:
        raise RuntimeError(f"pip install {requirements} failed:\n{run.stderr}")


def student_env(constraints: Path | None = None) -> dict[str, str]:
    """The environment of a student's kernel: no trace of the project's venv.

    With ``constraints``, pip (and so the setup cell's pip) keeps to them.
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"}
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    if constraints:
        env["PIP_CONSTRAINT"] = str(constraints)
    return env


def torch_constraints(folder: Path) -> Path:
    """A pip constraints file that holds PyTorch to the local CPU wheel."""
    path = folder / "constraints.txt"
    path.write_text(TORCH + "\n")
    return path


def execute(python: Path, notebook: Path, env: dict[str, str]) -> dict:
    """Run a notebook in a kernel of ``python``'s environment, in its own folder.

    Returns:
        The executed notebook, as JSON.

    Raises:
        RuntimeError: A cell failed; the message has nbclient's report.
    """
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "executed.ipynb"
        command = [str(python), "-c", _RUN, str(notebook), str(notebook.parent)]
        run = subprocess.run(
            [*command, str(out)], capture_output=True, text=True, env=env
        )
        if run.returncode:
            raise RuntimeError(f"{notebook.name} failed:\n{run.stderr[-6000:]}")
        return json.loads(out.read_text(encoding="utf-8"))


def _exercise_cells(notebook: dict) -> list[dict]:
    """The code cells, but for the setup cell."""
    return [
        cell
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        and SETUP_TAG not in cell.get("metadata", {}).get("tags", [])
    ]


def printed(notebook: dict) -> list[list[str]]:
    """The lines each code cell printed (stdout), but for the setup cell's."""
    return [
        "".join(
            "".join(output["text"])
            for output in cell.get("outputs", [])
            if output["output_type"] == "stream" and output["name"] == "stdout"
        ).splitlines()
        for cell in _exercise_cells(notebook)
    ]


def shown(notebook: dict) -> list[list[list[str]]]:
    """The kinds of what each code cell displayed (figures, results, tables)."""
    return [
        [
            sorted(output.get("data", {}))
            for output in cell.get("outputs", [])
            if output["output_type"] in {"display_data", "execute_result"}
        ]
        for cell in _exercise_cells(notebook)
    ]


def setup_output(notebook: dict) -> str:
    """What the setup cell printed."""
    (cell,) = [
        cell
        for cell in notebook["cells"]
        if SETUP_TAG in cell.get("metadata", {}).get("tags", [])
    ]
    return "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))

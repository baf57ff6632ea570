"""Run the exercise notebooks inside the build's own Python process.

mkdocs-jupyter executes each notebook in a fresh Jupyter kernel, so every
notebook pays again for starting a kernel and importing torch and matplotlib,
and none of them shares what the library has already computed. Here a notebook
runs in the process's IPython shell with a fresh namespace, and the outputs are
recorded as Jupyter records them: streams, display data and execute results,
each with its rich representations. Figures a cell leaves open in pyplot are
shown as SVG, as Jupyter's inline backend would show them.

A cell that raises stops the run with :class:`NotebookCellError`, which names
the notebook, the cell and its first line.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_docs_site.execute.sessions import block_names
from attention_docs_site.upstream.ipython import quiet_tracebacks

if TYPE_CHECKING:
    from nbformat import NotebookNode

    from attention_docs_site.execute.library_reach import Recorder


class NotebookCellError(RuntimeError):
    """A notebook cell raised while the notebook was executed."""


def read(path: str | Path) -> NotebookNode:
    """Read a jupytext notebook, with cell ids that are the same on every read.

    nbformat gives cells without an id a random one, which would make every
    build's notebook pages and downloads differ.

    Parameters:
        path: The notebook file (jupytext Markdown or ``.ipynb``).

    Returns:
        The notebook; cell ``i`` has the id ``cell-i``.
    """
    import jupytext

    nb = jupytext.read(path)
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index}"
    return nb


class _Outputs:
    """The outputs of one cell, in the order they were produced."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def stream(self, name: str, text: str) -> None:
        last = self.items[-1] if self.items else None
        if (
            last is not None
            and last["output_type"] == "stream"
            and last["name"] == name
        ):
            last["text"] += text
        elif text:
            self.items.append({"output_type": "stream", "name": name, "text": text})

    def display(self, data: dict, metadata: dict | None) -> None:
        self.items.append(
            {"output_type": "display_data", "data": data, "metadata": metadata or {}}
        )

    def result(self, data: dict, metadata: dict, count: int) -> None:
        self.items.append(
            {
                "output_type": "execute_result",
                "data": data,
                "metadata": metadata,
                "execution_count": count,
            }
        )


class _Stream(io.TextIOBase):
    """A text stream that records what is written as a notebook stream output."""

    def __init__(self, outputs: _Outputs, name: str) -> None:
        self._outputs = outputs
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._outputs.stream(self.name, text)
        return len(text)


def _shell() -> Any:  # noqa: ANN401 (IPython's shell class)
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    if InteractiveShell.initialized():
        return InteractiveShell.instance()
    config = Config()
    config.HistoryManager.enabled = False  # no sqlite file in the home folder
    config.InteractiveShell.colors = "nocolor"
    # No output cache (Out, _1, ...): cells run under _recording's hook, which
    # keeps none, and a shell with a cache empties it on each reset with a full
    # gc.collect(), 0.3 s apiece in a build's large heap, twice per notebook.
    config.InteractiveShell.cache_size = 0
    return InteractiveShell.instance(config=config)


@contextlib.contextmanager
def _recording(shell: Any, outputs: _Outputs) -> Iterator[None]:  # noqa: ANN401
    """Route the shell's displays, results and the standard streams to outputs."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.displaypub import DisplayPublisher

    class Publisher(DisplayPublisher):
        def publish(
            self,
            data: dict,
            metadata: dict | None = None,
            source: object = None,
            **_: Any,  # noqa: ANN401
        ) -> None:
            outputs.display(data, metadata)

    class Hook(DisplayHook):
        def write_output_prompt(self) -> None:
            pass

        def write_format_data(
            self, format_dict: dict, md_dict: dict | None = None
        ) -> None:
            outputs.result(format_dict, md_dict or {}, self.prompt_count)

    saved = shell.displayhook, shell.display_trap.hook, shell.display_pub
    hook = Hook(shell=shell, cache_size=0)
    shell.displayhook = shell.display_trap.hook = hook
    shell.display_pub = Publisher(shell=shell)
    # Errors become an error output or an exception, not printed text.
    try:
        with (
            quiet_tracebacks(shell),
            contextlib.redirect_stdout(_Stream(outputs, "stdout")),
            contextlib.redirect_stderr(_Stream(outputs, "stderr")),
        ):
            yield
    finally:
        shell.displayhook, shell.display_trap.hook, shell.display_pub = saved


def _open_figures(outputs: _Outputs) -> None:
    """Show and close the figures a cell left open in pyplot, as SVG."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    from attention_docs.svg import figure_to_svg

    for number in pyplot.get_fignums():
        figure = pyplot.figure(number)
        titles = [figure.get_suptitle()] + [ax.get_title() for ax in figure.axes]
        alt = "; ".join(t for t in titles if t) or f"Figure {number}"
        # The reader's own figure: its greys follow the page's scheme, and any
        # colour that cannot is kept as drawn.
        svg = figure_to_svg(figure, alt=alt, strict=False)
        outputs.display({"image/svg+xml": svg}, {})
        pyplot.close(figure)


def _failure(path: str, index: int, source: str, error: BaseException) -> str:
    first = next((line for line in source.splitlines() if line.strip()), "")
    trace = "".join(traceback.format_exception(error)).rstrip()
    return (
        f"{path}: code cell {index} ({first.strip()!r}) raised "
        f"{type(error).__name__}: {error}\n{trace}"
    )


def execute(
    nb: NotebookNode,
    path: str,
    *,
    allow_errors: bool = False,
    recorder: Recorder | None = None,
) -> NotebookNode:
    """Run every code cell of a notebook in order and record its outputs.

    Parameters:
        nb: The notebook, as read by nbformat or jupytext. It is changed in place.
        path: The notebook's file; cells run with its folder as the working
            directory, and error messages name it.
        allow_errors: Record a raising cell's error as an output and go on,
            instead of stopping.
        recorder: What records the library's reach. A cell that reaches a function
            that uses PyTorch, names torch or imports a module that does, or
            reads a name a torch cell bound, gets
            ``metadata["attention_docs"]["needs"] = "torch"`` (the Run button
            offers the notebook instead; it still runs the cell's imports).

    Returns:
        The notebook, with outputs and execution counts.

    Raises:
        NotebookCellError: A cell raised (or did not compile) and errors are
            not allowed. The message names the notebook, the cell and its
            first line, and carries the traceback.
    """
    shell = _shell()
    shell.reset(new_session=False)
    shell.execution_count = 1
    here = os.getcwd()
    os.chdir(Path(path).resolve().parent)
    try:
        number = 0
        torch_names: set[str] = set()
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            number += 1
            within: contextlib.AbstractContextManager[set[str]] = (
                recorder.within() if recorder else contextlib.nullcontext(set())
            )
            with within as units:
                _run_cell(shell, cell, path, number, allow_errors)
            names = block_names(cell.source)
            library = recorder.source if recorder else None
            if library is not None and (
                units & library.torch
                or library.code_needs_torch(cell.source)
                or (names.dynamic and torch_names)
                or names.reads & torch_names
            ):
                cell.metadata["attention_docs"] = {"needs": "torch"}
                torch_names |= names.binds - names.imported
    finally:
        os.chdir(here)
        shell.reset(new_session=False)
    return nb


def _run_cell(
    shell: Any,  # noqa: ANN401
    cell: NotebookNode,
    path: str,
    number: int,
    allow_errors: bool,
) -> None:
    import nbformat

    outputs = _Outputs()
    count = shell.execution_count
    with _recording(shell, outputs):
        result = shell.run_cell(cell.source, store_history=True, silent=False)
        _open_figures(outputs)
    error = result.error_before_exec or result.error_in_exec
    if error is not None:
        if not allow_errors:
            raise NotebookCellError(
                _failure(path, number, cell.source, error)
            ) from error
        outputs.items.append(
            {
                "output_type": "error",
                "ename": type(error).__name__,
                "evalue": str(error),
                "traceback": traceback.format_exception(error),
            }
        )
    cell.execution_count = count
    cell.outputs = [nbformat.from_dict(item) for item in outputs.items]

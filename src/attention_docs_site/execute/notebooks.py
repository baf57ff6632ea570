"""Notebook files: the exercise notebooks run behind the cache, and their downloads.

mkdocs-jupyter's converter is wrapped so that a notebook is executed in the
build's own process (not in a kernel) and its page and executed ``.ipynb``
come from the execution cache; the ``.ipynb`` download of each notebook page
is the notebook as this build ran it, with links that work outside the site.
"""

from __future__ import annotations

import hashlib
import logging
import re
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from attention_docs_site.execute import notebook_run, render_cache
from attention_docs_site.execute.cache import ExecCache
from attention_docs_site.execute.runnable import mark_cells
from attention_docs_site.upstream.mkdocs_jupyter import quicken
from attention_docs_site.zips import write_zip

if TYPE_CHECKING:
    from nbformat import NotebookNode

    from attention_docs_site.execute.library_reach import Recorder

logger = logging.getLogger("mkdocs.plugins.attention_docs.notebooks")


class CachedConverter:
    """mkdocs-jupyter's ``nb2html`` with the execution cache in front of it.

    Parameters:
        nb2html: ``mkdocs_jupyter.convert.nb2html`` as mkdocs-jupyter defines it.
        cache: Where pages and executed notebooks are kept.
        execute: Whether notebooks run (mkdocs-jupyter's own ``execute`` option
            is ignored: this converter runs them, in this process).
        marks: When False, code cells carry no mark for the Run button.
    """

    def __init__(
        self,
        nb2html: Callable[..., str],
        cache: ExecCache,
        *,
        execute: bool = True,
        marks: bool = True,
    ) -> None:
        self.nb2html = nb2html
        self.cache = cache
        self.execute = execute
        self.marks = marks
        # Notebook source file (resolved) -> the notebook as run for this build,
        # as ``.ipynb`` JSON: the page's download carries the page's outputs.
        self.executed: dict[str, str] = {}

    def __call__(self, nb_path: str, **options: object) -> str:
        """Convert one notebook, from the cache when nothing it depends on changed."""
        options = {**options, "execute": self.execute}
        source = Path(nb_path).read_text(encoding="utf-8")
        recorder = self.cache.recorder
        entry = self.cache.cached(
            "notebook",
            f"notebook {nb_path}",
            lambda: (run_notebook(self.nb2html, nb_path, options, recorder), True),
            source=source,
            name=Path(nb_path).name,  # its suffix says how jupytext reads it
            options=options,  # mkdocs-jupyter's, as it hands them over
            jupyter=jupyter_settings(),
            # Its cells' metadata say which need PyTorch (notebook_run.execute).
            form="html+ipynb, which cells need PyTorch (memos included)",
        ).value
        self.executed[str(Path(nb_path).resolve())] = entry["ipynb"]
        if not self.marks:
            return entry["html"]
        import nbformat

        nb = nbformat.reads(entry["ipynb"], as_version=4)
        return mark_cells(entry["html"], nb, Path(nb_path).name)


# The settings files a Jupyter application reads, in each settings folder.
_JUPYTER_FILES = (
    "jupyter_config.json",
    "jupyter_config.py",
    "jupyter_nbconvert_config.json",
    "jupyter_nbconvert_config.py",
)


def jupyter_settings() -> list[list[str]]:
    """The Jupyter settings files mkdocs-jupyter's converter reads, with digests.

    mkdocs-jupyter makes its converter from an ``NbConvertApp`` that loads
    ``jupyter_config`` and ``jupyter_nbconvert_config`` (``.json``, ``.py``)
    from Jupyter's settings folders (``jupyter --paths``: the user's, the
    environment's, the system's), as Jupyter's own applications find them.
    What they set (an exporter's options, preprocessors) shapes the notebook
    pages and their tables of contents. Each file is named by its folder's
    place in that list, so that the key is the same on every machine.

    Returns:
        ``[place, file name, sha256]`` of each file found, in reading order.
    """
    from jupyter_core.paths import jupyter_config_dir, jupyter_config_path

    folders = jupyter_config_path()
    if jupyter_config_dir() not in folders:  # as JupyterApp.config_file_paths
        folders.insert(0, jupyter_config_dir())
    found = []
    for place, folder in enumerate(folders):
        for name in _JUPYTER_FILES:
            path = Path(folder) / name
            if path.is_file():
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found.append([str(place), name, digest])
    return found


def quicken_mkdocs_jupyter() -> None:
    """Spare mkdocs-jupyter the work it repeats on every build (installed once).

    - Which files are notebooks: only those its ``include`` patterns match are
      parsed, each answer kept while the file is unchanged
      (``upstream/mkdocs_jupyter.py``).
    - A notebook page's table of contents: mkdocs-jupyter converts the
      notebook to Markdown on every build to find its headings; they come
      from the render cache, keyed on the notebook's text and format (its
      suffix), the depth asked for and the Jupyter settings files
      (:func:`jupyter_settings`). It finds them with a Markdown of its own
      (``toc`` alone), not the site's.
    """
    quicken(_cached_toc)


def _cached_toc(
    fpath: str, toc_depth: int, compute: Callable[[], list[object]]
) -> list[object]:
    """A notebook's ``[tokens, title]``, from the render cache."""
    found: list[object] = render_cache.lookup(
        "notebook toc",
        compute,
        lambda found: isinstance(found, list) and len(found) == 2,
        source=Path(fpath).read_text(encoding="utf-8"),
        form=Path(fpath).suffix,  # jupytext reads .md and .py differently
        toc_depth=toc_depth,
        jupyter=jupyter_settings(),
    )
    return found


def run_notebook(
    nb2html: Callable[..., str],
    nb_path: str,
    options: dict[str, object],
    recorder: Recorder | None = None,
) -> dict[str, str]:
    """Convert a notebook, executing it in this process rather than in a kernel.

    Starting a Jupyter kernel per notebook and importing torch in each cost
    most of a cold build; in-process, the notebooks share the imports and the
    library's memoised results with the pages. The notebook is handed to
    mkdocs-jupyter as an ``.ipynb`` file with stable cell ids.

    ``recorder`` tells which cells use PyTorch; their metadata say so, and
    :meth:`NotebookConverter.__call__` marks them for the Run button.

    Returns:
        ``{"html": page HTML, "ipynb": the notebook with its outputs}``.
    """
    import nbformat

    nb = notebook_run.read(nb_path)
    if options.get("execute"):
        logger.info("executing %s in-process", nb_path)
        allow_errors = bool(options.get("allow_errors"))
        notebook_run.execute(nb, nb_path, allow_errors=allow_errors, recorder=recorder)
    with tempfile.TemporaryDirectory() as folder:
        executed = Path(folder) / f"{Path(nb_path).stem}.ipynb"
        nbformat.write(nb, executed)
        html = nb2html(str(executed), **{**options, "execute": False})
    # For .ipynb files mkdocs-jupyter appends the Python repr of a list of CSS
    # rules inside a <style> element; the site's theme styles the code instead.
    return {"html": _APPENDED_STYLE.sub("", html), "ipynb": nbformat.writes(nb)}


_APPENDED_STYLE = re.compile(r"\s*<style>\s*\[.*?\]\s*</style>\s*\Z", re.DOTALL)


def notebook_name(src_uri: str) -> str:
    """File name of the ``.ipynb`` download for a notebook page source.

    Parameters:
        src_uri: The page source, e.g. ``exercises/attention-pooling.zh.md``.

    Returns:
        E.g. ``attention-pooling.ipynb`` (the language suffix is dropped;
        each language's notebook lives in its own folder).
    """
    stem = PurePosixPath(src_uri).name.split(".")[0]
    return f"{stem}.ipynb"


# Link targets in Markdown: inline links and images, reference definitions,
# and HTML href/src attributes.
_LINK_TARGET = re.compile(
    r"(?P<lead>\]\(\s*<?|^ {0,3}\[[^\]]+\]:[ \t]*<?|(?:href|src)=[\"'])"
    r"(?P<target>[^\s)>\"']+)",
    re.M,
)


def absolute_links(markdown: str, base_url: str) -> str:
    """Make the relative link targets of Markdown text absolute.

    A downloaded notebook is opened outside the site, where a link such as
    ``../../attention-pooling/`` leads nowhere. Resolved against the URL the
    notebook's page is published at, it leads to the same page of the same
    language edition. Links within the notebook (``#...``) stay as they are.

    Parameters:
        markdown: A Markdown cell's source.
        base_url: The absolute URL of the notebook's page.

    Returns:
        The source with every other relative target made absolute.
    """

    def resolve(match: re.Match[str]) -> str:
        target = match["target"]
        if target.startswith("#") or urlsplit(target).scheme:
            return match[0]
        return match["lead"] + urljoin(base_url, target)

    return _LINK_TARGET.sub(resolve, markdown)


def write_notebook(
    source: Path,
    destination: Path,
    page_url: str,
    executed: str | None = None,
    setup: Callable[[NotebookNode], None] | None = None,
) -> Path:
    """Write the ``.ipynb`` download of a notebook page.

    The notebook is the one the page shows: with the outputs of this build's
    run (none when notebooks are not executed), and with its links made
    absolute (:func:`absolute_links`) so that they work once downloaded.

    Parameters:
        source: The ``.md`` notebook.
        destination: The ``.ipynb`` file to write.
        page_url: The absolute URL of the notebook's page.
        executed: The notebook as this build ran it (``.ipynb`` JSON), if it ran.
        setup: Changes the notebook before it is written (the plugin puts
            :func:`.notebook_setup.add_setup_cell` here).

    Returns:
        ``destination``.
    """
    import nbformat

    if executed is None:
        notebook = notebook_run.read(source)
    else:
        notebook = nbformat.reads(executed, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = absolute_links(cell.source, page_url)
    if setup is not None:
        setup(notebook)
    nbformat.validate(notebook)
    destination.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, destination)
    return destination


# Every exercise notebook of one language, in one download beside the pages.
NOTEBOOK_ZIP = "notebooks.zip"


def write_notebook_zips(
    site_dir: Path, wheel: Path, editions: Mapping[str, str]
) -> list[Path]:
    """Zip each edition's exercise notebooks into ``exercises/notebooks.zip``.

    An edition's notebooks are the ``.ipynb`` downloads of its exercise pages
    (``<folder>exercises/*/``), so the zip holds the same files, with this
    build's outputs, and beside them the library's wheel, which their setup
    cell installs from when it is missing. The zip is reproducible: entries
    are sorted and dated 1980-01-01, the earliest date a zip can hold.

    Parameters:
        site_dir: The built site.
        wheel: The library's wheel.
        editions: Language -> its folder in the site, ``""`` for the default.

    Returns:
        The zips written, one per edition that has exercise notebooks.
    """
    written = []
    for language, folder in editions.items():
        exercises = site_dir / folder / "exercises"
        notebooks = sorted(exercises.glob("*/*.ipynb"))
        if not notebooks:
            continue
        target = exercises / NOTEBOOK_ZIP
        members = {notebook.name: notebook.read_bytes() for notebook in notebooks}
        members[wheel.name] = wheel.read_bytes()
        write_zip(target, f"attention_docs-exercises-{language}", members)
        written.append(target)
    return written

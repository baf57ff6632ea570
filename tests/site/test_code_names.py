"""Library names written in code style on a page resolve (code_names)."""

from types import FunctionType

import pytest
from helpers import ROOT

from attention_docs_site.markdown.api_links import library_names
from attention_docs_site.markdown.code_names import (
    UnknownLibraryName,
    _resolves,
    check_code_names,
    definition,
    is_callable,
    library_modules,
    prose_spans,
)

PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_library_name_a_page_writes_resolves(page):
    check_code_names(page.read_text(encoding="utf-8"), page.name)


@pytest.mark.parametrize(
    "span",
    [
        "attention_docs",
        "attention_docs.pooling.nadaraya_watson",
        "pooling.nadaraya_watson",
        "scores.gaussian_scores",
        "figures.kernel_shapes",
        "attention_docs.figures.experiments.trained",
        "nadaraya_watson.__name__",
        "train(x_train, y_train, epochs=5, lr=0.5)",
        "leave_one_out_mask(n)",
        "figures.sample_size_errors((400, 800, 1600))",
        # not the library's: left alone
        "index.html",
        "x_train",
        "bash scripts/setup.sh docs",
    ],
)
def test_names_that_exist_or_are_not_the_librarys_pass(span):
    check_code_names(f"Text with `{span}` in it.", "page.md")


@pytest.mark.parametrize(
    ("span", "message"),
    [
        (
            "pooling.gaussian_scores",
            "page.md:3: `pooling.gaussian_scores` is not in the library "
            "(it is attention_docs.scores.gaussian_scores)",
        ),
        ("attention_docs.nowhere", "`attention_docs.nowhere` is not in the library"),
        ("figures.no_such_figure", "`figures.no_such_figure` is not in the library"),
        ("no_such_function(x)", "`no_such_function(x)` is not in the library"),
        ("figures.no_such(1)", "`figures.no_such(1)` is not in the library"),
    ],
)
def test_a_name_that_does_not_resolve_fails_naming_page_line_and_home(span, message):
    with pytest.raises(UnknownLibraryName) as raised:
        check_code_names(f"Title\n\nSee `{span}` here.", "page.md")
    assert message in str(raised.value)


def test_code_blocks_and_double_backtick_spans_are_read_as_they_should_be():
    markdown = (
        "Prose ``scores.softmax`` here.\n\n"
        "```python\nfrom attention_docs import pooling\npooling.nope\n```\n\n"
        "Then `model.train` on line 8.\n"
    )
    assert prose_spans(markdown) == [(1, "scores.softmax"), (8, "model.train")]
    check_code_names(markdown, "page.md")


# The names are read from the library's source by griffe; the reference below
# imports the library and asks Python.


def _imported_modules():
    import importlib
    import pkgutil

    package = importlib.import_module("attention_docs")
    modules = {"attention_docs": package}
    for info in pkgutil.walk_packages(package.__path__, "attention_docs."):
        modules[info.name.removeprefix("attention_docs.")] = importlib.import_module(
            info.name
        )
    return modules


def _short(module_name):
    return module_name.removeprefix("attention_docs.") or "attention_docs"


def test_the_source_index_knows_every_module_and_where_each_callable_lives():
    imported = _imported_modules()
    assert set(library_modules()) == set(imported)
    checked = 0
    for short, module in imported.items():
        for name, value in vars(module).items():
            home = getattr(value, "__module__", "") or ""
            if name.startswith("__") or not home.startswith("attention_docs"):
                continue
            if isinstance(value, type | FunctionType):
                expected = (_short(home), value.__qualname__)
                assert definition(short, name) == expected, f"{short}.{name}"
                assert is_callable(short, name), f"{short}.{name}"
                assert _resolves(f"{short}.{name}") is True
                checked += 1
    assert checked > 100  # every function and class, where defined and re-exported


def test_the_source_index_agrees_with_python_on_class_members_and_missing_names():
    imported = _imported_modules()
    for short, module in imported.items():
        for name, value in vars(module).items():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            found = library_modules()[short].members.get(name)
            if found is None or found.bases:  # a class with bases: left to Python
                continue
            for member in found.members:
                assert hasattr(value, member) or member in getattr(
                    value, "__annotations__", {}
                ), f"{short}.{name}.{member}"
            assert _resolves(f"{short}.{name}.no_such_member") is False
        assert _resolves(f"{short}.no_such_name") is False
        assert not hasattr(module, "no_such_name")
    assert _resolves("numpy.linspace") is None  # not the library's


def test_library_calls_link_to_where_the_library_defines_them():
    code = (
        "from attention_docs import nadaraya_watson, KERNELS, figures\n"
        "from attention_docs.scores import gaussian_scores\n"
        "figures.kernel_shapes()\n"
    )
    assert library_names(code) == [
        "attention_docs.pooling.nadaraya_watson",
        "attention_docs.scores.gaussian_scores",
        "attention_docs.figures.kernel_shapes",
    ]

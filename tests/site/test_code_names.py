"""Library names written in code style on a page resolve (code_names)."""

import pytest
from helpers import ROOT

from attention_docs_site.code_names import (
    UnknownLibraryName,
    check_code_names,
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

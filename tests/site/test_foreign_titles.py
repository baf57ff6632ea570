"""The titles of pages served untranslated carry their language (#45).

The markup is the theme's, as a right-to-left edition's page has it: the
header, the tabs, the sidebar's entries (a section, a translated page, a
fallback page, the page itself with its table of contents) and the footer.
"""

import re

import pytest

from attention_docs_site.html_walk import walk
from attention_docs_site.upstream.guard import UpstreamChanged
from attention_docs_site.upstream.material_titles import ForeignTitles, page_key

EN = ' lang="en" dir="ltr"'


def _title(text, tag="span"):
    return f'<{tag} class="md-ellipsis">{text}</{tag}>'


def _link(href, text, classes="md-nav__link"):
    return f'<a href="{href}" class="{classes}">{_title(text)}</a>'


PAGE = "\n".join(
    [
        f'<div class="md-header__topic">{_title("attention_docs")}</div>',
        '<div class="md-header__topic" data-md-component="header-topic">'
        f"{_title('Attention pooling')}</div>",
        '<nav class="md-tabs"><a href="../" class="md-tabs__link">Home</a>',
        # A section's tab: it links to its first page, with the section's name.
        '<a href="../queries-keys-values/" class="md-tabs__link">المراجع</a>',
        '<a href="../attention-cues/" class="md-tabs__link">الفصول</a></nav>',
        f'<label class="md-nav__link" for="__nav_2">{_title("الفصول")}</label>',
        _link("../attention-cues/", "إشارات الانتباه"),
        _link("../queries-keys-values/", "Queries, keys and values"),
        '<label class="md-nav__link md-nav__link--active" for="__toc">'
        f"{_title('Attention pooling')}</label>",
        _link("./", "Attention pooling", "md-nav__link md-nav__link--active"),
        '<ul class="md-nav__list" data-md-component="toc">'
        f"{_link('#average-pooling', 'Average pooling')}</ul>",
        '<a href="https://example.org/" class="md-content__button">edit</a>',
        '<a href="../queries-keys-values/" class="md-footer__link">'
        '<div class="md-footer__button md-icon"></div><div class="md-footer__title">'
        '<span class="md-footer__direction">السابقة</span>'
        f"{_title('Queries, keys and values', 'div')}</div></a>",
        '<a href="../attention-cues/" class="md-footer__link">'
        f'<div class="md-footer__title">{_title("إشارات الانتباه", "div")}</div></a>',
    ]
)
# The edition's pages served untranslated: the home page, two chapters.
FOREIGN = {
    page_key(url): (EN, title)
    for url, title in [
        ("ar/", "Home"),
        ("ar/queries-keys-values/", "Queries, keys and values"),
        ("ar/attention-pooling/", "Attention pooling"),
    ]
}
_TITLE = re.compile(r"<(?:span|div|a)\b([^>]*)>([^<]*)(?=<)")


def titles(page):
    """Each title's text with the attributes it gained: lang, dir."""
    return {
        (text, re.sub(r' (?:class|href)="[^"]*"', "", attributes))
        for attributes, text in _TITLE.findall(page)
        if "md-ellipsis" in attributes or "md-tabs__link" in attributes
    }


def test_each_title_of_a_page_in_another_language_says_which():
    out = walk(PAGE, [ForeignTitles("ar/attention-pooling/", FOREIGN)])
    assert titles(out) == {
        ("attention_docs", ' dir="auto"'),  # a name, in whatever script
        ("Attention pooling", EN),  # header, the page's entry, its own link
        ("Home", EN),
        ("الفصول", ""),
        ("المراجع", ""),
        ("إشارات الانتباه", ""),
        ("Queries, keys and values", EN),  # its entry and the footer's link
        ("Average pooling", EN),  # the page's table of contents
    }
    assert out.count(EN) == 7  # header, tab, entry, label, link, heading, footer
    assert out.replace(EN, "").replace(' dir="auto"', "") == PAGE


def test_a_translated_page_keeps_its_own_titles_and_marks_the_others():
    out = walk(PAGE, [ForeignTitles("ar/attention-cues/", FOREIGN)])
    # Now "./" and "#…" are the translated page's; "../x/" is from its folder.
    assert (
        '<a href="#average-pooling" class="md-nav__link"><span class="md-ellipsis">'
        in out
    )
    assert '<span lang="en" dir="ltr" class="md-ellipsis">Queries, keys' in out


def test_a_default_edition_page_changes_only_the_site_s_name():
    out = walk(PAGE, [ForeignTitles("attention-pooling/", {})])
    assert out.replace(' dir="auto"', "") == PAGE and out.count('dir="auto"') == 1


def test_a_link_whose_title_moved_fails_the_build():
    moved = PAGE.replace(
        '<span class="md-ellipsis">Queries, keys and values</span>', "Q"
    )
    with pytest.raises(UpstreamChanged, match="titles of pages served untranslated"):
        walk(moved, [ForeignTitles("ar/attention-pooling/", FOREIGN)])

"""The reference lists read as a print edition's: a year on each entry, one style."""

from __future__ import annotations

import re

import pytest
from helpers import ROOT

DOCS = ROOT / "docs"


def entries(page: str) -> dict[str, str]:
    """Each reference's heading and the first paragraph of its body."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    found = {}
    for number, line in enumerate(lines[:-1]):
        if line and line[0] not in " :#" and lines[number + 1].startswith(":   "):
            body = [lines[number + 1][4:]]
            for following in lines[number + 2 :]:
                if not following.startswith("    "):
                    break
                body.append(following.strip())
            found[line] = " ".join(" ".join(body).split())
    return found


def test_both_pages_list_the_same_works():
    english, chinese = entries("references.md"), entries("references.zh.md")
    assert len(english) == len(chinese) == 29
    years = [re.search(r"\((\d{4})\)$", h)[1] for h in english]
    assert years == [re.search(r"（(\d{4})）$", h)[1] for h in chinese]


@pytest.mark.parametrize(
    ("heading", "body"), entries("references.md").items(), ids=lambda x: x[:20]
)
def test_an_english_entry_is_author_year(heading, body):
    year = re.search(r"\((\d{4})\)$", heading)[1]
    # Authors, then (year), then the title: APA, as on the whole page.
    assert re.match(rf"[^()]+\. \({year}\)\. \S", body), body


def is_author_year_gb_t_7714(body: str, year: str) -> bool:
    """GB/T 7714-2015's author-year system (9.2): the year follows the authors
    and is not repeated in the publication data."""
    # Authors. Year. Title[type]...; authors are initials without full stops.
    start = rf"^[^.\[\]]+?(?:, et al|, 等)?\. {year}\. [^\[]+"
    # ...[J]. Journal, volume(issue): pages.
    journal = r"\[J\]\. [^,\d]+(?:, [^,\d]+)*, \d+\(\d+\): \d+-\d+\.$"
    # ...[C]//Proceedings. Place: Publisher: pages (or [出版地不详], [出版者不详]).
    proceedings = r"\[C\]//.+\. [^:.\d]+: [^:\d]+: \d+-\d+\.$"
    # ...[M]. Place: Publisher.
    book = r"\[M\]\. [^:\d]+: [^,:\d]+\.$"
    # ...[EB/OL]. Address (an online resource, here an online book's release).
    online = r"\[EB/OL\]\. https://\S+\.$"
    return bool(re.search(f"{start}(?:{journal}|{proceedings}|{book}|{online})", body))


@pytest.mark.parametrize(
    ("heading", "body"), entries("references.zh.md").items(), ids=lambda x: x[:20]
)
def test_a_chinese_entry_follows_gb_t_7714(heading, body):
    year = re.search(r"（(\d{4})）$", heading)[1]
    assert is_author_year_gb_t_7714(body, year), body
    assert "&" not in body.split(".")[0]  # GB/T joins authors with commas


@pytest.mark.parametrize(
    "body",
    [
        # The numeric system's order: the year in the publication data.
        "Koch K, McLean J, Segev R, et al. How much the eye tells the brain[J]. "
        "Current Biology, 2006, 16(14): 1428-1434.",
        # The year twice.
        "Koch K, McLean J, Segev R, et al. 2006. How much the eye tells the "
        "brain[J]. Current Biology, 2006, 16(14): 1428-1434.",
        # A proceedings without place and publisher.
        "Jain S, Wallace B C. 2006. Attention is not explanation[C]//Proceedings "
        "of NAACL-HLT 2019. 2006: 3543-3556.",
        "Jain S, Wallace B C. 2006. Attention is not explanation[C]//Proceedings "
        "of NAACL-HLT 2019: 3543-3556.",
        # A book with the year at the end.
        "Fan J, Gijbels I. 2006. Local polynomial modelling and its "
        "applications[M]. London: Chapman & Hall, 2006.",
    ],
)
def test_the_check_rejects_other_orders(body):
    assert not is_author_year_gb_t_7714(body, "2006")


def test_the_chinese_edition_of_d2l_carries_its_publication_data():
    text = (DOCS / "references.zh.md").read_text(encoding="utf-8")
    assert (
        "阿斯顿·张, 李沐, 扎卡里·C. 立顿, 等. 2023. 动手学深度学习: PyTorch版[M]. "
        "北京: 人民邮电出版社." in text
    )

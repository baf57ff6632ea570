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
    assert len(english) == len(chinese) == 17
    years = [re.search(r"\((\d{4})\)$", h)[1] for h in english]
    assert years == [re.search(r"（(\d{4})）$", h)[1] for h in chinese]


@pytest.mark.parametrize(
    ("heading", "body"), entries("references.md").items(), ids=lambda x: x[:20]
)
def test_an_english_entry_is_author_year(heading, body):
    year = re.search(r"\((\d{4})\)$", heading)[1]
    # Authors, then (year), then the title: APA, as on the whole page.
    assert re.match(rf"[^()]+\. \({year}\)\. \S", body), body


@pytest.mark.parametrize(
    ("heading", "body"), entries("references.zh.md").items(), ids=lambda x: x[:20]
)
def test_a_chinese_entry_follows_gb_t_7714(heading, body):
    year = re.search(r"（(\d{4})）$", heading)[1]
    # Authors. Title[J]. Journal, year, volume(issue): pages.
    journal = rf"\[J\]\. [^,]+(?:, [^,]+)*, {year}, \d+\(\d+\): \d+-\d+\.$"
    # Authors. Title[C]//Proceedings. year: pages.
    proceedings = rf"\[C\]//.+\. {year}: \d+-\d+\.$"
    # Authors. Title[M]. Place: Publisher, year.
    book = rf"\[M\]\. [^:]+: [^,]+, {year}\.$"
    assert re.search(f"{journal}|{proceedings}|{book}", body), body
    assert "&" not in body.split(".")[0]  # GB/T joins authors with commas


def test_the_chinese_edition_of_d2l_carries_its_publication_data():
    text = (DOCS / "references.zh.md").read_text(encoding="utf-8")
    assert "动手学深度学习（PyTorch版）[M]. 北京: 人民邮电出版社, 2023." in text

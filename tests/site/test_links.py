"""The built-site link checker, on small hand-made sites."""

from __future__ import annotations

from pathlib import Path

import pytest

from attention_docs_site.site import links


def write(site: Path, path: str, body: str) -> None:
    target = site / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"<html><body>\n{body}\n</body></html>", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    write(tmp_path, "index.html", '<h1 id="top">Home</h1><a href="guide/#usage">g</a>')
    write(
        tmp_path,
        "guide/index.html",
        '<h2 id="usage">Usage</h2><h2 id="注意力汇聚">汇聚</h2><a name="old">x</a>'
        '<a href="../">home</a>'
        '<a href="#%E6%B3%A8%E6%84%8F%E5%8A%9B%E6%B1%87%E8%81%9A">zh</a>'
        '<a href="#old">o</a><a href="../#top">t</a>'
        '<link href="../assets/style.css" rel="stylesheet">'
        '<a href="https://example.org/paper">paper</a><a href="mailto:a@b.org">m</a>'
        '<a href="javascript:void(0)">j</a><a href="#">top</a>',
    )
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "style.css").write_text("body {}")
    return tmp_path


def test_a_sound_site_has_no_broken_link(site: Path) -> None:
    report = links.check_site(site)
    assert report.broken == []
    assert report.external == ["https://example.org/paper", "mailto:a@b.org"]
    assert report.checked == 7


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('<a href="../missing/">m</a>', "no file for /missing/"),
        ('<a href="../#nowhere">n</a>', "no anchor #nowhere in index.html"),
        ('<a href="#注意力">n</a>', "no anchor #注意力 in guide/index.html"),
        ('<img src="../assets/logo.svg">', "no file for /assets/logo.svg"),
        ('<a href="https:/example.org">e</a>', "malformed external link"),
    ],
)
def test_each_broken_link_is_named_with_page_and_line(
    site: Path, body: str, reason: str
) -> None:
    page = site / "guide" / "index.html"
    page.write_text(page.read_text(encoding="utf-8") + "\n" + body, encoding="utf-8")
    (broken,) = links.check_site(site).broken
    assert broken.startswith("guide/index.html:4: ")
    assert broken.endswith(reason)


def test_links_under_the_site_url_are_internal(site: Path) -> None:
    write(
        site, "about/index.html", '<a href="https://me.example/docs/guide/#usage">u</a>'
    )
    report = links.check_site(site, site_url="https://me.example/docs/")
    assert report.broken == []
    assert report.external == ["https://example.org/paper", "mailto:a@b.org"]
    write(site, "about/index.html", '<a href="https://me.example/docs/gone/">u</a>')
    assert links.check_site(site, "https://me.example/docs").broken == [
        "about/index.html:2: https://me.example/docs/gone/: no file for /gone/"
    ]


def test_absolute_paths_must_stay_under_the_sites_path(site: Path) -> None:
    url = "https://me.example/docs/"
    write(site, "about/index.html", '<a href="/docs/guide/#usage">u</a>')
    assert links.check_site(site, url).broken == []
    write(site, "about/index.html", '<a href="/guide/">u</a>')
    assert links.check_site(site, url).broken == [
        "about/index.html:2: /guide/: /guide/ is outside the site's path /docs/"
    ]


def test_command_line_exit_status(site: Path, capsys: pytest.CaptureFixture) -> None:
    assert links.main([str(site)]) == 0
    assert "7 internal links checked" in capsys.readouterr().out
    write(site, "broken/index.html", '<a href="../nope/">x</a>')
    assert links.main([str(site)]) == 1
    assert "broken: broken/index.html:2: ../nope/" in capsys.readouterr().err

"""The offline copies' changes to pages, search index and script (offline.py)."""

import json
import zipfile

from attention_docs_site.layout import PYODIDE_FOLDER
from attention_docs_site.site.offline import (
    classic_script,
    offline_link,
    offline_page,
    offline_search_index,
    write_offline_zips,
)

URL = "https://example.org/docs/"
SITE = {
    "index.html",
    "attention-cues/index.html",
    "assets/site.css",
    "exercises/notebooks.zip",
    "zh/index.html",
    "zh/attention-cues/index.html",
}
EN = SITE - {"zh/index.html", "zh/attention-cues/index.html"}
ZH = {"zh/index.html", "zh/attention-cues/index.html", "assets/site.css"}


def test_folder_links_name_their_page():
    page = "attention-cues/index.html"
    assert offline_link(page, "../", EN, SITE, URL) == "../index.html"
    assert offline_link(page, "./", EN, SITE, URL) == "index.html"
    assert offline_link(page, "./#cue", EN, SITE, URL) == "index.html#cue"
    assert offline_link("index.html", "attention-cues/", EN, SITE, URL) == (
        "attention-cues/index.html"
    )
    assert offline_link("index.html", ".", EN, SITE, URL) == "index.html"


def test_files_fragments_and_other_hosts_are_left_alone():
    page = "attention-cues/index.html"
    for link in ("../assets/site.css", "#cue", "https://arxiv.org/", "mailto:x@y.z"):
        assert offline_link(page, link, EN, SITE, URL) == link


def test_links_into_the_other_edition_go_to_the_published_site():
    page = "attention-cues/index.html"
    assert offline_link(page, "../zh/attention-cues/", EN, SITE, URL) == (
        f"{URL}zh/attention-cues/"
    )
    # The language menu's links are absolute paths on the published site.
    assert offline_link(page, "/docs/zh/attention-cues/", EN, SITE, URL) == (
        f"{URL}zh/attention-cues/"
    )
    zh_page = "zh/attention-cues/index.html"
    assert offline_link(zh_page, "/docs/zh/attention-cues/", ZH, SITE, URL) == (
        "index.html"
    )
    assert offline_link(zh_page, "/docs/zh/", ZH, SITE, URL) == "../index.html"
    assert offline_link(zh_page, "../../attention-cues/#x", ZH, SITE, URL) == (
        f"{URL}attention-cues/#x"
    )
    assert offline_link(zh_page, "../../exercises/notebooks.zip", ZH, SITE, URL) == (
        f"{URL}exercises/notebooks.zip"
    )


def test_the_downloads_are_on_the_published_site_even_when_this_build_made_none():
    """A build without PDFs (or before the zips are written) links them there too."""
    page = "zh/index.html"
    for link in ("../pdf/attention_docs-zh.pdf", "../offline/attention_docs-zh.zip"):
        assert offline_link(page, link, ZH, SITE, URL) == URL + link.removeprefix("../")


PAGE = """<head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" \
content="default-src 'self'"><link rel="preload" href="../assets/fonts/m.woff2" \
as="font" type="font/woff2" crossorigin><script id="__config" type="application/json">\
{"base": "..",
"features": ["navigation.instant", "navigation.instant.progress", "toc.follow"]}
</script></head><body><a href="../">home</a>
<script src="../assets/javascripts/bundle.abc.min.js"></script>
<script src="../assets/explorables.js" type="module" fetchpriority="low"></script>\
</body>"""


def test_a_page_loads_the_shim_first_and_no_module_and_has_no_instant_navigation():
    html = offline_page(PAGE, "attention-cues/index.html", EN, SITE, URL)
    shim = html.index('<script src="../assets/vendor/iframe-worker.js"></script>')
    assert shim < html.index("bundle.abc.min.js")
    assert '<script src="../assets/explorables.js" defer fetchpriority="low">' in html
    assert 'type="module"' not in html
    config = json.loads(html.split('"application/json">')[1].split("</script>")[0])
    assert config["features"] == ["toc.follow"]
    assert '<a href="../index.html">home</a>' in html
    # The shim's frame runs an inline script, which the site's policy refuses,
    # and file:// refuses a preload (a CORS request).
    assert "Content-Security-Policy" not in html and "preload" not in html
    assert html.startswith('<head><meta charset="utf-8"><script id="__config" ')


def test_the_search_index_is_a_script_with_page_addresses():
    index = {
        "config": {},
        "docs": [
            {"location": "", "title": "Home"},
            {"location": "attention-cues/#cue", "title": "Cue"},
            {"location": "api/", "title": "API"},
        ],
    }
    script = offline_search_index(index)
    assert script.startswith("var __index = ")
    loaded = json.loads(script.removeprefix("var __index = "))
    assert [d["location"] for d in loaded["docs"]] == [
        "index.html",
        "attention-cues/index.html#cue",
        "api/index.html",
    ]


def test_the_module_becomes_a_classic_script_with_its_own_scope():
    module = "const a = 1;\nexport function f() { return a; }\nexport const g = 2;\n"
    script = classic_script(module)
    assert "export" not in script
    assert script.startswith("(() => {") and script.rstrip().endswith("})();")
    assert "function f() { return a; }" in script and "const g = 2;" in script


def members(archive):
    """The files of an offline zip, below its one top folder, sorted."""
    tops = {name.split("/", 1)[0] for name in archive.namelist()}
    assert len(tops) == 1, tops
    return sorted(name.split("/", 1)[1] for name in archive.namelist())


def test_zips_hold_one_edition_each_and_are_reproducible(tmp_path):
    site = tmp_path / "site"
    files = {
        "index.html": PAGE.replace('href="../"', 'href="zh/"'),
        "attention-cues/index.html": PAGE,
        "assets/site.css": "body{}",
        "assets/javascripts/bundle.js.map": "{}",
        "sitemap.xml": "<urlset/>",
        "exercises/attention-cues/attention-cues.ipynb": "{}",
        "search/search_index.json": '{"config": {}, "docs": [{"location": ""}]}',
        "zh/index.html": PAGE,
        "zh/search/search_index.json": '{"config": {}, "docs": [{"location": ""}]}',
    }
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, "utf-8")
    editions = {"en": "", "zh": "zh/"}
    first = [z.read_bytes() for z in write_offline_zips(site, URL, editions)]
    second = [z.read_bytes() for z in write_offline_zips(site, URL, editions)]
    assert first == second
    en, zh = (
        zipfile.ZipFile(site / "offline" / f"attention_docs-{lang}.zip")
        for lang in editions
    )
    assert members(en) == [
        "assets/site.css",
        "assets/vendor/iframe-worker.js",
        "attention-cues/index.html",
        "exercises/attention-cues/attention-cues.ipynb",
        "index.html",
        "search/search_index.js",
    ]
    assert (
        f'<a href="{URL}zh/">home</a>'
        in en.read("attention_docs-en/index.html").decode()
    )
    assert members(zh) == [
        "assets/site.css",
        "assets/vendor/iframe-worker.js",
        "index.html",
        "zh/index.html",
        "zh/search/search_index.js",
    ]
    assert "zh/index.html" in zh.read("attention_docs-zh/index.html").decode()
    zh_home = zh.read("attention_docs-zh/zh/index.html").decode()
    assert f'<a href="{URL}">home</a>' in zh_home


def test_a_site_with_the_runtime_also_has_a_light_copy_without_it(tmp_path):
    """The light copy: no Pyodide, no runner scripts, pages that load neither."""
    site = tmp_path / "site"
    runner = '<script src="../assets/run.js" defer></script>\n'
    files = {
        "index.html": PAGE,
        "attention-cues/index.html": PAGE.replace("</body>", runner + "</body>"),
        "assets/run.js": "run()",
        "assets/run-worker.js": "work()",
        "assets/site.css": "body{}",
        f"{PYODIDE_FOLDER}/pyodide.asm.wasm": "wasm",
        "search/search_index.json": '{"config": {}, "docs": [{"location": ""}]}',
    }
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, "utf-8")
    written = write_offline_zips(site, URL, {"en": ""})
    assert [path.name for path in written] == [
        "attention_docs-en.zip",
        "attention_docs-en-lite.zip",
    ]
    full, lite = (zipfile.ZipFile(path) for path in written)
    assert set(members(full)) - set(members(lite)) == {
        "assets/run.js",
        "assets/run-worker.js",
        f"{PYODIDE_FOLDER}/pyodide.asm.wasm",
    }
    page = "attention_docs-en/attention-cues/index.html"
    assert "assets/run.js" in full.read(page).decode()
    assert "assets/run.js" not in lite.read(page).decode()
    assert lite.read(page).decode() == full.read(page).decode().replace(runner, "")


def test_the_runtime_s_part_is_zipped_once_and_the_copy_is_the_same(tmp_path):
    """From the cache or not, the same bytes; an upgraded runtime replaces its zip."""
    from attention_docs_site.zips import cached_zip

    site = tmp_path / "site"
    files = {
        "index.html": PAGE,
        "assets/run.js": "run()",
        f"{PYODIDE_FOLDER}/pyodide.asm.wasm": "wasm " * 1000,
        "search/search_index.json": '{"config": {}, "docs": [{"location": ""}]}',
    }
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, "utf-8")
    plain = [z.read_bytes() for z in write_offline_zips(site, URL, {"en": ""})]
    cache = tmp_path / "cache"
    cached = [z.read_bytes() for z in write_offline_zips(site, URL, {"en": ""}, cache)]
    again = [z.read_bytes() for z in write_offline_zips(site, URL, {"en": ""}, cache)]
    assert plain == cached == again
    kept = sorted((cache / "offline-runtime").iterdir())
    assert len(kept) == 1 and kept[0].name.startswith("attention_docs-en-")
    full = zipfile.ZipFile(site / "offline" / "attention_docs-en.zip")
    assert full.testzip() is None
    top = "attention_docs-en/"
    assert full.namelist()[:2] == [  # the runtime's part first
        f"{top}assets/run.js",
        f"{top}{PYODIDE_FOLDER}/pyodide.asm.wasm",
    ]
    newer = cached_zip(cache / "offline-runtime", "attention_docs-en", {"x": b"1"})
    assert sorted((cache / "offline-runtime").iterdir()) == [newer]

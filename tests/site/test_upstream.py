"""The one guard of every reach into a dependency (upstream/guard.py)."""

import json
import re

import pytest
from mkdocs.exceptions import PluginError

from attention_docs_site.upstream import guard
from attention_docs_site.upstream.guard import Reach, UpstreamChanged
from attention_docs_site.upstream.registry import reaches

REACH = Reach(
    "test: a made-up reach", "mkdocs", "0.0.1", "edits", "a test", "correctness"
)
SPEED = Reach("test: a speed reach", "mkdocs", "0.0.1", "edits", "a test", "speed")


@pytest.fixture(autouse=True)
def _fresh_build(monkeypatch):
    monkeypatch.delenv(guard.REPORT_VARIABLE, raising=False)
    guard.start_build(speed_edits=True)
    yield
    guard.start_build(speed_edits=True)


def test_an_edit_that_matches_nothing_names_the_reach_package_and_versions():
    import mkdocs

    with pytest.raises(UpstreamChanged) as raised:
        REACH.edit(re.compile("absent"), "", "some text")
    message = str(raised.value)
    assert "'test: a made-up reach'" in message
    assert f"mkdocs {mkdocs.__version__}" in message
    assert "written for 0.0.1" in message and "'absent'" in message


def test_an_edit_applies_exactly_the_count_it_declares():
    assert REACH.edit(re.compile("a"), "b", "aa", count=2) == "bb"
    with pytest.raises(UpstreamChanged, match="expected 1 matches.*found 2"):
        REACH.edit(re.compile("a"), "b", "aa", count=1)
    # limit replaces fewer than it finds; count still counts every match
    assert REACH.edit(re.compile("a"), "b", "aa", count=2, limit=1) == "ba"


def test_a_replacement_checks_the_parameters_of_what_it_replaces():
    class Owner:
        def method(self, page):
            return "original"

    REACH.replace(Owner, "method", ["self", "page"], lambda old: lambda s, p: "new")
    assert Owner().method(None) == "new"
    with pytest.raises(UpstreamChanged, match=r"no longer takes \['self'\]"):
        REACH.replace(Owner, "method", ["self"], lambda old: old)
    with pytest.raises(UpstreamChanged, match="missing"):
        REACH.replace(Owner, "gone", ["self"], lambda old: old)


def test_steps_of_a_reach_fail_in_its_name():
    with pytest.raises(UpstreamChanged, match="made-up reach.*the bundle moved"):
        with REACH.applying():
            raise UpstreamChanged("the bundle moved")


def test_the_speed_switch_turns_off_speed_reaches_only():
    guard.start_build(speed_edits=False)
    assert not SPEED.active and REACH.active
    guard.start_build(speed_edits=True)
    assert SPEED.active


def _benchmark_off(monkeypatch, names: str) -> None:
    """A build with the benchmarks' switch naming ``names``."""
    monkeypatch.setenv(guard.BENCHMARK_VARIABLE, names)
    guard.start_build(speed_edits=True)


@pytest.fixture
def switch_reset(monkeypatch):
    yield
    monkeypatch.delenv(guard.BENCHMARK_VARIABLE, raising=False)
    guard.start_build(speed_edits=True)  # nothing left off for later tests


def test_the_benchmarks_switch_turns_off_the_speed_reaches_it_names(
    monkeypatch, switch_reset
):
    from attention_docs_site.upstream.watchdog import POLL_INTERVAL

    _benchmark_off(monkeypatch, f" {POLL_INTERVAL.name} ;")
    assert not POLL_INTERVAL.active
    assert all(r.active for r in reaches() if r is not POLL_INTERVAL)


def test_the_benchmarks_switch_refuses_a_name_it_does_not_know(
    monkeypatch, switch_reset
):
    with pytest.raises(PluginError, match=r"no speed reach: \['nope'\]"):
        _benchmark_off(monkeypatch, "nope")
    correctness = next(r for r in reaches() if r.need == "correctness")
    with pytest.raises(PluginError, match="no speed reach"):
        _benchmark_off(monkeypatch, correctness.name)


def test_partial_rebuilds_need_all_three_of_their_reaches(monkeypatch, switch_reset):
    """Turning off one part of them (the benchmarks do) turns them all off."""
    from attention_docs_site.upstream import mkdocs_dirty
    from attention_docs_site.upstream.material_search import SEARCH_INDEX

    assert mkdocs_dirty.partial_allowed()
    for reach in (mkdocs_dirty.DIRTY_BUILDS, mkdocs_dirty.PAGE_SKIP, SEARCH_INDEX):
        _benchmark_off(monkeypatch, reach.name)
        assert not mkdocs_dirty.partial_allowed(), reach.name


def test_the_canary_s_report_records_failures_and_the_build_goes_on(
    monkeypatch, tmp_path
):
    report = tmp_path / "reaches.json"
    monkeypatch.setenv(guard.REPORT_VARIABLE, str(report))
    guard.start_build(speed_edits=True)
    reach = guard.declare("test: reported", "mkdocs", "0.0.1", "e", "w", "speed")
    try:
        assert reach.edit(re.compile("absent"), "", "text") == "text"  # unchanged
        assert reach.edit(re.compile("t"), "T", "text") == "TexT"
        with pytest.raises(PluginError, match="test: reported"):
            guard.finish_report()
        row = json.loads(report.read_text())["test: reported"]
        assert row["applied"] == 1 and "'absent'" in row["failures"][0]
    finally:
        del guard.REACHES["test: reported"]


def test_a_reach_is_declared_once():
    with pytest.raises(ValueError, match="twice"):
        guard.declare(reaches()[0].name, "x", "0", "w", "w", "speed")


def test_every_reach_says_what_why_and_for_which_version_of_an_installed_package():
    """The version it was written for is a column of the canary's report: a
    newer release that the reach still applies to is no failure."""
    from packaging.version import Version

    found = reaches()
    assert len(found) >= 20
    for reach in found:
        assert reach.what and reach.why and reach.need in {"correctness", "speed"}
        assert reach.installed() != "not installed", reach.name
        assert Version(reach.written_for), reach.name


def test_every_reach_s_report_is_one_written_in_upstream_readme():
    from pathlib import Path

    from attention_docs_site.upstream import registry

    readme = (Path(registry.__file__).parent / "README.md").read_text("utf-8")
    section = readme.split("## Reports for the fixes that belong upstream", 1)[1]
    titles = {t.strip() for t in re.findall(r"^\*\*(.+?)\.\*\*", section, re.M | re.S)}
    named = {reach.report for reach in reaches() if reach.report}
    assert len(named) >= 10
    assert named <= {" ".join(title.split()) for title in titles}
    assert all(reach.reported == "" or reach.reported.startswith("https://")
               for reach in reaches())  # fmt: skip


def test_the_report_gathers_builds_and_says_what_failed_or_was_never_applied(
    monkeypatch, tmp_path
):
    """Two builds (say a build and a serve's rebuild) write one report."""
    report = tmp_path / "reaches.json"
    monkeypatch.setenv(guard.REPORT_VARIABLE, str(report))
    names = ["test: applied once", "test: never applied", "test: newer package"]
    once, never, newer = (
        guard.declare(name, "mkdocs", written, "e", "w", "correctness")
        for name, written in zip(names, ["0.0.1", "0.0.1", "0.0.1"], strict=True)
    )
    try:
        guard.start_build(speed_edits=True)
        once.require(True, "")
        newer.require(True, "")
        guard.finish_report()
        guard.start_build(speed_edits=True)  # the second build applies none
        newer.require(True, "")
        guard.finish_report()
        rows = json.loads(report.read_text())
        assert rows["test: applied once"]["applied"] == 1  # not counted twice
        assert rows["test: applied once"]["active"] == 2
        assert rows["test: newer package"]["applied"] == 2
        assert guard.verdict(rows["test: applied once"]) == ""
        assert guard.verdict(rows["test: newer package"]) == ""  # 0.0.1 vs 1.6.1
        assert guard.verdict(rows["test: never applied"]).startswith("NOT EXERCISED")
        guard.start_build(speed_edits=True)
        never.require(False, "its anchor moved")
        with pytest.raises(PluginError, match="test: never applied"):
            guard.finish_report()
        row = json.loads(report.read_text())["test: never applied"]
        assert guard.verdict(row) == "FAILS: its anchor moved"
    finally:
        for name in names:
            del guard.REACHES[name]


def test_no_module_outside_upstream_replaces_a_dependency_s_attribute():
    from pathlib import Path

    import attention_docs_site

    package = Path(attention_docs_site.__file__).parent
    # module.Class.attribute = ..., but not a configuration's value (a plugin's
    # options, IPython's traitlets Config)
    patch = re.compile(r"^\s*(?!self\.|config\.)\w+\.(?!config\.)\w+\.\w+ = ", re.M)
    offenders = [
        path.name
        for path in package.rglob("*.py")
        if "upstream" not in path.parts
        if patch.search(path.read_text("utf-8"))
    ]
    assert offenders == []


def _private_reaches(source: str) -> list[str]:
    """Private names of other packages that a module imports or reads."""
    import ast
    import sys

    tree = ast.parse(source)
    external: set[str] = set()  # names bound to another package's objects
    found = []

    def private(name: str) -> bool:
        return any(
            p.startswith("_") and not p.startswith("__") for p in name.split(".")
        )

    def ours(module: str) -> bool:
        top = module.split(".")[0]
        return top.startswith("attention_docs") or top in sys.stdlib_module_names

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not ours(alias.name):
                    external.add((alias.asname or alias.name).split(".")[0])
                    if private(alias.name):
                        found.append(f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            if ours(module):
                continue
            for alias in node.names:
                external.add(alias.asname or alias.name)
                if private(module) or private(alias.name):
                    found.append(f"from {module} import {alias.name}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in external
            and private(node.attr)
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_the_private_name_check_finds_imports_and_reads():
    source = (
        "import a._b\nfrom c import _d\nfrom e._f import g\n"
        "import h\nh._i = 1\nfrom attention_docs import _ours\n"
    )
    assert _private_reaches(source) == [
        "import a._b",
        "from c import _d",
        "from e._f import g",
        "h._i",
    ]


def test_nothing_outside_upstream_touches_a_dependency_s_private_names():
    from pathlib import Path

    import attention_docs_site

    package = Path(attention_docs_site.__file__).parent
    found = {
        path.relative_to(package).as_posix(): reaches
        for path in sorted(package.rglob("*.py"))
        if "upstream" not in path.parts
        if (reaches := _private_reaches(path.read_text("utf-8")))
    }
    assert found == {}


def test_the_registry_holds_every_module_that_declares_a_reach():
    from pathlib import Path

    from attention_docs_site.upstream import registry

    folder = Path(registry.__file__).parent
    declaring = {
        path.stem
        for path in folder.glob("*.py")
        if path.stem != "guard" and "declare(" in path.read_text("utf-8")
    }
    assert declaring == {
        module.__name__.rsplit(".", 1)[1] for module in registry.MODULES
    }


def test_a_reach_the_build_expects_must_apply_somewhere_in_it():
    """A detection that finds no anchor (a class renamed) fails the build."""
    guard.start_build(speed_edits=True)
    REACH.expect("the site has two editions")
    guard.start_build(speed_edits=True, fresh=False)  # an edition's nested build
    with pytest.raises(UpstreamChanged, match="made-up reach.*two editions"):
        guard.check_expected()
    REACH.require(True, "")
    guard.check_expected()  # applied once: enough
    guard.start_build(speed_edits=True)  # a new build forgets both
    guard.check_expected()
    guard.start_build(speed_edits=False)
    SPEED.expect("a speed reach, off")
    guard.check_expected()  # an inactive reach is not expected


def test_the_theme_s_anchors_are_expected_where_the_site_has_them():
    from attention_docs_site.upstream import material_html, material_page

    nav = [{"Home": "index.md"}, {"Chapters": ["a.md", "b.md"]}]
    material_page.expect_theme_anchors(["navigation.sections"], nav, 2)
    material_html.expect_annotations("x = 1  # (1)!\n", "docs/a.md")
    for reach in (  # as check_expected names them: by name
        material_html.CODE_ANNOTATIONS,
        material_page.EMPTY_TABINDEX,
        material_page.LANGUAGE_ALTERNATES,
    ):
        with pytest.raises(UpstreamChanged, match=re.escape(reach.name)):
            guard.check_expected()
        reach.require(True, "")
    guard.check_expected()
    guard.start_build(speed_edits=True)
    material_page.expect_theme_anchors(["navigation.tabs"], [{"Home": "i.md"}], 1)
    material_html.expect_annotations("x = 1  # (1) no bang\n", "docs/a.md")
    guard.check_expected()  # one edition, no sections, no annotation


def test_the_names_the_site_s_scripts_read_from_material_are_checked(tmp_path):
    """language.js, annotations.js and the head script read Material's names."""
    import shutil
    from pathlib import Path

    import material

    from attention_docs_site.upstream import material_scripts

    theme = Path(material.__file__).parent / "templates"
    material_scripts.check_script_anchors([str(theme)])  # today's Material
    copy = tmp_path / "templates"
    shutil.copytree(theme, copy, ignore=shutil.ignore_patterns("*.map", "lunr"))
    (bundle,) = copy.glob(material_scripts.BUNDLE)
    text = bundle.read_text("utf-8")
    bundle.write_text(text.replace("md-annotation__index", "md-annotation__n"))
    with pytest.raises(UpstreamChanged, match="annotations.js.*md-annotation__index"):
        material_scripts.check_script_anchors([str(copy)])


def test_a_page_without_the_anchor_applies_nothing_and_the_build_says_so():
    """A renamed class finds no section label: the page's edit is not counted
    as applied, so the expected reach fails the build."""
    from attention_docs_site.html_walk import walk
    from attention_docs_site.upstream.material_page import (
        EMPTY_TABINDEX,
        EmptyTabindex,
    )

    renamed = (
        '<li class="md-nav__item md-nav__item--sect1on"><input class="md-nav__toggle">'
        '<label class="md-nav__link" tabindex="x">A</label></li>'
    )
    as_built = renamed.replace("sect1on", "section").replace('"x"', '""')
    EMPTY_TABINDEX.expect("the navigation has sections")
    assert walk(renamed, [EmptyTabindex()]) == renamed
    with pytest.raises(UpstreamChanged, match="empty tabindex.*has sections"):
        guard.check_expected()
    assert 'tabindex=""' not in walk(as_built, [EmptyTabindex()])
    guard.check_expected()


def test_every_test_file_the_canary_runs_exists():
    """A test file deleted or renamed would make the canary fail for no reach."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    canary = (root / "scripts" / "canary.py").read_text("utf-8")
    named = re.findall(r'"(tests/[\w/]+\.py)"', canary)
    assert len(named) >= 5, named
    assert [name for name in named if not (root / name).is_file()] == []

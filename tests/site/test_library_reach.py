"""Which library code a run reached: every edit that could change its output shows."""

import cProfile
import importlib
import pstats
import sys
import textwrap
from pathlib import Path

import pytest

import attention_docs
from attention_docs_site.execute.library_reach import Recorder, clear_memo, uninstrument
from attention_docs_site.execute.library_source import DATA, LibrarySource

TOY = {
    "__init__.py": "",
    "tables.py": """
        NAMES = {"a": "A", "b": "B"}


        def unused_table_helper():
            return NAMES
    """,
    "core.py": """
        import functools
        import inspect
        from dataclasses import dataclass

        from . import tables

        SCALE = 3
        double = lambda x: 2 * x  # noqa: E731


        def inner(key):
            return tables.NAMES[key]


        def outer(key):
            return inner(key) * SCALE


        @functools.cache
        def memo(n):
            return inner("a") * n


        def through_memo():
            return memo(2)


        @dataclass
        class Point:
            x: int = 1

            def shifted(self):
                return self.x + 1


        def make_point():
            return Point()


        def shifted_point():
            return Point().shifted()


        def listed():
            return "secret"


        def listing():
            return inspect.getsource(listed)


        def nested():
            def helper():
                return [SCALE for _ in range(2)]

            return helper()


        def untouched():
            return "never called"
    """,
}

# What each run's output depends on, by reading the toy's code: the functions it
# executes and the data they read (module data is always included).
RUNS = {
    "outer": ({"core:outer", "core:inner"}, lambda m: m.outer("a")),
    "through_memo": (
        {"core:through_memo", "core:memo", "core:inner"},
        lambda m: m.through_memo(),
    ),
    "make_point": ({"core:make_point"}, lambda m: m.make_point()),
    "shifted_point": (
        {"core:shifted_point", "core:Point.shifted"},
        lambda m: m.shifted_point(),
    ),
    # Source read as text: the whole module counts, as linecache reads it whole.
    "listing": (
        {
            f"core:{name}"
            for name in (
                "inner outer memo through_memo Point.shifted make_point "
                "shifted_point listed listing nested untouched"
            ).split()
        },
        lambda m: m.listing(),
    ),
    "nested": ({"core:nested"}, lambda m: m.nested()),
}


@pytest.fixture
def toy(tmp_path, monkeypatch):
    package = tmp_path / "toylib"
    package.mkdir()
    for name, text in TOY.items():
        (package / name).write_text(textwrap.dedent(text).lstrip())
    monkeypatch.syspath_prepend(str(tmp_path))
    yield package
    uninstrument("toylib")
    for name in [n for n in sys.modules if n.split(".")[0] == "toylib"]:
        del sys.modules[name]


def core():
    return importlib.import_module("toylib.core")


def run_traced(package, call):
    source = LibrarySource(package)
    recorder = Recorder(source)
    with recorder.recording():
        call(core())  # memoised results and imports are warm before the run
    with recorder.recording() as reached:
        call(core())
    return source, reached | source.data_units()


def edit(package, unit):
    """Change one unit's source text (a comment inside it) and nothing else."""
    module, name = unit.split(":")
    path = package / f"{module.removeprefix('toylib').lstrip('.') or '__init__'}.py"
    lines = path.read_text().splitlines(keepends=True)
    if name == DATA:
        lines.append("# edited data\n")
    else:
        last = name.split(".")[-1]
        index = next(i for i, line in enumerate(lines) if f"def {last}(" in line)
        indent = len(lines[index + 1]) - len(lines[index + 1].lstrip())
        lines.insert(index + 1, " " * indent + "# edited\n")
    path.write_text("".join(lines))


@pytest.mark.parametrize("run", RUNS)
def test_an_edit_outdates_a_run_exactly_when_the_run_reached_it(toy, run):
    expected, call = RUNS[run]
    source, units = run_traced(toy, call)
    recorded = source.current(units)
    data = {f"{m}:{DATA}" for m in ("toylib", "toylib.core", "toylib.tables")}
    assert units == {f"toylib.{u}" for u in expected} | data
    original = {path: path.read_text() for path in toy.glob("*.py")}
    for unit in sorted(set(LibrarySource(toy).digests)):
        edit(toy, unit)
        fresh = LibrarySource(toy).is_fresh(recorded)
        assert fresh == (unit not in units), unit
        for path, text in original.items():
            path.write_text(text)
    assert LibrarySource(toy).is_fresh(recorded)


def test_a_removed_function_outdates_the_runs_that_reached_it(toy):
    source, units = run_traced(toy, lambda m: m.outer("a"))
    recorded = source.current(units)
    core = toy / "core.py"
    core.write_text(core.read_text().replace("def inner(key)", "def renamed(key)"))
    assert not LibrarySource(toy).is_fresh(recorded)


def test_a_memo_filled_unrecorded_is_emptied_and_one_recorded_is_kept(toy):
    recorder = Recorder(LibrarySource(toy))
    with recorder.recording():
        core().memo(2)
    clear_memo("toylib.core:memo")
    recorder.memo_units.clear()
    core().memo(2)  # nothing records this
    with recorder.recording():
        assert core().memo.cache_info().currsize == 0
        core().memo(2)
    with recorder.recording():
        assert core().memo.cache_info().currsize == 1
    assert clear_memo("toylib.core:memo") and core().memo.cache_info().currsize == 0


def test_a_memo_served_in_a_later_run_brings_what_it_reached(toy):
    recorder = Recorder(LibrarySource(toy))
    with recorder.recording() as first:
        core().through_memo()
    with recorder.recording() as second:
        core().through_memo()  # memo(2) is served from functools' cache
    assert core().memo.cache_info().hits >= 1
    assert {"toylib.core:memo", "toylib.core:inner"} <= first
    assert second == first


def test_modules_imported_before_recording_are_imported_anew_instrumented(toy):
    before = importlib.import_module("toylib.core")
    with Recorder(LibrarySource(toy)).recording() as reached:
        assert core() is not before
        core().outer("a")
    assert "toylib.core:outer" in reached


def test_instrumented_functions_keep_their_docstrings_and_line_numbers(toy):
    import traceback

    core_path = toy / "core.py"
    core_path.write_text(
        core_path.read_text().replace(
            "def untouched():\n", 'def untouched():\n    """Doc."""\n    1 / 0\n'
        )
    )
    with Recorder(LibrarySource(toy)).recording():
        module = core()
        assert module.untouched.__doc__ == "Doc."
        with pytest.raises(ZeroDivisionError) as raised:
            module.untouched()
    line = traceback.extract_tb(raised.value.__traceback__)[-1]
    assert core_path.read_text().splitlines()[line.lineno - 1].strip() == "1 / 0"


def test_the_library_memoises_only_with_module_level_functools_caches():
    """The recorder knows memos by their decorator; any other memo would hide."""
    import ast

    root = Path(attention_docs.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            for decorator in getattr(node, "decorator_list", []):
                text = ast.unparse(decorator)
                if "cache" in text or "memo" in text:
                    assert id(node) in top, f"{path.name}: {node.name} memoised inside"
            if isinstance(node, ast.Name | ast.Attribute):
                assert ast.unparse(node) not in {"lru_cache", "functools.lru_cache"}


def test_the_traced_units_cover_every_library_function_a_profiler_sees():
    """cProfile, an independent tracer, lists the calls of real figures."""
    source = LibrarySource(Path(attention_docs.__file__).parent, "attention_docs")

    def figures_run():
        figures = importlib.import_module("attention_docs.figures")
        figures.parametric_fit("zh")
        figures.qkv_diagram("en")
        figures.kernel_comparison("en")

    saved = dict(sys.modules)
    try:
        recorder = Recorder(source)
        with recorder.recording():
            figures_run()
        with recorder.recording() as reached:
            figures_run()
        for units in source.memoised.values():
            for unit in units:
                clear_memo(unit)
        profile = cProfile.Profile()
        profile.runcall(figures_run)
    finally:
        uninstrument("attention_docs")
        for name in [n for n in sys.modules if n.split(".")[0] == "attention_docs"]:
            del sys.modules[name]
        sys.modules.update(saved)
    library = str(Path(attention_docs.__file__).parent.resolve()) + "/"
    called = set()
    for filename, line, _name in pstats.Stats(profile).stats:
        if filename.startswith(library):
            called.add(source.unit_at(str(Path(filename).resolve()), line))
    assert len(called) > 20
    assert called <= reached | source.data_units()
    # Memoised, and still seen:
    assert "attention_docs.figures.experiments:trained" in reached


PAGE = """
```python exec="on" session="s"
from toylib import core
value = core.outer("a")
print("first")
```

```python exec="on" session="s"
print(value)
```
"""


def render(cache):
    import markdown
    from markdown_exec import validator

    from attention_docs_site.execute.fence import CachedFence

    cache.start_build()
    fence = CachedFence(cache)
    python = {"name": "python", "class": "python", "validator": validator}
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [{**python, "format": fence}]}
        },
    )
    html = md.convert(PAGE)
    return html, (cache.stats.hits, cache.stats.misses)


def test_a_later_block_reruns_when_code_an_earlier_block_reached_changes(toy, tmp_path):
    from attention_docs_site.execute.cache import ExecCache

    cache = ExecCache(tmp_path / "cache", library=toy)
    html, counts = render(cache)
    assert "AAA" in html and counts == (0, 2)
    assert render(cache)[1] == (2, 0)
    core = toy / "core.py"
    text = core.read_text()
    core.write_text(text.replace('return "never called"', 'return "edited"'))
    assert render(cache)[1] == (2, 0)  # no block reached it
    # The second block only prints a variable; the first block's call made it.
    core.write_text(text.replace("return tables.NAMES[key]", "return key"))
    html, counts = render(cache)
    assert "aaa" in html and counts == (0, 2)
    assert cache.stats.outdated == 2


FIGURES_PAGE = """
```python exec="on" session="s"
from toylib import core
print(core.make_point().x)
```

```python exec="on" session="s"
print(core.outer("a"))
```

```python exec="on" session="s"
print(core.shifted_point())
```

```python exec="on" session="s"
value = core.outer("b")
```

```python exec="on" session="s"
print(value, core.make_point().x)
```
"""


def test_only_the_blocks_that_use_what_an_edited_function_made_rerun(toy, tmp_path):
    """One call per figure: an edit re-runs the figure that called it, not the
    later figures of the page; a block reading a variable it made re-runs."""
    from attention_docs_site.execute.cache import ExecCache

    global PAGE
    cache = ExecCache(tmp_path / "cache", library=toy)
    page, PAGE = PAGE, FIGURES_PAGE
    try:
        html, counts = render(cache)
        assert counts == (0, 5) and "AAA" in html and "BBB 1" in html
        core = toy / "core.py"
        text = core.read_text()
        core.write_text(text.replace("return inner(key) * SCALE", "return key * 2"))
        html, counts = render(cache)
        # The second and fourth blocks called outer; the last reads `value`.
        assert counts == (2, 3), counts
        assert "aa" in html and "bb 1" in html and "AAA" not in html
        # The same output as a build that computes everything.
        fresh = ExecCache(tmp_path / "fresh", library=toy)
        assert render(fresh)[0] == html
    finally:
        PAGE = page


def session_with(*sources):
    from attention_docs_site.execute.sessions import _Session, block_names

    session = _Session(library="lib")
    for source in sources:
        names = block_names(source)
        session.add(source, names, session.depends(names), frozenset(), ran=True)
    return session


def needs(session, source):
    from attention_docs_site.execute.sessions import block_names

    return set(session.depends(block_names(source)))


def test_a_block_depends_on_the_blocks_that_made_or_changed_what_it_reads():
    imports = session_with("from lib import figures", "figures.a()", "figures.b()")
    assert needs(imports, "figures.c()") == {0}  # not the other figures
    assert needs(imports, "print(1)") == set()
    made = session_with("import lib", "x = lib.f()", "y = lib.g()", "x.train()")
    assert needs(made, "print(x)") == {0, 1, 3}
    assert needs(made, "print(y)") == {0, 2}
    # Names used together may share an object: a change through one is seen
    # through the other, whichever block made them.
    shared = session_with("a = []", "b = a", "c = 1", "b.append(c)")
    assert needs(shared, "print(a)") == {0, 1, 2, 3}
    later = session_with("a = []", "b = {}", "b['x'] = a", "a.append(1)")
    assert needs(later, "print(b)") == {0, 1, 2, 3}
    # A name an import bound and an assignment rebinds is a variable again.
    rebound = session_with("import lib", "lib = lib.make()", "lib.change()")
    assert needs(rebound, "print(lib)") == {0, 1, 2}


def test_a_block_that_can_reach_any_name_depends_on_every_block():
    for dynamic in ("exec('x = 2')", "globals()['x'] = 2", "from lib import *"):
        session = session_with("x = 1", "y = 2", dynamic)
        assert needs(session, "print(x)") == {0, 1, 2}, dynamic
        assert needs(session_with("x = 1", "y = 2"), dynamic) == {0, 1}
    assert needs(session_with("x = 1"), "print(x") == {0}  # not parsed
    # Replaying a dynamic block needs what it read, too.
    assert needs(session_with("x = 1", "exec('y = x')"), "print(2)") == {0, 1}


def replay(session, source):
    from attention_docs_site.execute.sessions import block_names

    names = block_names(source)
    return session.replay(names, session.depends(names))


def test_a_block_that_only_imports_what_a_later_one_reads_replays_its_imports():
    """A figure's block re-run needs the module an earlier figure's block
    imported, not that earlier figure drawn again."""
    drawn = session_with("import os\nfrom lib import figures\nprint(figures.a())")
    assert replay(drawn, "print(figures.b())") == [
        (0, "import os\nfrom lib import figures")
    ]
    # Importing a module may change outside state (`import seaborn` restyles
    # matplotlib): any later block's run imports it again.
    assert replay(drawn, "print(1)") == [(0, "import os\nfrom lib import figures")]
    library = session_with("from lib import figures\nprint(figures.a())")
    assert replay(library, "print(1)") == []
    # Anything but the library's calls (a seed, a setting) runs whole.
    for other in ("os.chdir('/')", "x = figures.a()", "print(figures.a(os.sep()))"):
        seeded = session_with(f"import os\nfrom lib import figures\n{other}")
        assert replay(seeded, "print(figures.b())") == [(0, None)], other
    # Needed for a variable it made too: the whole block.
    made = session_with("from lib import figures\nx = figures.a()")
    assert replay(made, "print(figures.b(), x)") == [(0, None)]
    # Bound by an import inside an `if`: the whole block, and what it needs.
    hidden = session_with("y = 1", "if y:\n    from lib import figures\nz = y")
    assert replay(hidden, "print(figures.b())") == [(0, None), (1, None)]
    # Rebound by an assignment: a variable, no longer an import.
    rebound = session_with("import lib", "lib = lib.make()")
    assert replay(rebound, "print(lib)") == [(0, None), (1, None)]
    # A dynamic block reaches every name: everything runs whole.
    dynamic = session_with("from lib import figures", "x = 1")
    assert replay(dynamic, "exec('print(figures)')") == [(0, None), (1, None)]


# Blocks that set state outside the session's names, by calls alone: a later
# block that reads none of their names sees it through a module.
SET_STATE = [
    "np.random.seed(0)",
    "random.seed(0)",
    "torch.manual_seed(0)",
    "np.set_printoptions(precision=2)",
    "plt.rcParams['lines.linewidth'] = 3",
    "plt.style.use('ggplot')",
    "warnings.filterwarnings('ignore')",
    "np.some_option = 3",  # a module's attribute, set with `=`
    "setattr(np, 'some_option', 3)",  # and with setattr
]
IMPORTS = (
    "import random\nimport warnings\nimport matplotlib.pyplot as plt\n"
    "import numpy as np\nimport torch"
)


@pytest.mark.parametrize("call", SET_STATE)
def test_a_block_that_sets_outside_state_is_replayed_for_every_later_block(call):
    session = session_with(IMPORTS, call, "from lib import figures")
    for later in ("print(np.random.rand())", "print(figures.a())", "print(1)"):
        assert needs(session, later) >= {0, 1}, later
        # The imports run whole with the call, as what the call needed.
        assert replay(session, later)[:2] == [(0, None), (1, None)], later
    # A block that only imports is run again for any later block: importing
    # may change outside state too (`import seaborn` restyles matplotlib).
    imports = session_with(IMPORTS, "from lib import figures")
    assert replay(imports, "print(1)") == [(0, IMPORTS)]


def test_state_reached_through_another_name_or_a_made_object_is_outside_state():
    # matplotlib's options, set through one module and read through another.
    other = session_with(
        "import matplotlib as mpl", "mpl.rcParams['font.size'] = 20", "x = 1"
    )
    later = "import matplotlib.pyplot as plt\nprint(plt.rcParams['font.size'], x)"
    assert replay(other, later) == [(0, None), (1, None), (2, None)]
    # A generator made from a module is outside state, and so is its use.
    made = session_with(
        "import numpy as np", "rng = np.random.default_rng(0)", "rng.random()"
    )
    assert replay(made, "print(1)") == [(0, None), (1, None), (2, None)]
    # The library's names, used other than by calling them.
    for misuse in ("lib.DPI = 50", "setattr(lib, 'DPI', 50)", "keep(lib)"):
        session = session_with("import lib", misuse)
        assert replay(session, "print(lib.f())") == [(0, None), (1, None)], misuse
    # Calls of the library change nothing outside what they return.
    pure = session_with("import lib", "print(lib.f())", "y = lib.g(seed=0)")
    assert replay(pure, "print(lib.h())") == [(0, "import lib")]
    assert replay(pure, "print(1)") == []

"""The theme's script bundle, its components mounted in tasks of their own."""

import json
import re
import subprocess
from pathlib import Path

import material
import pytest

from attention_docs_site.upstream.guard import UpstreamChanged
from attention_docs_site.upstream.material_bundle import (
    BUNDLE,
    HELPER,
    MERGES,
    PALETTE_EDITS,
    STAGGER,
    shift_columns,
    stagger_component_mounts,
)

MATERIAL = Path(material.__file__).parent / "templates"
(PINNED,) = MATERIAL.glob(BUNDLE)
TOKEN = re.compile(r"[\w$]+|\S|\s")
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def segments(mappings: str) -> list[list[tuple[int, ...]]]:
    """Every line's segments with absolute numbers: a whole decoder, the spec's."""
    lines, state = [], [0, 0, 0, 0, 0]
    for line in mappings.split(";"):
        state[0], decoded = 0, []
        for segment in filter(None, line.split(",")):
            numbers, value, shift = [], 0, 0
            for char in segment:
                digit = B64.index(char)
                value |= (digit & 31) << shift
                shift = shift + 5 if digit & 32 else 0
                if not digit & 32:
                    numbers.append(-(value >> 1) if value & 1 else value >> 1)
                    value = 0
            for field, number in enumerate(numbers):
                state[field] += number
            decoded.append(tuple(state[: len(numbers)]))
        lines.append(decoded)
    return lines


def a_theme(folder: Path, bundle: str, comment: bool = True) -> str:
    scripts = folder / "theme" / "assets" / "javascripts"
    scripts.mkdir(parents=True)
    name = "bundle.0123abcd.min.js"
    tail = f"\n//# sourceMappingURL={name}.map\n" if comment else "\n"
    (scripts / name).write_text(bundle + tail, encoding="utf-8")
    (scripts / f"{name}.map").write_text(
        json.dumps({"version": 3, "sources": [], "names": [], "mappings": ""})
    )
    return str(folder / "theme")


CONTROLS = 'var a=L(...me("consent").map(e=>f(e,{a:"(",b:[1]})),...me("x").map(g))'
PAGE = 'var b=H(()=>L(...me("announce").map(e=>f(e)),...me("toc").map(e=>g(e))))'
PALETTE = (
    'function li(e){let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);'
    "return H(()=>{let a=getComputedStyle(e);return o.content=a.colorScheme,1})}"
)


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    return stagger_component_mounts(site, [str(MATERIAL)])


def test_the_pinned_bundle_calls_the_helper_at_its_two_merges_and_nowhere_else(
    edited,
):
    theirs, ours = PINNED.read_text("utf-8"), edited.read_text("utf-8")
    assert edited.name == PINNED.name
    # The helper sits on lines of its own, between the code and the map comment.
    helper = HELPER.read_text("utf-8").lstrip("\n")
    code, comment = ours.split(helper)
    assert comment == theirs[theirs.rindex("//# sourceMappingURL=") :]
    # Both merges call it, with a function for each kind of component.
    merge, kinds = re.search(r'=(\w+)\(\.\.\.(\w+)\("consent"\)', theirs).groups()
    calls = re.findall(rf'{STAGGER}\(\(\)=>{kinds}\("(\w+)"\)', code)
    assert sorted(calls) == ["announce", "consent"]
    assert code.count(STAGGER) == 2
    spread, function = f"...{kinds}(", f"()=>{kinds}("
    assert function not in theirs
    assert code.count(function) == 15  # 6 kinds of controls, 9 of the page's
    # The palette takes the head's colour-scheme element, adds one only if
    # there is none, and sets its content only when it changes.
    meta, element = re.search(
        r'let (\w+)=(\w+\("meta",\{name:"color-scheme"\}\))', theirs
    ).groups()
    head = "document.querySelector('meta[name=\"color-scheme\"]')||"
    assert f"let {meta}={head}{element};{meta}.isConnected||document.head" in code
    content = re.search(rf"{meta}\.content=(\w+)\.colorScheme", theirs).group()
    style = content.split("=")[1]
    assert f"{meta}.content!=={style}&&({content})" in code
    # Take those back, and the theme's text returns.
    for ours_, theirs_ in [
        (STAGGER, merge),
        (function, spread),
        (head, ""),
        (f"{meta}.isConnected||", ""),
        (f"{meta}.content!=={style}&&({content})", content),
    ]:
        assert ours_ not in theirs
        code = code.replace(ours_, theirs_)
    assert code + comment == theirs


def test_the_source_map_still_points_each_token_at_its_source(edited):
    theirs = json.loads(Path(f"{PINNED}.map").read_text("utf-8"))
    ours = json.loads(edited.with_name(f"{edited.name}.map").read_text("utf-8"))
    assert {k: v for k, v in ours.items() if k != "mappings"} == {
        k: v for k, v in theirs.items() if k != "mappings"
    }
    before = PINNED.read_text("utf-8").split("\n")
    after = edited.read_text("utf-8").split("\n")
    old, new = segments(theirs["mappings"]), segments(ours["mappings"])
    assert len(old) == len(new)
    moved = 0
    for line, (was, now) in enumerate(zip(old, new, strict=True)):
        assert [s[1:] for s in was] == [s[1:] for s in now]  # the same sources
        for a, b in zip(was, now, strict=True):
            token = TOKEN.match(before[line], a[0]).group()
            edited_token = TOKEN.match(after[line], b[0]).group()
            if edited_token == STAGGER or (token, edited_token) == (".", "("):
                continue  # the renamed call, a spread made a function
            assert edited_token == token, (line, a[0], b[0])
            moved += a[0] != b[0]
    assert moved > 0  # the tokens past the longer names did move


def test_shifting_columns_moves_every_segment_past_the_insertion():
    line = "AAAA,CAAC,EAAE,CAAC"  # columns 0, 1, 3, 4
    columns = [s[0] for s in segments(shift_columns(line, [(1, 10)]))[0]]
    assert columns == [0, 1, 13, 14]
    assert shift_columns(line, [(4, 10)]) == line  # nothing past the last segment
    # Several insertions, in any order, two of them before the same segment.
    many = shift_columns(line, [(3, 1), (1, 10), (2, 5)])
    assert [s[0] for s in segments(many)[0]] == [0, 1, 18, 20]


def test_a_second_build_edits_the_theme_s_bundle_again(tmp_path):
    theme = a_theme(tmp_path, bundle())
    first = stagger_component_mounts(tmp_path / "site", [theme])
    text = first.read_text("utf-8")
    second = stagger_component_mounts(tmp_path / "site", [theme])  # --dirty
    assert second.read_text("utf-8") == text and text.count(STAGGER) == 3
    # Brackets and strings inside an argument leave it whole.
    assert 'a=__adStagger(()=>me("consent").map(e=>f(e,{a:"(",b:[1]})),()=>me(' in text


def bundle(controls=CONTROLS, page=PAGE, palette=PALETTE):
    return ";".join([controls, page, palette])


@pytest.mark.parametrize(
    ("bundle", "message"),
    [
        (bundle(controls=""), "merge of the controls.*0 matches"),
        (bundle(page=""), "merge of the page components.*0 matches"),
        (bundle(controls=CONTROLS * 2), "merge of the controls.*2 matches"),
        (bundle(controls=CONTROLS.replace("=L(", "=M(")), r"calls \['L', 'M'\]"),
        (bundle(controls=CONTROLS.replace(",...me(", ",me(")), "not a spread"),
        (bundle(controls=CONTROLS.replace("[1]", "[1)")), "do not balance"),
        (bundle(controls=CONTROLS.replace('"("', "`(`")), "a ` in the merge"),
        (bundle(palette=""), "palette's edit to take the head's.*0 matches"),
        (
            bundle(
                palette=PALETTE.replace(
                    "o.content", "o.content=a.colorScheme,o.content"
                )
            ),
            "palette's edit to set its content only when it changes.*2 matches",
        ),
    ],
)
def test_a_bundle_without_each_merge_once_fails_the_edit(tmp_path, bundle, message):
    theme = a_theme(tmp_path, bundle)
    with pytest.raises(UpstreamChanged, match=message):
        stagger_component_mounts(tmp_path / "site", [theme])


def test_a_bundle_without_its_map_comment_fails_the_edit(tmp_path):
    theme = a_theme(tmp_path, bundle(), comment=False)
    with pytest.raises(UpstreamChanged, match="source map comment"):
        stagger_component_mounts(tmp_path / "site", [theme])


def test_the_pinned_theme_has_each_place_the_edit_changes_once():
    # The theme's own text, not ours: the edit was written for this version.
    text = PINNED.read_text("utf-8")
    patterns = [*MERGES.values(), *(p for p, _ in PALETTE_EDITS.values())]
    assert [len(pattern.findall(text)) for pattern in patterns] == [1] * 5


# The helper's contract, run by Node against a stand-in for RxJS's observables.
# Each step queues a microtask, which runs when its task ends.
CONTRACT = """
const runs = {};
const source = (log, name, values, done = true) => ({
  subscribe(observer) {
    log.push(`start ${name}`);
    queueMicrotask(() => log.push("task ends"));
    values.forEach((value) => observer.next(value));
    if (done) observer.complete();
    return { unsubscribe: () => log.push(`stop ${name}`) };
  },
});
const mount = (log, name, sources) => () => {
  log.push(`mount ${name}`);
  queueMicrotask(() => log.push("task ends"));
  if (sources instanceof Error) throw sources;
  return sources;
};
const observer = (log) => ({
  next: (value) => log.push(`next ${value}`),
  error: (error) => log.push(`error ${error.message}`),
  complete: () => log.push("complete"),
});
function run(name, mounts, after) {
  const log = (runs[name] = []);
  const merged = __adStagger(...mounts(log));
  const interop = merged[Symbol.observable || "@@observable"]();
  const subscription = interop.subscribe(observer(log));
  log.push("subscribed");
  if (after) after(subscription, log);
}
run("all", (log) => [
  mount(log, "A", [source(log, "a1", [1, 2]), source(log, "a2", [3])]),
  mount(log, "B", [source(log, "b", [4])]),
]);
run("one never ends", (log) => [
  mount(log, "A", [source(log, "a", [1]), source(log, "b", [], false)]),
]);
run("no mounts", () => []);
run("a mount of nothing", (log) => [mount(log, "A", [])]);
run("a mount that fails", (log) => [mount(log, "A", new Error("no such element"))]);
run("cancelled at once", (log) => [mount(log, "A", [source(log, "a", [1])])],
  (subscription) => subscription.unsubscribe());
{
  // The reader navigates as the first component's value arrives, in its task.
  const log = (runs["cancelled after the first"] = []);
  const subscription = __adStagger(
    mount(log, "A", [source(log, "a", [1], false), source(log, "b", [2])]),
  ).subscribe({ next() { log.push("navigate"); subscription.unsubscribe(); } });
  log.push("subscribed");
}
setTimeout(() => console.log(JSON.stringify(runs)), 50);
"""


def test_the_helper_mounts_and_starts_each_component_in_a_task_of_its_own():
    script = HELPER.read_text("utf-8") + CONTRACT
    result = subprocess.run(
        ["node", "-e", script], capture_output=True, text=True, check=True
    )
    runs = json.loads(result.stdout)
    # Nothing happens while the merge is subscribed; then each mount in a task,
    # then each component started in a task, every value passed on, and
    # complete once every component has.
    assert runs["all"] == [
        *("subscribed", "mount A", "task ends", "mount B", "task ends"),
        *("start a1", "next 1", "next 2", "task ends"),
        *("start a2", "next 3", "task ends"),
        *("start b", "next 4", "complete", "task ends"),
    ]
    assert runs["one never ends"] == [
        *("subscribed", "mount A", "task ends"),
        *("start a", "next 1", "task ends", "start b", "task ends"),
    ]
    assert runs["no mounts"] == ["complete", "subscribed"]
    assert runs["a mount of nothing"] == [
        "subscribed",
        "mount A",
        "complete",
        "task ends",
    ]
    assert runs["a mount that fails"] == [
        *("subscribed", "mount A", "error no such element", "task ends"),
    ]
    # Unsubscribed (instant navigation): what has not started never does, and
    # what has is unsubscribed.
    assert runs["cancelled at once"] == ["subscribed"]
    assert runs["cancelled after the first"] == [
        *("subscribed", "mount A", "task ends"),
        *("start a", "navigate", "stop a", "task ends"),
    ]

"""Edits to the theme's script bundle, each of which applies or fails the build.

Material's bundle mounts a page's components through two RxJS ``merge()``
calls: the controls (consent, dialog, palette, progress bar, search, source)
as the bundle starts, and the page's own (announcement, content, header,
sidebars, tabs, table of contents, back-to-top button) on each ``document$``.
Every component then starts in the same task, and on a long chapter, on a
phone's CPU (Lighthouse slows this machine's four times), that task holds
the main thread for a quarter of a second after the first paint: measured
in Chromium's traces, the start-up ran in two tasks of 75 and 110 ms here.
The site's copy of the bundle calls ``__adStagger`` (``stagger.js``,
appended to the bundle) in place of those two merges, and hands it each
kind of component's mounting as a function (``()=>`` where Material spread
the mounted components, ``...``): it calls each function in a task of its
own, then starts each component in a task of its own.

The palette adds a ``<meta name="color-scheme">`` as it starts and sets it
once it has read the header's style: each of the two makes Chromium restyle
every element of the page (on a long chapter, 10 to 20 ms each here). The
page's head sets that element, before the body exists
(``overrides/main.html``), and the site's bundle takes it rather than adding
another, and sets its content only when it changes. Nothing else in the
bundle changes, and its source map is rewritten to match.

The text comes from the theme's own files each time, so a build that did not
copy them again (``mkdocs build --dirty``) edits them all the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from attention_docs_site.upstream.guard import UpstreamChanged, declare
from attention_docs_site.upstream.material_files import theme_file

BUNDLE = "assets/javascripts/bundle.*.min.js"
STAGGER = "__adStagger"
HELPER = Path(__file__).with_name("stagger.js")
STAGGER_MOUNTS = declare(
    "material: bundle's staggered start",
    "mkdocs-material",
    "9.8.2",
    "the bundle's two merge() calls of the components become __adStagger "
    "(stagger.js, appended), which mounts and starts each in a task of its own",
    "one long start-up task held a phone's main thread for 0.25 s (#31)",
    "speed",
)
PALETTE_META = declare(
    "material: palette's colour-scheme meta",
    "mkdocs-material",
    "9.8.2",
    "the palette takes the head's <meta name=color-scheme> and sets it only "
    "when the scheme changes",
    "the head script writes that element before the body, for the first "
    "paint; a second one, the palette's, would leave the first, which the "
    "browser follows, stale when the scheme changes (the build with the "
    "speed reaches off showed it); and adding and setting it restyled every "
    "element twice (#31)",
    "correctness",
)
# The two merges, by the first component each one mounts. The names are the
# minifier's, hence a pattern; each must be found once, and both must be the
# same function (RxJS's merge).
MERGES = {
    "controls": re.compile(r"=(?P<merge>[\w$]+)\(\.\.\.[\w$]+\(\"consent\"\)"),
    "page components": re.compile(
        r"=[\w$]+\(\(\)=>(?P<merge>[\w$]+)\(\.\.\.[\w$]+\(\"announce\"\)"
    ),
}
# The palette's edits, each an insertion where its pattern's group "at" starts
# (and a closing ")" where a group "end" does): take the head's colour-scheme
# element, add one only if there is none, and set its content only when it
# changes.
PALETTE_EDITS = {
    "take the head's colour-scheme element": (
        re.compile(
            r'let (?P<meta>[\w$]+)=(?P<at>)[\w$]+\("meta",\{name:"color-scheme"\}\)'
        ),
        "document.querySelector('meta[name=\"color-scheme\"]')||",
    ),
    "add it only if there is none": (
        re.compile(
            r'\{name:"color-scheme"\}\);(?P<at>)document\.head\.appendChild\((?P<meta>[\w$]+)\);'
        ),
        "{meta}.isConnected||",
    ),
    "set its content only when it changes": (
        re.compile(
            r"(?P<at>)(?P<meta>[\w$]+)\.content=(?P<style>[\w$]+)\.colorScheme(?P<end>)"
        ),
        "{meta}.content!=={style}.colorScheme&&(",
    ),
}
_MAP_COMMENT = "//# sourceMappingURL="


def stagger_component_mounts(site: Path, theme_dirs: list[str]) -> Path | None:
    """Write the site's bundle with its components mounted in tasks of their own.

    Parameters:
        site: The built site.
        theme_dirs: The theme's folders, first match wins (``config.theme.dirs``).

    Returns:
        The site's bundle, as written (its source map is written beside it),
        or None when both edits are off (the speed switch).

    Raises:
        UpstreamChanged: The bundle lacks one of the two merges or of the
            palette's three places, has one more than once, the merges call
            different functions, or an argument is not a spread (``...``).
    """
    if not (STAGGER_MOUNTS.active or PALETTE_META.active):
        return None  # MkDocs copied the theme's bundle as it is
    source = theme_file(STAGGER_MOUNTS, theme_dirs, BUNDLE, "script bundle")
    text = source.read_text("utf-8")
    edits: list[tuple[int, int, str]] = []
    staggered = False
    if STAGGER_MOUNTS.active:
        with STAGGER_MOUNTS.applying():
            edits += _merge_edits(source.name, text)
            staggered = True
    if PALETTE_META.active:
        with PALETTE_META.applying():
            edits += _palette_edits(source.name, text)
    edited = text
    for start, length, replacement in sorted(edits, reverse=True):
        edited = edited[:start] + replacement + edited[start + length :]
    target = site / source.relative_to(source.parents[2])
    target.parent.mkdir(parents=True, exist_ok=True)
    if staggered:
        edited = _append_helper(source.name, edited)
    target.write_text(edited, encoding="utf-8")
    # A replaced token keeps its place in the map; a token an insertion lands
    # on moves with the rest.
    shifts = [
        (start if length else start - 1, len(new) - length)
        for start, length, new in edits
    ]
    _write_map(source, target, text, shifts)
    return target


def _merge_edits(name: str, text: str) -> list[tuple[int, int, str]]:
    """The two merges, each replaced by the helper with its spreads as functions.

    Raises:
        UpstreamChanged: A merge is missing or found twice, the two call
            different functions, or an argument is not a spread (``...``).
    """
    edits = []
    names = set()
    for what, pattern in MERGES.items():
        start, merge = _merge_call(name, text, what, pattern)
        names.add(merge)
        edits.append((start, len(merge), STAGGER))
        # Each argument, "...me(kind).map(mount)", becomes "()=>me(kind).map(mount)".
        for argument in _arguments(name, text, start + len(merge)):
            if not text.startswith("...", argument):
                raise UpstreamChanged(
                    f"the bundle's merge of the {what}: {name} has an "
                    f"argument that is not a spread at {argument}: "
                    f"{text[argument : argument + 40]!r}"
                )
            edits.append((argument, 3, "()=>"))
    if len(names) != 1:
        raise UpstreamChanged(
            f"the bundle's component merges: {name} calls {sorted(names)}, "
            "not one function"
        )
    return edits


def _palette_edits(name: str, text: str) -> list[tuple[int, int, str]]:
    """The palette's insertions, as (where, 0, what) edits."""
    edits = []
    for what, (pattern, insertion) in PALETTE_EDITS.items():
        match = _only_match(name, text, pattern, f"the palette's edit to {what}")
        edits.append((match.start("at"), 0, insertion.format(**match.groupdict())))
        if "end" in match.groupdict():
            edits.append((match.start("end"), 0, ")"))
    return edits


def _merge_call(
    name: str, text: str, what: str, pattern: re.Pattern[str]
) -> tuple[int, str]:
    """Where one merge's function name starts in the bundle, and the name."""
    match = _only_match(name, text, pattern, f"the bundle's merge of the {what}")
    return match.start("merge"), match["merge"]


def _only_match(
    name: str, text: str, pattern: re.Pattern[str], what: str
) -> re.Match[str]:
    """The one match of ``pattern`` in the bundle ``name``, or the edit fails.

    Raises:
        UpstreamChanged: None, or more than one.
    """
    found = list(pattern.finditer(text))
    if len(found) != 1:
        raise UpstreamChanged(
            f"{what}: {name} has {len(found)} matches of {pattern.pattern!r}, not one"
        )
    return found[0]


_CLOSING = {"(": ")", "[": "]", "{": "}"}


def _arguments(name: str, text: str, at: int) -> list[int]:
    """Where each argument starts of the call whose "(" is at ``at``.

    Brackets are counted and string literals skipped; the merges' arguments
    hold no template literal or regular expression, and one would fail here.
    """
    starts, expected, index = [at + 1], [], at + 1
    while index < len(text):
        char = text[index]
        if char in "\"'":
            index = _string_end(name, text, index)
        elif char in "`/":
            raise UpstreamChanged(f"{name}: a {char} in the merge at {at}")
        elif char in _CLOSING:
            expected.append(_CLOSING[char])
        elif char in ")]}":
            if not expected and char == ")":
                return starts
            if not expected or expected.pop() != char:
                break
        elif char == "," and not expected:
            starts.append(index + 1)
        index += 1
    raise UpstreamChanged(f"{name}: the merge's brackets at {at} do not balance")


def _string_end(name: str, text: str, at: int) -> int:
    """The index of the quote that closes the string literal opened at ``at``."""
    index = at + 1
    while index < len(text) and text[index] != text[at]:
        index += 2 if text[index] == "\\" else 1
    if index >= len(text):
        raise UpstreamChanged(f"{name}: a string at {at} does not end")
    return index


def _append_helper(name: str, text: str) -> str:
    """The bundle with stagger.js on lines of its own, before its map comment.

    A function declaration is hoisted, so the bundle's code, which runs as
    it is read, can call it from above.
    """
    at = text.rfind(_MAP_COMMENT)
    if at < 0 or text.rfind("\n", 0, at) != at - 1:
        raise UpstreamChanged(f"{name} does not end with its source map comment")
    return text[:at] + HELPER.read_text("utf-8").lstrip("\n") + text[at:]


def _write_map(
    source: Path, target: Path, text: str, edits: list[tuple[int, int]]
) -> None:
    """The bundle's source map, its columns moved past each edit that added text."""
    original = source.with_name(source.name + ".map")
    if not original.is_file():
        raise UpstreamChanged(f"the theme's bundle has no source map {original}")
    data = json.loads(original.read_text("utf-8"))
    lines = data["mappings"].split(";")
    insertions: dict[int, list[tuple[int, int]]] = {}
    for at, added in edits:
        line = text.count("\n", 0, at)
        column = at - (text.rfind("\n", 0, at) + 1)
        insertions.setdefault(line, []).append((column, added))
    for line, columns in insertions.items():
        lines[line] = shift_columns(lines[line], columns)
    data["mappings"] = ";".join(lines)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    target.with_name(original.name).write_text(text, encoding="utf-8")


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _decode(segment: str) -> list[int]:
    """A source map segment's numbers (base-64 VLQ)."""
    numbers, value, shift = [], 0, 0
    for char in segment:
        digit = _B64.index(char)
        value += (digit & 31) << shift
        if digit & 32:
            shift += 5
            continue
        numbers.append(-(value >> 1) if value & 1 else value >> 1)
        value, shift = 0, 0
    return numbers


def _encode(numbers: list[int]) -> str:
    """Numbers as a source map segment (base-64 VLQ)."""
    out = []
    for number in numbers:
        value = (-number << 1) | 1 if number < 0 else number << 1
        while True:
            digit, value = value & 31, value >> 5
            out.append(_B64[digit | (32 if value else 0)])
            if not value:
                break
    return "".join(out)


def shift_columns(line: str, insertions: Iterable[tuple[int, int]]) -> str:
    """One line of source map mappings, with text inserted at columns.

    Parameters:
        line: The line's segments, comma-separated.
        insertions: For each insertion, the column where text was added (in
            the line as it was) and how many characters: a segment that
            starts at that column keeps it, later ones move.

    Returns:
        The line's segments. A segment's column is relative to the one
        before it, so only the first segment past each insertion changes;
        the line is read once, however many insertions it has.
    """
    pending = sorted(insertions, reverse=True)  # the next one last
    segments = line.split(",")
    column = 0
    for index, segment in enumerate(segments):
        if not pending:
            break
        if not segment:
            continue
        numbers = _decode(segment)
        column += numbers[0]
        added = 0
        while pending and pending[-1][0] < column:
            added += pending.pop()[1]
        if added:
            numbers[0] += added
            segments[index] = _encode(numbers)
    return ",".join(segments)

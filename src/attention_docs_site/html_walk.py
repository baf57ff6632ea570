"""One walk over a page's HTML: its tags found by a tokenizer, edits by element.

:func:`walk` tokenizes a page once, hands each start and end tag (with its
source offsets and, for a start tag, its attributes) to the handlers that
asked for its name, and then writes the page with the handlers'
:class:`Change` s, every byte that no change touches copied as it was. With
``collapse=True`` it also drops blank lines and indentation outside verbatim
elements (:data:`VERBATIM`), after the changes, as one step.

The tokenizer is one compiled pattern for the markup the HTML standard
tokenizes (comments, declarations, tags with quoted attribute values), the
text of raw-text elements (:data:`RAW_TEXT`) skipped up to their end tag; it
finds the tags :class:`html.parser.HTMLParser` finds, at the same offsets
(``tests/site/test_site.py`` checks both on the same markup). HTMLParser
itself, driven tag by tag in Python, made writing a page about five times
slower (0.06 s to 0.31 s for the site's 28 pages, of a 3.5 s rebuild).

The page stage's last pass (``page/polish.py``) and the theme edits it makes
(``upstream/material_page.py``) are its handlers.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Tag:
    """A start or end tag of the page, where the page's source has it.

    Parameters:
        name: The element's name, lower case.
        attrs: Its attributes, values unescaped (a start tag's; empty for an end tag).
        start: The offset of its ``<``.
        end: The offset just after its ``>``.
        closing: True for an end tag.
    """

    name: str
    attrs: dict[str, str | None]
    start: int
    end: int
    closing: bool = False

    def source(self, page: str) -> str:
        """The tag as the page writes it."""
        return page[self.start : self.end]

    def has_class(self, name: str) -> bool:
        """Whether the tag's ``class`` lists ``name``."""
        return name in (self.attrs.get("class") or "").split()


@dataclass(frozen=True)
class Change:
    """Replace ``page[start:end]`` by ``text`` (``start == end``: insert)."""

    start: int
    end: int
    text: str


class Handler:
    """An edit of the page: told about the tags it names, then asked for changes.

    Attributes:
        names: The elements whose tags it is given, each with a marker: the
            text a start tag's source must hold for the handler to see it
            (``"md-search"``). With the empty marker, it sees every start and
            end tag of the element.
    """

    names: ClassVar[dict[str, str]] = {}

    def tag(self, tag: Tag, page: str) -> None:
        """One tag of an element in :attr:`names`, in page order."""

    def changes(self, page: str) -> Iterable[Change]:
        """The changes to make, once every tag was seen (raise if none apply)."""
        return ()


# Elements whose text is shown or copied as is (notebook cells copy their
# source from a hidden div): blank lines inside them stay.
VERBATIM = frozenset({"pre", "textarea", "script", "code"})
_COPY_SOURCE = '<div class="clipboard-copy-txt"'
# Elements whose text is read up to their end tag: no edit reaches inside.
RAW_TEXT = VERBATIM | {"svg", "math", "style"}

# The markup the tokenizer steps over, tag by tag, as the HTML standard
# tokenizes it: a comment, a declaration or instruction, a tag (quoted
# attribute values read whole, so a ">" inside one ends nothing), or a "<"
# that starts none of these (text).
_MARKUP = r"""(?:[^<]++
    | <!--.*?-->
    | <[!?][^>]*+>
    | </?[a-zA-Z][^\t\n\r\f\x20/>\x00]*+(?:[^>"']++|"[^"]*+"|'[^']*+')*+>
    | <)"""


@functools.lru_cache(maxsize=16)
def _tokens(starts: frozenset[str], ends: frozenset[str]) -> re.Pattern[str]:
    """The next start tag named in ``starts`` or end tag named in ``ends``.

    Everything before it is stepped over atomically, in the pattern: only
    the tags a handler or a raw-text element needs reach Python.
    """
    names = "|".join(map(re.escape, sorted(starts)))
    ending = "|".join(map(re.escape, sorted(ends))) or "(?!)"
    wanted = rf"<(?:(?i:{names})|/(?i:{ending}))(?=[\t\n\r\f\x20/>])"
    return re.compile(
        rf"""(?>(?:(?!{wanted}){_MARKUP})*+)
        (?P<tag><(?P<slash>/?)(?P<name>[a-zA-Z][^\t\n\r\f\x20/>\x00]*+)
        (?:[^>"']++|"[^"]*+"|'[^']*+')*+>)""",
        re.DOTALL | re.VERBOSE,
    )


_ATTRIBUTE = re.compile(
    r"""((?<=['"\s/])[^\s/>][^\s/=>]*)(\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*))?"""
)


@functools.lru_cache(maxsize=64)
def _end_tag(name: str) -> re.Pattern[str]:
    """Where a raw-text element ends."""
    return re.compile(f"</{re.escape(name)}>", re.IGNORECASE)


def _attributes(source: str, name_end: int) -> dict[str, str | None]:
    """A start tag's attributes, as :class:`html.parser.HTMLParser` reads them."""
    attrs: dict[str, str | None] = {}
    for found in _ATTRIBUTE.finditer(source, name_end, len(source) - 1):
        value = found[3]
        if value and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        attrs.setdefault(found[1].lower(), html.unescape(value) if value else value)
    return attrs


def _tokenize(page: str, handlers: Sequence[Handler]) -> list[tuple[int, int]]:
    """Hand the handlers their tags, in page order; the verbatim elements' spans."""
    wanted: dict[str, list[tuple[str, Handler]]] = {}
    for handler in handlers:
        for name, marker in handler.names.items():
            wanted.setdefault(name, []).append((marker, handler))
    ends = frozenset(n for n, w in wanted.items() if any(not m for m, _ in w))
    # A tag a handler may want: any of its element's (``ends``), or one whose
    # source holds a marker.
    markers = {n: tuple(m for m, _ in w) for n, w in wanted.items() if n not in ends}
    tokens = _tokens(frozenset(wanted) | RAW_TEXT | {"div"}, ends)
    verbatim: list[tuple[int, int]] = []
    position = 0
    while found := tokens.match(page, position):
        start, position = found.span("tag")
        source, slash, name = found.group("tag", "slash", "name")
        name = name.lower()
        if name in ends or (
            name in markers and any(m in source for m in markers[name])
        ):
            _hand_over(source, name, bool(slash), start, wanted[name], page)
        if slash or name not in RAW_TEXT and not source.startswith(_COPY_SOURCE):
            continue
        end = _end_tag(name).search(page, position)
        if end is None:
            break  # the rest of the page is the element's text
        if name in VERBATIM or name == "div":
            verbatim.append((start, end.end()))
        if name in ends:
            _hand_over(end[0], name, True, end.start(), wanted[name], page)
        position = end.end()
    return verbatim


def _hand_over(
    source: str,
    name: str,
    closing: bool,
    start: int,
    wanted: Sequence[tuple[str, Handler]],
    page: str,
) -> None:
    """Give a tag to the handlers whose marker it holds."""
    tag = None
    for marker, handler in wanted:
        if marker and (closing or marker not in source):
            continue
        if tag is None:
            attrs = {} if closing else _attributes(source, len(name) + 1)
            tag = Tag(name, attrs, start, start + len(source), closing)
        handler.tag(tag, page)


_BLANK_RUN = re.compile(r"\n[ \t]*(?:\n[ \t]*)*")


def walk(page: str, handlers: Sequence[Handler], *, collapse: bool = False) -> str:
    """Tokenize ``page`` once, give the handlers its tags, and make their changes.

    Parameters:
        page: A page's HTML.
        handlers: The edits, each told about the tags it names.
        collapse: Also drop blank lines and indentation outside the verbatim
            elements (``pre``, ``textarea``, ``script``, ``code`` and the
            notebooks' copy-button sources); a newline stays wherever there
            was one, so the page renders the same.

    Returns:
        The page with every change made; bytes no change touches are kept.
    """
    verbatim = _tokenize(page, handlers)
    changes = sorted(
        (c for handler in handlers for c in handler.changes(page)),
        key=lambda c: (c.start, c.end),
    )
    pieces = _pieces(page, changes, verbatim if collapse else [])
    if not collapse:
        return "".join(text for text, _ in pieces)
    return _collapsed(pieces)


def _pieces(
    page: str, changes: Sequence[Change], verbatim: Sequence[tuple[int, int]]
) -> list[tuple[str, bool]]:
    """The page cut at changes and verbatim elements: (text, is verbatim)."""
    starts = [start for start, _ in verbatim]
    cuts = sorted({p for span in verbatim for p in span})

    def inside(offset: int) -> bool:
        index = bisect.bisect_right(starts, offset) - 1
        return index >= 0 and offset < verbatim[index][1]

    def source(start: int, end: int) -> Iterable[tuple[str, bool]]:
        lo = bisect.bisect_right(cuts, start)
        hi = bisect.bisect_left(cuts, end)
        for a, b in zip([start, *cuts[lo:hi]], [*cuts[lo:hi], end], strict=True):
            if a < b:
                yield page[a:b], inside(a)

    pieces: list[tuple[str, bool]] = []
    position = 0
    for change in changes:
        if change.start < position:
            raise ValueError(f"overlapping edits of the page at offset {change.start}")
        pieces.extend(source(position, change.start))
        pieces.append((change.text, inside(change.start)))
        position = change.end
    pieces.extend(source(position, len(page)))
    return pieces


def _collapsed(pieces: Iterable[tuple[str, bool]]) -> str:
    """Join the pieces, blank runs outside verbatim ones made one newline."""
    out: list[str] = []
    plain: list[str] = []
    for text, verbatim in pieces:
        if verbatim:
            out.append(_BLANK_RUN.sub("\n", "".join(plain)))
            plain = []
            out.append(text)
        else:
            plain.append(text)
    out.append(_BLANK_RUN.sub("\n", "".join(plain)))
    return "".join(out)

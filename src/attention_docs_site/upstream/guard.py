"""The one guard every reach into a dependency goes through.

A reach is declared once, as a :class:`Reach`: the distribution it reaches
into, the version it was written for (the lock's), what it changes, why, and
whether the site needs it to be right (``correctness``) or only to be fast
(``speed``). Its code then changes the dependency only through the reach:

- :meth:`Reach.edit`: a regular-expression edit of the dependency's HTML, CSS
  or JavaScript, that must match (exactly ``count`` times, when given);
- :meth:`Reach.replace`: a function or method of the dependency replaced,
  after checking that it still takes the parameters the replacement expects;
- :meth:`Reach.require` and :meth:`Reach.applying`: any other check, and a
  block of steps whose :class:`UpstreamChanged` is re-raised naming the reach.

When a reach no longer applies, the build fails with :class:`UpstreamChanged`
naming the reach, the distribution and the installed version against the one
it was written for: no edit ever changes nothing silently.

Two switches, for upgrades:

- ``ATTENTION_DOCS_SPEED_EDITS=off`` (the plugin's ``speed_edits`` option)
  turns off every ``speed`` reach: an upgrade can ship with them off while
  they are rewritten. :attr:`Reach.active` says whether a reach is on.
- ``ATTENTION_DOCS_UPSTREAM_REPORT=<file.json>`` (the canary,
  ``scripts/canary.py``) records each reach's outcome instead of stopping at
  the first failure: a failing edit leaves its text as it was, the build goes
  on, and :func:`finish_report` writes the file and then fails the build.

And one for the benchmarks only (not a reader's option):
``ATTENTION_DOCS_BENCHMARK_OFF="<name>;<name>"`` turns off the named ``speed``
reaches, one A/B variant of ``benchmarks/reaches.py``.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.metadata
import inspect
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mkdocs.exceptions import PluginError

REPORT_VARIABLE = "ATTENTION_DOCS_UPSTREAM_REPORT"
BENCHMARK_VARIABLE = "ATTENTION_DOCS_BENCHMARK_OFF"

Need = Literal["correctness", "speed"]


class UpstreamChanged(PluginError):
    """A dependency no longer has what a declared reach changes."""


@dataclass
class _Outcome:
    applied: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass
class _State:
    speed_edits: bool = True
    benchmark_off: frozenset[str] = frozenset()
    report: Path | None = None
    outcomes: dict[str, _Outcome] = field(default_factory=dict)
    # This build's: how often each reach applied, and why a reach must apply.
    applied: dict[str, int] = field(default_factory=dict)
    expected: dict[str, tuple[Reach, str]] = field(default_factory=dict)


_STATE = _State()
REACHES: dict[str, Reach] = {}


@dataclass(frozen=True)
class Reach:
    """One declared reach into a dependency.

    Parameters:
        name: A short, unique name (``"material: search dialog label"``).
        package: The distribution reached into (as pip names it).
        written_for: The version it was written for (the lock's).
        what: What it changes.
        why: Why the site needs it.
        need: ``"correctness"``, or ``"speed"`` (off with the speed switch).
        report: The title of the fix it works around, as ``upstream/README.md``
            writes it for the package's tracker; empty if there is none.
        reported: Where that report was filed; empty until it is.
    """

    name: str
    package: str
    written_for: str
    what: str
    why: str
    need: Need
    report: str = ""
    reported: str = ""

    @property
    def active(self) -> bool:
        """Whether this reach is applied (a speed reach: while the switch is on)."""
        return self.need == "correctness" or speed_on(self.name)

    def installed(self) -> str:
        """The installed version of the package (``"not installed"`` if none)."""
        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def changed(self, detail: str) -> UpstreamChanged:
        """The error that names this reach, its package and both versions."""
        return UpstreamChanged(
            f"upstream reach {self.name!r} no longer applies to {self.package} "
            f"{self.installed()} (written for {self.written_for}): {detail}. "
            "See src/attention_docs_site/upstream/README.md"
        )

    def _fail(self, detail: str) -> None:
        """Raise :meth:`changed`, or record it when the canary asks for a report."""
        if _STATE.report is None:
            raise self.changed(detail)
        _STATE.outcomes.setdefault(self.name, _Outcome()).failures.append(detail)

    def _applied(self) -> None:
        _STATE.outcomes.setdefault(self.name, _Outcome()).applied += 1
        _STATE.applied[self.name] = _STATE.applied.get(self.name, 0) + 1

    def expect(self, because: str) -> None:
        """Say that this build must apply this reach somewhere, and why.

        For a reach that applies where it detects its anchor (a class name of
        the theme's, a marker in a block's markup): if an upgrade moves the
        anchor, the detection finds nothing and the edit would be skipped
        without a word. :func:`check_expected` fails the build instead.
        """
        if self.active:
            _STATE.expected.setdefault(self.name, (self, because))

    def require(self, condition: bool, detail: str) -> bool:
        """Fail the reach unless ``condition`` holds (it applied if it does)."""
        if condition:
            self._applied()
        else:
            self._fail(detail)
        return condition

    def edit(
        self,
        pattern: re.Pattern[str],
        replacement: str | Callable[[re.Match[str]], str],
        text: str,
        *,
        count: int | None = None,
        limit: int = 0,
    ) -> str:
        """``pattern.sub`` that must match: ``count`` times if given, else once or more.

        Parameters:
            pattern: What the edit looks for in the dependency's output.
            replacement: As for :meth:`re.Pattern.sub`.
            text: The HTML, CSS or JavaScript.
            count: The exact number of matches expected (None: one or more).
            limit: At most this many replacements; 0 for all.

        Returns:
            The edited text (the text as it was, if the canary records a failure).
        """
        result, made = pattern.subn(replacement, text, count=limit)
        found = made if limit == 0 else len(pattern.findall(text))
        if (count is None and made == 0) or (count is not None and found != count):
            expected = "a match" if count is None else f"{count} matches"
            self._fail(f"expected {expected} of {pattern.pattern!r}, found {found}")
            return text
        self._applied()
        return result

    def replace(
        self,
        owner: object,
        attribute: str,
        parameters: Iterable[str],
        make: Callable[[Callable[..., Any]], Callable[..., Any]],
    ) -> None:
        """Replace ``owner.attribute`` by ``make(original)``, if its shape is known.

        Parameters:
            owner: The dependency's class or module.
            attribute: The function or method to replace.
            parameters: The parameters the original must take, in order.
            make: Given the original, returns its replacement.
        """
        original = getattr(owner, attribute, None)
        wanted = list(parameters)
        where = getattr(owner, "__qualname__", getattr(owner, "__name__", owner))
        if original is None or list(inspect.signature(original).parameters) != wanted:
            self._fail(f"{where}.{attribute} is missing or no longer takes {wanted}")
            return
        setattr(owner, attribute, make(original))
        self._applied()

    @contextlib.contextmanager
    def applying(self) -> Iterator[None]:
        """Steps of this reach: an :class:`UpstreamChanged` they raise names it."""
        try:
            yield
        except UpstreamChanged as error:
            if str(error).startswith("upstream reach "):
                raise
            self._fail(str(error))
        else:
            self._applied()


def declare(  # noqa: PLR0913 (a reach's declaration, field by field)
    name: str,
    package: str,
    written_for: str,
    what: str,
    why: str,
    need: Need,
    *,
    report: str = "",
    reported: str = "",
) -> Reach:
    """Declare a reach (once per name); the registry lists it for the canary."""
    if name in REACHES:
        raise ValueError(f"upstream reach {name!r} is declared twice")
    reach = Reach(name, package, written_for, what, why, need, report, reported)
    REACHES[name] = reach
    return reach


def start_build(*, speed_edits: bool, fresh: bool = True) -> None:
    """Set the speed switch and, under the canary, start a fresh report.

    ``fresh``: a new build of the site (not an edition's nested build, which
    adds to its site's counts).
    """
    _STATE.speed_edits = speed_edits
    _STATE.benchmark_off = benchmark_off()
    if fresh:
        _STATE.applied, _STATE.expected = {}, {}
    target = os.environ.get(REPORT_VARIABLE)
    _STATE.report = Path(target) if target else None


def benchmark_off() -> frozenset[str]:
    """The speed reaches the benchmarks' switch names (else PluginError)."""
    value = os.environ.get(BENCHMARK_VARIABLE, "")
    names = frozenset(name.strip() for name in value.split(";") if name.strip())
    known = {name for name, reach in REACHES.items() if reach.need == "speed"}
    if unknown := sorted(names - known):
        raise PluginError(
            f"{BENCHMARK_VARIABLE} names no speed reach: {unknown}; "
            "python -m attention_docs_site.upstream lists the reaches"
        )
    return names


def speed_on(name: str) -> bool:
    """Whether a speed reach runs: both switches let it."""
    return _STATE.speed_edits and name not in _STATE.benchmark_off


def check_expected() -> None:
    """At the end of a full build: every expected reach applied at least once.

    Raises:
        UpstreamChanged: One did not: its anchor was found on no page
            (recorded instead, under the canary).
    """
    for name, (reach, because) in sorted(_STATE.expected.items()):
        if not _STATE.applied.get(name):
            reach._fail(f"applied nowhere in a build where {because}")


def finish_report() -> None:
    """Under the canary: add this build's outcomes to the report; fail if one failed.

    The report gathers every build of the canary's run, in any process (a
    build, a warm build, ``mkdocs serve`` and its rebuilds): each build adds
    what happened since the last one of its process, under a lock.

    Raises:
        PluginError: A reach failed during the build.
    """
    if _STATE.report is None:
        return
    outcomes, _STATE.outcomes = _STATE.outcomes, {}
    with open(_STATE.report.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        rows = merged(_read(_STATE.report), outcomes)
        _STATE.report.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    failed = [name for name, outcome in outcomes.items() if outcome.failures]
    if failed:
        raise PluginError(f"upstream reaches that no longer apply: {sorted(failed)}")


def _read(report: Path) -> dict[str, dict[str, Any]]:
    return json.loads(report.read_text("utf-8")) if report.exists() else {}


def merged(
    rows: dict[str, dict[str, Any]], outcomes: dict[str, _Outcome]
) -> dict[str, dict[str, Any]]:
    """The report's rows with one build's outcomes added (every reach a row).

    ``active`` counts the builds in which the reach was on; ``applied`` the
    times it applied, over every build.
    """
    result = {}
    for name, reach in sorted(REACHES.items()):
        row = rows.get(name, {"active": 0, "applied": 0, "failures": []})
        outcome = outcomes.get(name, _Outcome())
        result[name] = {
            "package": reach.package,
            "written_for": reach.written_for,
            "installed": reach.installed(),
            "need": reach.need,
            "report": reach.report,
            "reported": reach.reported,
            "active": row["active"] + reach.active,
            "applied": row["applied"] + outcome.applied,
            "failures": sorted(set(row["failures"]) | set(outcome.failures)),
        }
    return result


def verdict(row: dict[str, Any]) -> str:
    """A report row's result: what failed, or why it is not exercised, or "".

    A version other than the one it was written for is no failure: the
    report shows both, and the reach either applies or fails.
    """
    if row["failures"]:
        return "FAILS: " + "; ".join(row["failures"])
    if row["active"] and not row["applied"]:
        return "NOT EXERCISED: on, but no build of the run applied it"
    return ""

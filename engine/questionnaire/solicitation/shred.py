"""A solicitation package shredded into requirements and key facts (engine/questionnaire/
solicitation/: pages.py reads, units.py splits, rules.py judges, facts.py finds the key facts).

IDs are the document's own numbering (the section and the list items it sits under: "1.3.1B",
"3.02.2b", "6.4(4)"), with "-2", "-3" … for further requirements under the same number, and
"R-001" … (document order) where there is no numbering: the same file gives the same IDs on every
run. The same requirement in two files of a package (its quote, whitespace and case aside) is
listed once, the other places named in ``also_in``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from engine.core.limits import Limits
from engine.core.types import Progress
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.solicitation.facts import due_alert, key_facts, may_state
from engine.questionnaire.solicitation.pages import page_count, read_pages
from engine.questionnaire.solicitation.records import Kind, Page, Requirement, Shredded, Unit
from engine.questionnaire.solicitation.rules import (
    CONSEQUENCE_CUE,
    MUST,
    RESPONSE_SUBJECT,
    Verdict,
    judge,
    kind_of,
    section_kind,
)
from engine.questionnaire.solicitation.units import WINDOW, stream_units

NO_REQUIREMENTS_FIX = (
    "check it is the solicitation itself (not a cover letter or a price sheet), or add the requirements by hand"
)
MIN_BINDING = 5  # "shall", "must", "required" at least this often, and three times as often as "?"
_BINDING = re.compile(r"\b(shall|must|required)\b", re.I)
_SECTIONS = re.compile(
    r"instructions to (?:offerors|quoters|bidders|proposers|applicants)|evaluation (?:factors|criteria)|"
    r"statement of (?:work|objectives)|performance work statement|scope of (?:work|services)|basis for award|"
    r"request for (?:proposals?|quotations?|quotes?|information)|invitation (?:for|to) bid|solicitation",
    re.I,
)


def requirements_of(units: Iterable[Unit]) -> list[Requirement]:
    """The requirements among a file's units, with their IDs (see the module docstring)."""
    return list(stream_requirements(units))


def stream_requirements(units: Iterable[Unit]) -> Iterator[Requirement]:
    """The requirements among a file's units as the units come (see :func:`requirements_of`)."""
    used: Counter[str] = Counter()
    generated = 0
    said: tuple[str, int, int] | None = None  # the paragraph of the sentence before, when it stated a rule
    title: tuple[str, int, str] | None = None  # a work item's title line just before ("Analysis and Research")
    for unit in units:
        section = section_kind(unit.headings)
        verdict = judge(unit, section)
        if not verdict.requirement and title == (unit.file, unit.page, unit.number) and _described(unit, section):
            verdict = Verdict(True, True, "task under its title")  # "Conducting in detail industry analysis, …"
        title = (unit.file, unit.page, unit.number) if _titled(unit, section, verdict) else None
        paragraph = (unit.file, unit.page, unit.paragraph)
        beside, said = said == paragraph, paragraph if verdict.requirement and verdict.why != CONSEQUENCE_CUE else None
        if not verdict.requirement or verdict.why == CONSEQUENCE_CUE and beside:
            continue  # "Late quotes will not be accepted" right after "Quotes must arrive by …": the rule counts once
        if unit.number:
            used[unit.number] += 1
            rid = unit.number if used[unit.number] == 1 else f"{unit.number}-{used[unit.number]}"
        else:
            generated += 1
            rid = f"R-{generated:03d}"
        yield Requirement(
            id=rid,
            file=unit.file,
            page=unit.page,
            paragraph=unit.paragraph,
            quote=unit.text,
            kind=_kind(unit, section, verdict),
            mandatory=verdict.mandatory,
            section=" > ".join(unit.headings),
            lead_in=unit.lead_in,
        )


TITLE_WORDS = 6


def _titled(unit: Unit, section: Kind | None, verdict: Verdict) -> bool:
    """A numbered item of the scope of work that is only a title ("Commercialization Strategy")."""
    words = unit.text.split()
    return (
        section is Kind.WORK
        and unit.item
        and bool(unit.number)
        and not verdict.requirement
        and len(words) <= TITLE_WORDS
        and not unit.text.rstrip().endswith((".", ";", ":", "?", "!"))
    )


def _described(unit: Unit, section: Kind | None) -> bool:
    """The description under a work item's title: one sentence of its own in the same item, which
    the title makes a task of the work ("Development of commercialization plans with technical teams.")."""
    return section is Kind.WORK and not unit.item and unit.text.rstrip().endswith(".") and len(unit.text.split()) >= 4


def _kind(unit: Unit, section: Kind | None, verdict: Verdict) -> Kind:
    """A consequence for the response ("… will reject any application submitted with …", "Late
    quotes will not be considered") is a submission requirement (what the response must not be);
    any other requirement's kind is :func:`~engine.questionnaire.solicitation.rules.kind_of`'s."""
    if verdict.why == CONSEQUENCE_CUE and RESPONSE_SUBJECT.search(unit.text):
        return Kind.SUBMISSION
    return kind_of(unit, section)


def _key(quote: str) -> str:
    return re.sub(r"\W+", " ", quote).strip().lower()


def linked(requirements: Iterable[Requirement]) -> list[Requirement]:
    """One requirement per quote across a package's files; the other places in ``also_in``."""
    out: list[Requirement] = []
    first: dict[str, int] = {}
    for req in requirements:
        key = _key(req.quote)
        if key in first and out[first[key]].file != req.file and len(key) > 20:
            kept = out[first[key]]
            out[first[key]] = replace(kept, also_in=(*kept.also_in, f"{req.file} p.{req.page}"))
            continue
        first.setdefault(key, len(out))
        out.append(req)
    return out


def corrected(result: Shredded, exclude: Iterable[str] = (), kinds: Mapping[str, Kind] | None = None) -> Shredded:
    """The reviewer's corrections: requirements left out (by ID) and kinds changed (ID → kind).
    An ID that names no requirement is refused in one line, so a typo is not silently ignored."""
    kinds = dict(kinds or {})
    known = {r.id for r in result.requirements}
    unknown = sorted((set(exclude) | set(kinds)) - known)
    if unknown:
        raise QuestionnaireError(
            ", ".join(result.files), f"has no requirement {', '.join(unknown)}", "give IDs as `shred` lists them"
        )
    kept = tuple(replace(r, kind=kinds.get(r.id, r.kind)) for r in result.requirements if r.id not in set(exclude))
    return replace(result, requirements=kept)


def looks_like_solicitation(pages: Sequence[Page]) -> bool:
    """A solicitation, not a questionnaire: few questions, much binding language, or its sections' names."""
    text = " ".join(p.text for p in pages[:60])
    questions = text.count("?")
    binding = len(_BINDING.findall(text))
    return bool(_SECTIONS.search(text)) and binding >= MIN_BINDING and binding > 3 * questions


class StopShredding(Exception):  # noqa: N818 (a request, not an error)
    """Raised by a progress callback to stop a shred: the requirements of the pages read so far
    are kept (``Shredded.stopped`` says where it stopped)."""


def up_to(pages: int | None, progress: Progress | None = None) -> Progress | None:
    """``progress`` that also stops the shred after page ``pages`` (None: ``progress`` as it is):
    a shred stopped there before, read again to the same page (the same requirements and IDs)."""
    if pages is None:
        return progress

    def report(file: str, page: int, total: int) -> None:
        if progress is not None:
            progress(file, page, total)
        if page >= pages:
            raise StopShredding

    return report


FIRST_PAGES = 60  # the pages whose words decide whether a package reads as a solicitation


@dataclass
class _Package:
    """What a shred keeps while the pages stream by: the requirements, the units and pages the
    key facts may quote (:func:`~engine.questionnaire.solicitation.facts.may_state`), the first
    pages' text, and where it stands."""

    found: list[Requirement] = field(default_factory=list)
    fact_units: list[Unit] = field(default_factory=list)
    fact_pages: dict[tuple[str, int], Page] = field(default_factory=dict)
    first_pages: list[Page] = field(default_factory=list)
    pages: int = 0
    at: tuple[str, int, int] = ("", 0, 0)  # the file, its last page read, its page count
    stopped: str = ""  # where a stop came, and how to finish (see ``Shredded.stopped``)

    def read(self, pages: Iterator[Page], total: int, progress: Progress | None) -> Iterator[Page]:
        """The pages as they are read, each counted and reported; a stop (StopShredding raised by
        ``progress``, or Ctrl-C) ends them after the page it came at, recorded in ``stopped``."""
        with closing(pages):  # the file is closed however the reading ends
            try:
                for page in pages:
                    self.pages += 1
                    self.at = (page.file, page.number, total)
                    if len(self.first_pages) < FIRST_PAGES:
                        self.first_pages.append(page)
                    yield page
                    if progress is not None:
                        progress(page.file, page.number, total)
            except (StopShredding, KeyboardInterrupt):
                name, number, total = self.at
                self.stopped = (
                    f"stopped after page {number} of {total} of {name}: the requirements of the pages read are "
                    "kept; run the same command again to shred it whole (the same IDs come back)"
                )

    def take(self, units: Iterable[Unit], pages: dict[tuple[str, int], Page]) -> Iterator[Unit]:
        for unit in units:
            if may_state(unit.text):
                self.fact_units.append(unit)
                self.fact_pages[(unit.file, unit.page)] = pages[(unit.file, unit.page)]
            yield unit


def shred(
    paths: Sequence[str | Path],
    *,
    limits: Limits | None = None,
    today: date | None = None,
    progress: Progress | None = None,
) -> Shredded:
    """The requirements and key facts of a solicitation package (one or several files). Raises
    :class:`~engine.questionnaire.sheet.reader.QuestionnaireError` for a file that cannot be read
    (encrypted, scanned, another format) and for a package with no requirement at all.

    The pages stream through (:func:`~engine.questionnaire.solicitation.units.stream_units`):
    ``progress(file, page, pages)`` is called after each page; raising :class:`StopShredding` in
    it (or Ctrl-C) stops the shred, and the requirements of the pages read so far are returned,
    ``stopped`` saying where."""
    limits = limits or Limits.from_env()
    package = _Package()
    for path in paths:
        _shred_file(Path(path), limits, package, progress)
        if package.stopped:
            break
    requirements = linked(package.found)
    if not requirements and not package.stopped:
        names = ", ".join(Path(p).name for p in paths)
        raise QuestionnaireError(
            names, "holds no requirement (no sentence that obliges the offeror or the contractor)", NO_REQUIREMENTS_FIX
        )
    facts = key_facts(package.first_pages, package.fact_units, package.fact_pages)
    return Shredded(
        files=tuple(Path(p).name for p in paths),
        pages=package.pages,
        requirements=tuple(requirements),
        facts=facts,
        alert=due_alert(facts, today),
        looks_like_solicitation=looks_like_solicitation(package.first_pages),
        stopped=package.stopped,
    )


def _shred_file(path: Path, limits: Limits, package: _Package, progress: Progress | None) -> None:
    """One file's pages streamed into ``package``: read, split and judged as they come (only the
    window of pages the splitter looks around in is held)."""
    held: dict[tuple[str, int], Page] = {}  # the pages the units may still come from

    def pages() -> Iterator[Page]:
        for page in package.read(read_pages(path, limits), page_count(path), progress):
            held[(page.file, page.number)] = page
            for key in [k for k in held if k[1] < page.number - WINDOW]:
                del held[key]
            yield page

    package.found.extend(stream_requirements(package.take(stream_units(pages()), held)))


__all__ = [
    "MUST",
    "NO_REQUIREMENTS_FIX",
    "StopShredding",
    "corrected",
    "linked",
    "looks_like_solicitation",
    "requirements_of",
    "shred",
    "stream_requirements",
    "up_to",
]

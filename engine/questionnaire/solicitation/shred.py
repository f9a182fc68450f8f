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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path

from engine.core.limits import Limits
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.solicitation.facts import due_alert, key_facts
from engine.questionnaire.solicitation.pages import read_pages
from engine.questionnaire.solicitation.records import Kind, Page, Requirement, Shredded, Unit
from engine.questionnaire.solicitation.rules import CONSEQUENCE_CUE, MUST, judge, kind_of, section_kind
from engine.questionnaire.solicitation.units import page_units

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


def requirements_of(units: Sequence[Unit]) -> list[Requirement]:
    """The requirements among a file's units, with their IDs (see the module docstring)."""
    found: list[Requirement] = []
    used: Counter[str] = Counter()
    generated = 0
    said: tuple[str, int, int] | None = None  # the paragraph of the sentence before, when it stated a rule
    for unit in units:
        section = section_kind(unit.headings)
        verdict = judge(unit, section)
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
        found.append(
            Requirement(
                id=rid,
                file=unit.file,
                page=unit.page,
                paragraph=unit.paragraph,
                quote=unit.text,
                kind=kind_of(unit, section),
                mandatory=verdict.mandatory,
                section=" > ".join(unit.headings),
                lead_in=unit.lead_in,
            )
        )
    return found


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


def shred(
    paths: Sequence[str | Path],
    *,
    limits: Limits | None = None,
    today: date | None = None,
    progress: Callable[[str, int], None] | None = None,
) -> Shredded:
    """The requirements and key facts of a solicitation package (one or several files). Raises
    :class:`~engine.questionnaire.sheet.reader.QuestionnaireError` for a file that cannot be read
    (encrypted, scanned, another format) and for a package with no requirement at all."""
    limits = limits or Limits.from_env()
    all_pages: list[Page] = []
    found: list[Requirement] = []
    all_units: list[Unit] = []
    for path in paths:
        pages = []
        for page in read_pages(path, limits):
            pages.append(page)
            if progress is not None:
                progress(Path(path).name, page.number)
        units = page_units(pages)
        all_pages.extend(pages)
        all_units.extend(units)
        found.extend(requirements_of(units))
    requirements = linked(found)
    if not requirements:
        names = ", ".join(Path(p).name for p in paths)
        raise QuestionnaireError(
            names, "holds no requirement (no sentence that obliges the offeror or the contractor)", NO_REQUIREMENTS_FIX
        )
    facts = key_facts(all_pages, all_units)
    return Shredded(
        files=tuple(Path(p).name for p in paths),
        pages=len(all_pages),
        requirements=tuple(requirements),
        facts=facts,
        alert=due_alert(facts, today),
        looks_like_solicitation=looks_like_solicitation(all_pages),
    )


__all__ = ["MUST", "NO_REQUIREMENTS_FIX", "corrected", "linked", "looks_like_solicitation", "requirements_of", "shred"]

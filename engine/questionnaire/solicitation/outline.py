"""The proposal's outline a solicitation asks for: its volumes and sections in their order, with
their page (or word) limits, and which of them answers each requirement.

The sections are the volumes the instructions name ("Volume I – Technical Proposal"), else the
sections of the instructions themselves: the headings, in document order, under which the
submission requirements sit ("8.3 Statement of Qualifications", "3.02 Experience, Capabilities,
and Pricing"). A section's limit is the first page or word limit quoted by a requirement under
it. A requirement is answered in the section it sits under when that is one; else in the section
whose title shares the most words with it ("Technical Approach" for "Factor 1: Technical
Approach …"); else in "Compliance with the terms" (terms) or "Other requirements" (the rest).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.questionnaire.solicitation.records import Kind, Requirement

VOLUME = re.compile(
    r"\bVolume\s+(?P<n>[IVX]{1,4}|\d{1,2})\s*(?:[:–—-]|\()\s*(?P<t>[A-Z][\w ,&/'’-]{2,60}?)(?=[).;:,]|\s+(?:shall|must|will|is|should)\b|$)"
)
LIMIT = re.compile(
    r"\b(?:not (?:to )?exceed|no (?:more|greater) than|maximum of|limited to|up to)\s+(?:\w+\s+)?\(?\d+\)?\s*(?:pages?|words)\b"
    r"|\b\d+[- ]page limit\b|\bpage limit\w*\b[^.]{0,40}\d+",
    re.I,
)
TERMS_SECTION = "Compliance with the terms"
OTHER_SECTION = "Other requirements"
_WORD = re.compile(r"[a-z]{4,}")
_STOP = frozenset("shall must will with that this from their have been which where each other such into".split())


@dataclass(frozen=True)
class OutlineSection:
    title: str
    limit: str = ""  # the quote that limits it ("" for none stated)
    source: str = ""  # where the instructions ask for it: "file p.N"


@dataclass(frozen=True)
class Outline:
    sections: tuple[OutlineSection, ...]
    answered_in: dict[str, str]  # requirement key (Requirement.key) -> section title

    def requirements_of(self, title: str, requirements: Sequence[Requirement]) -> list[Requirement]:
        return [r for r in requirements if self.answered_in.get(r.key) == title]


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _inner(section: str) -> str:
    return section.split(" > ")[-1] if section else ""


def outline(requirements: Sequence[Requirement]) -> Outline:
    """The outline of a shredded solicitation's requirements (see the module docstring)."""
    sections: dict[str, OutlineSection] = {}
    for req in requirements:
        for m in VOLUME.finditer(req.quote):
            title = f"Volume {m.group('n')} – {m.group('t').strip()}"
            sections.setdefault(title, OutlineSection(title, source=f"{req.file} p.{req.page}"))
    volumes = bool(sections)
    if not volumes:
        for req in requirements:
            inner = _inner(req.section)
            if req.kind is Kind.SUBMISSION and inner:
                sections.setdefault(inner, OutlineSection(inner, source=f"{req.file} p.{req.page}"))
    answered: dict[str, str] = {}
    for req in requirements:
        inner = _inner(req.section)
        if not volumes and inner in sections:
            answered[req.key] = inner
            continue
        words = _words(req.text)
        best, score = "", 0
        for title in sections:
            common = len(words & _words(title))
            if common > score:
                best, score = title, common
        answered[req.key] = best or (TERMS_SECTION if req.kind is Kind.TERMS else OTHER_SECTION)
    for req in requirements:  # the limits, each on the section its requirement is answered in
        m = LIMIT.search(req.quote)
        title = answered.get(req.key, "")
        if m and title in sections and not sections[title].limit:
            sections[title] = OutlineSection(title, req.quote, sections[title].source)
    ordered = list(sections.values())
    for extra in (TERMS_SECTION, OTHER_SECTION):
        if extra in answered.values():
            ordered.append(OutlineSection(extra))
    return Outline(tuple(ordered), answered)


__all__ = ["OTHER_SECTION", "TERMS_SECTION", "Outline", "OutlineSection", "outline"]

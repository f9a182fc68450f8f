"""The typed records of a shredded solicitation: its requirements, its key facts, the package."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Kind(str, Enum):
    """What a requirement is about (the compliance matrix's "kind" column)."""

    SUBMISSION = "submission"  # what, how and when to submit; proposal content, forms, limits, eligibility
    EVALUATION = "evaluation"  # factors, subfactors, criteria, weights, pass/fail gates, basis for award
    WORK = "work"  # SOW / PWS / SOO tasks, deliverables, staffing, practices during performance
    TERMS = "terms"  # clauses, insurance, invoicing, licences, certifications, "by submitting … agrees"


class Fact(str, Enum):
    """The key facts of a solicitation, in the order the card shows them."""

    ISSUING_ORGANIZATION = "issuing_organization"
    SOLICITATION_NUMBER = "solicitation_number"
    RESPONSE_DUE = "response_due"
    QUESTIONS_DEADLINE = "questions_deadline"
    SUBMISSION_METHOD = "submission_method"
    PAGE_LIMITS = "page_limits"
    CONTRACT_TYPE = "contract_type"
    SET_ASIDE = "set_aside"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Fact.ISSUING_ORGANIZATION: "Issuing organisation",
    Fact.SOLICITATION_NUMBER: "Solicitation number",
    Fact.RESPONSE_DUE: "Response due",
    Fact.QUESTIONS_DEADLINE: "Questions deadline",
    Fact.SUBMISSION_METHOD: "Submission method and address",
    Fact.PAGE_LIMITS: "Page limits and format",
    Fact.CONTRACT_TYPE: "Contract type",
    Fact.SET_ASIDE: "Set-aside",
}
NOT_STATED = "not stated"


@dataclass(frozen=True)
class Page:
    """One page's text as PyMuPDF gives it (``page.get_text()``), whitespace collapsed, and its
    lines as offsets into that text (a Word document's paragraphs are its lines, on one page)."""

    file: str
    number: int  # 1-based
    text: str
    lines: tuple[tuple[int, int], ...]  # (start, end) of each non-empty line in ``text``
    gaps: frozenset[int] = frozenset()  # indices of the lines that follow a blank line (a paragraph break)


@dataclass(frozen=True)
class Unit:
    """A sentence or a list item of a page: ``text`` is ``page.text[start:end]`` verbatim."""

    file: str
    page: int
    start: int
    end: int
    text: str
    number: str  # the numbering it sits under ("1.3.1B", "3.02.2b"), "" where none
    headings: tuple[str, ...]  # the heading path, outermost first
    lead_in: str = ""  # the sentence ending in ':' a list item is under ("" for none)
    item: bool = False  # a list item (enumerated, bulleted or a line under a lead-in)
    paragraph: int = 0  # the paragraph's ordinal on its page (1-based)
    leads: bool = False  # a lead-in with list items under it


@dataclass(frozen=True)
class Requirement:
    """One requirement: the solicitation's exact words (``quote``), where they are, what they are."""

    id: str
    file: str
    page: int
    paragraph: int
    quote: str
    kind: Kind
    mandatory: bool
    section: str  # the heading path, " > " joined
    lead_in: str = ""  # a list item's lead-in, carried with it
    also_in: tuple[str, ...] = ()  # "file p.N" of the same requirement in another file of the package

    @property
    def key(self) -> str:
        """Unique in a package: the file and the ID."""
        return f"{self.file}#{self.id}"

    @property
    def drafted(self) -> bool:
        """Whether a response is drafted from the knowledge base: work and evaluation requirements;
        submission and terms ones are a checklist (what to submit, what to accept)."""
        return self.kind in (Kind.WORK, Kind.EVALUATION)

    @property
    def text(self) -> str:
        """The requirement as read: a list item with its lead-in before it."""
        return f"{self.lead_in} {self.quote}" if self.lead_in else self.quote


class Compliance(str, Enum):
    """The responder's answer to a requirement in the compliance matrix."""

    COMPLY = "Comply"
    PARTIAL = "Partially comply"
    EXCEPTION = "Exception"
    NOTED = "Noted"  # for information only


@dataclass(frozen=True)
class MatrixEntry:
    """What the team filled in for one requirement (the matrix's right-hand columns)."""

    owner: str = ""
    compliance: Compliance | None = None
    response: str = ""
    citations: tuple[str, ...] = ()  # "document p.N: quote"
    status: str = "open"  # open / drafted / accepted / …


@dataclass(frozen=True)
class KeyFact:
    fact: Fact
    value: str  # the quote that states it, or NOT_STATED
    file: str = ""
    page: int = 0

    @property
    def stated(self) -> bool:
        return self.value != NOT_STATED


@dataclass(frozen=True)
class DueDateAlert:
    """The response due date against today: past, or within 3 days."""

    due: str  # ISO date
    days_left: int

    @property
    def line(self) -> str:
        if self.days_left < 0:
            return f"The response due date {self.due} is past ({-self.days_left} days ago)."
        return f"The response is due {self.due}: in {self.days_left} day(s)."


@dataclass(frozen=True)
class Shredded:
    """A solicitation package shredded: its files, requirements (document order) and key facts."""

    files: tuple[str, ...]
    pages: int
    requirements: tuple[Requirement, ...]
    facts: tuple[KeyFact, ...]
    alert: DueDateAlert | None = None
    looks_like_solicitation: bool = True
    notes: tuple[str, ...] = field(default=())
    stopped: str = ""  # where a stopped shred stopped, and how to finish it ("" when it ran to the end)

    def counts(self) -> dict[str, int]:
        """Requirements by kind, and how many are mandatory."""
        out = {k.value: sum(r.kind is k for r in self.requirements) for k in Kind}
        out["mandatory"] = sum(r.mandatory for r in self.requirements)
        out["total"] = len(self.requirements)
        return out

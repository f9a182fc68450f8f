"""A reference where the question asks for one (issue #50, item 2): "Describe or provide a reference
to your Disaster Recovery Plan (DRP).", "Provide documentation of …", "Attach …" — when a company or
product document has a section on it, the answer names the section and says what it opens with:
"Described in Instructure Business Continuity & Disaster Recovery, pp. 11–14: <its first
sentence or two>", the sentences quoted word for word and cited, no model call.

* **What is asked for** (:func:`reference_topic`): the words after the request ("your Disaster
  Recovery Plan (DRP)"); a question that asks for nothing of the kind has no topic.
* **Which section** (:func:`find_section`): a PDF's headings (engine/index/sentences.py
  ``is_heading``, less the lines repeated at page edges) are the sections; a heading is on the
  topic when every content word of it (stemmed, as retrieval stems them) is a word of the topic,
  and it has at least ``HEADING_WORDS`` of them ("Disaster Recovery" for "your Disaster Recovery
  Plan", not "Disaster Recovery Plan Testing", which is for "how your disaster recovery plan is
  tested"). Of those, the heading with the most such words wins, then the longest section. A
  section runs from its heading's page over the following pages whose headings still share a word
  with it ("Definition of a Disaster", "Disaster Recovery Team"), and stops at the first page
  whose headings share none ("Load Balancers", "App Servers").
* **What it says**: the first ``SUMMARY_SENTENCES`` statements after the heading that stand alone
  (engine/drafting/explanation_rules.py), only those saying what the company does when there are
  any ("we", "our", the company's or the product's name: :func:`practice_first`), and speak to the question (their cosine with it
  ``QUESTION_FLOOR`` or more, engine/drafting/relevance.py: "Maintaining and enhancing security is
  a disciplined, continual, and ongoing process." opens Application Security and says nothing of
  web vulnerabilities), among its first ``SECTION_SENTENCES``, and name the topic by a word other than its
  kind (:func:`names_topic`: "… our incident response plan …" is another plan, on the Business
  Continuity page); none: no reference.

A Yes/No row whose guidance asks for a reference to a documented plan ("Do you have a
well-documented Business Continuity Plan (BCP) …?") or for documentation to support something ("Do
you have documentation to support the accessibility features of your product?"):
:func:`documented_topic`) gets the same reference as its explanation when its Yes has none, or
only other products' shared words, with a dropdown or without (issue #59, item 2). Without a
section on the topic, the document that is itself what is asked for is named
(:func:`find_document`: a line of its title names the topic — the product's VPAT,
"Accessibility Conformance Report" — "Documented in <title>, p. 1: “Accessibility Conformance
Report”.", the product's own documents first).

Only the company's and the drafted product's documents are read (never a third party's: a
provider's section is not the company's reference).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePath
from typing import Sequence

from engine.core.types import Unit
from engine.drafting.explanation import is_statement, sentences_of, shown
from engine.drafting.explanation_rules import standing_alone
from engine.index.sentences import is_heading, page_furniture

HEADING_WORDS = 2  # content words a heading needs to name a section on its own ("Security" does not)
SUMMARY_SENTENCES = 2
SECTION_SENTENCES = 12  # statements of a section read for its summary, at most
# "Describe or provide a reference to X", "provide documentation of X", "include documentation
# describing X", "attach X", "provide a copy of X"
_ASKS = re.compile(
    r"\b(?:(?:provide|give|share|include|attach)\s+(?:a\s+|an\s+)?(?:reference|link|pointer)s?\s+(?:to|for)|"
    r"(?:provide|include|attach|share)\s+(?:(?:a\s+copy\s+of|copies\s+of)\s+|(?:the\s+|any\s+)?documentation\s+"
    r"(?:of|on|for|about|describing|that\s+describes)\s+)|attach\s+(?!a\s+reference))\s*(?P<topic>[^?]+)",
    re.I,
)
_DATE = re.compile(r"^(?:\d{1,2}\s+)?[A-Z][a-z]+\s+\d{4}$|^Page \d+$|^\d+$")


def reference_topic(question: str) -> str | None:
    """What ``question`` asks a reference or documentation of; None when it asks for none."""
    m = _ASKS.search(" ".join(question.split()))
    if m is None:
        return None
    topic = re.split(r"\s*\((?:i\.e\.|e\.g\.)|[.;]\s", m.group("topic"))[0].strip(" .:")
    return topic or None


# "Do you have a well-documented Business Continuity Plan (BCP) that is tested annually?": a Yes/No
# row whose guidance asks for a reference to the plan (the HECVAT's "Provide a reference to your BCP
# and supporting documentation"): the documented plan, policy or programme is the topic
_DOCUMENTED = re.compile(
    r"\b(?:well[- ])?documented\s+(?P<topic>(?:[\w&/-]+\s+){0,5}?(?:plan|policy|policies|program|programme)"
    r"(?:\s*\([A-Z/]{2,8}\))?)",
    re.I,
)


# "Do you have documentation to support the accessibility features of your product?": the guidance
# asks for the documentation itself (a product's VPAT or accessibility conformance report)
_SUPPORTING = re.compile(
    r"\bdocumentation\s+(?:to\s+support|supporting|of|on|for|about)\s+(?:the\s+|your\s+|its\s+)?(?P<topic>[^?.;]+)",
    re.I,
)


def documented_topic(question: str) -> str | None:
    """The documented plan, policy or programme a Yes/No question asks about ("your well-documented
    Business Continuity Plan (BCP)"), or what it asks documentation to support ("the accessibility
    features of your product"), whose reference its guidance asks for; None for any other."""
    flat = " ".join(question.split())
    m = _DOCUMENTED.search(flat) or _SUPPORTING.search(flat)
    return m.group("topic").strip(" .:") if m else None


def _stems(text: str) -> set[str]:
    from engine.index.embed.sparse import analyzer  # noqa: PLC0415 - deferred: scikit-learn, only when asked

    return set(analyzer()(text))


# the kind of thing a topic is ("Business Continuity Plan", "Privacy Policy"): a sentence that names only
# the kind names another of its kind ("… our incident response plan …" under the Business Continuity Plan)
_KIND_WORDS = "plan plans policy policies program programme documentation document procedure process"


@lru_cache(maxsize=1)
def _kind() -> frozenset[str]:
    return frozenset(_stems(_KIND_WORDS))


def names_topic(sentence: str, topic: str) -> bool:
    """``sentence`` names what is asked for by a word of ``topic`` other than its kind (#59): "To help
    strengthen our Business Continuity Plan, …" under "Business Continuity Plan (BCP)", not "At
    Instructure, we have a detailed … incident response plan …", which the same page goes on to.
    A topic of kind words only is named by any sentence."""
    wanted = _stems(topic) - _kind()
    return not wanted or bool(_stems(sentence) & wanted)


@dataclass(frozen=True)
class Section:
    """A section of a document on the topic: the document, its heading, where the heading is (page
    and offset into the page's text) and the last page of the section."""

    doc: str
    heading: str
    page: int
    start: int
    last_page: int

    @property
    def title(self) -> str:
        """The document's title: its file name without the extension."""
        return PurePath(self.doc).stem

    @property
    def label(self) -> str:
        """ "Instructure Business Continuity & Disaster Recovery, pp. 11–14"."""
        return f"{self.title}, {self.pages}"

    @property
    def pages(self) -> str:
        """ "p. 11" or "pp. 11–14"."""
        return f"p. {self.page}" if self.last_page == self.page else f"pp. {self.page}–{self.last_page}"


def _headings(units: Sequence[Unit]) -> list[tuple[int, int, str]]:
    """The headings of a PDF's pages: (page, offset into its text, the line), page edges' repeated lines left out."""
    edges = page_furniture(units)
    out = []
    for u, unit in enumerate(units):
        if unit.page is None:
            continue
        skip = edges.get(u, [])
        for m in re.finditer(r"[^\n]*\S[^\n]*", unit.text):
            line = m.group(0).strip()
            if any(a <= m.start() < b for a, b in skip) or _DATE.match(line) or not is_heading(line):
                continue
            out.append((unit.page, m.end(), line))
    return out


def find_section(topic: str, documents: Sequence[tuple[str, Sequence[Unit]]]) -> Section | None:
    """The section of ``documents`` (name, its units) on ``topic`` (module docstring); None when none is."""
    wanted = _stems(topic)
    best: tuple[tuple[int, int], Section] | None = None
    for doc, units in documents:
        headings = _headings(units)
        for i, (page, start, line) in enumerate(headings):
            words = _stems(line)
            if len(words) < HEADING_WORDS or not words <= wanted:
                continue
            last = page
            for later in sorted({p for p, _, _ in headings[i + 1 :] if p > page}):
                if not any(_stems(h) & words for p, _, h in headings if p == later):
                    break
                last = later
            section = Section(doc, line, page, start, last)
            rank = (len(words), last - page)
            if best is None or rank > best[0]:
                best = (rank, section)
    return best[1] if best else None


def opening_sentences(section: Section, units: Sequence[Unit], n: int = SECTION_SENTENCES) -> list[tuple[int, str]]:
    """The first ``n`` statements of ``section`` that stand alone: (page, the sentence as it stands in the page's text)."""
    out: list[tuple[int, str]] = []
    for unit in units:
        if unit.page is None or not section.page <= unit.page <= section.last_page:
            continue
        text = unit.text[section.start :] if unit.page == section.page else unit.text
        for s in sentences_of(text):
            if is_statement(s) and standing_alone(shown(s)) is not None:
                out.append((unit.page, s.strip()))
                if len(out) == n:
                    return out
    return out


# a sentence that says what the company does (its name, "we", "our"), before an exposition of terms
_PRACTICE = re.compile(r"\b(?:we|our|us)\b", re.I)


def practice_first(sentences: Sequence[tuple[int, str]], names: Sequence[str]) -> list[tuple[int, str]]:
    """``sentences`` (page, sentence): those that speak of the company or the product (``names``,
    "we", "our"), in the section's order, when there are any; else all of them. "In the SaaS space,
    there are some key terms …" opens the Disaster Recovery section; "The primary assumption of our
    disaster recovery plan is …" says the company's practice."""
    said = [
        (page, s)
        for page, s in sentences
        if _PRACTICE.search(s) or any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", s) for n in names if n)
    ]
    return said or list(sentences)


def section_on(
    topic: str, documents: Sequence[tuple[str, Sequence[Unit]]], names: Sequence[str]
) -> tuple[Section, list[tuple[int, str]]] | None:
    """The section of ``documents`` on ``topic`` (:func:`find_section`) and its opening sentences that
    name the topic, the company's practice first (``names``: the product's and the company's, for
    :func:`practice_first`), in order: (page, sentence); None when no section is on it. The drafter
    keeps those of the sentences that speak to the question; without any, it names the document
    that is itself what is asked for (:func:`find_document`)."""
    section = find_section(topic, documents)
    if section is None:
        return None
    found = practice_first(opening_sentences(section, dict(documents)[section.doc]), names)
    return section, [(page, s) for page, s in found if names_topic(s, topic)]


# words that name no topic of their own: what any document is about ("the accessibility features of
# your product": the accessibility)
_GENERIC_WORDS = (
    "product products service services system systems feature features solution solutions application "
    "documentation document documents"
)
TITLE_LINES = 3  # the lines of a document's first page that are its title ("Accessibility Conformance Report")


@lru_cache(maxsize=1)
def _generic() -> frozenset[str]:
    return frozenset(_stems(_GENERIC_WORDS))


@dataclass(frozen=True)
class Named:
    """A whole document on the topic (:func:`find_document`): the document, the page of the line
    that shows it is the one asked for, and that line as it stands in the page's text."""

    doc: str
    page: int
    sentence: str

    @property
    def title(self) -> str:
        return PurePath(self.doc).stem

    @property
    def label(self) -> str:
        """ "Canvas Credentials (formerly Badgr) VPAT, p. 1"."""
        return f"{self.title}, p. {self.page}"


def topic_words(topic: str) -> list[str]:
    """The words of ``topic`` that name it, as written: less "documentation" (what is asked for, not
    what it is of), the words any document is about ("product", "features") and those retrieval
    ignores ("your"). A kind stays: an information security policy is not an ISO 27001 certificate
    of the information security management system."""
    generic = _generic()
    return [w for w in re.findall(r"[A-Za-z][\w-]*", topic) if _stems(w) and not _stems(w) <= generic]


def _title_lines(units: Sequence[Unit]) -> list[str]:
    """The first ``TITLE_LINES`` lines of the first page that say something (no page number or date)."""
    first = next((u for u in units if u.page is not None), None)
    lines = [ln.strip() for ln in (first.text.splitlines() if first else [])]
    return [ln for ln in lines if re.search(r"[A-Za-z]{3}", ln) and not _DATE.match(ln)][:TITLE_LINES]


def find_document(topic: str, documents: Sequence[tuple[str, Sequence[Unit]]], own: Sequence[str] = ()) -> list[Named]:
    """The documents of ``documents`` (name, its units) that are themselves what ``topic`` asks for:
    a line of their title (the first ``TITLE_LINES`` lines of the first page) names every word of the
    topic as written (:func:`topic_words`: "Accessibility Conformance Report" for "the accessibility
    features of your product", not an architecture paper whose contents list an "Accessibility"
    section); that line shows it is the right document. The product's own documents (``own``, names)
    first, then the company's, in the order given. None when the topic has no word of its own."""
    wanted = topic_words(topic)
    if not wanted:
        return []
    found: list[Named] = []
    for doc, units in documents:
        line = next(
            (ln for ln in _title_lines(units) if all(re.search(rf"\b{re.escape(w)}\b", ln, re.I) for w in wanted)),
            None,
        )
        if line is not None:
            found.append(Named(doc, next(u.page for u in units if u.page is not None), line))
    mine = set(own)
    return [n for n in found if n.doc in mine] + [n for n in found if n.doc not in mine]


def document_answer(named: Named) -> str:
    """ "Documented in <document title>, p. N: “<the line that shows it>”."."""
    return (
        f"Documented in {named.label}: \N{LEFT DOUBLE QUOTATION MARK}{named.sentence}\N{RIGHT DOUBLE QUOTATION MARK}."
    )


def reference_answer(section: Section, sentences: Sequence[str]) -> str:
    """ "Described in <document title>, pp. 11–14: <the sentences>"."""
    said = " ".join(standing_alone(shown(s)) or shown(s) for s in sentences)
    return f"Described in {section.title}, {section.pages}: {said}"


__all__ = [
    "SUMMARY_SENTENCES",
    "TITLE_LINES",
    "Named",
    "Section",
    "document_answer",
    "documented_topic",
    "find_document",
    "find_section",
    "names_topic",
    "opening_sentences",
    "reference_answer",
    "reference_topic",
    "topic_words",
]

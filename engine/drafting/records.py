"""The drafting records, their one home: ``Draft`` (one drafted question, as persisted in the review
store and written to results.jsonl) and ``Citation`` (where one of its quotes comes from). The
drafter (engine/drafting/drafter.py) makes them, the profile answers and sections read them, the
review (engine/review/) and the UI show them. The closed set ``DraftStatus`` they hold is in
engine/core/types.py, because the review store (storage/) persists it and imports only engine/core.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import PurePath
from typing import TYPE_CHECKING, Iterable

from engine.core.location import Location
from engine.core.scopes import inherited_from
from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.explanation import shown
from engine.drafting.relevance import Relevance
from engine.drafting.risk import REVIEW_FIRST_RISK, risk_of
from engine.drafting.warnings import Warning, warnings_of
from storage.review_store import StoredDraft

if TYPE_CHECKING:
    from engine.questionnaire import Question

# A drafted choice whose confidence is under this is shown as low confidence (calibrated by
# leave-one-out on the filled Instructure questionnaires: docs/confidence.md).
LOW_CONFIDENCE = 0.83
Rect = tuple[int, float, float, float, float]  # page (1-based), x0, y0, x1, y1 in PDF points


class TextSource(str, Enum):
    """Where a draft's text came from, best first (docs/drafting.md, "Explanations"): this
    product's (or company-wide) past answer, other products' shared past explanations, the own
    documents, a reference to an own document's section (engine/drafting/reference.py), a third
    party's document (naming it), a profile fact, the model's wording."""

    OWN_PAST = "own_past"
    SHARED_PAST = "shared_past"
    OWN_DOCUMENT = "own_document"
    REFERENCE = "reference"
    THIRD_PARTY = "third_party"
    PROFILE = "profile"
    MODEL = "model"


@dataclass(frozen=True)
class Citation:
    """Where a quote of a draft comes from. ``rects`` exist only for highlightable (verified
    or repaired) quotes in PDFs; ``start``/``end`` are offsets into the cited unit's text
    (page, section or row), for marking non-PDF sources."""

    file: str
    kind: SourceKind
    quote: str
    label: AnchorLabel
    score: float  # anchor score 0–100
    retrieval_score: float
    page: int | None = None
    sheet: str | None = None
    row: int | None = None
    section: str | None = None
    start: int | None = None
    end: int | None = None
    rects: tuple[Rect, ...] = ()
    third_party: str | None = None  # the cited document is this third party's (engine/core/scopes.py)
    product: str | None = None  # a past answer cited is this product's (engine/drafting/cross_product.py)

    @property
    def location(self) -> Location:
        """Where the quote is (a past answer: file, sheet, row and question ID, kept in ``section``)."""
        if self.kind is SourceKind.LIBRARY:
            return Location.past_answer(self.file, self.sheet, self.row, self.section)
        return Location(
            self.file, self.kind, (self.page,) if self.page is not None else (), self.sheet, self.row, self.section
        )

    def to_json(self) -> dict:
        d = asdict(self)
        d["kind"], d["label"] = self.kind.value, self.label.value
        d["rects"] = [list(r) for r in self.rects]
        return d

    @classmethod
    def from_json(cls, d: dict) -> Citation:
        fields = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        fields.update(
            kind=SourceKind(d["kind"]), label=AnchorLabel(d["label"]), rects=tuple(tuple(r) for r in d.get("rects", ()))
        )
        return cls(**fields)


@dataclass(frozen=True)
class Draft:
    """One drafted question, as persisted and as written to results.jsonl."""

    key: str
    id: str | None
    sheet: str
    row: int
    question: str
    answer: str
    choice: str | None
    status: DraftStatus
    citations: tuple[Citation, ...] = ()
    prompt_tokens: int = 0
    seconds: float = 0.0
    error: str | None = None
    reused: bool = False  # the answer of a near-identical past question, reused as it was
    # when reused: the choices of all the near-identical past answers, with counts, most common
    # first ({"Yes": 5, "No": 2}); more than one means they disagree and the reviewer must choose
    past_choices: dict[str, int] = field(default_factory=dict)
    # how far the drafted choice can be trusted, 0–1 (None: no choice, or nothing to measure it
    # by); under LOW_CONFIDENCE the draft is shown as low confidence (engine/drafting/confidence.py)
    confidence: float | None = None
    choice_probability: float | None = None  # the model's, of its choice against the other options
    support: float | None = None  # best question–quote cosine (engine/drafting/confidence.py)
    # the product whose past answer gave the choice, when it is another product's (the text is
    # then never that answer's: engine/drafting/cross_product.py)
    from_product: str | None = None
    # the near-identical past answers' choices, each named with its product ("Parchment's HECVAT: No")
    past_answers: tuple[str, ...] = ()
    profile_fact: str | None = None  # the profile fact (its key) the answer is, word for word
    # links, e-mail addresses and phone numbers taken out of a generated answer: in no cited
    # company or product source and not in the profile (engine/drafting/profile_answers.py)
    removed: tuple[str, ...] = ()
    gate: str | None = None  # not_required: why ("not required (QUAL-01 = No)", engine/drafting/sections.py)
    # a qualifier answered by what the own documents state, without the model: regulated data
    # (engine/drafting/regulated.py: "no document mentions card data (…)" / "documents mention …") or
    # the hosting (engine/drafting/hosting.py: "documents state it is hosted by Amazon Web Services")
    stated: str | None = None
    # the review-by date of the library answer reused, when it had passed at drafting (a stale
    # entry, engine/index/library.py: still reused, and the warnings say so)
    reused_due: str | None = None
    # the answer was cut to the length the question allows ("250 words"): engine/questionnaire/length_limits.py
    cut_to: str | None = None
    # how the text stands to the question (engine/drafting/relevance.py), for a text the drafter
    # chose (a documents' sentence, the model's wording); None for someone's own words or no text
    relevance: Relevance | None = None
    # the text says the opposite of the choice, and the choice came from the same reply (the model's):
    # the draft goes to Review first (engine/drafting/risk.py) instead of losing its text
    at_odds: bool = False
    # the section of an own document the answer refers to ("Instructure Security Overview, pp. 15–17"):
    # the question asked for a reference (engine/drafting/reference.py)
    reference: str | None = None
    # a questionnaire in another language than the company's (issue #58, engine/drafting/translate.py):
    # the question as the model put it in English (what the library, retrieval and the page finder
    # were asked), the answer's language when it was translated into the questionnaire's, the
    # English text it was translated from, and whether the model's translation failed (the text is
    # then in English, and the card says so)
    asked_as: str | None = None
    language: str | None = None
    english: str | None = None
    untranslated: bool = False
    # a narrative other products answered in different words (issue #59): the products whose past
    # answers say otherwise than the text (or, with no text shared by two of them, every one's):
    # the draft says so and is in Review first (engine/drafting/company_text.py)
    text_differs: tuple[str, ...] = ()
    # why a drafted row has no text (issue #59, item 6): no sentence could pass, so the model was
    # not asked; the model's text did not pass; the text was set aside (and why)
    no_text: str | None = None
    # a reused past answer written in another language than the company's (issue #58): its language
    # (a code); the text was translated from it by the model (``untranslated``: the translation
    # failed and the past answer's own words are kept), and the card cites the answer it came from
    translated_from: str | None = None

    @classmethod
    def of(
        cls,
        q: Question,
        key: str,
        answer: str,
        choice: str | None,
        status: DraftStatus,
        citations: Iterable[Citation] = (),
        **fields,
    ) -> Draft:
        """The draft of question ``q`` (its ID, place and text), keyed ``key``."""
        return cls(key, q.id, q.sheet, q.row, q.text, answer, choice, status, tuple(citations), **fields)

    @property
    def trust(self) -> tuple[str, ...]:
        """Why a drafted answer needs a reviewer's eye first: low confidence, disputed, a choice
        from another product, only a third party's evidence, a profile fact, contact details
        removed, a qualifier answered by the documents' statements, the model's own
        wording without a choice; () when none (or not a draft)."""
        if self.status is not DraftStatus.DRAFTED:
            return ()
        flags = (
            ("low confidence", self.low_confidence),
            ("disputed", self.disputed),
            (f"from another product ({self.from_product})", bool(self.from_product)),
            (f"only {self.inherited_from}'s evidence", bool(self.inherited_from)),
            ("profile fact", bool(self.profile_fact)),
            ("contact details removed", bool(self.removed)),
            (self.stated or "", bool(self.stated)),
            ("model's own wording", self.model_wording),
            ("translated by the model", self.translated),
            ("not translated", self.untranslated),
            ("past answer in another language", bool(self.translated_from)),
        )
        return tuple(name for name, on in flags if on)

    @property
    def text_source(self) -> str | None:
        """Where the answer's text came from (a ``TextSource`` value), read off the record:
        a past answer of this product or company-wide, other products' past explanations
        (a company-wide practice), the company's or product's own documents, a third party's
        document (naming it), a profile fact, or the model's wording; None without text."""
        said = self.said
        if self.status is not DraftStatus.DRAFTED or not said.strip():
            return None
        if self.profile_fact:
            return TextSource.PROFILE.value
        if self.reference:
            return TextSource.REFERENCE.value
        if self.reused and not self.from_product:
            return TextSource.OWN_PAST.value
        if self.reused or self.stated:  # another product's choice, or a stated qualifier: the text is quoted
            # another product's choice is cited first (the choice alone), the text's sources after it
            cited = self.citations[1:] if self.from_product else self.citations
            quoted = [c for c in cited if c.label is not AnchorLabel.UNVERIFIED]
            if any(c.kind is SourceKind.LIBRARY for c in quoted):
                return TextSource.SHARED_PAST.value
            if quoted and not any(_same_words(c.quote, said) for c in quoted):
                return TextSource.MODEL.value  # the model's explanation of the choice, from these quotes
            if quoted and all(c.third_party for c in quoted):
                return TextSource.THIRD_PARTY.value
            return TextSource.OWN_DOCUMENT.value if quoted else None
        # a choice the model drafted, explained by a documents' sentence word for word (drafter.py;
        # a third party's named before it, an opening "In addition," cut off)
        quoted = next(
            (c for c in self.citations if c.label is AnchorLabel.VERIFIED and _same_words(c.quote, said)), None
        )
        if quoted is not None:
            return (TextSource.THIRD_PARTY if quoted.third_party else TextSource.OWN_DOCUMENT).value
        return TextSource.MODEL.value

    @property
    def text_origin(self) -> str | None:
        """Where a documents' text is from, as the card says it: "From Instructure Security
        Overview (2024-12-20), p. 15" (the page of the citation the text quotes), or the section a
        reference names; None for any other text (a past answer's, the model's)."""
        source = self.text_source
        if source == TextSource.REFERENCE.value:
            return f"From {self.reference}"
        if source not in (TextSource.OWN_DOCUMENT.value, TextSource.THIRD_PARTY.value):
            return None
        quoted = next(
            (c for c in self.citations if c.kind is not SourceKind.LIBRARY and _same_words(c.quote, self.said)),
            None,
        )
        if quoted is None:
            return None
        return f"From {PurePath(quoted.file).stem}" + (f", p. {quoted.page}" if quoted.page is not None else "")

    @property
    def said(self) -> str:
        """The text as drafted from the sources: the English one a translated answer was made from
        (its quotes are in the sources' words), else the answer."""
        return self.english if self.english is not None else self.answer

    @property
    def translated(self) -> bool:
        """The answer was translated by the model into the questionnaire's language."""
        return self.language is not None and self.english is not None and not self.untranslated

    @property
    def risk(self) -> float | None:
        """The estimated chance that the drafted answer is wrong (engine/drafting/risk.py)."""
        return risk_of(self)

    @property
    def review_first(self) -> bool:
        """A drafted answer whose risk is at or above the calibrated threshold: the Review-first list."""
        risk = self.risk  # None when not drafted
        return risk is not None and risk >= REVIEW_FIRST_RISK

    @property
    def reads_model_text(self) -> bool:
        """In *Read the model's texts* (#59; engine/drafting/risk.py): a drafted answer whose text is
        the model's wording (a narrative, or its explanation of a choice) and that is not in Review
        first: someone must read what the model wrote, though no choice of it is in doubt."""
        return (
            self.status is DraftStatus.DRAFTED and self.text_source == TextSource.MODEL.value and not self.review_first
        )

    @property
    def warnings(self) -> tuple[Warning, ...]:
        """The reasons to look at it, one short line each (engine/drafting/warnings.py)."""
        return warnings_of(self)

    @property
    def model_wording(self) -> bool:
        """A generated answer without a choice (a narrative, a description): the model's own
        text, which no confidence measures (a choice has one; a reused, profile or documents'
        answer is someone's own words)."""
        return (
            self.status is DraftStatus.DRAFTED
            and self.choice is None
            and bool(self.answer)
            and not (self.reused or self.profile_fact or self.stated or self.from_product)
            and self.text_source == TextSource.MODEL.value  # a documents' sentence or a reference is not
        )

    @property
    def disputed(self) -> bool:
        """Reused, but the near-identical past answers do not agree on the choice."""
        return len(self.past_choices) > 1

    @property
    def low_confidence(self) -> bool:
        """A drafted answer whose confidence is under the calibrated threshold."""
        return self.status is DraftStatus.DRAFTED and self.confidence is not None and self.confidence < LOW_CONFIDENCE

    @property
    def inherited_from(self) -> str | None:
        """The third party a drafted answer is inherited from: every highlightable (verified or
        repaired) citation is that third party's document; None otherwise."""
        if self.status is not DraftStatus.DRAFTED:
            return None
        return inherited_from(c.third_party for c in self.citations if c.label is not AnchorLabel.UNVERIFIED)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "sheet": self.sheet,
            "row": self.row,
            "question": self.question,
            "answer": self.answer,
            "choice": self.choice,
            "status": self.status.value,
            "citations": [c.to_json() for c in self.citations],
            "prompt_tokens": self.prompt_tokens,
            "seconds": round(self.seconds, 3),
            "error": self.error,
            "reused": self.reused,
            "past_choices": dict(self.past_choices),
            "confidence": _round(self.confidence),
            "low_confidence": self.low_confidence,
            "choice_probability": _round(self.choice_probability),
            "support": _round(self.support),
            "inherited_from": self.inherited_from,
            "gate": self.gate,
            "from_product": self.from_product,
            "past_answers": list(self.past_answers),
            "profile_fact": self.profile_fact,
            "removed": list(self.removed),
            "stated": self.stated,
            "reused_due": self.reused_due,
            "cut_to": self.cut_to,
            "relevance": self.relevance.to_json() if self.relevance else None,
            "at_odds": self.at_odds,
            "reference": self.reference,
            "asked_as": self.asked_as,
            "language": self.language,
            "english": self.english,
            "untranslated": self.untranslated,
            "text_differs": list(self.text_differs),
            # why the row has no text of its own (a choice leading no text says it too)
            "no_text": self.no_text if self.status is DraftStatus.DRAFTED and self.text_source is None else None,
            "translated_from": self.translated_from,
            "trust": list(self.trust),
            "risk": _round(self.risk),
            "review_first": self.review_first,
            "reads_model_text": self.reads_model_text,
            "text_source": self.text_source,
            "warnings": [w.line for w in self.warnings],
        }

    def stored(self) -> StoredDraft:
        data = self.to_json()
        return StoredDraft(self.key, self.status, self.answer, self.choice, data)

    @classmethod
    def from_stored(cls, key: str, s: StoredDraft) -> Draft:
        d = s.data
        return cls(
            key,
            d.get("id"),
            d["sheet"],
            d["row"],
            d["question"],
            s.answer,
            s.choice,
            s.status,
            tuple(Citation.from_json(c) for c in d.get("citations", ())),
            d.get("prompt_tokens", 0),
            d.get("seconds", 0.0),
            d.get("error"),
            bool(d.get("reused", False)),
            dict(d.get("past_choices") or {}),
            d.get("confidence"),
            d.get("choice_probability"),
            d.get("support"),
            d.get("from_product"),
            tuple(d.get("past_answers") or ()),
            d.get("profile_fact"),
            tuple(d.get("removed") or ()),
            d.get("gate"),
            d.get("stated", d.get("regulated")),  # "regulated": drafts stored before hosting was stated
            d.get("reused_due"),
            d.get("cut_to"),
            Relevance.from_json(d.get("relevance")),
            bool(d.get("at_odds", False)),
            d.get("reference"),
            d.get("asked_as"),
            d.get("language"),
            d.get("english"),
            bool(d.get("untranslated", False)),
            tuple(d.get("text_differs") or ()),
            d.get("no_text"),
            d.get("translated_from"),
        )


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


# what may lead a quoted sentence in a draft's text: a third party's name (explanation_rules.provider_says),
# the choice that leads a row without a dropdown ("4) AWS — ", "Yes — "), the model's bare "Yes." before a quote
_LEAD = re.compile(r"^(?:.{1,80}, the third-party provider, states: |[^—\n]{1,40} — |(?:yes|no)\b[.,;:!]?\s+)")


def _same_words(quote: str, answer: str) -> bool:
    """The answer is the quote as a draft shows it (after a provider's name or a choice leading it),
    or the quote less an opening word or two ("In addition, "): not a text of the model's that
    holds a quote among its own words ("Yes, sensitive data is encrypted … The cited source states
    that …" is the model's wording)."""
    q, a = shown(quote).casefold().strip(), _LEAD.sub("", answer.casefold().strip())
    return bool(q) and (a == q or (len(a) > 20 and a in q) or (q in a and len(a) - len(q) <= 2))

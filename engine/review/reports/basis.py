"""What a row's answer rests on (#51), read off its latest draft: this product's past answer, the
company's shared (company-wide) past answer, another product's past answer, a document on its
page, the profile, the model's wording, or nothing. The one reading the coverage report, the
acceptance rate by source and the gap topics share (docs/reports.md, "What an answer rests on").

A reused past answer is told apart by the product of the library entry it cites (the entry at the
citation's file, sheet and row: :meth:`engine.index.library.AnswerLibrary.by_place`): the
questionnaire's own product, or none (company-wide). Another product's answer gives only its
choice (engine/drafting/cross_product.py), so such a row rests on it whatever explains the choice.
Otherwise the draft's ``text_source`` (engine/drafting/records.py) says where the text came from.
What the text rests on is read apart (:func:`text_basis_of`, issue #59): a choice from other
products whose text the model wrote rests on another product's past answer, its text on the model."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping

from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation, Draft, TextSource
from engine.index.library import LibraryEntry
from engine.review.review import ReviewItem, ReviewState

Place = tuple[str, str | None, int | None]  # a past answer's file, sheet and row (what a citation names)


class Basis(str, Enum):
    """What a row's answer rests on, best first."""

    OWN_PAST = "own_past"
    COMPANY_PAST = "company_past"
    OTHER_PRODUCT = "other_product"
    DOCUMENT = "document"
    PROFILE = "profile"
    MODEL = "model"
    NOTHING = "nothing"
    NOT_DRAFTED = "not_drafted"
    NOT_REQUIRED = "not_required"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def sourced(self) -> bool:
        """A drafted answer with a source (not nothing, not drafted yet, not switched off)."""
        return self not in (Basis.NOTHING, Basis.NOT_DRAFTED, Basis.NOT_REQUIRED)


_LABELS = {
    Basis.OWN_PAST: "this product's past answer",
    Basis.COMPANY_PAST: "the company's shared past answer",
    Basis.OTHER_PRODUCT: "another product's past answer",
    Basis.DOCUMENT: "a document",
    Basis.PROFILE: "the profile",
    Basis.MODEL: "the model's wording",
    Basis.NOTHING: "nothing (no source)",
    Basis.NOT_DRAFTED: "not drafted yet",
    Basis.NOT_REQUIRED: "not required (a qualifier)",
}


@dataclass(frozen=True)
class Resting:
    """A row's basis and, in words, the source it names (a past answer's file and row with its
    product, a document's page, the profile fact; why nothing, when the draft says)."""

    basis: Basis
    source: str


def place_of(c: Citation) -> Place:
    return (c.file, c.sheet, c.row)


def basis_of(item: ReviewItem, entries: Mapping[Place, LibraryEntry], product: str | None) -> Resting:
    """What ``item``'s latest draft rests on, in a questionnaire drafted for ``product`` (None:
    company-wide); ``entries``: the library's entries by place."""
    if item.state is ReviewState.NOT_REQUIRED:
        return Resting(Basis.NOT_REQUIRED, item.gate.reason if item.gate is not None else "")
    draft = item.draft
    if draft is None or draft.status is DraftStatus.NOT_REQUIRED:
        return Resting(Basis.NOT_DRAFTED, "")
    if draft.status is not DraftStatus.DRAFTED:
        return Resting(Basis.NOTHING, draft.error or "no passage supports an answer")
    if draft.profile_fact:
        return Resting(Basis.PROFILE, f"profile: {draft.profile_fact}")
    past = [c for c in draft.citations if c.kind is SourceKind.LIBRARY]
    if draft.from_product:
        return Resting(Basis.OTHER_PRODUCT, _past(past[0], draft.from_product) if past else draft.from_product)
    if draft.reused and past:
        return _own_past(past[0], entries, product)
    if draft.stated:  # a qualifier the own documents answer, without the model (what they state, or that none does)
        documents = [c for c in draft.citations if c.kind is not SourceKind.LIBRARY]
        return Resting(Basis.DOCUMENT, _document(documents[0]) if documents else draft.stated)
    return _from_text(draft, entries, product)


def text_basis_of(item: ReviewItem, entries: Mapping[Place, LibraryEntry], product: str | None) -> Resting:
    """What ``item``'s latest draft's **text** rests on, apart from its choice (issue #59, item 7):
    a choice taken from other products can carry a document's sentence, the company's text or the
    model's wording. This product's or a company-wide past answer, the company's text several
    products share, a document (a sentence, a section, a provider's named), the profile, the model,
    or nothing (no text: the reason when the draft says one)."""
    draft = item.draft
    if item.state is ReviewState.NOT_REQUIRED or draft is None or draft.status is DraftStatus.NOT_REQUIRED:
        return Resting(Basis.NOT_REQUIRED if item.state is ReviewState.NOT_REQUIRED else Basis.NOT_DRAFTED, "")
    source = draft.text_source
    if draft.status is not DraftStatus.DRAFTED or source is None:
        return Resting(Basis.NOTHING, draft.error or "no text")
    past = [c for c in draft.citations if c.kind is SourceKind.LIBRARY]
    documents = [
        c for c in draft.citations if c.kind is not SourceKind.LIBRARY and c.label is not AnchorLabel.UNVERIFIED
    ]
    if source == TextSource.PROFILE.value:
        return Resting(Basis.PROFILE, f"profile: {draft.profile_fact}")
    if source == TextSource.OWN_PAST.value and past:
        return _own_past(past[0], entries, product)
    if source == TextSource.SHARED_PAST.value:
        products = [c.product for c in past if c.product]
        said = dict.fromkeys(products[1:] if draft.choice and len(products) > 1 else products)
        return Resting(Basis.COMPANY_PAST, "the same in " + ", ".join(p for p in said if p))
    if source in (TextSource.OWN_DOCUMENT.value, TextSource.REFERENCE.value, TextSource.THIRD_PARTY.value):
        return Resting(Basis.DOCUMENT, _document(documents[0]) if documents else (draft.reference or ""))
    cited = f" (from {_document(documents[0])})" if documents else ""
    return Resting(Basis.MODEL, f"the model's wording{cited}")


def _own_past(c: Citation, entries: Mapping[Place, LibraryEntry], product: str | None) -> Resting:
    """A past answer reused as it was: this product's or a company-wide one (never another
    product's: that one gives only its choice), told by the entry the citation names. When that
    place now holds another product's entry (a questionnaire of the same file name answered
    since), the cited one was this product's."""
    entry = entries.get(place_of(c))
    whose = entry.product if entry is not None and entry.product in (product, None) else product
    return Resting(Basis.COMPANY_PAST if whose is None else Basis.OWN_PAST, _past(c, whose))


def _from_text(draft: Draft, entries: Mapping[Place, LibraryEntry], product: str | None) -> Resting:
    """A drafted text not reused: a document's sentence or a reference to its section (or a past
    answer's the model quoted), or the model's wording."""
    quoted = [c for c in draft.citations if c.label is not AnchorLabel.UNVERIFIED]
    documents = [c for c in quoted if c.kind is not SourceKind.LIBRARY]
    source = draft.text_source
    written = (TextSource.OWN_DOCUMENT.value, TextSource.REFERENCE.value, TextSource.THIRD_PARTY.value)
    if source in written or (source is None and documents):  # a reference is a document's section
        if documents:
            return Resting(Basis.DOCUMENT, _document(documents[0]))
        return _own_past(
            quoted[0], entries, product
        )  # only a past answer's words were quoted (never another product's)
    cited = f" (from {_document(documents[0])})" if documents else ""
    return Resting(Basis.MODEL, f"the model's wording{cited}")


def _document(c: Citation) -> str:
    """``policy.pdf, page 4`` (``sheet S, row R``, ``section …``; the file alone when it has no place)."""
    place = c.location.label()
    return f"{c.file}, {place}" if place else c.file


def _past(c: Citation, product: str | None) -> str:
    whose = product or "company-wide"
    return f"{c.file}, {c.sheet} row {c.row}{f', {c.section}' if c.section else ''} ({whose})"

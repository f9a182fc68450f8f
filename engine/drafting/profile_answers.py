"""The drafter's use of the profile (engine/index/profile.py): profile questions answered from the
profile, and contact details checked in every other draft.

* :meth:`ProfileAnswers.answer` — a question asking for a profile fact (``fact_key``) that the
  profile holds for the product drafted for is answered with the fact, word for word, without
  the model: a ``drafted`` answer whose ``profile_fact`` names the key, cited as the past
  questionnaire row the fact came from, or the page of the product's own document stating it
  (highlighted; engine/index/profile_documents.py), nothing for a fact a responder set. A fact that
  points to another row ("See GNRL-08 for …") is re-pointed to the target questionnaire's row
  asking for the same fact (``rows``), and not used when it has none. A date question gets the
  drafting date in the questionnaire's format (engine/questionnaire/sheet/date_format.py: the answer
  cell's date format, a format its question or row names, the dates already written in the
  workbook, else ISO); the export writes it into a date cell as a date and into any other cell
  as that text. A contact or a link the profile lacks (``PROFILE_ONLY_KEYS``) is not drafted at
  all: a ``no_context`` draft naming the fact (``profile_fact``) tells the responder to set it in
  the profile — the documents name other people's contacts and links (a third party's privacy
  notice, an insurer's phone number). Any other fact the profile lacks is drafted as any other
  question.
* :meth:`ProfileAnswers.questions_near` — the profile's own questions close to a question's
  English translation, shown to the model's translation memory beside the library's past
  questions (issue #58): "Sites de travail du fournisseur" translated "Supplier's workplace sites"
  matches no fact's wording, "Vendor Work Locations" picked as the same question does.
* :meth:`ProfileAnswers.checked` — a URL, e-mail address or phone number in a draft's text must be
  in the profile (for this product) or, word for word, in a highlightable quote of a cited
  source that is neither a third party's document nor another product's past answer; any other
  is taken out of the text and listed in ``Draft.removed`` (a trust state). Past answers of this
  product or the company reused as they are are the company's own words and not checked.

The profile is learned again when the library, ``profile.json`` or the knowledge base's documents
change; document facts are read from the product documents of the knowledge base (``kb``), never
a third party's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Mapping

import numpy as np

from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel, rects_for
from engine.drafting.cross_product import contact_tokens
from engine.drafting.records import Citation, Draft
from engine.index.embed.dense import DenseEncoder, model_id
from engine.index.embed.question import question_vectors
from engine.index.profile import (
    DATE_KEY,
    FACT_QUESTIONS,
    PROFILE_ONLY_KEYS,
    Fact,
    Profile,
    fact_key,
    profile_of,
    saved_path,
)
from engine.index.profile_documents import facts_of_documents
from engine.questionnaire import Question
from engine.questionnaire.sheet.date_format import date_format


class ProfileAnswers:
    """Profile answers for one drafter; ``library`` (an AnswerLibrary or None) is where the
    profile is learned from, ``kb`` (a KnowledgeBase or None) holds the products' own documents.
    ``today`` fixes the drafting date (tests)."""

    def __init__(self, library, today: date | None = None, kb=None) -> None:
        self.library = library
        self.kb = kb
        self.today = today
        self._cached: tuple[object, Profile] | None = None
        self._questions: tuple[str, np.ndarray] | None = None  # FACT_QUESTIONS embedded, by the embedder's id

    def _product_documents(self) -> list:
        if self.kb is None:
            return []
        return [d for d in self.kb.documents() if d.scope.products and d.kind is SourceKind.PDF]

    def profile(self) -> Profile:
        docs = self._product_documents()
        path = saved_path(self.library.folder) if self.library is not None else None
        stamp = (
            self.library.store.version() if self.library is not None else None,
            path.stat().st_mtime_ns if path is not None and path.exists() else 0,
            tuple((d.doc_hash, d.scope.products) for d in docs),
        )
        if self._cached is None or self._cached[0] != stamp:
            learned = profile_of(self.library) if self.library is not None else Profile()
            by_product: dict[str, list] = {}
            for d in docs:
                for p in d.scope.products:
                    by_product.setdefault(p, []).append((d.name, self.kb.units(d.name)))
            documented = {p: facts_of_documents(units, p) for p, units in by_product.items()}
            self._cached = (stamp, learned.with_documents(documented))
        return self._cached[1]

    def _cite_document(self, fact: Fact):
        unit = next((u for u in self.kb.units(fact.source) if u.page == fact.page), None) if self.kb else None
        start = fact.start if fact.start is not None else 0
        end = fact.end if fact.end is not None else start + len(fact.value)
        rects: tuple = ()
        if unit is not None and unit.text[start:end].split() == fact.value.split():  # lines joined by spaces
            rects = tuple(rects_for(self.kb.source_path(fact.source), fact.page, unit.text, start, end))
        return Citation(
            file=fact.source,
            kind=SourceKind.PDF,
            quote=fact.value,
            label=AnchorLabel.VERIFIED if rects else AnchorLabel.UNVERIFIED,
            score=100.0 if rects else 0.0,
            retrieval_score=1.0,
            page=fact.page,
            start=start,
            end=end,
            rects=rects,
        )

    def answer(
        self,
        q: Question,
        key: str,
        product: str | None,
        rows: Mapping[str, str] | None = None,
        source: Path | None = None,
    ) -> Draft | None:
        """The profile's answer to ``q`` (None when it asks for no fact the profile holds); ``rows``:
        the questionnaire's general-information rows; ``source``: its file (a date's format)."""
        name = fact_key(q.text)
        if name is None or q.choices:
            return None
        if name == DATE_KEY:
            day = date_format(q, source).format(self.today or date.today())
            return Draft.of(q, key, day, None, DraftStatus.DRAFTED, profile_fact=DATE_KEY)
        fact = self.profile().fact(name, product)
        value = fact.value_for(rows) if fact is not None else None
        if fact is None or value is None:  # a contact or a link is for the responder to set; any other fact is drafted
            if name in PROFILE_ONLY_KEYS:
                return Draft.of(q, key, "", None, DraftStatus.NO_CONTEXT, profile_fact=name)
            return None
        cites = ()
        if fact.page is not None:  # stated by the product's own document: cite its page
            cites = (self._cite_document(fact),)
        elif fact.sheet is not None:  # learned from a past questionnaire: cite that row
            cites = (
                Citation(
                    file=fact.source,
                    kind=SourceKind.LIBRARY,
                    quote=fact.value,
                    label=AnchorLabel.VERIFIED,
                    score=100.0,
                    retrieval_score=1.0,
                    sheet=fact.sheet,
                    row=fact.row,
                    section=fact.qid,
                    start=0,
                    end=len(fact.value),
                    product=fact.product,
                ),
            )
        return Draft.of(q, key, value, None, DraftStatus.DRAFTED, cites, profile_fact=name)

    def questions_near(self, text: str, encoder: DenseEncoder, min_score: float, top: int) -> list[str]:
        """The profile's questions (:data:`FACT_QUESTIONS`, English) whose dense cosine with ``text``
        is ``min_score`` or more, best first, at most ``top``: the translation memory's candidates
        for a question in another language (engine/drafting/translate.py ``same_question``), so a
        translated profile row reaches its fact as the English row does. Dense alone: a paraphrase
        shares no word with the fact's question ("Supplier's workplace sites": cosine 0.66 with
        "Vendor Work Locations", TF-IDF 0), so the library's hybrid score leaves it under the bar."""
        if not text.strip():
            return []
        name = model_id(encoder)
        if self._questions is None or self._questions[0] != name:
            self._questions = (name, encoder.encode_queries(list(FACT_QUESTIONS.values())))
        scores = self._questions[1] @ question_vectors(text, encoder).dense_for(encoder)
        wordings = list(FACT_QUESTIONS.values())
        order = [i for i in np.argsort(-scores, kind="stable") if scores[i] >= min_score]
        return [wordings[i] for i in order[:top]]

    def checked(self, draft: Draft, product: str | None) -> Draft:
        if not draft.answer or (draft.reused and not draft.from_product):
            return draft
        tokens = contact_tokens(draft.answer)
        if not tokens:
            return draft
        allowed = [v.casefold() for v in self.profile().values(product)]
        allowed += [
            c.quote.casefold()
            for c in draft.citations
            if c.label is not AnchorLabel.UNVERIFIED
            and c.third_party is None
            and (c.kind is not SourceKind.LIBRARY or c.product in (None, product))
            and not (c.kind is SourceKind.LIBRARY and draft.from_product)
        ]
        removed = tuple(t for t in tokens if not any(t.casefold() in a for a in allowed))
        if not removed:
            return draft
        text = draft.answer
        for t in removed:
            text = text.replace(t, "")
        text = re.sub(r"\s+([,.;:])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()
        return replace(draft, answer=text, removed=removed)


__all__ = ["ProfileAnswers"]

"""The drafter's use of the profile (engine/profile.py): profile questions answered from the
profile, and contact details checked in every other draft.

* :meth:`ProfileAnswers.answer` — a question asking for a profile fact (``fact_key``) that the
  profile holds for the product drafted for is answered with the fact, word for word, without
  the model: a ``drafted`` answer whose ``profile_fact`` names the key, cited as the past
  questionnaire the fact came from (nothing to cite for a fact a responder set). A date question
  gets the drafting date in the questionnaire's format (engine/questionnaire/date_format.py:
  the answer cell's date format, a format its question or row names, the dates already
  written in the workbook, else ISO); the export writes it into a date cell as a date and
  into any other cell as that text. A fact the profile lacks is drafted as any other question.
* :meth:`ProfileAnswers.checked` — a URL, e-mail address or phone number in a draft's text must be
  in the profile (for this product) or, word for word, in a highlightable quote of a cited
  source that is neither a third party's document nor another product's past answer; any other
  is taken out of the text and listed in ``Draft.removed`` (a trust state). Past answers of this
  product or the company reused as they are are the company's own words and not checked.

The profile is learned again when the library or ``profile.json`` changes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from engine.anchoring import AnchorLabel
from engine.cross_product import contact_tokens
from engine.profile import DATE_KEY, Profile, fact_key, profile_of, saved_path
from engine.questionnaire.date_format import date_format
from engine.types import SourceKind

if TYPE_CHECKING:
    from engine.pipeline import Draft
    from engine.questionnaire import Question


class ProfileAnswers:
    """Profile answers for one drafter; ``library`` (an AnswerLibrary or None) is where the
    profile is learned from. ``today`` fixes the drafting date (tests)."""

    def __init__(self, library, today: date | None = None) -> None:
        self.library = library
        self.today = today
        self._cached: tuple[object, Profile] | None = None

    def profile(self) -> Profile:
        if self.library is None:
            return Profile()
        path = saved_path(self.library.folder)
        stamp = (self.library.store.version(), path.stat().st_mtime_ns if path.exists() else 0)
        if self._cached is None or self._cached[0] != stamp:
            self._cached = (stamp, profile_of(self.library))
        return self._cached[1]

    def answer(self, q: Question, key: str, product: str | None, source: Path | None = None) -> Draft | None:
        """The profile's answer to ``q`` (None when it asks for no fact the profile holds);
        ``source``: the questionnaire's file, whose date format a date question's answer takes."""
        from engine.pipeline import Citation, Draft
        from storage.review_store import DraftStatus

        name = fact_key(q.text)
        if name is None or q.choices:
            return None
        if name == DATE_KEY:
            day = date_format(q, source).format(self.today or date.today())
            return Draft(key, q.id, q.sheet, q.row, q.text, day, None, DraftStatus.DRAFTED, profile_fact=DATE_KEY)
        fact = self.profile().fact(name, product)
        if fact is None:
            return None
        cites = ()
        if fact.sheet is not None:  # learned from a past questionnaire: cite that row
            cites = (Citation(file=fact.source, kind=SourceKind.LIBRARY, quote=fact.value, label=AnchorLabel.VERIFIED,
                              score=100.0, retrieval_score=1.0, sheet=fact.sheet, row=fact.row, section=fact.qid,
                              start=0, end=len(fact.value), product=fact.product),)
        return Draft(key, q.id, q.sheet, q.row, q.text, fact.value, None, DraftStatus.DRAFTED, cites, profile_fact=name)

    def checked(self, draft: Draft, product: str | None) -> Draft:
        if not draft.answer or (draft.reused and not draft.from_product):
            return draft
        tokens = contact_tokens(draft.answer)
        if not tokens:
            return draft
        allowed = [v.casefold() for v in self.profile().values(product)]
        allowed += [c.quote.casefold() for c in draft.citations
                    if c.label is not AnchorLabel.UNVERIFIED and c.third_party is None
                    and (c.kind is not SourceKind.LIBRARY or c.product in (None, product))
                    and not (c.kind is SourceKind.LIBRARY and draft.from_product)]
        removed = tuple(t for t in tokens if not any(t.casefold() in a for a in allowed))
        if not removed:
            return draft
        text = draft.answer
        for t in removed:
            text = text.replace(t, "")
        text = re.sub(r"\s+([,.;:])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()
        return replace(draft, answer=text, removed=removed)


__all__ = ["ProfileAnswers"]

"""The type of a questionnaire row, for drafting and for the evaluation per row type.

- ``gated``: a qualifier's answer switches its section off (engine/questionnaire/qualifiers.py);
  checked first, whatever the row's shape.
- ``profile``: general information about the vendor or the product (HECVAT's DATE-01 and
  GNRL-xx, or a question asking for the vendor's or product's name, description, contact,
  e-mail, phone, web link, address, headquarters, hosting region or work locations).
- ``yes_no``: a dropdown of Yes/No (with N/A at most), or a Yes/No truth in a sheet without
  dropdowns.
- ``dropdown``: any other dropdown ("1) Yes", "3) Both modes available", "4) AWS", "Tier IV");
  a numbered answer ("4) AWS") counts as one where the workbook's list could not be read.
- ``narrative``: free text ("Describe your organization's business background…").

The Additional Information text beside a Yes/No or dropdown answer is not a row of its own: the
evaluation scores it with the narratives (engine/bench/rows.py).
"""

from __future__ import annotations

import re
from enum import Enum

from engine.questionnaire.language import english_choice
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.records import Question, Questionnaire


class RowType(str, Enum):
    YES_NO = "yes_no"
    DROPDOWN = "dropdown"
    PROFILE = "profile"
    NARRATIVE = "narrative"
    GATED = "gated"

    @property
    def label(self) -> str:
        return {
            "yes_no": "Yes/No",
            "dropdown": "Dropdowns beyond Yes/No",
            "profile": "Profile (general information)",
            "narrative": "Narratives",
            "gated": "Gated (not required)",
        }[self.value]


_PROFILE_ID = re.compile(r"^(DATE|GNRL)-\d+", re.I)
_PROFILE_TEXT = re.compile(
    r"^(date|(vendor|company|solution|product|solution provider)('s)? (name|description)|"
    r"(vendor|product|solution provider)? ?contact (name|title|e-?mail|phone( number)?)|"
    r"web ?link to|(product )?privacy (notice|policy) (link|url)|"
    r"(country of )?(company )?headquarters|employee work locations|hosting (region|location)s?)",
    re.I,
)
_YES_NO = {"yes", "no", "n/a", "na", "not applicable"}


def _norm(v: str) -> str:
    return " ".join(v.lower().split()).strip(" .")


def is_profile(q: Question) -> bool:
    """A general-information row: HECVAT's DATE/GNRL IDs, or a short question asking for a
    vendor or product fact (name, description, contact, link, location)."""
    if q.id and _PROFILE_ID.match(q.id):
        return True
    text = q.text.strip()
    return len(text.split()) <= 12 and "?" not in text and bool(_PROFILE_TEXT.match(text))


_ASKS_FOR_TEXT = re.compile(
    r"^\s*(?:please\s+)?(?:describe|provide|list|explain|state|include|identify|specify|summari[sz]e|outline|detail|"
    r"what|how|which|who|where|when|why)\b",
    re.I,
)


def asks_for_text(question: str) -> bool:
    """The question asks for a description, not a Yes or No ("Describe or provide a reference to
    …", "What …", "How …")."""
    return bool(_ASKS_FOR_TEXT.match(question))


def is_yes_no_list(choices) -> bool:
    """A Yes/No dropdown, in English or in the questionnaire's language ("Ja/Nein", "はい/いいえ")."""
    values = {(english_choice(c) or _norm(c)).lower() for c in choices}
    return bool(values) and values <= _YES_NO and bool(values & {"yes", "no"})


def classify(q: Question, gated: bool = False, truth: str | None = None) -> RowType:
    """The row type of ``q``; ``gated``: its qualifier switches it off; ``truth``: the expected
    answer when known (a Yes/No or numbered-option answer in a cell without a readable dropdown)."""
    if gated:
        return RowType.GATED
    if is_profile(q):
        return RowType.PROFILE
    if q.choices:
        return RowType.YES_NO if is_yes_no_list(q.choices) else RowType.DROPDOWN
    if truth is not None:
        if _norm(truth) in ("yes", "no"):
            return RowType.YES_NO
        if re.match(r"^\s*\d+\)\s*\S", truth) or _norm(truth) in {"tier i", "tier ii", "tier iii", "tier iv"}:
            return RowType.DROPDOWN
    return RowType.NARRATIVE


__all__ = ["RowType", "asks_for_text", "classify", "is_profile", "is_yes_no_list"]


def row_types_of(questionnaire: Questionnaire) -> dict[str, RowType]:
    """Each question's row type by its key (``sheet!cell``), from the question's shape alone: never
    ``gated``, which follows the qualifiers' current answers (``engine.review.review.ReviewItem.row_type``).
    Worked out once per questionnaire object and kept on it (as ``functools.cached_property`` keeps a
    value): the object is immutable and the app shares one per file."""
    found = questionnaire.__dict__.get("_row_types")
    if found is None:
        found = questionnaire.__dict__["_row_types"] = {question_key(q): classify(q) for q in questionnaire.questions}
    return found

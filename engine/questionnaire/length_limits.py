"""Length limits a questionnaire states for an answer ("max 250 words", "500 characters maximum",
"no more than 100 words", "maximaal 200 woorden") and an answer cut to meet one: at the last
sentence that fits (a single sentence too long is cut at the last word that fits, with "…").
The drafter applies the limit of a question's own text to every draft (engine/drafting/
drafter.py), and the reviewer is told (engine/drafting/warnings.py). A document reader gives a
question and its answer place one limit (:func:`limited`): the one its text states, kept in the place
for the writer, else the place's own (a Word form field's or a PDF field's maximum length), said in
the question's text so that its draft is cut to it."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.questionnaire.places import AnswerPlace

_NUMBER = r"(\d{1,3}(?:[,.]\d{3})*|\d+)"
_UNIT = r"(words?|characters?|chars?|woorden|tekens|karakters)"
_BEFORE = re.compile(
    rf"\b(?:max(?:imum|imaal)?\.?|up to|no more than|not (?:to )?exceed(?:ing)?|at most|limit(?:ed)? (?:to|of)|"
    rf"hoogstens|ten hoogste)\s*(?:of\s*)?{_NUMBER}\s*{_UNIT}\b",
    re.IGNORECASE,
)
_AFTER = re.compile(rf"\b{_NUMBER}[\s-]*{_UNIT}\s*(?:max(?:imum)?|limit|or (?:less|fewer)|at most)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?…][\"')\]]*(?=\s|$)")


@dataclass(frozen=True)
class LengthLimit:
    """The most words and / or characters an answer may have (None: no such limit)."""

    max_words: int | None = None
    max_chars: int | None = None

    def __bool__(self) -> bool:
        return self.max_words is not None or self.max_chars is not None

    def describe(self) -> str:
        parts = []
        if self.max_words is not None:
            parts.append(f"{self.max_words} words")
        if self.max_chars is not None:
            parts.append(f"{self.max_chars} characters")
        return " and ".join(parts)

    def fits(self, text: str) -> bool:
        return (self.max_words is None or len(text.split()) <= self.max_words) and (
            self.max_chars is None or len(text) <= self.max_chars
        )


def stated_limit(text: str) -> LengthLimit:
    """The length limit ``text`` states (empty when none)."""
    words = chars = None
    for pattern in (_BEFORE, _AFTER):
        for m in pattern.finditer(text or ""):
            n = int(re.sub(r"[,.]", "", m.group(1)))
            if n <= 0:
                continue
            if m.group(2).lower().startswith(("w", "woord")):
                words = n if words is None else min(words, n)
            else:
                chars = n if chars is None else min(chars, n)
    return LengthLimit(words, chars)


def cut_to_limit(text: str, limit: LengthLimit) -> str:
    """``text`` within ``limit``: whole sentences while they fit; when not even the first fits,
    its words while they fit, ending with "…". Text that fits is returned as it is."""
    if not limit or limit.fits(text):
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    best = ""
    for end in ends:
        candidate = text[:end].rstrip()
        if limit.fits(candidate):
            best = candidate
        else:
            break
    if best:
        return best
    words = text.split()
    out = ""
    for i in range(1, len(words) + 1):
        candidate = " ".join(words[:i]) + "…"
        if not limit.fits(candidate):
            break
        out = candidate
    return out


def limited(text: str, place: AnswerPlace | None) -> tuple[str, AnswerPlace | None]:
    """A document question's text and text place with one length limit (see the module docstring):
    "Describe … (max 250 words)" puts 250 words in the place; a place of 10 characters whose question
    states none makes the text "… (max 10 characters)"."""
    if place is None:
        return text, None
    limit = stated_limit(text)
    if limit:
        return text, replace(place, max_words=limit.max_words or place.max_words,
                             max_chars=limit.max_chars or place.max_chars)  # fmt: skip
    if place.max_words or place.max_chars:
        return f"{text} (max {LengthLimit(place.max_words, place.max_chars).describe()})", place
    return text, place


__all__ = ["LengthLimit", "cut_to_limit", "limited", "stated_limit"]

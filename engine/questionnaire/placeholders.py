"""What an answer place shows when nobody has answered it: a placeholder, not an answer (issue #55
item 2). One rule for Word and PDF, in the scripts a questionnaire comes in:

- nothing, an underscore or dotted line, an ellipsis ("…", "...");
- a bracketed prompt: ``<Fill In>``, ``[Number]``, ``[Insert the System Unique Identifier]``, ``«name»``,
  ``【入力】``;
- an instruction to the one who fills it in: "Click here to enter text.", "Insert CSP Name",
  "Enter date", "Select one", "Choose an item.", "Klik hier om tekst in te voeren", "Hier klicken …",
  "ここをクリックしてテキストを入力してください", "入力してください";
- a format mask: "YYYY-MM-DD", "mm/dd/yyyy", "DD.MM.JJJJ", "hh:mm", "年/月/日".

:func:`repeated_placeholders` finds the other kind: the same words shipped in many answer places
("Enter response here" under every row), which no responder writes twice.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_LINE = r"[\s_.…\u2002\u2003\u00a0\-–—‥・]*"
_BRACKETED = r"(?:\[[^\]]{0,120}\]|<[^<>]{0,80}>|«[^«»]{0,60}»|【[^【】]{0,40}】|［[^［］]{0,40}］|＜[^＜＞]{0,40}＞)"
_DATE_PART = r"(?:y{2,4}|j{2,4}|a{2,4}|m{1,2}|d{1,2}|t{1,2}|hh|ss|年|月|日)"
_MASK = rf"\(?\s*{_DATE_PART}(?:\s*[-/.: ]\s*{_DATE_PART}){{1,3}}\s*\)?"
_VERBS_OTHER = (
    r"klik|kies|selecteer|vul\s+in|voer\s+in|hier\s+klicken|klicken\s+(?:sie|oder\s+tippen)|tippen\s+sie|w[äa]hlen\s+sie"
    r"|eingeben"
    r"|cliquez|saisissez|s[ée]lectionnez|haga\s+clic|escriba\s+aqu[íi]|seleccione"
)
# an instruction to the one who fills the place in, never a question's own words ("Provide your ISO 9001
# certification" asks; "Insert CSP Name" shows where the answer goes)
_INSTRUCTION = re.compile(
    r"^\s*(?:please\s+)?(?:"
    r"(?:click|tap)\b[^.!?\n]{0,60}"  # Click here to enter text.
    r"|insert\b(?:\s+\S+){1,7}"  # Insert CSP Name, Insert date
    r"|(?:enter|type)\b[^.!?\n]{0,40}\bhere\b[^.!?\n]{0,20}"  # Enter text here
    r"|(?:select|choose|pick)(?:\s+\S+){0,3}"  # Select one, Choose an item.
    rf"|(?:{_VERBS_OTHER})\b[^.!?\n]{{0,60}}"
    r")[.!]?\s*$",
    re.IGNORECASE,
)
_JAPANESE = re.compile(
    r"(?:ここをクリック|クリックして|入力してください|選択してください|を入力|を選択|記入してください)"
)
_PLACEHOLDER = re.compile(
    rf"^{_LINE}$"
    rf"|^(?:\s*{_BRACKETED})+\s*[.:]?\s*$"
    rf"|^\s*{_MASK}\s*$"
    r"|^\s*(?:n/?a\s*)?\.{3,}\s*$",
    re.IGNORECASE,
)


def is_placeholder(text: str | None) -> bool:
    """Whether ``text`` in an answer place is no answer (see the module docstring)."""
    if text is None:
        return True
    line = " ".join(str(text).split())
    if _PLACEHOLDER.match(line):
        return True
    if len(line) <= 80 and _INSTRUCTION.match(line):
        return True
    return len(line) <= 60 and bool(_JAPANESE.search(line))


_MASK_ONLY = re.compile(rf"^\s*{_MASK}\s*$", re.IGNORECASE)


def is_date_mask(text: str) -> bool:
    """Whether ``text`` is a date's or time's format mask alone ("YYYY-MM-DD", "JJ/MM/AAAA", "年/月/日")."""
    return bool(_MASK_ONLY.match(text))


def repeated_placeholders(values: Iterable[str | None], least: int = 5, share: float = 0.8) -> set[str]:
    """Texts shipped in many answer places: the same words (a phrase, not "Yes", "N/A" or a number)
    in ``least`` or more places, making ``share`` or more of all the words found in places (a form
    shipped with "Enter response here" under every row; a questionnaire answered has many answers)."""
    counts = Counter(" ".join(v.split()) for v in values if v)
    total = sum(counts.values())
    return {
        text
        for text, n in counts.items()
        if n >= least
        and n >= share * total
        and len(text) >= 12
        and not re.search(r"\d", text)
        and len(text.split()) >= 2
    }


__all__ = ["is_date_mask", "is_placeholder", "repeated_placeholders"]

"""Question and numbering cues in any script (issue #55 item 5): what marks a question and what
numbers it, beyond the English question mark and ASCII digits.

- a question mark, ASCII or full-width ("？"), ending a sentence (not the "?" of a link's query);
- a Japanese question's ending: "…ですか。", "…ますか", "…か。";
- digits and the dot between them written full-width ("１．２" is "1.2"), as East Asian documents
  number their items.
"""

from __future__ import annotations

import re

QUESTION_MARK = re.compile(r"[?？](?=\s|$|[\"”’')\]）」』])")
_JAPANESE_QUESTION = re.compile(r"(?:ですか|ますか|でしょうか|か)[。．.]?\s*$|か[？?]")
_FULL_WIDTH = str.maketrans("０１２３４５６７８９．（）－", "0123456789.()-")


def asks_by_mark(text: str) -> bool:
    """Whether ``text`` holds a question mark ending a sentence, or ends as a Japanese question."""
    return bool(QUESTION_MARK.search(text) or _JAPANESE_QUESTION.search(text.strip()))


def ascii_digits(text: str) -> str:
    """Full-width digits, dots, brackets and hyphens as ASCII ("１．２" → "1.2")."""
    return text.translate(_FULL_WIDTH)


__all__ = ["QUESTION_MARK", "ascii_digits", "asks_by_mark"]

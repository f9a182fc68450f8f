"""Question and numbering cues in any script (issue #55 item 5): what marks a question and what
numbers it, beyond the English question mark and ASCII digits.

- a question mark, ASCII or full-width ("？"), ending a sentence (not the "?" of a link's query);
- a Japanese question's ending: "…ですか。", "…ますか", "…か。"; a request's: "…ください。", "…すること。";
- digits and the dot between them written full-width ("１．２" is "1.2"), as East Asian documents
  number their items;
- what ticks a box drawn as text in a cell (:data:`MARKS`: "x", "✓", "☒", "yes"…), in a Word table or
  a flat PDF's;
- what says a question with options takes one of them (:func:`asks_one`: "Check one.", "Select one",
  "Kreuzen Sie eine an", "いずれか一つを選択") and a column header that names the pick made in it
  (:func:`names_selection`: "Selection", "Select one", "Auswahl", "Sélection", "Keuze", "選択");
- what makes a question with options a choice of several (:func:`asks_several`: "tick all that
  apply", "one or more", "mehrere Antworten möglich", "該当するものすべて"…), in its text or the line
  right under it;
- a question's ID as the sheets and tables write it (:data:`ID_RE`: "IAM-01", "AC_2.1"), and the
  column role a header label names (:func:`header_role`: id, question, answer, comment), in a
  spreadsheet's header row or a flat PDF table's.

Format-neutral: the formats' folders (sheet/, word/, pdf/) take them from here, never from each other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

QUESTION_MARK = re.compile(r"[?？](?=\s|$|[\"”’')\]）」』])")
_JAPANESE_QUESTION = re.compile(r"(?:ですか|ますか|でしょうか|か)[。．.]?\s*$|か[？?]")
_FULL_WIDTH = str.maketrans("０１２３４５６７８９．（）－", "0123456789.()-")
MARKS = {"x", "✓", "✔", "☒", "☑", "yes", "●"}  # a cell's whole text that ticks it, lower-cased
# a signature's label (and the signatory's block it closes), in the languages read
# a note set before what a row asks, in the scripts read: "（注）", "(注1)", "※", "注：", "訳注：", "Note:",
# "Translator's note:", "N.B." (a translation's or the author's aside, not the question's words)
NOTE_LEAD = re.compile(
    r"^\s*(?:[（(]\s*(?:訳注|注|備考|参考)\s*[\d０-９]*\s*[）)]|※\s*[\d０-９]*|(?:訳注|注)\s*[\d０-９]*\s*[：:]"
    r"|(?:translator['’]?s\s+)?notes?\s*\d*\s*[:：]|n\.\s?b\.|nb\s*:)",
    re.I,
)
SIGNATURE = re.compile(r"^\s*(?:signature|signed|handtekening|unterschrift|署名)\b", re.I)
ID_RE = re.compile(r"^[A-Za-z][A-Za-z&]{0,9}[-_][A-Za-z]{0,4}\d{1,4}(?:\.\d{1,4}){0,3}[a-z]?$")
_SEVERAL = re.compile(  # a question with options that takes several of them, in the languages read
    r"\b(?:select|tick|check|mark|choose|circle)\s+(?:all|any|each|every|as many)\b[^.;:?!]{0,40}?"
    r"\b(?:apply|applies|applicable|relevant)\b"
    r"|\b(?:all|any|each)\s+(?:that|which|of the (?:following|above))\s+apply\b"
    r"|\bboxes\s+that\s+apply\b|\b(?:select|choose|tick|check|pick|mark)\s+one\s+or\s+more\b"
    r"|\bone\s+or\s+more\s+(?:options|answers|boxes|choices|of\s+the\s+following)\b"
    r"|\bmore\s+than\s+one\s+(?:answer|option|box)"
    r"|\bany\s+of\s+(?:the\s+following|these|the\s+above)\b"
    r"|\bmultiple\s+(?:answers|selections|choices)\s+(?:are\s+)?(?:possible|allowed)"
    r"|mehrere\s+antworten\s+m(?:ö|oe)glich|mehrfachnennungen|alle\s+zutreffenden"
    r"|plusieurs\s+r(?:é|e)ponses\s+possibles|cochez\s+toutes"
    r"|todas\s+las\s+que\s+(?:correspondan|apliquen)"
    r"|meerdere\s+antwoorden\s+mogelijk"
    r"|該当するもの(?:を)?すべて|複数回答(?:可|可能)|複数選択(?:可|可能)",
    re.I,
)
_ONE = re.compile(  # a prompt asking for one of the options, in the languages read
    r"\b(?:check|select|choose|tick|mark|pick|kies|vink|kreuzen\s+sie|w(?:ä|ae)hlen\s+sie|cochez|choisissez"
    r"|s(?:é|e)lectionnez|seleccione|marque|elija)\s+(?:only\s+|nur\s+|seulement\s+|solo\s+)?"
    r"(?:one|één|1|eine[n]?|une|un|una|uno)\b"
    r"|いずれか(?:一つ|1つ|１つ)|(?:一つ|1つ|１つ)(?:を|だけ)?選",
    re.I,
)
_SELECTION = re.compile(  # a column header naming the pick made in its cells (a mark or box on one row)
    r"^(?:selection|selected|select(?:\s+one)?|choice|choose(?:\s+one)?|pick(?:\s+one)?"
    r"|(?:check|tick|mark)\s+one|auswahl|ausgew(?:ä|ae)hlt|s(?:é|e)lection|choix|selecci(?:ó|o)n|elecci(?:ó|o)n"
    r"|selectie|keuze|gekozen|選択|選択欄)\s*(?:\([^)]{0,12}\))?\s*[.:：]?$",
    re.I,
)
_ROLE_PATTERNS = {  # checked in this order: the first that matches a header label wins
    "excluded": r"analyst|guidance|reviewer|compliant response|preferred|expected|follow-up|reason for",
    "id": r"((question|control|item|ccm control|requirement) )?(id|#|no\.?|ref(erence)?( no\.?)?)",
    "comment": r".*\b(comments?|additional info(rmation)?|explanation|explain|notes?|implementation"
    r"|details|justification|evidence|remarks|clarification)\b.*",
    "answer": r".*\b(answers?|responses?|yes ?/ ?no)\b.*",
    "question": r"((security|control|assessment|vendor) )?(questions?|requirements?|question text)",
}


def asks_by_mark(text: str) -> bool:
    """Whether ``text`` holds a question mark ending a sentence, or ends as a Japanese question."""
    return bool(QUESTION_MARK.search(text) or _JAPANESE_QUESTION.search(text.strip()))


# a Japanese request that ends a sentence: "…をご記入ください。", "…を説明してください。", "…を記載すること。"
_JAPANESE_REQUEST = re.compile(  # (its options may close the line: "…ご回答ください。  はい/いいえ")
    r"(?:ください|下さい|すること|のこと)[。．.]?(?:\s*(?:はい|いいえ)(?:\s*[/／]\s*(?:はい|いいえ|該当なし))+)?\s*$"
)


def asks_by_request(text: str) -> bool:
    """Whether ``text`` ends as a Japanese request for an answer ("…の確保方法をご記入ください。",
    "…を記載すること。"), a question with no mark; a short one (a placeholder's "入力してください") is not."""
    text = text.strip()
    return len(text) >= 12 and bool(_JAPANESE_REQUEST.search(text))


def asks_one(text: str) -> bool:
    """Whether ``text`` (a prompt, a caption) asks for one of the options: "Check one.", "Select only
    one", "Kreuzen Sie eine an", "Cochez une case", "いずれか一つを選択してください"."""
    return bool(_ONE.search(" ".join((text or "").split())))


def names_selection(label: str) -> bool:
    """Whether a column header names the pick made in its cells, a mark or a box on the row chosen
    ("Selection", "Select one", "Choice", "Auswahl", "Sélection", "Selección", "Keuze", "選択"), rather
    than a question asked of every row ("COMPLETED?", "Included?") or an option's label ("Yes")."""
    return bool(_SELECTION.match(" ".join((label or "").split())))


def asks_several(text: str) -> bool:
    """Whether ``text`` (a question's, or the line right under it) says its options may be picked
    several at a time: "Tick all that apply.", "Select one or more", "alle zutreffenden"."""
    return bool(_SEVERAL.search(" ".join((text or "").split())))


_ANSWER_WORDS = {"yes", "no", "n/a", "na", "not applicable", "unknown", "unsure", "don't know", "partial", "partially"}


def several_options(choices: Sequence[str]) -> bool:
    """Whether options ``choices`` can be picked several at a time: two or more, not only answer words
    (Yes / No / N/A exclude each other, whatever the text or the boxes say)."""
    named = {" ".join(c.lower().split()) for c in choices if c and c.strip()}
    return len(named) >= 2 and not named <= _ANSWER_WORDS


def takes_several(choices: Sequence[str], *texts: str) -> bool:
    """Whether a question with options ``choices`` is a choice of several: :func:`several_options`, and
    one of ``texts`` (its own text, the line right under it, its boxes' tooltips) says so (:func:`asks_several`)."""
    return several_options(choices) and any(asks_several(t) for t in texts)


def ascii_digits(text: str) -> str:
    """Full-width digits, dots, brackets and hyphens as ASCII ("１．２" → "1.2")."""
    return text.translate(_FULL_WIDTH)


def header_role(label: str) -> str | None:
    """The column role a header label names: id, question, answer, comment (or None)."""
    text = re.sub(r"\(.*?\)|[*:]", " ", label.lower())
    text = " ".join(text.split())
    if not text or len(text.split()) > 5:
        return None  # a sentence, not a column label
    for role, pattern in _ROLE_PATTERNS.items():
        if re.fullmatch(pattern, text) or (role == "excluded" and re.search(pattern, text)):
            return None if role == "excluded" else role
    return None


__all__ = [
    "ID_RE",
    "MARKS",
    "NOTE_LEAD",
    "QUESTION_MARK",
    "ascii_digits",
    "asks_by_mark",
    "asks_one",
    "asks_by_request",
    "asks_several",
    "header_role",
    "names_selection",
    "several_options",
    "takes_several",
]

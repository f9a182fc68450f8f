"""What the Word reader finds, before it becomes :class:`~engine.questionnaire.sheet.reader.Question`
records: a :class:`Found` question (its text, ID, first paragraph and answer places), and the
tests of text that decide what asks (a question mark, an asking verb: Describe, Provide, List,
Explain, Indicate…, in English, Dutch, German, French and Spanish; "Please …", "Bitte …", "Veuillez …",
"Gelieve …", "Por favor, …"), what labels a field ("Name of controller", "Responsible
Role:"), and what an ID looks like ("1.a", "4.1.2", "AC-2 (1)", "Part a").
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from lxml import etree

from engine.questionnaire.cues import NOTE_LEAD, ascii_digits, asks_by_mark, asks_by_request
from engine.questionnaire.places import AnswerPlace
from engine.questionnaire.word.xmltree import one_line

ASKING_VERBS = (
    "describe|provide|list|explain|indicate|identify|specify|state|give|detail|outline|summari[sz]e|attach|upload"
    "|confirm|define|justify|clarify|discuss|elaborate|select|check|tick|choose|insert"
    "|beschrijf|geef|noem|leg|vermeld|licht|omschrijf|benoem"
    "|beschreiben|erl[äa]utern|nennen|geben|d[ée]crivez|indiquez|pr[ée]cisez|fournissez|expliquez"
    "|som|bevestig|gelieve|stellen\\s+sie|best[äa]tigen|[ée]num[ée]rez|pr[ée]sentez|confirmez|d[ée]taillez|joignez"
    "|d[ée]crire|indiquer|expliquer|[ée]num[ée]rer|pr[ée]senter|confirmer|pr[ée]ciser|fournir|d[ée]tailler"
    "|set\\s+out|describa|indique|explique|enumere|exponga|confirme|detalle|proporcione|especifique|adjunte"
)
# a question without its question mark ("Do you have a documented procedure … compliance.")
INTERROGATIVES = (
    "do|does|did|is|are|was|were|has|have|had|can|could|will|would|shall|should|must"
    "|wordt|worden|zijn|heeft|hebben|kan|kunnen|moet|moeten"
    "|haben|hat|sind|werden|wird|k[öo]nnen|gibt|verf[üu]gt|avez|[êe]tes|disposez"
)
_ASKING = re.compile(
    rf"^(?:\(?[\w.]{{1,8}}[.)]\s+)?(?:please\s+|kindly\s+|bitte\s+|veuillez\s+|por\s+favor,?\s+)?(?:{ASKING_VERBS})\b",
    re.IGNORECASE,
)
_INTERROGATIVE = re.compile(
    rf"^(?:\(?[\w.]{{1,8}}[.)]\s+)?(?P<verb>{INTERROGATIVES})\s+(?!not\b|niet\b)\w+", re.IGNORECASE
)
# a condition, then what to give ("If the Company is a member of a group, give the name …", "If yes, describe …")
_IF_THEN_ASK = re.compile(
    rf"^(?:if|where|when|indien|als|falls|wenn|si)\b[^.?;]{{0,200}},\s*(?:please\s+)?(?:{ASKING_VERBS})\b", re.I
)
_NOT_ASKING = re.compile(r"^\s*(?:instructions?|note|guidance|example|tip|source|see|table|figure)\b[\s:]", re.I)
_ID = re.compile(
    r"^(?:[A-Z]{1,4}[-\s]?\d{1,3}(?:\.\d{1,3}){0,3}(?:\s?\(\d{1,2}\))?(?:\([a-z]\))?"  # AC-2, AC-2 (1), AC-2(a), A-3.1, Q1.3.1
    r"|\d{1,3}(?:\.\d{1,3}){0,3}\.?[a-z]?(?:\.[ivx]{1,4})?"  # 1, 1.1.1, 1.a, 1.f.i
    r"|\d{1,3}\.[a-z]{1,4}(?:\.[ivx]{1,4})?"  # 2.fi, 1.f.iv
    r"|[a-z]\.|[ivx]{1,4}\.|#"  # a. iv. #
    r"|(?:part|item|question|req\.?|vraag)\s+[\w.()-]{1,8})$",  # Part a, Question 3, Req. 1
    re.IGNORECASE,
)
LEADING_ID = re.compile(r"^\s*((?:\d{1,3}\.){1,4}\d{0,3}|\d{1,3}\)|[A-Z]{1,4}-\d{1,3}(?:\s?\(\d{1,2}\))?)\s+(?=\S)")
CONTROL_ID = re.compile(r"^\s*([A-Z]{2,4}-\d{1,3}(?:\s?\(\d{1,2}\))?)(?!\w)")


_NOTE_FIRST = re.compile(r"^\[[^\]]{1,40}\]\s+")
_SPACE_GIVEN = re.compile(r"\bin the space (?:that follows|below|provided)\b", re.I)


_SENTENCE_END = re.compile(r"[。．]|\.(?=\s)")


def note_first(paragraphs: list[str]) -> tuple[str, str] | None:
    """(the question, the note set before it) of a cell whose first words are a note ("（注）…。", "※ …",
    "Note: …") and whose words after the note ask (:data:`~engine.questionnaire.cues.NOTE_LEAD`); the note
    its own paragraph(s), else its first sentence. None when the cell does not open with a note."""
    lines = [p for p in paragraphs if p.strip()]
    if not lines or not NOTE_LEAD.match(lines[0]):
        return None
    notes = list(itertools.takewhile(lambda p: bool(NOTE_LEAD.match(p)), lines))
    rest = " ".join(lines[len(notes) :])
    if not rest:  # one paragraph: the note is its first sentence
        lead = NOTE_LEAD.match(lines[0])
        end = _SENTENCE_END.search(lines[0], lead.end() if lead else 0)
        if end is None:
            return None
        notes, rest = [lines[0][: end.end()].strip()], lines[0][end.end() :].strip()
    note = " ".join(notes)
    return (rest, note) if rest and asks(rest) and not asks(note) else None


def asks(text: str) -> bool:
    """Whether text asks for an answer: a question mark, or an asking verb first ("Describe …"),
    or an instruction to write "in the space that follows"."""
    text = text_in = one_line(text)
    if _SPACE_GIVEN.search(text) and len(text) <= 600:
        return True
    if not text or _NOT_ASKING.match(text) or len(text) > 1500:
        return False
    if "?" in text or asks_by_mark(text) or asks_by_request(text):  # "？", "…ですか。", "…ご記入ください。" too
        return True
    text = _NUMBER_FIRST.sub("", text, count=1)  # "C-1 Please provide …", "1.5 Has your organisation …"
    if _NUMBER_FIRST.match(one_line(text_in)):  # a numbered one's bracketed note ahead of what it asks
        text = _NOTE_FIRST.sub("", text, count=1)  # ("D-1 [Example Option 1] Please provide …")
    words = len(text.split())
    asking = bool(_ASKING.match(text) or _IF_THEN_ASK.match(text))
    return (asking or _starts_question(text) and words >= 6) and words >= 4


def _starts_question(text: str) -> bool:
    """An interrogative opening a sentence ("Does your …", "Heeft u …"); one in lower case goes on
    from a sentence before it ("… the supplier: shall have and maintain …", "… must destroy this ITT;"),
    and so does one ending as a clause of a list (";", "; and", "; or": a control's "(3) Is at the level
    of granularity deemed necessary …; and" under "… an inventory … that:")."""
    m = _INTERROGATIVE.match(text)
    return m is not None and not m.group("verb")[0].islower() and not _CLAUSE_END.search(text)


_CLAUSE_END = re.compile(r"[;；]\s*(?:(?:and|or|und|oder|et|ou|y|o|en|of)\s*)?$", re.I)


_NUMBER_FIRST = re.compile(
    rf"(?:{LEADING_ID.pattern}|^\s*Q\d{{1,3}}[.:)]?\s+"  # and "Q3 …"
    r"|^\s*(?:[０-９]{1,3}(?:[．.][０-９]{1,3}){0,3}[．.）)]|（[０-９]{1,3}）)\s*(?=\S))(?:[-–—:.)]\s+)?"  # "１．", "（２）"
)

# a translator's note in brackets before what the document asks ("[訳注：…]", "(Translator's note: …)")
_TRANSLATOR_NOTE = re.compile(
    r"(?:^|(?<=\s))[\[(（【［〔]\s*(?:訳注|訳者注|翻訳注|translator'?s? note|note (?:du|de la) traduct(?:eur|rice)"
    r"|anm(?:erkung|\.)\s*d(?:es|\.)\s*übers(?:etzers|\.)|nota del traductor|noot van de vertaler)[^\])）】］〕]{0,200}"
    r"[\])）】］〕]\s*",
    re.IGNORECASE,
)


def without_translator_note(text: str) -> str:
    """The question without a translator's note in brackets (before it, or after the section its
    text starts with): the note is not what it asks."""
    rest = _TRANSLATOR_NOTE.sub(" ", text, count=1)
    if rest == text or not rest.strip():
        return text
    return " ".join(rest.split())


def is_label(text: str) -> bool:
    """A field's label: short, not a sentence ("Name", "Title", "Responsible Role:", "Date")."""
    text = one_line(text)
    if re.search(r"@|https?:|www\.|\.gov\b|\.com\b", text):
        return False  # an address or a link is no field's label
    if text.endswith("。"):
        return False  # a Japanese sentence, however few its spaces
    return 0 < len(text) <= 80 and len(text.split()) <= 10 and (not text.endswith(".") or len(text) <= 4)  # "No."


_INSTRUCTION = re.compile(
    r"^(?:instructions?|note|notes|guidance|example|examples|tip|hint|toelichting|let op)\s*:?$", re.I
)


def is_instruction(text: str) -> bool:
    """A label that introduces guidance, not a field ("Instructions:", "Note:")."""
    return bool(_INSTRUCTION.match(one_line(text)))


def is_id(text: str) -> bool:
    return bool(_ID.match(ascii_digits(one_line(text))))


def ends_with_colon(text: str) -> bool:
    return one_line(text).rstrip().endswith(":")


@dataclass
class Found:
    """One question found: ``anchor`` its first paragraph (its row is that paragraph's ordinal),
    ``text`` what it asks (context included), ``text_place`` / ``choice_place`` where the answer
    and the pick go, ``choices`` the picks offered, ``like`` what makes others like it (a style,
    a list, a table column: "find others like this one"), ``how`` the rule that found it."""

    anchor: etree._Element
    text: str
    id: str | None = None
    text_place: AnswerPlace | None = None
    choice_place: AnswerPlace | None = None
    choices: tuple[str, ...] = ()
    existing_answer: str | None = None
    existing_choice: str | None = None
    several: bool = False  # a choice of several: its boxes under a "tick all that apply" (records.Question.several)
    section: str | None = None
    like: str = ""
    how: str = ""
    notes: list[str] = field(default_factory=list)


__all__ = [
    "ASKING_VERBS",
    "CONTROL_ID",
    "LEADING_ID",
    "Found",
    "asks",
    "ends_with_colon",
    "is_id",
    "is_instruction",
    "is_label",
    "note_first",
    "without_translator_note",
]

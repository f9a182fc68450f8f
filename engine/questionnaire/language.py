"""The language of a questionnaire and of each of its questions (issue #58), and the Yes/No
options in each language's own words.

Detection is a small, stated rule, not a model: Japanese by its script (kana, or kanji with
Japanese punctuation), the Latin-script languages by their frequent function words ("der", "und",
"ist" for German; "vous", "les", "est" for French; "usted", "los", "para" for Spanish; "u", "het",
"zijn" for Dutch; "the", "you", "does" for English) and a few letters only one of them uses
("ß", "ñ", "¿", "ç", "ij"). A text too short to tell ("Ja", "SOC 2") is ``None``: it takes the
questionnaire's language. The languages are the ones the product drafts in (``Language``); any
other text is read as the closest of them or, when no function word matches, ``None``.

A questionnaire's language is its questions' most common language; the reviewer can correct it
(``LanguageSetting``, kept with the questionnaire's other corrections by engine/app/workspace.py),
and choose whether the answers are written in it or kept in the company's language (English).

Engine-only; typed values at the boundary (:class:`Language`, :class:`LanguageFinding`,
:class:`LanguageSetting`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Sequence


class Language(str, Enum):
    """The languages a questionnaire is detected in and drafted in; the company's documents and
    past answers are in ``EN``."""

    EN = "en"
    DE = "de"
    FR = "fr"
    ES = "es"
    NL = "nl"
    JA = "ja"

    @property
    def label(self) -> str:
        """The language's name as the screens show it."""
        return _NAMES[self]

    @classmethod
    def parse(cls, value: str | None) -> Language | None:
        """A language from its code or name ("de", "German", "Deutsch"); None for none or unknown."""
        if not value:
            return None
        v = value.strip().casefold()
        return next((lang for lang in cls if v in (lang.value, lang.label.casefold(), _OWN_NAMES[lang])), None)


COMPANY_LANGUAGE = Language.EN  # the company's documents and past answers

_NAMES = {
    Language.EN: "English",
    Language.DE: "German",
    Language.FR: "French",
    Language.ES: "Spanish",
    Language.NL: "Dutch",
    Language.JA: "Japanese",
}
_OWN_NAMES = {
    Language.EN: "english",
    Language.DE: "deutsch",
    Language.FR: "français",
    Language.ES: "español",
    Language.NL: "nederlands",
    Language.JA: "日本語",
}

# frequent function words; a word two languages share ("die", "de", "la", "en") counts for both
_FUNCTION_WORDS: dict[Language, frozenset[str]] = {
    Language.EN: frozenset(
        "the and of to is are do does you your with for that this have has be by or any from on not it "
        "as will been was were an all how what which who can there their our we if".split()
    ),
    Language.DE: frozenset(
        "der die das und ist sind sie ihr ihre ihren ihrer ihrem mit für von zu den dem des ein eine einen "
        "einem einer nicht werden wird auf auch oder bei über haben hat nach alle wie sich im zur zum "
        "verfügen verfügt durch gibt es wenn welche".split()
    ),
    Language.FR: frozenset(
        "de le la les et est sont vous votre vos des du un une pour avec dans sur par que qui pas ou au aux "
        "ce cette ces été être ont avez êtes tous toutes leur leurs si comment quels quelles".split()
    ),
    Language.ES: frozenset(
        "de el la los las lo y es son usted su sus del un una para con en por que o se al ha han está están "
        "este esta estos estas cuenta tiene todos todas cómo qué cuál si ¿".split()
    ),
    Language.NL: frozenset(
        "de het en is zijn u uw van een voor met op te dat die niet of aan door wordt worden bij naar "
        "heeft hebben ook als dit deze er om alle hoe welke wat binnen".split()
    ),
}
# letters (or pairs) one of the Latin-script languages uses and the others do not
_MARKS: dict[Language, re.Pattern[str]] = {
    Language.DE: re.compile(r"ß|\b\w*(?:ä|ö|ü)\w*\b"),
    Language.FR: re.compile(r"ç|œ|\b\w*(?:è|ê|à|ù|â|î|ô|û)\w*\b|\b[ldjnsqu]['’]\w"),
    Language.ES: re.compile(r"ñ|¿|¡|\b\w*(?:á|í|ó|ú)\w*\b"),
    Language.NL: re.compile(r"\b\w*ij\w*\b"),
}
_WORD = re.compile(r"[^\W\d_]+|¿", re.UNICODE)
_KANA = re.compile(r"[\u3040-\u30ff]")
_KANJI = re.compile(r"[\u4e00-\u9fff]")
_JA_PUNCT = re.compile(r"[。、？！（）「」]")
MIN_WORDS = 3  # fewer words than this: too short to tell (a bare "Ja", "SOC 2")
MIN_SHARE = 0.12  # the best language's function words at least this share of the words
MIN_HITS = 2  # and at least two of them ("Source: Module Name of DIT" is no sentence to tell by)
SHARE_OF = 40  # the share is of at most this many words: a long text's distinct function words do not grow
# with its length (a 250-word English answer holds 15–20 of them), so a share of all its words fell under
# MIN_SHARE and long English passed as "cannot tell" (e.g. as a translation that was never made)
MARK_WEIGHT = 0.5  # a distinctive letter counts as half a function word


@dataclass(frozen=True)
class Detected:
    """One text's language and how sure the rule is: ``share`` of its words that are the
    language's function words (1.0 for Japanese script); ``language`` None when it cannot tell."""

    language: Language | None
    share: float = 0.0


def detect(text: str) -> Detected:
    """The language ``text`` is written in (see the module docstring); ``Detected(None)`` for a text
    too short or without any function word of the languages known."""
    text = unicodedata.normalize("NFC", text or "")
    kana, kanji = len(_KANA.findall(text)), len(_KANJI.findall(text))
    letters = sum(ch.isalpha() for ch in text)
    if letters and (kana or (kanji and _JA_PUNCT.search(text))) and (kana + kanji) / letters >= 0.2:
        return Detected(Language.JA, 1.0)
    found = _WORD.findall(text)
    if len(found) < MIN_WORDS:
        return Detected(None)
    # a function word is written in lower case (or capitalised, opening a sentence): "DIT", "AU" are acronyms
    words = [w.casefold() for w in found if not (len(w) > 1 and w.isupper())]
    lowered = text.casefold()
    hits: dict[Language, float] = {}
    for lang, vocabulary in _FUNCTION_WORDS.items():
        marks = len(_MARKS[lang].findall(lowered)) if lang in _MARKS else 0
        hits[lang] = len(vocabulary.intersection(words)) + MARK_WEIGHT * marks  # distinct words: "y y" is one
    best = max(hits, key=lambda lang: (hits[lang], lang is Language.EN))
    share = round(min(1.0, hits[best] / min(len(found), SHARE_OF)), 3)
    if hits[best] < MIN_HITS or share < MIN_SHARE:
        return Detected(None, share)
    return Detected(best, share)


@dataclass(frozen=True)
class LanguageFinding:
    """A questionnaire's detected language: the most common of its questions' languages, how many
    questions each language has (``counts``, most common first; questions too short to tell are
    not counted), and the keys of the questions in another language than the questionnaire's
    (``others``: a document that mixes languages)."""

    language: Language
    counts: dict[str, int] = field(default_factory=dict)
    others: dict[str, str] = field(default_factory=dict)  # question key → its language's code

    def to_json(self) -> dict:
        return {
            "language": self.language.value,
            "label": self.language.label,
            "counts": dict(self.counts),
            "mixed": len(self.others),
        }


def questionnaire_language(texts: Iterable[tuple[str, str]]) -> LanguageFinding:
    """The language of a questionnaire whose questions are ``texts`` (key, question text): the
    most common detected language (English when none can be told)."""
    found = [(key, detect(text).language) for key, text in texts]
    counts = Counter(lang for _, lang in found if lang is not None)
    language = max(counts, key=lambda lang: (counts[lang], lang is COMPANY_LANGUAGE)) if counts else COMPANY_LANGUAGE
    others = {key: lang.value for key, lang in found if lang is not None and lang is not language}
    return LanguageFinding(language, {lang.value: n for lang, n in counts.most_common()}, others)


class AnswerIn(str, Enum):
    """Which language a questionnaire's answers are written in."""

    QUESTIONNAIRE = "questionnaire"  # the questionnaire's language (the default)
    COMPANY = "company"  # the company's language (English): the responder's choice


@dataclass(frozen=True)
class LanguageSetting:
    """A questionnaire's language as the responder set it: ``language`` (None: as detected) and
    whether answers are written in it or kept in the company's language. Kept with the
    questionnaire's other corrections (engine/app/workspace.py ``set_language``)."""

    language: Language | None = None
    answer_in: AnswerIn = AnswerIn.QUESTIONNAIRE

    def to_json(self) -> dict:
        return {"language": self.language.value if self.language else None, "answer_in": self.answer_in.value}

    @classmethod
    def from_json(cls, d: dict | None) -> LanguageSetting:
        d = d or {}
        answer_in = d.get("answer_in") or AnswerIn.QUESTIONNAIRE.value
        return cls(Language.parse(d.get("language")), AnswerIn(answer_in))


@dataclass(frozen=True)
class QuestionnaireLanguage:
    """What drafting needs of a questionnaire's language: the language (the responder's, else the
    detected one), the questions in another language (key → language), and the answers' language."""

    language: Language
    others: dict[str, Language] = field(default_factory=dict)
    answer_in: AnswerIn = AnswerIn.QUESTIONNAIRE

    @classmethod
    def of(cls, finding: LanguageFinding, setting: LanguageSetting = LanguageSetting()) -> QuestionnaireLanguage:
        language = setting.language or finding.language
        others = {k: Language(v) for k, v in finding.others.items() if Language(v) is not language}
        return cls(language, others, setting.answer_in)

    @property
    def translates(self) -> bool:
        """Whether any question is in another language than the company's (the drafter then asks
        in English and answers in the question's: engine/drafting/translate.py)."""
        return self.language is not COMPANY_LANGUAGE or bool(self.others)

    def of_question(self, key: str) -> Language:
        """The language question ``key`` is written in."""
        return self.others.get(key, self.language)

    def answers_in(self, key: str) -> Language:
        """The language the answer of question ``key`` is written in."""
        return self.of_question(key) if self.answer_in is AnswerIn.QUESTIONNAIRE else COMPANY_LANGUAGE


# ---------------------------------------------------------------- Yes/No in each language's words

YES = {
    Language.EN: "Yes",
    Language.DE: "Ja",
    Language.FR: "Oui",
    Language.ES: "Sí",
    Language.NL: "Ja",
    Language.JA: "はい",
}
NO = {
    Language.EN: "No",
    Language.DE: "Nein",
    Language.FR: "Non",
    Language.ES: "No",
    Language.NL: "Nee",
    Language.JA: "いいえ",
}
_YES_WORDS = frozenset({"yes", "y", "ja", "oui", "si", "sí", "はい", "是"})
_NO_WORDS = frozenset({"no", "n", "nein", "non", "nee", "いいえ", "否"})


def _bare(label: str) -> str:
    """A label compared loosely: case, spaces, a leading "1)" and trailing punctuation ignored."""
    text = re.sub(r"^\s*\d+\s*[).:-]\s*", "", label or "")
    return text.casefold().strip().strip(".!?。！？、,;:").strip()


def english_choice(label: str | None) -> str | None:
    """ "Yes" or "No" for a Yes or No label in any of the languages ("Ja", "Oui", "Sí", "Nee",
    "はい", "yes."); None for any other label ("N/A", "Teilweise")."""
    bare = _bare(label or "")
    if bare in _YES_WORDS:
        return "Yes"
    if bare in _NO_WORDS:
        return "No"
    return None


def english_choices(choices: Sequence[str]) -> tuple[str, ...]:
    """A dropdown's options as the company's library and documents say them: its Yes and No
    labels in English, every other option as it is."""
    return tuple(english_choice(c) or c for c in choices)


def own_choice(choice: str | None, choices: Sequence[str]) -> str | None:
    """``choice`` (an option of ``english_choices(choices)``) in the dropdown's own words: "Yes" →
    "Ja" where the dropdown says Ja/Nein; an option that is not Yes or No as it is; None for none."""
    if choice is None:
        return None
    wanted = english_choice(choice)
    if wanted is None:
        return choice
    return next((c for c in choices if english_choice(c) == wanted), choice)


__all__ = [
    "COMPANY_LANGUAGE",
    "NO",
    "YES",
    "AnswerIn",
    "Detected",
    "Language",
    "LanguageFinding",
    "LanguageSetting",
    "QuestionnaireLanguage",
    "detect",
    "english_choice",
    "english_choices",
    "own_choice",
    "language_of",
    "questionnaire_language",
]


def language_of(questionnaire) -> LanguageFinding:
    """The detected language of ``questionnaire`` (an ``engine.questionnaire.Questionnaire``), from
    its questions' texts, keyed as drafting keys them ("Sheet!B12"); worked out once per
    questionnaire object and kept on it, as its row types are (the object is immutable)."""
    found = questionnaire.__dict__.get("_language")
    if found is None:
        texts = [(f"{q.sheet}!{q.question_cell}", q.text) for q in questionnaire.questions]
        found = questionnaire.__dict__["_language"] = questionnaire_language(texts)
    return found

"""The answer library knows the language of each answer (issue #58, item 6): an answer accepted in
a German questionnaire enters the library as German, with the question as it was asked in English
and the English text it was translated from; an English questionnaire then reuses it in English
(its origin cited: "Translated from the German answer of …"), a French one in French, and a German
one in its own words. An answer the reviewer rewrote in German has no English source any more: it
is translated when reused.

The real knowledge base (a generated PDF, the real MiniLM encoder) and the real answer library;
the model is a stated stand-in (``Translating``): the quoting fake of tests/fixtures.py for the
drafts, and a fixed table for the translations. These tests are about the library's bookkeeping
of languages, not about translation quality (tests/integration/test_translated_questionnaires.py
and docs/benchmarks.md measure that with the real model)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.config import EngineConfig
from engine.index.kb import KnowledgeBase
from engine.index.library import entry_language, language_counts
from engine.questionnaire.language import Language
from engine.questionnaire.qualifiers import question_key
from storage.library_store import Origin
from storage.vector_store import release
from tests.fixtures import TranslatingGenerator, topic_pages, write_pdf

QUESTION = {
    Language.EN: "Is customer data encrypted at rest?",
    Language.DE: "Werden die Kundendaten bei der Speicherung verschlüsselt?",
    Language.FR: "Les données des clients sont-elles chiffrées au repos ?",
}
ANSWER = {  # the one text each "translation" into a language gives (the stand-in's table)
    Language.DE: "Ja, die Kundendaten werden bei der Speicherung mit AES-256 verschlüsselt.",
    Language.FR: "Oui, les données des clients sont chiffrées au repos avec AES-256.",
}
REWRITTEN_DE = "Die Daten werden mit AES-256 verschlüsselt; die Schlüssel liegen in einem HSM der Institution."
REWRITTEN_EN = "The data is encrypted with AES-256; the keys are kept in an HSM of the institution."
OPTIONS = {Language.EN: ("Yes", "No"), Language.DE: ("Ja", "Nein"), Language.FR: ("Oui", "Non")}


class Translating(TranslatingGenerator):
    """A stated stand-in model: drafts as ``QuotingGenerator`` does; translates a question from the
    table ``QUESTION`` into English, any English text into the one sentence of ``ANSWER`` for the
    language asked, ``REWRITTEN_DE`` into ``REWRITTEN_EN``; no past question is "the same".
    ``translated`` logs each translation asked (source text, target language)."""

    def translation(self, text: str, target: str) -> str:
        english = {QUESTION[lang]: QUESTION[Language.EN] for lang in QUESTION} | {REWRITTEN_DE: REWRITTEN_EN}
        return english.get(text, text) if target == "English" else ANSWER[Language.parse(target)]


def workbook(path: Path, language: Language) -> Path:
    """A one-question workbook in ``language``: its question, a Yes/No dropdown in its own words."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Fragen"
    ws.append(["ID", "Question", "Answer", "Comment"])
    ws.append(["ENC-01", QUESTION[language], None, None])
    dv = DataValidation(type="list", formula1='"{}"'.format(",".join(OPTIONS[language])), allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("C2")
    wb.save(path)
    return path


@pytest.fixture
def ws(tmp_path, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    ws = Workspace(tmp_path / "ws", Settings())
    ws.__dict__["kb"] = KnowledgeBase(ws.folder, EngineConfig(), encoder)
    ws.__dict__["generator"] = Translating()
    try:
        ws.kb.add([docs])
        yield ws
    finally:
        release(str(ws.folder / "qdrant"))


def drafted(ws: Workspace, tmp_path: Path, language: Language, name: str):
    """``name`` (a workbook in ``language``) added and its question drafted: (project id, key, draft)."""
    book = workbook(tmp_path / name, language)
    project, questionnaire = ws.add_questionnaire(book.name, book.read_bytes())
    key = question_key(questionnaire.questions[0])
    return project.id, key, ws.regenerate(project.id, key)


def test_an_accepted_german_answer_is_kept_in_german_and_reused_in_each_language(ws, tmp_path):
    pid, key, german = drafted(ws, tmp_path, Language.DE, "fragebogen.xlsx")
    assert german.translated and german.answer == ANSWER[Language.DE] and german.choice == "Ja"
    ws.review(pid).accept(key)
    (entry,) = ws.library.entries()
    assert (entry.origin, entry.question, entry.choice, entry.answer) == (
        Origin.REVIEW,
        QUESTION[Language.DE],
        "Ja",
        ANSWER[Language.DE],
    )
    assert entry.language == "de" and entry_language(entry) is Language.DE
    assert entry.question_en == QUESTION[Language.EN]  # what it is matched by
    assert entry.answer_en == german.english and entry.answer_en  # the English text it was translated from
    assert language_counts(ws.library.entries()) == {"German": 1}

    ws.generator.translated.clear()
    _, _, english = drafted(ws, tmp_path, Language.EN, "questionnaire.xlsx")
    assert english.reused and english.choice == "Yes"  # "Ja" is the dropdown's Yes
    assert english.answer == entry.answer_en and english.translated_from == "de"  # its English source
    assert english.citations[0].quote == ANSWER[Language.DE]  # cited in its own words
    assert ws.generator.translated == []  # the English source needed no model
    (line,) = [w for w in english.warnings if w.line.startswith("Translated from the German answer of")]
    assert "fragebogen.xlsx" in line.line and line.details == (ANSWER[Language.DE],)

    _, _, french = drafted(ws, tmp_path, Language.FR, "questionnaire_fr.xlsx")
    assert french.reused and french.choice == "Oui" and french.answer == ANSWER[Language.FR]
    lines = [w.line for w in french.warnings]
    assert any(x.startswith("Translated from the German answer of") for x in lines)
    assert any(x.startswith("Translated into French by the model") for x in lines)

    ws.generator.translated.clear()
    _, _, again = drafted(ws, tmp_path, Language.DE, "fragebogen_2.xlsx")
    assert again.reused and again.choice == "Ja" and again.answer == ANSWER[Language.DE]  # its own words
    assert not again.translated and again.translated_from is None and again.language == "de"
    assert not any(w.icon == "translate" for w in again.warnings)
    assert ws.generator.translated == []  # its question's translation cached from the first; the answer as written


def test_a_german_answer_rewritten_by_the_reviewer_is_translated_when_reused(ws, tmp_path):
    pid, key, _ = drafted(ws, tmp_path, Language.DE, "fragebogen.xlsx")
    ws.review(pid).edit(key, REWRITTEN_DE, "Ja")
    (entry,) = ws.library.entries()
    assert entry.language == "de" and entry.answer_en is None  # no English source for the reviewer's words
    assert entry.question_en == QUESTION[Language.EN]
    _, _, english = drafted(ws, tmp_path, Language.EN, "questionnaire.xlsx")
    assert english.reused and english.answer == REWRITTEN_EN and english.translated_from == "de"
    assert (REWRITTEN_DE, "English") in ws.generator.translated

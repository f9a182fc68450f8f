"""Other products' past answers written in another language than the company's never go into a
draft as they are (issue #58): the company's text that several products' answers share (issue #59,
engine/drafting/company_text.py) is put in English as a reused past answer is, with the same
warning ("Translated from the German answer of …") and its own words cited; without a model to
translate it, its own words are kept and the card says "Not translated". The related past answers
shown to the model are shown in English (the model writes English; a German questionnaire's answer
is translated afterwards): an entry in another language by the English text it was translated
from, and not at all without one.

The real knowledge base (a generated PDF, the real MiniLM encoder) and the real answer library
with generated entries; the model is a stated stand-in (``Translating``: the quoting fake of
tests/fixtures.py for drafting, a fixed table for translations), since these tests are about which
text reaches a draft and the prompt, not about translation quality (docs/benchmarks.md measures
that with the real model)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.config import EngineConfig
from engine.drafting.drafter import Drafter, past_shown, shown_in_english
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import Question
from engine.questionnaire.language import Language, QuestionnaireLanguage
from storage.library_store import LibraryEntry, Origin
from storage.vector_store import release
from tests.fixtures import QuotingGenerator, TranslatingGenerator, topic_pages, write_pdf

PRODUCT = "Canvas Credentials"
OTHERS = ("Canvas Catalog", "Canvas Studio")
QUESTION_EN = "Describe your organization's business background and ownership structure."
QUESTION_DE = "Beschreiben Sie den geschäftlichen Hintergrund und die Eigentümerstruktur Ihrer Organisation."
COMPANY_DE = (
    "Das Unternehmen wurde im Jahr 2008 in Salt Lake City gegründet und ist seitdem unabhängig geblieben. "
    "Heute beschäftigt es mehr als tausend Mitarbeitende in fünf Ländern und betreut Kunden weltweit."
)
COMPANY_EN = (
    "The company was founded in 2008 in Salt Lake City and has remained independent since. Today it "
    "employs more than a thousand people in five countries and serves customers worldwide."
)
QUESTION_FR = "Décrivez le contexte commercial et la structure de propriété de votre organisation."
COMPANY_FR = (
    "L'entreprise a été fondée en 2008 à Salt Lake City et elle est restée indépendante depuis. Elle emploie "
    "aujourd'hui plus de mille personnes dans cinq pays et sert des clients dans le monde entier."
)


class Translating(TranslatingGenerator):
    """A stated stand-in model: drafts as ``QuotingGenerator`` does (and logs the passages it is
    shown); translates from the fixed table below; no past question is "the same"."""

    TABLE = {
        (QUESTION_DE, "English"): QUESTION_EN,
        (COMPANY_DE, "English"): COMPANY_EN,
    }

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[str] = []

    def generate(self, question, passages, choices):
        self.shown += [p.text for p in passages]
        return super().generate(question, passages, choices)

    def translation(self, text: str, target: str) -> str:
        return self.TABLE.get((text, target), text)


class NoChat(QuotingGenerator):
    """The quoting stand-in without ``chat_json``: a model that cannot translate."""

    def __getattribute__(self, name):
        if name == "chat_json":
            raise AttributeError(name)
        return super().__getattribute__(name)


@pytest.fixture
def kb(tmp_path, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    kb = KnowledgeBase(tmp_path / "store", EngineConfig(), encoder)
    try:
        kb.add([docs])
        yield kb
    finally:
        release(str(tmp_path / "store" / "qdrant"))


def _library(kb: KnowledgeBase, entries: list[tuple[str | None, str, str, str | None]]) -> AnswerLibrary:
    """A library of German answers accepted in German questionnaires: (product, question in German,
    answer in German, the English text it was translated from or None) each, asked as ``QUESTION_EN``
    unless the German question is another."""
    library = AnswerLibrary(kb.folder, lambda: kb.encoder)
    for i, (product, question, answer, answer_en) in enumerate(entries, 2):
        library.record(
            question,
            None,
            answer,
            f"fragebogen_{i}.xlsx",
            "Fragen",
            i,
            f"COMP-{i:02d}",
            product,
            language=Language.DE,
            question_en=QUESTION_EN if question == QUESTION_DE else None,
            answer_en=answer_en,
        )
    return library


def _narrative(text: str) -> Question:
    return Question("GNRL-01", "Sheet1", 4, text, "B4", "C4", "D4", (), None, None)


def _shared_in_german(kb: KnowledgeBase) -> AnswerLibrary:
    return _library(kb, [(p, QUESTION_DE, COMPANY_DE, None) for p in OTHERS])


def test_the_company_text_in_german_is_put_in_english_for_an_english_questionnaire(kb):
    drafter = Drafter(kb, Translating(), library=_shared_in_german(kb), product=PRODUCT)
    d = drafter.draft(_narrative(QUESTION_EN))
    assert d.reused and d.from_product in OTHERS  # the company's text (#59), not the model's
    assert d.answer == COMPANY_EN and d.translated_from == "de" and not d.untranslated
    assert d.citations[0].quote == COMPANY_DE  # cited in its own words
    (line,) = [w for w in d.warnings if w.line.startswith("Translated from the German answer of")]
    assert "fragebogen_" in line.line and line.details == (COMPANY_DE,)


def test_the_company_text_in_german_without_a_model_is_kept_and_says_so(kb):
    drafter = Drafter(kb, NoChat(), library=_shared_in_german(kb), product=PRODUCT)
    d = drafter.draft(_narrative(QUESTION_EN))
    assert d.reused and d.answer == COMPANY_DE  # no model to translate with: its own words …
    assert d.translated_from == "de" and d.untranslated  # … never silently
    assert any(w.line.startswith("Not translated: the German answer of") for w in d.warnings)


def test_the_company_text_in_german_keeps_its_own_words_for_a_german_questionnaire(kb):
    model = Translating()
    drafter = Drafter(kb, model, library=_shared_in_german(kb), product=PRODUCT)
    d = drafter.for_language(QuestionnaireLanguage(Language.DE)).draft(_narrative(QUESTION_DE))
    assert d.question == QUESTION_DE and d.asked_as == QUESTION_EN
    assert d.answer == COMPANY_DE and d.language == "de"  # its own words, not translated twice
    assert not d.translated and not d.untranslated and d.translated_from is None
    assert not any(w.icon == "translate" for w in d.warnings)
    assert model.translated == [(QUESTION_DE, "English")]  # the question only


def test_the_company_text_in_german_for_a_french_questionnaire_is_translated_through_english(kb):
    """Its own words are some of a past answer's sentences, not the cited answer as a whole: it is
    put in English and translated on like any other text, both warnings shown, the English kept."""
    Translating.TABLE[(QUESTION_FR, "English")] = QUESTION_EN
    Translating.TABLE[(COMPANY_EN, "French")] = COMPANY_FR
    drafter = Drafter(kb, Translating(), library=_shared_in_german(kb), product=PRODUCT)
    d = drafter.for_language(QuestionnaireLanguage(Language.FR)).draft(_narrative(QUESTION_FR))
    assert d.question == QUESTION_FR and d.asked_as == QUESTION_EN
    assert d.answer == COMPANY_FR and d.english == COMPANY_EN and d.language == "fr"
    assert d.translated_from == "de" and d.translated
    lines = [w.line for w in d.warnings]
    assert any(x.startswith("Translated from the German answer of") for x in lines)
    assert any(x.startswith("Translated into French by the model") for x in lines)


ENCRYPT_EN = "Do you encrypt the institution's data at rest?"
ENCRYPT_DE = "Verschlüsseln Sie die Daten der Institution bei der Speicherung?"
EXPLAIN_DE = "Alle Kundendaten werden im Ruhezustand mit AES-256 verschlüsselt und die Schlüssel regelmäßig gewechselt."


def test_a_shared_explanation_in_german_keeps_its_own_words_for_a_german_questionnaire(kb):
    """Other products' shared explanation of their "Ja" (#59), written in German: a German
    questionnaire gets its own words, not put in English and translated back (before: its
    sentences through the model twice, "Translated from the German answer" and "Translated into
    German" both on the card)."""
    library = AnswerLibrary(kb.folder, lambda: kb.encoder)
    for i, product in enumerate(OTHERS, 2):
        library.record(
            ENCRYPT_DE, "Ja", EXPLAIN_DE, f"fragebogen_{i}.xlsx", "Fragen", i, f"ENC-{i:02d}", product,
            language=Language.DE, question_en=ENCRYPT_EN,
        )  # fmt: skip
    model = Translating()
    Translating.TABLE[(ENCRYPT_DE, "English")] = ENCRYPT_EN
    drafter = Drafter(kb, model, library=library, product=PRODUCT)
    asked = Question("ENC-01", "Fragen", 4, ENCRYPT_DE, "B4", "C4", "D4", ("Ja", "Nein"), None, None)
    d = drafter.for_language(QuestionnaireLanguage(Language.DE)).draft(asked)
    assert d.reused and d.from_product in OTHERS and d.choice == "Ja"
    assert d.answer == EXPLAIN_DE and d.language == "de"  # its own words
    assert not d.translated and not d.untranslated and d.translated_from is None
    assert not any(w.icon == "translate" for w in d.warnings)
    assert model.translated == [(ENCRYPT_DE, "English")]  # the question only
    assert any(c.quote == EXPLAIN_DE for c in d.citations)  # cited in its own words


def _entry(**kw) -> LibraryEntry:
    base = LibraryEntry(
        0, QUESTION_DE, "Ja", COMPANY_DE, None, "f.xlsx", "Fragen", 2, "C-1", "2026-12-01", Origin.REVIEW
    )
    return replace(base, **kw)


def test_a_past_answer_in_another_language_is_shown_to_the_model_in_english_or_not_at_all():
    english = _entry(question=QUESTION_EN, answer=COMPANY_EN, choice="Yes", language="en")
    german = _entry(language="de", question_en=QUESTION_EN)
    translated = replace(german, answer_en=COMPANY_EN)
    old = _entry(language=None)  # a library older than schema 5: its language detected on read (German)
    assert shown_in_english(english) and past_shown(english) == f"Yes — {COMPANY_EN}"
    assert not shown_in_english(german) and not shown_in_english(old)
    assert shown_in_english(translated) and past_shown(translated) == f"Yes — {COMPANY_EN}"
    assert shown_in_english(_entry(question="SOC 2?", answer="", choice="Ja", language=None))  # unknown: a bare choice


def test_the_prompt_shows_a_german_past_answer_by_its_english_text_only(kb):
    """The drafted product's own related (not near-identical) past answers: the German one without an
    English source is left out of the prompt, the one with it is shown in English."""
    kept = "Wir verschlüsseln Sicherungskopien mit AES-256 und prüfen die Wiederherstellung jedes Quartal."
    kept_en = "We encrypt backups with AES-256 and test restoring them every quarter."
    left = "Wir bewahren die Sicherungskopien der Datenbanken neunzig Tage lang in zwei Regionen auf."
    library = AnswerLibrary(kb.folder, lambda: kb.encoder)
    for i, (question_en, answer, answer_en) in enumerate(
        [("How are backups of the databases protected and tested?", kept, kept_en),
         ("How long are database backups kept, and where?", left, None)], 2):  # fmt: skip
        library.record(
            f"Frage {i} zu den Sicherungskopien",
            None,
            answer,
            "fragebogen.xlsx",
            "Fragen",
            i,
            f"BCK-{i:02d}",
            PRODUCT,
            language=Language.DE,
            question_en=question_en,
            answer_en=answer_en,
        )
    model = Translating()
    asked = _narrative("Describe how backups of production databases are handled.")
    hits = library.match(asked.text, top_k=None, min_score=0.5)
    assert {h.entry.answer for h in hits} == {kept, left}  # both related: shown before this change
    assert all(h.score < 0.9 for h in hits)  # neither near-identical (no reuse)
    Drafter(kb, model, library=library, product=PRODUCT).draft(asked)
    shown = "\n".join(model.shown)
    assert kept_en in shown and "Q: How are backups of the databases protected and tested?" in shown
    assert kept not in shown and left not in shown

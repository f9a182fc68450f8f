"""Questionnaires in the buyer's language (issue #58).

* The shared translated HECVAT set (``../shared/data/translated``; skipped when absent): each file's
  language is detected, every question's too, and its Yes/No dropdown in the language's own words
  is a Yes/No row.
* The real default model: a German question with a Ja/Nein dropdown, drafted from an English
  document, is searched with its English translation and answered "Ja" (the dropdown's own option,
  written to the workbook), its quote verbatim in the English document, a text (when kept) in
  German with its English source; a German narrative is searched in English; the model turns an
  English answer into German.
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.types import DraftStatus
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.drafter import Drafter
from engine.questionnaire import read_questionnaire
from engine.questionnaire.language import Language, detect, english_choice, language_of
from engine.questionnaire.row_types import RowType, classify
from engine.review.draft_run import draft_questionnaire
from storage.review_store import ReviewStore
from tests.fixtures import TOPICS, text_kb

LANGS = {"en": ("Yes", "No"), "de": ("Ja", "Nein"), "fr": ("Oui", "Non"), "es": ("Sí", "No"), "nl": ("Ja", "Nee")}
LANGS["ja"] = ("はい", "いいえ")


@pytest.fixture(scope="module")
def translated(shared_data) -> Path:
    folder = shared_data / "translated"
    if not (folder / "truth.jsonl").is_file():
        pytest.skip(f"{folder} is absent: the translated HECVAT set is not in the shared data")
    return folder


@pytest.mark.parametrize("lang", list(LANGS))
def test_each_translated_questionnaire_is_read_in_its_language(translated, lang):
    q = read_questionnaire(translated / f"hecvat_canvas_credentials_{lang}.xlsx")
    found = language_of(q)
    assert found.language is Language(lang)
    assert len(q.questions) == 60
    told = sum(found.counts.values())
    # no question read as another language; a few short ones ("Vendor Hosting Regions") too short to tell
    assert found.counts[lang] == told and told >= 57
    yes_no = [x for x in q.questions if x.choices]
    assert len(yes_no) == 50 and all(set(x.choices) == set(LANGS[lang]) for x in yes_no)
    assert all(classify(x) is RowType.YES_NO for x in yes_no)


def test_every_translated_question_is_detected(translated):
    rows = [json.loads(x) for x in (translated / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    for lang in ("de", "fr", "es", "nl", "ja"):
        told = [(r["id"], detect(r[lang]).language) for r in rows]
        assert [i for i, found in told if found not in (None, Language(lang))] == [], lang  # never another language
        assert sum(found is None for _, found in told) <= 3, lang  # too short to tell: the questionnaire's


def test_the_dutch_ai_impact_assessment_is_read_as_dutch(shared_data):
    """The Dutch government's AI impact assessment (a Word document): its 111 questions as
    tests/questionnaire_truth/docx.json counts them, every question told read as Dutch (110: 7.2.1,
    "In hoeverre ben je transparant …", holds only one of the rule's Dutch function words and takes
    the questionnaire's language), so drafting asks each in English and answers in Dutch (its first
    five drafted with the real model: docs/benchmarks.md)."""
    path = shared_data / "questionnaires" / "docx" / "nl_gov_aiia_2.0_ai_impact_assessment_nl.docx"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    q = read_questionnaire(path)
    found = language_of(q)
    assert len(q.questions) == 111
    assert found.language is Language.NL and found.counts == {"nl": 110} and not found.others


def _german_workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Fragen"
    ws.append(["ID", "Frage", "Antwort", "Erläuterung"])
    ws.append(["ENC-01", "Werden Kundendaten bei der Speicherung verschlüsselt?", None, None])
    ws.append(["BCK-01", "Wie lange werden die Sicherungen der Produktionsdatenbanken aufbewahrt?", None, None])
    dv = DataValidation(type="list", formula1='"Ja,Nein"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("C2")
    wb.save(path)
    return path


@pytest.mark.timeout(900)
def test_a_german_question_is_answered_in_german_from_an_english_document(tmp_path, encoder):
    from engine.drafting.generate import make_generator
    from engine.drafting.generate.models import DEFAULT_MODEL, ModelError, resolve_model

    try:
        resolve_model(DEFAULT_MODEL)
    except ModelError as exc:
        pytest.skip(f"the default model is not installed: {exc}")
    book = _german_workbook(tmp_path / "fragebogen.xlsx")
    questionnaire = read_questionnaire(book)
    assert language_of(questionnaire).language is Language.DE
    with text_kb(tmp_path, encoder, {"security.txt": "\n\n".join(TOPICS.values())}) as kb:
        drafter = Drafter(kb, make_generator())
        review = ReviewStore(tmp_path / "review.sqlite")
        run = draft_questionnaire(questionnaire, drafter, review, out=tmp_path / "out.xlsx")
    choice, text = run.drafted
    assert choice.status is DraftStatus.DRAFTED, (choice.error, choice.asked_as)
    assert "encrypt" in (choice.asked_as or "").lower()  # the question the documents were searched with
    assert choice.choice == "Ja" and english_choice(choice.choice) == "Yes"  # the dropdown's own option
    assert "backup" in (text.asked_as or "").lower()  # drafted or not, the documents were searched in English
    for d in (choice, text):
        if d.answer:  # a text is in German, its English source kept, and says it was translated
            assert d.english and detect(d.english).language is Language.EN
            assert d.translated and d.language == "de" and detect(d.answer).language is not Language.EN, d.answer
            assert any(w.line.startswith("Translated into German") for w in d.warnings)
    source = " ".join(" ".join(TOPICS.values()).split())
    quotes = [c for c in choice.citations if c.label is AnchorLabel.VERIFIED]
    assert quotes and all(" ".join(c.quote.split()) in source for c in quotes)  # verbatim, in English
    # an answer's text into German by the same model (what a drafted text goes through)
    said = "Backups of the production databases are taken every night and kept for thirty-five days."
    german = drafter.translations.from_english(said, Language.DE)
    assert german is not None and detect(german.text).language is Language.DE, german
    out = openpyxl.load_workbook(tmp_path / "out.xlsx").active
    assert out["C2"].value == "Ja"


# the accessibility text of DOCU-11 and ITAC-03 as drafted in the Dutch run (2026-12-02): the real model
# copied it back twice, even told the words it copied, and it was left in English ("Not translated")
ACCESSIBILITY = (
    "Instructure is committed to delivering products that are accessible and inclusive. We target WCAG 2.1 AA "
    "standards in our development and have established our own NFR ladders regarding accessibility. We also "
    "recognize that software accessibility is often a journey more than it is a destination, and so we acknowledge "
    "and commit to continuous improvement."
)


@pytest.mark.timeout(900)
def test_the_real_model_translates_the_dutch_text_it_copied_back_and_asks_appl_06_as_a_question(translated):
    """The real default model, no cache: the accessibility text into Dutch (asked again with the
    words it copied forbidden) and the Japanese APPL-06 question into English (it came back as "Do
    not answer this question. Explain it. …"; asked again, told it is a question)."""
    from engine.drafting.generate import make_generator
    from engine.drafting.generate.models import DEFAULT_MODEL, ModelError, resolve_model
    from engine.drafting.translate import Translations, asks_the_same

    try:
        resolve_model(DEFAULT_MODEL)
    except ModelError as exc:
        pytest.skip(f"the default model is not installed: {exc}")
    translations = Translations(make_generator())
    dutch = translations.from_english(ACCESSIBILITY, Language.NL, ("Instructure",))
    assert dutch is not None and detect(dutch.text).language is Language.NL, dutch
    assert "Instructure" in dutch.text and "WCAG 2.1 AA" in dutch.text
    ja = read_questionnaire(translated / "hecvat_canvas_credentials_ja.xlsx")
    appl_06 = next(q.text for q in ja.questions if q.id == "APPL-06")
    english = translations.to_english(appl_06, Language.JA, question=True)
    assert english is not None and asks_the_same(english.text, appl_06, Language.JA, Language.EN), english
    assert "operating system" in english.text.lower()


# ITAC-08's English text (Parchment's VPAT) as drafted in the German run (2026-12-02): the real model ran its
# German words together ("StandardkeyboardnavigationundEingabefunktionen…") and it was left in English
ITAC_08 = (
    "Standard keyboard navigation and input functions (such as the Tab key to move between input fields, the "
    "arrow keys to move between list items, and the Space or Enter keys to make selections)."
)


@pytest.mark.timeout(600)
def test_the_real_model_translates_the_german_text_it_ran_together():
    """The real default model, no cache: ITAC-08's text into German, asked again with the English
    words it ran together forbidden, comes back as German with its spaces."""
    from engine.drafting.generate import make_generator
    from engine.drafting.generate.models import DEFAULT_MODEL, ModelError, resolve_model
    from engine.drafting.translate import Translations, _run_together

    try:
        resolve_model(DEFAULT_MODEL)
    except ModelError as exc:
        pytest.skip(f"the default model is not installed: {exc}")
    german = Translations(make_generator()).from_english(ITAC_08, Language.DE, ("Instructure", "Parchment"))
    assert german is not None and detect(german.text).language is Language.DE, german
    assert not _run_together(german.text, Language.DE, ITAC_08) and "Tab" in german.text, german

"""The language of a questionnaire and of a question, and Yes/No in each language's words
(engine/questionnaire/language.py, issue #58). The sentences here were written for this test; the
shared translated HECVAT set is read by tests/integration/test_translated_questionnaires.py."""

from __future__ import annotations

import openpyxl
import pytest

from engine.cli.inspect import language_line
from engine.questionnaire import read_questionnaire
from engine.questionnaire.language import (
    AnswerIn,
    Language,
    LanguageSetting,
    QuestionnaireLanguage,
    detect,
    english_choice,
    english_choices,
    own_choice,
    questionnaire_language,
)
from engine.questionnaire.qualifiers import _value_matches
from engine.questionnaire.row_types import is_yes_no_list

SENTENCES = {
    Language.EN: "Do you encrypt the institution's data at rest and in transit?",
    Language.DE: "Verschlüsseln Sie die Daten der Institution bei der Speicherung und bei der Übertragung?",
    Language.FR: "Chiffrez-vous les données de l'établissement au repos et en transit ?",
    Language.ES: "¿Cifra usted los datos de la institución en reposo y en tránsito?",
    Language.NL: "Versleutelt u de gegevens van de instelling in rust en tijdens het transport?",
    Language.JA: "貴社は当機関のデータを保存時および転送時に暗号化していますか？",
}


@pytest.mark.parametrize("language", list(SENTENCES))
def test_each_language_is_detected(language):
    assert detect(SENTENCES[language]).language is language


def test_japanese_by_its_script_even_with_latin_terms():
    assert detect("貴社はSOC 2 Type IIレポートを提供できますか？").language is Language.JA


LONG_ANSWER = (  # a vendor's narrative as HECVATs hold them: many nouns, few function words per sentence
    "Instructure maintains a comprehensive information security program aligned with ISO 27001 and SOC 2 "
    "Type II controls. Annual penetration tests, quarterly vulnerability scans, continuous monitoring, "
    "centralized logging, intrusion detection, endpoint protection, multi-factor authentication, role-based "
    "access control, encryption at rest (AES-256) and in transit (TLS 1.2+), secure software development "
    "lifecycle practices, peer code review, static analysis, dependency scanning, change management, incident "
    "response playbooks, tabletop exercises, business continuity planning, disaster recovery testing, vendor "
    "risk management, background checks, security awareness training, data classification, retention "
    "schedules, secure disposal, physical security controls at hosting providers, network segmentation, "
    "web application firewalls, DDoS mitigation, backups replicated across regions, documented recovery "
    "objectives, executive oversight, board reporting, privacy impact assessments, FERPA, GDPR and CCPA "
    "alignment, customer notification procedures, contractual commitments, third-party audits, remediation "
    "tracking, metrics, dashboards, policy reviews, exception handling, asset inventory, configuration "
    "baselines, hardening standards, patch management windows, key management, secrets rotation, "
    "least-privilege service accounts, logging retention, alert triage, forensic readiness, legal hold "
    "support and customer-facing trust portal documentation are all part of the program."
)


def test_a_long_answer_is_told_by_a_sentence_worth_of_words_not_diluted_by_its_length():
    """Before: the share of function words was taken over all 200 words, so long English fell under the
    bar ("cannot tell") and a translation left in English passed as translated (#58)."""
    assert len(LONG_ANSWER.split()) > 150
    assert detect(LONG_ANSWER).language is Language.EN


@pytest.mark.parametrize("text", ["Ja", "Nein", "SOC 2", "ISO 27001", ""])
def test_too_short_to_tell(text):
    assert detect(text).language is None


def test_questionnaire_language_is_its_questions_most_common_and_names_the_others():
    texts = [(f"Q!A{i}", SENTENCES[Language.DE]) for i in range(3)] + [("Q!A9", SENTENCES[Language.EN])]
    texts.append(("Q!A10", "SOC 2"))  # too short: not counted
    found = questionnaire_language(texts)
    assert found.language is Language.DE
    assert found.counts == {"de": 3, "en": 1}
    assert found.others == {"Q!A9": "en"}
    assert found.to_json()["label"] == "German"


def test_an_empty_questionnaire_is_in_the_company_language():
    assert questionnaire_language([]).language is Language.EN


def test_the_responder_corrects_the_language_and_keeps_the_company_language():
    found = questionnaire_language([("Q!A1", SENTENCES[Language.NL]), ("Q!A2", SENTENCES[Language.DE])])
    setting = LanguageSetting(Language.NL, AnswerIn.COMPANY)
    assert LanguageSetting.from_json(setting.to_json()) == setting
    lang = QuestionnaireLanguage.of(found, setting)
    assert lang.language is Language.NL
    assert lang.of_question("Q!A2") in (Language.DE, Language.NL)
    assert lang.answers_in("Q!A1") is Language.EN  # kept in the company's language
    default = QuestionnaireLanguage.of(found, LanguageSetting.from_json(None))
    assert default.answers_in("Q!A1") is default.of_question("Q!A1")


def test_language_names_parse():
    assert Language.parse("Deutsch") is Language.DE
    assert Language.parse("japanese") is Language.JA
    assert Language.parse("nl") is Language.NL
    assert Language.parse("klingon") is None


@pytest.mark.parametrize(
    ("label", "english"),
    [
        ("Ja", "Yes"),
        ("Oui", "Yes"),
        ("Sí", "Yes"),
        ("si", "Yes"),
        ("はい", "Yes"),
        ("yes.", "Yes"),
        ("1) Yes", "Yes"),
        ("Nein", "No"),
        ("Non", "No"),
        ("Nee", "No"),
        ("いいえ", "No"),
        ("No", "No"),
        ("N/A", None),
        ("Teilweise", None),
        ("", None),
    ],
)
def test_yes_and_no_in_each_language(label, english):
    assert english_choice(label) == english


@pytest.mark.parametrize(
    "choices",
    [("Ja", "Nein"), ("Oui", "Non"), ("Sí", "No"), ("Ja", "Nee"), ("はい", "いいえ"), ("Yes", "No")],
)
def test_a_dropdown_is_answered_in_its_own_words(choices):
    assert english_choices(choices) == ("Yes", "No")
    assert own_choice("Yes", choices) == choices[0]
    assert own_choice("No", choices) == choices[1]
    assert is_yes_no_list(choices)


def test_other_options_stay_as_they_are():
    choices = ("Ja", "Nein", "N/A")
    assert english_choices(choices) == ("Yes", "No", "N/A")
    assert own_choice("N/A", choices) == "N/A"
    assert own_choice(None, choices) is None


def test_a_qualifier_answered_in_the_questionnaire_language_opens_its_section():
    """A gate keeps its rows required when its qualifier says "Ja" as when it says "Yes"."""
    assert _value_matches("Ja", ("yes",))
    assert _value_matches("はい", ("yes",))
    assert not _value_matches("Nein", ("yes",))
    assert _value_matches("Non", ("no",))


def test_inspect_says_the_language_is_assumed_when_no_question_can_tell(tmp_path):
    """A table of column labels ("CMVP #", "Module Name": FedRAMP's Appendix Q) is too short to
    tell a language: `inspect` says English is assumed and why, not "0 of 0 questions"."""
    path = tmp_path / "labels.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["ID", "Question", "Answer"])
    for n, label in enumerate(("CMVP #", "Module Name", "Vendor"), 1):
        ws.append([f"Q-{n}", label, None])
    wb.save(path)
    line = language_line(read_questionnaire(path))
    assert line == "language: English (en), assumed: none of its 3 questions is long enough to tell"
    wb.active.append(["Q-4", SENTENCES[Language.DE], None])
    wb.save(path)
    assert language_line(read_questionnaire(path)) == "language: German (de), 1 of 1 questions"

"""The Questionnaire screen shows a questionnaire's detected language and keeps the responder's
correction and choice of the answers' language (issue #58), with the questionnaire.

The LLM is ``QuotingGenerator``, a stated fake (installed by the ``ui_workspace`` fixture): the test
is about the screen, not about translation."""

from __future__ import annotations

from pathlib import Path

from engine.questionnaire.language import AnswerIn, Language
from tests.fixtures import write_questionnaire

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
GERMAN = [
    ("ENC-01", "Werden die Daten der Institution bei der Speicherung verschlüsselt?"),
    ("BCK-01", "Wie lange werden die Sicherungen der Datenbanken aufbewahrt?"),
    ("INC-01", "Werden die Kunden über einen bestätigten Sicherheitsvorfall informiert?"),
]


def test_the_language_is_shown_corrected_and_kept(open_screen, ui_workspace, tmp_path: Path):
    ws = ui_workspace
    at = open_screen("questionnaire")
    book = write_questionnaire(tmp_path / "Fragebogen.xlsx", questions=GERMAN)
    key = "questionnaire_uploader_" + str(at.session_state["questionnaire_uploader_generation"])
    at.file_uploader(key=key).upload("Fragebogen.xlsx", book.read_bytes(), XLSX)
    at.run()
    assert not at.exception
    pid = at.session_state["project_id"]
    (language,) = [s for s in at.selectbox if s.label == "Questionnaire language"]
    assert language.value == "de"  # detected from its questions
    (keep,) = [c for c in at.checkbox if c.label.startswith("Keep the answers in English")]
    assert keep.value is False
    keep.check()
    at.run()
    assert not at.exception
    assert ws.language(pid).answer_in is AnswerIn.COMPANY
    language = next(s for s in at.selectbox if s.label == "Questionnaire language")
    language.select("nl")  # the responder corrects it
    at.run()
    assert not at.exception
    kept = ws.language(pid)
    assert kept.language is Language.NL and kept.answer_in is AnswerIn.COMPANY
    assert ws.drafter_for(pid).languages.language is Language.NL  # drafting follows it

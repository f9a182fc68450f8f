"""A solicitation taken like any questionnaire (engine/questionnaire/solicitation/as_questionnaire.py
through engine/questionnaire/formats.py): each requirement a row with the compliance choices, the
submission and terms requirements a checklist the drafting run skips, the reviewer's exclusions
kept, and the answers exported into the response document."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from engine.questionnaire import read_questionnaire
from engine.questionnaire.pdf.response import write_response_docx
from engine.questionnaire.places import PlaceKind, response_only
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.solicitation import Kind, shred
from engine.questionnaire.solicitation.as_questionnaire import CHOICES
from engine.questionnaire.writes import CellWrite
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf


@pytest.fixture
def rfp(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "rfp.pdf", [PAGE_ONE, PAGE_TWO])


def test_each_requirement_is_a_row_with_the_compliance_choices(rfp: Path) -> None:
    q = read_questionnaire(rfp)
    found = shred([rfp]).requirements
    assert [x.id for x in q.questions] == [r.id for r in found]
    assert [x.text for x in q.questions] == [r.text for r in found]
    assert all(x.choices == CHOICES for x in q.questions)
    assert CHOICES == ("Comply", "Partially comply", "Exception", "Noted")
    assert response_only(q.places) and all(p.kind is PlaceKind.RESPONSE for p in q.places.values())
    assert any("a solicitation, not a questionnaire" in n for n in q.notes)


def test_submission_and_terms_are_a_checklist_not_drafted(rfp: Path) -> None:
    q = read_questionnaire(rfp)
    kinds = {r.id: r.kind for r in shred([rfp]).requirements}
    for row in q.questions:
        checklist = kinds[row.id] in (Kind.SUBMISSION, Kind.TERMS)
        assert row.answered is checklist, row  # the drafting run skips answered rows
        if checklist:
            assert row.existing_answer.startswith("Checklist (")


def test_the_reviewers_exclusion_is_kept(rfp: Path) -> None:
    q = read_questionnaire(rfp, exclude=["2.1", "Document!A1001"])
    ids = [x.id for x in q.questions]
    assert "2.1" not in ids and q.questions[0].id != shred([rfp]).requirements[0].id


def test_a_file_that_is_neither_questionnaire_nor_solicitation_is_refused(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "letter.pdf", [["Dear customer,", "Thank you for your order."]])
    with pytest.raises(QuestionnaireError, match="no question"):
        read_questionnaire(pdf)


def test_answers_go_into_the_response_document(rfp: Path, tmp_path: Path) -> None:
    q = read_questionnaire(rfp)
    work = next(x for x in q.questions if x.id == "2.1")
    writes = [
        CellWrite(work.sheet, work.choice_cell, "Comply"),
        CellWrite(work.sheet, work.text_cell, "Our crews mow every park weekly."),
    ]
    document = docx.Document(str(write_response_docx(q, tmp_path / "response.docx", writes)))
    texts = [p.text for p in document.paragraphs]
    at = next(i for i, t in enumerate(texts) if work.text in t)
    assert "Answer: Comply" in texts[at + 1 : at + 3]
    assert "Our crews mow every park weekly." in texts[at + 1 : at + 4]


def test_the_answer_library_does_not_import_a_solicitation(rfp: Path, tmp_path: Path) -> None:
    from engine.questionnaire.solicitation.as_questionnaire import is_solicitation  # noqa: PLC0415

    assert is_solicitation(read_questionnaire(rfp))
    sheet = tmp_path / "q.csv"
    sheet.write_text("Question,Answer\nDo you encrypt data?,Yes\n", encoding="utf-8")
    assert not is_solicitation(read_questionnaire(sheet))


def test_a_policy_with_binding_words_is_not_taken_for_a_solicitation(tmp_path: Path) -> None:
    policy = write_pdf(
        tmp_path / "policy.pdf",
        [[f"{i}. Employees must lock their screens and shall rotate passwords every {i} months." for i in range(1, 9)]],
    )
    assert not shred([policy]).looks_like_solicitation  # binding words, but no instructions, evaluation or SOW
    with pytest.raises(QuestionnaireError, match="no question"):
        read_questionnaire(policy)

"""The responder's corrections of a Word questionnaire's mapping (#55 item 4): a table column's role
given once, every row of the table following (columns made the options of one choice), a question's
text, kind and answer place; stored as JSON with the read options and applied on every read; the
``inspect`` flags that give them. The checklist is generated here with python-docx."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli.main import main
from engine.questionnaire import read_questionnaire
from engine.questionnaire.corrections import (
    ColumnRole,
    QuestionCorrection,
    QuestionKind,
    TableCorrection,
    column_roles,
    merged,
    merged_questions,
    parse_columns,
)
from engine.questionnaire.mapping import mapping
from engine.questionnaire.reader import ReadOptions
from tests import word_fixtures as wf

REQUIREMENTS = (
    "Firewall rules are reviewed every six months.",
    "Vendor default passwords are changed before use.",
    "Cardholder data is encrypted in transit.",
)


@pytest.fixture()
def checklist(tmp_path: Path) -> Path:
    doc = wf.new()
    doc.add_paragraph("Requirement checklist")
    wf.add(doc, wf.table([["Requirement", "In Place", "Not in Place", "Observations"],
                          *[[r, "", "", ""] for r in REQUIREMENTS]]))  # fmt: skip
    doc.add_paragraph("Other notes")
    wf.add(doc, wf.table([["Question", "Answer"], ["Who is your security officer?", ""]]))
    return wf.save(doc, tmp_path / "checklist.docx")


def test_the_mapping_names_each_answer_place_by_its_columns_header(checklist):
    q = read_questionnaire(checklist)
    assert [m.place for m in mapping(q)] == ["In Place"] * 3 + ["Answer"]  # the reader's guess, by column
    (first, second) = q.tables
    assert [(c.column, c.header, c.role) for c in first.columns] == [
        (0, "Requirement", ColumnRole.QUESTION),
        (1, "In Place", ColumnRole.ANSWER),
        (2, "Not in Place", ColumnRole.ANSWER),
        (3, "Observations", ColumnRole.ANSWER),
    ]
    assert len(first.keys) == 3 and second.table == 1 and len(second.keys) == 1


def test_columns_made_the_options_of_one_choice_once_every_row_follows(checklist):
    fixes = parse_columns("0:1-2=option")
    q = read_questionnaire(checklist, tables=fixes)
    rows = mapping(q)
    assert [m.kind for m in rows] == ["choice"] * 3 + ["text"]  # the other table is as read
    assert [m.choices for m in rows[:3]] == [("In Place", "Not in Place")] * 3
    assert {m.place for m in rows[:3]} == {"one of the columns: In Place / Not in Place; Observations"}
    places = [q.places[f"{x.sheet}!{x.choice_cell}"] for x in q.questions[:3]]
    assert {p.control for p in places} == {"X column"}
    # the write follows the corrected mapping: an X in the chosen column, the text in Observations
    from engine.questionnaire.docx_writer import write_docx
    from engine.review.writes import CellWrite

    first = q.questions[0]
    out = write_docx(
        q,
        checklist.with_name("out.docx"),
        [CellWrite(first.sheet, first.choice_cell, "In Place"), CellWrite(first.sheet, first.text_cell, "Quarterly.")],
    )
    back = read_questionnaire(out, tables=fixes).questions[0]
    assert (back.existing_choice, back.existing_answer) == ("In Place", "Quarterly.")


def test_a_questions_text_kind_and_answer_place_corrected(checklist):
    keys = [m.key for m in mapping(read_questionnaire(checklist))]
    fixes = [
        QuestionCorrection(keys[0], column=3),  # its answer in Observations, not in "In Place"
        QuestionCorrection(keys[1], text="Are vendor default passwords changed?"),
    ]
    q = read_questionnaire(checklist, questions=fixes)
    rows = mapping(q)
    assert [m.place for m in rows] == ["Observations", "In Place", "In Place", "Answer"]
    assert rows[1].text == "Are vendor default passwords changed?"
    both = read_questionnaire(checklist, tables=parse_columns("0:1-2=option"),
                              questions=[QuestionCorrection(keys[2], kind=QuestionKind.TEXT)])  # fmt: skip
    assert [m.kind for m in mapping(both)] == ["choice", "choice", "text", "text"]
    assert mapping(both)[2].place == "Observations"


def test_corrections_round_trip_as_json_and_merge_newest_first():
    options = ReadOptions(
        tables=(TableCorrection(0, 1, ColumnRole.OPTIONS),),
        questions=(QuestionCorrection("Document!A6", "Text?", QuestionKind.CHOICE, 3),),
    )
    stored = json.loads(json.dumps(options.to_json()))
    assert stored["tables"] == [{"table": 0, "column": 1, "role": "option"}]
    assert ReadOptions.from_json(stored) == options
    assert ReadOptions(**stored) == options  # read_questionnaire's keywords take the JSON too
    assert merged(options.tables, [TableCorrection(0, 1, ColumnRole.ANSWER)]) == (
        TableCorrection(0, 1, ColumnRole.ANSWER),
    )
    (q,) = merged_questions(options.questions, [QuestionCorrection("Document!A6", text="New?")])
    assert (q.text, q.kind, q.column) == ("New?", QuestionKind.CHOICE, 3)
    detected = {0: ColumnRole.QUESTION, 1: ColumnRole.ANSWER}
    assert column_roles(
        detected, 0, [TableCorrection(0, 2, ColumnRole.QUESTION), TableCorrection(1, 1, ColumnRole.ID)]
    ) == {
        0: ColumnRole.GUIDANCE,  # one question column: the corrected one
        1: ColumnRole.ANSWER,
        2: ColumnRole.QUESTION,
    }
    with pytest.raises(ValueError, match="not TABLE:COLUMN=ROLE"):
        parse_columns("3=answer")
    with pytest.raises(ValueError, match="not a column role"):
        parse_columns("0:1=maybe")


def test_inspect_takes_the_corrections_as_flags(checklist, capsys):
    assert main(["inspect", str(checklist), "--json", "--column", "0:1-2=option",
                 "--question-text", "Document!A6=Are firewall rules reviewed?"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    questions = out["sheets"][0]["questions"]
    assert [x["kind"] for x in questions] == ["choice", "choice", "choice", "text"]
    assert questions[0]["text"] == "Are firewall rules reviewed?"
    assert questions[0]["answer_place"]["text"]["column"] == "Observations"
    assert [c["role"] for c in out["tables"][0]["columns"]] == ["question", "option", "option", "answer text"]
    with pytest.raises(SystemExit):
        main(["inspect", str(checklist), "--column", "0:1=maybe"])
    assert "'maybe' is not a column role" in capsys.readouterr().err


def test_a_pdf_forms_question_text_corrected(tmp_path):
    from tests.pdf_forms import SUPPLIER_QUESTIONS, supplier_form

    form = supplier_form(tmp_path / "supplier.pdf")
    first = read_questionnaire(form).questions[0]
    fix = QuestionCorrection(f"{first.sheet}!{first.question_cell}", text="The vendor's registered name")
    q = read_questionnaire(form, questions=[fix])
    assert [x.text for x in q.questions] == ["The vendor's registered name", *SUPPLIER_QUESTIONS[1:]]
    assert q.questions[0].text_cell == first.text_cell  # its place as read

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
from engine.questionnaire.records import ReadOptions
from tests import word_fixtures as wf

REQUIREMENTS = (
    "Firewall rules are reviewed every six months.",
    "Vendor default passwords are changed before use.",
    "Cardholder data is encrypted in transit.",
)


def _checklist(path: Path, options: tuple[str, str], notes: bool) -> Path:
    doc = wf.new()
    doc.add_paragraph("Requirement checklist")
    head = ["Requirement", *options, "Observations", *(["Notes"] if notes else [])]
    wf.add(doc, wf.table([head, *[[r] + [""] * (len(head) - 1) for r in REQUIREMENTS]]))
    doc.add_paragraph("Other notes")
    wf.add(doc, wf.table([["Question", "Answer"], ["Who is your security officer?", ""]]))
    return wf.save(doc, path)


@pytest.fixture()
def checklist(tmp_path: Path) -> Path:
    """Option columns the table model knows by their labels ("In Place", "Not in Place")."""
    return _checklist(tmp_path / "checklist.docx", ("In Place", "Not in Place"), notes=True)


@pytest.fixture()
def adopted(tmp_path: Path) -> Path:
    """Option columns whose labels ("Adopted", "Not adopted") no reader knows: blank cells under them
    are read as answer text until the responder says they are the options of one choice."""
    return _checklist(tmp_path / "adopted.docx", ("Adopted", "Not adopted"), notes=False)


ONE_CHOICE = "one of the columns: In Place / Not in Place; Observations"


def test_the_mapping_names_each_answer_place_by_its_columns_header(checklist, adopted):
    q = read_questionnaire(checklist)
    # the table model reads the option columns as one choice per row, its text in Observations
    assert [m.place for m in mapping(q)] == [ONE_CHOICE] * 3 + ["Answer"]
    (first, second) = q.tables
    assert [(c.column, c.header, c.role) for c in first.columns] == [
        (0, "Requirement", ColumnRole.QUESTION),
        (1, "In Place", ColumnRole.OPTIONS),
        (2, "Not in Place", ColumnRole.OPTIONS),
        (3, "Observations", ColumnRole.ANSWER),
        (4, "Notes", ColumnRole.NOTES),
    ]
    assert len(first.keys) == 3 and second.table == 1 and len(second.keys) == 1
    unknown = read_questionnaire(adopted)  # labels the reader does not know: its guess, by column
    assert [m.place for m in mapping(unknown)] == ["Adopted"] * 3 + ["Answer"]
    assert [c.role for c in unknown.tables[0].columns] == [ColumnRole.QUESTION] + [ColumnRole.ANSWER] * 3


def test_columns_made_the_options_of_one_choice_once_every_row_follows(adopted, checklist):
    fixes = parse_columns("0:1-2=option")
    q = read_questionnaire(adopted, tables=fixes)
    rows = mapping(q)
    assert [m.kind for m in rows] == ["choice"] * 3 + ["text"]  # the other table is as read
    assert [m.choices for m in rows[:3]] == [("Adopted", "Not adopted")] * 3
    assert {m.place for m in rows[:3]} == {"one of the columns: Adopted / Not adopted; Observations"}
    places = [q.places[f"{x.sheet}!{x.choice_cell}"] for x in q.questions[:3]]
    assert {p.control for p in places} == {"X column"}
    assert [c.role for c in q.tables[0].columns] == [
        ColumnRole.QUESTION, ColumnRole.OPTIONS, ColumnRole.OPTIONS, ColumnRole.ANSWER,
    ]  # fmt: skip
    # the write follows the corrected mapping: an X in the chosen column, the text in Observations
    from engine.questionnaire.word.writer import write_docx
    from engine.questionnaire.writes import CellWrite

    first = q.questions[0]
    out = write_docx(
        q,
        adopted.with_name("out.docx"),
        [CellWrite(first.sheet, first.choice_cell, "Adopted"), CellWrite(first.sheet, first.text_cell, "Quarterly.")],
    )
    back = read_questionnaire(out, tables=fixes).questions[0]
    assert (back.existing_choice, back.existing_answer) == ("Adopted", "Quarterly.")
    # and back: a column the model reads as an option taken out of the choice, every row follows
    taken = read_questionnaire(checklist, tables=parse_columns("0:2=answer"))
    assert [c.role for c in taken.tables[0].columns][1:3] == [ColumnRole.OPTIONS, ColumnRole.ANSWER]
    rows = mapping(taken)[:3]  # one option column left: a box to tick or not per row, its text in Not in Place
    assert {(m.kind, m.place) for m in rows} == {("checkbox", "In Place: In Place; Not in Place")}


def test_a_questions_text_kind_and_answer_place_corrected(checklist, adopted):
    keys = [m.key for m in mapping(read_questionnaire(adopted))]
    fixes = [
        QuestionCorrection(keys[0], column=3),  # its answer in Observations, not in "Adopted"
        QuestionCorrection(keys[1], text="Are vendor default passwords changed?"),
    ]
    q = read_questionnaire(adopted, questions=fixes)
    rows = mapping(q)
    assert [m.place for m in rows] == ["Observations", "Adopted", "Adopted", "Answer"]
    assert rows[1].text == "Are vendor default passwords changed?"
    both = read_questionnaire(adopted, tables=parse_columns("0:1-2=option"),
                              questions=[QuestionCorrection(keys[2], kind=QuestionKind.TEXT)])  # fmt: skip
    assert [m.kind for m in mapping(both)] == ["choice", "choice", "text", "text"]
    assert mapping(both)[2].place == "Observations"
    # a row the table model reads: its text moved to Notes; never into an option column
    keys = [m.key for m in mapping(read_questionnaire(checklist))]
    moved = read_questionnaire(
        checklist, questions=[QuestionCorrection(keys[0], column=4), QuestionCorrection(keys[1], column=1)]
    )
    places = [m.place for m in mapping(moved)]
    assert places == ["one of the columns: In Place / Not in Place; Notes", ONE_CHOICE, ONE_CHOICE, "Answer"]


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


def test_inspect_takes_the_corrections_as_flags(adopted, capsys):
    assert main(["inspect", str(adopted), "--json", "--column", "0:1-2=option",
                 "--question-text", "Document!A6=Are firewall rules reviewed?"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    questions = out["sheets"][0]["questions"]
    assert [x["kind"] for x in questions] == ["choice", "choice", "choice", "text"]
    assert questions[0]["text"] == "Are firewall rules reviewed?"
    assert questions[0]["answer_place"]["text"]["column"] == "Observations"
    assert [c["role"] for c in out["tables"][0]["columns"]] == ["question", "option", "option", "answer text"]
    with pytest.raises(SystemExit):
        main(["inspect", str(adopted), "--column", "0:1=maybe"])
    assert "'maybe' is not a column role" in capsys.readouterr().err


def test_a_pdf_forms_question_text_corrected(tmp_path):
    from tests.pdf_forms import SUPPLIER_QUESTIONS, supplier_form

    form = supplier_form(tmp_path / "supplier.pdf")
    first = read_questionnaire(form).questions[0]
    fix = QuestionCorrection(f"{first.sheet}!{first.question_cell}", text="The vendor's registered name")
    q = read_questionnaire(form, questions=[fix])
    assert [x.text for x in q.questions] == ["The vendor's registered name", *SUPPLIER_QUESTIONS[1:]]
    assert q.questions[0].text_cell == first.text_cell  # its place as read


def _flat_pdf(path: Path) -> Path:
    """A flat PDF (no fields) with one ruled table: IDs, requirements, two option columns the table model
    knows ("In Place", "Not in Place") and one it does not ("Not Tested", read as answer text)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    xs, ys = [40, 90, 330, 400, 480, 560], [100, 130, 170, 210]
    rows = [["No.", "Requirement", "In Place", "Not in Place", "Not Tested"],
            ["1.1", "Backups are tested.", "", "", ""], ["1.2", "Access is reviewed.", "", "", ""]]  # fmt: skip
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for r, row in enumerate(rows):
        for c, words in enumerate(row):
            if words:
                page.insert_text((xs[c] + 4, ys[r] + 20), words, fontsize=9)
    doc.save(path)
    return path


def test_a_flat_pdf_tables_columns_are_reported_and_corrected_once_every_row_follows(tmp_path):
    path = _flat_pdf(tmp_path / "flat.pdf")
    q = read_questionnaire(path)
    (table,) = q.tables
    assert [(c.header, c.role) for c in table.columns] == [
        ("No.", ColumnRole.ID),
        ("Requirement", ColumnRole.QUESTION),
        ("In Place", ColumnRole.OPTIONS),
        ("Not in Place", ColumnRole.OPTIONS),
        ("Not Tested", ColumnRole.ANSWER),
    ]
    assert table.keys == tuple(m.key for m in mapping(q))
    assert [x.choices for x in q.questions] == [("In Place", "Not in Place")] * 2
    fixed = read_questionnaire(path, tables=parse_columns(f"{table.table}:4=option"))
    assert [x.choices for x in fixed.questions] == [("In Place", "Not in Place", "Not Tested")] * 2
    assert [c.role for c in fixed.tables[0].columns][2:] == [ColumnRole.OPTIONS] * 3

"""Write-back tolerates what a viewer tolerates (issue #55, item 3): a PDF widget whose /Rect is
stored upside down takes its value and the no-other-change check passes; a one-box question takes
"No" (its box left or made unticked) in a PDF form and in a Word document; one answer its place
cannot take is reported with why while the others are written (the writers, export(), the
review's completed file); instruction text and a combo box's shipped default are no answers.
The forms are generated here with PyMuPDF and python-docx / raw WordprocessingML."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest

from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.pdf.form import shipped_placeholder
from engine.questionnaire.pdf.writer import PdfWriteError, changes, write_pdf
from engine.questionnaire.places import FORM_SHEET, Unwritten
from engine.questionnaire.word.writer import write_docx
from engine.questionnaire.writes import CellWrite, unwritten_answers
from tests import word_fixtures as wf
from tests.pdf_forms import CHECKBOX, COMBO, TEXT, add_field, label, save

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "questionnaires" / "pdf"


@dataclass(frozen=True)
class Write:
    sheet: str
    cell: str
    value: str


def _upside_down(tmp_path: Path) -> Path:
    """A form whose two text fields store their /Rect upside down (y1 < y0, and x1 < x0 for one)."""
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 72, 100, "1. Company name")
    add_field(page, TEXT, "company", (200, 88, 400, 104))
    label(page, 72, 140, "2. Hosting provider")
    add_field(page, TEXT, "hosting", (200, 128, 400, 144))
    path = save(doc, tmp_path / "inverted.pdf")
    with pymupdf.open(path) as d:
        for w in d[0].widgets():
            x0, y0, x1, y1 = (float(v) for v in d.xref_get_key(w.xref, "Rect")[1].strip("[]").split())
            flipped = f"[{x1} {y0} {x0} {y1}]" if w.field_name == "hosting" else f"[{x0} {y1} {x1} {y0}]"
            d.xref_set_key(w.xref, "Rect", flipped)
        d.saveIncr()
    with pymupdf.open(path) as d:  # stored upside down, as the real forms store them
        rects = [d.xref_get_key(w.xref, "Rect")[1] for w in d[0].widgets()]
    assert all(float(r.strip("[]").split()[1]) > float(r.strip("[]").split()[3]) for r in rects[:1]), rects
    return path


def test_an_upside_down_rect_takes_its_value_and_the_check_passes(tmp_path):
    source = _upside_down(tmp_path)
    q = read_questionnaire(source)
    company, hosting = q.questions
    writes = [Write(FORM_SHEET, company.text_cell, "Acme Corp"), Write(FORM_SHEET, hosting.text_cell, "AWS")]
    out = write_pdf(q, tmp_path / "out.pdf", writes)  # refused before: "changed its /Rect"
    back = read_questionnaire(out)
    assert [x.existing_answer for x in back.questions] == ["Acme Corp", "AWS"]
    with pymupdf.open(out) as d:
        filled = frozenset(w.xref for w in d[0].widgets())
    assert changes(source, out, filled) == []


def test_a_rect_moved_elsewhere_is_still_a_change(tmp_path):
    """The check tolerates the same rectangle by other corners, not another rectangle."""
    source = _upside_down(tmp_path)
    q = read_questionnaire(source)
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, q.questions[0].text_cell, "Acme")])
    moved = tmp_path / "moved.pdf"
    moved.write_bytes(out.read_bytes())
    with pymupdf.open(moved) as d:
        other = next(w for w in d[0].widgets() if w.field_name == "hosting")
        d.xref_set_key(other.xref, "Rect", "[60 600 70 610]")
        d.saveIncr()
    found = changes(source, moved, frozenset())
    assert any("/Rect" in f and "'hosting'" in f for f in found), found


def _one_box(tmp_path: Path, ticked: bool) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 72, 100, "Do you encrypt backups?")
    add_field(page, CHECKBOX, "encrypt_backups", (300, 90, 312, 102), value=ticked)
    label(page, 72, 140, "Company name")
    add_field(page, TEXT, "company", (200, 128, 400, 144))
    return save(doc, tmp_path / f"one_box_{ticked}.pdf")


@pytest.mark.parametrize("ticked", [False, True])
def test_a_one_box_question_takes_no_in_a_pdf_form(tmp_path, ticked):
    q = read_questionnaire(_one_box(tmp_path, ticked))
    box = next(x for x in q.questions if x.choice_cell)
    assert box.choices == ("Yes", "No")
    assert box.existing_choice == ("Yes" if ticked else None)
    out = write_pdf(q, tmp_path / "no.pdf", [Write(FORM_SHEET, box.choice_cell, "No")])
    back = next(x for x in read_questionnaire(out).questions if x.choice_cell)
    assert back.existing_choice is None  # unticked (or left so)
    out = write_pdf(q, tmp_path / "yes.pdf", [Write(FORM_SHEET, box.choice_cell, "Yes")])
    assert next(x for x in read_questionnaire(out).questions if x.choice_cell).existing_choice == "Yes"


def _word_one_box(tmp_path: Path, checked: bool) -> Path:
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Response"],
                          ["Do you encrypt backups?", wf.para(wf.formcheckbox(checked))],
                          ["Which region hosts the data?", ""]]))  # fmt: skip
    return wf.save(doc, tmp_path / f"one_box_{checked}.docx")


@pytest.mark.parametrize("checked", [False, True])
def test_a_one_box_question_takes_no_in_a_word_document(tmp_path, checked):
    q = read_questionnaire(_word_one_box(tmp_path, checked))
    box = next(x for x in q.questions if x.choice_cell)
    assert len(q.places[f"{box.sheet}!{box.choice_cell}"].options) == 1  # one box
    out = write_docx(q, tmp_path / "no.docx", [Write(box.sheet, box.choice_cell, "No")])  # refused before
    back = next(x for x in read_questionnaire(out).questions if x.choice_cell)
    assert not back.existing_choice  # unticked
    out = write_docx(q, tmp_path / "yes.docx", [Write(box.sheet, box.choice_cell, "Yes")])
    assert next(x for x in read_questionnaire(out).questions if x.choice_cell).existing_choice


def _every_kind(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 72, 100, "1. Company name")
    add_field(page, TEXT, "company", (200, 88, 400, 104))
    label(page, 72, 140, "2. Deployment model")
    add_field(page, COMBO, "model", (200, 128, 400, 144), choices=["Public", "Private"])
    label(page, 72, 180, "3. Contact e-mail")
    add_field(page, TEXT, "email", (200, 168, 400, 184), max_chars=10)
    return save(doc, tmp_path / "form.pdf")


def test_one_answer_a_pdf_field_refuses_is_reported_and_the_others_written(tmp_path):
    q = read_questionnaire(_every_kind(tmp_path))
    company, model, email = q.questions
    writes = [
        Write(FORM_SHEET, company.text_cell, "Acme Corp"),
        Write(FORM_SHEET, model.choice_cell, "Mainframe"),  # not one of its choices
        Write(FORM_SHEET, email.text_cell, "security@acme.example"),  # longer than the field holds
    ]
    with pytest.raises(PdfWriteError, match="'Mainframe' is not one of the choices"):
        write_pdf(q, tmp_path / "strict.pdf", writes)  # without the list: refused, as before
    assert not (tmp_path / "strict.pdf").exists()
    unwritten: list[Unwritten] = []
    out = write_pdf(q, tmp_path / "out.pdf", writes, unwritten)
    assert [x.existing_answer or x.existing_choice for x in read_questionnaire(out).questions] == [
        "Acme Corp",
        None,
        None,
    ]
    assert [u.place for u in unwritten] == [f"{FORM_SHEET}!{model.choice_cell}", f"{FORM_SHEET}!{email.text_cell}"]
    assert "not one of the choices" in unwritten[0].problem and "holds 10" in unwritten[1].problem
    rows = unwritten_answers(q, unwritten)
    assert [r.label for r in rows] == ["2", "3"]  # the questions' own numbers
    assert rows[0].line().startswith("2: not written: 'Mainframe' is not one of the choices")


def test_one_answer_a_word_place_refuses_is_reported_and_the_others_written(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Response"],
                          ["Do you offer a private deployment?",
                           wf.para(wf.formcheckbox(), wf.text(" Yes "), wf.formcheckbox(), wf.text(" No"))],
                          ["Which region hosts the data?", ""]]))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    model, region = q.questions
    cell = model.choice_cell or model.text_cell
    assert model.choices == ("Yes", "No")
    writes = [CellWrite(model.sheet, cell, "Sometimes"), CellWrite(region.sheet, region.text_cell, "eu-west-1")]
    unwritten: list[Unwritten] = []
    out = export(q.path, tmp_path / "out.docx", writes, q, unwritten)
    back = {x.text: x for x in read_questionnaire(out).questions}
    assert back["Which region hosts the data?"].existing_answer == "eu-west-1"
    assert [u.place for u in unwritten] == [f"{model.sheet}!{cell}"]
    assert "'Sometimes' is none of the options (Yes, No)" in unwritten[0].problem


def test_instruction_text_and_a_shipped_default_are_no_answers(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 72, 100, "Cloud service provider")
    add_field(page, TEXT, "csp", (200, 88, 400, 104), value="Insert CSP Name")
    label(page, 72, 140, "Date of the change")
    add_field(page, TEXT, "day", (200, 128, 400, 144), value="YYYY-MM-DD")
    label(page, 72, 180, "Impact level")
    add_field(page, COMBO, "level", (200, 168, 400, 184), choices=["Low", "Moderate", "High"], value="Low")
    label(page, 72, 220, "Hosting provider")
    add_field(page, TEXT, "host", (200, 208, 400, 224), value="AWS GovCloud")
    path = save(doc, tmp_path / "shipped.pdf")
    with pymupdf.open(path) as d:  # the form ships "Low" as the combo box's default
        level = next(w for w in d[0].widgets() if w.field_name == "level")
        d.xref_set_key(level.xref, "DV", "(Low)")
        d.saveIncr()
    q = read_questionnaire(path)
    got = {x.text: x.existing_answer or x.existing_choice for x in q.questions}
    assert got == {
        "Cloud service provider": None,
        "Date of the change": None,
        "Impact level": None,
        "Hosting provider": "AWS GovCloud",  # a real value stays an answer
    }
    assert shipped_placeholder("Moderate", "Low", (("Low", "Low"), ("Moderate", "Moderate"))) is False
    assert shipped_placeholder("Type II SOC 2 report") is False and shipped_placeholder("<Fill In>") is True


@pytest.mark.skipif(
    not (SHARED / "fedramp_significant_change_form_acroform.pdf").is_file(), reason="shared data absent"
)
def test_the_significant_change_forms_shipped_values_are_no_answers():
    q = read_questionnaire(SHARED / "fedramp_significant_change_form_acroform.pdf")
    held = [x.existing_answer or x.existing_choice for x in q.questions if x.answered]
    assert not [h for h in held if shipped_placeholder(h)], held
    assert not any("insert" in (h or "").lower() for h in held), held


def test_a_workbook_cell_that_cannot_take_its_answer_is_reported_and_the_others_written(tmp_path):
    """The same for a spreadsheet: a write into the hidden part of a merged range and one to a sheet
    the workbook lacks are listed with why; the answer beside them is written."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Security"
    sheet.append(["ID", "Question", "Answer"])
    sheet.append(["ENC-01", "Is data encrypted at rest?", None])
    sheet.append(["BCK-01", "Are backups tested?", None])
    sheet.merge_cells("C3:D3")
    source = tmp_path / "q.xlsx"
    book.save(source)
    writes = [
        CellWrite("Security", "C2", "Yes, AES-256."),
        CellWrite("Security", "D3", "Quarterly."),  # hidden under C3:D3
        CellWrite("Missing", "C2", "Yes"),
    ]
    with pytest.raises(Exception, match="no sheet named .Missing."):
        export(source, tmp_path / "strict.xlsx", writes)
    unwritten: list[Unwritten] = []
    out = export(source, tmp_path / "out.xlsx", writes, unwritten=unwritten)
    filled = openpyxl.load_workbook(out)["Security"]
    assert filled["C2"].value == "Yes, AES-256." and filled["D3"].value is None
    assert [u.place for u in unwritten] == ["Missing!C2", "Security!D3"]
    assert "no sheet named 'Missing'" in unwritten[0].problem and "merged range C3:D3" in unwritten[1].problem


def test_draft_out_names_each_answer_not_written(tmp_path, capsys):
    """``draft --out``'s last lines: the answers the export left out, each question with why."""
    import argparse

    from engine.cli.draft import _say
    from engine.review.draft_run import DraftRun

    q = read_questionnaire(_every_kind(tmp_path))
    company, model, email = q.questions
    unwritten: list[Unwritten] = []
    writes = [Write(FORM_SHEET, model.choice_cell, "Mainframe"), Write(FORM_SHEET, company.text_cell, "Acme")]
    out = write_pdf(q, tmp_path / "out.pdf", writes, unwritten)
    run = DraftRun(exported=out, unwritten=list(unwritten_answers(q, unwritten)))
    _say(run, argparse.Namespace(redo_answered=False, results=None), q)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-3:] == [
        f"wrote {out}",
        "1 answer was not written (the others are in the file):",
        "  2: not written: 'Mainframe' is not one of the choices of field 'model' (Public, Private). "
        "pick one of the field's choices",
    ]

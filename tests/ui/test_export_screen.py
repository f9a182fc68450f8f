"""The Export screen on a real workspace: a generated handbook indexed with the real MiniLM, the
4-question workbook, three questions drafted and one accepted. The LLM is ``QuotingGenerator``
(a stated fake) because the test is about the screen, not about generation."""

from __future__ import annotations

import csv
import io
import sqlite3

import docx
import openpyxl
import pymupdf
import pytest

from engine.questionnaire import read_questionnaire
from engine.review.review import ReviewState
from tests.fixtures import write_questionnaire
from tests.pdf_forms import flat_pdf, supplier_form
from tests.ui.conftest import add_handbook, add_questionnaire
from ui.components.messages import escape_md

pytestmark = pytest.mark.timeout(300)


def by_label(elements):
    return {e.label: e for e in elements}


def test_without_a_questionnaire_it_points_to_the_questionnaire_screen(open_screen):
    at = open_screen("export")
    assert not at.exception
    assert "no questionnaire to export yet" in at.info[0].value
    (link,) = at.page_link
    assert link.value == "Go to the Questionnaire screen" and link.proto.page.endswith("questionnaire")
    assert not at.download_button


def test_counts_warning_and_the_three_downloads(open_screen, downloads, ui_workspace, tmp_path):
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    pid = add_questionnaire(ws, tmp_path)
    ws.jobs.start(pid, limit=3)  # ENC-01, BCK-01, INC-01; ACC-01 stays not drafted
    status = ws.jobs.wait(pid, 120)
    assert status is not None and not status.running and status.error is None
    review = ws.review(pid)
    enc, bck, inc, acc = review.items()
    assert [i.state for i in (enc, bck, inc, acc)] == [ReviewState.DRAFTED] * 3 + [ReviewState.PENDING]
    review.accept(enc.key)

    at = open_screen("export")
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Questions"] == "4" and metrics["Accepted"] == "1" and metrics["Drafted"] == "2"
    assert metrics["Not drafted"] == "1" and metrics["Edited"] == "0"
    assert "Rejected" not in metrics  # states nobody is in are left out, except the main three

    (warning,) = at.warning
    assert "3 questions are not accepted yet" in warning.value
    for item, state in ((bck, "Drafted"), (inc, "Drafted"), (acc, "Not drafted")):
        assert f"**{escape_md(item.label)}** · {state}" in warning.value
        assert item.question.text.split()[0] in warning.value
    assert enc.label not in warning.value

    buttons = by_label(at.download_button)
    assert set(buttons) == {
        "Download completed workbook",
        "Download answers (CSV)",
        "Download citations report",
        "Download report (XLSX)",  # the coverage report's (#51: tests/ui/test_report_screens.py)
        "Download report (HTML)",
    }
    book = downloads(buttons["Download completed workbook"])
    assert book.filename == "vendor_questionnaire_completed.xlsx"
    sheet = openpyxl.load_workbook(io.BytesIO(book.content))["Security"]
    accepted = review.item(enc.key)
    assert sheet["C4"].value == "Yes" and sheet["D4"].value == accepted.answer and accepted.answer
    assert [sheet.cell(r, c).value for r in (5, 6, 7) for c in (3, 4)] == [None] * 6  # unaccepted stay blank
    assert sheet["B2"].value == "Question" and sheet["A1"].value == "Vendor security questionnaire"

    answers = list(csv.DictReader(io.StringIO(downloads(buttons["Download answers (CSV)"]).content.decode())))
    assert [(a["id"], a["state"]) for a in answers] == [
        ("ENC-01", "accepted"),
        ("BCK-01", "drafted"),
        ("INC-01", "drafted"),
        ("ACC-01", "pending"),
    ]
    report = downloads(buttons["Download citations report"])
    assert report.filename == "vendor_questionnaire_citations.csv"
    rows = list(csv.DictReader(io.StringIO(report.content.decode())))
    assert rows[0]["source"] == "handbook.pdf" and rows[0]["location"].startswith("page ")

    # ticking the box fills the drafts nobody accepted; a question never drafted stays blank
    (include,) = at.checkbox
    assert include.label == "Also fill drafts not yet accepted" and include.value is False
    at = include.check().run()
    sheet = openpyxl.load_workbook(
        io.BytesIO(downloads(by_label(at.download_button)["Download completed workbook"]).content)
    )["Security"]
    assert sheet["D5"].value == review.item(bck.key).answer and sheet["C6"].value == "Yes"
    assert sheet["C7"].value is None and sheet["D7"].value is None


def test_all_accepted_shows_no_warning(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = add_questionnaire(ws, tmp_path)
    review = ws.review(pid)
    for item in review.items():  # typed answers, no drafts: accepted as the reviewer wrote them
        review.accept(item.key, answer=f"Answer to {item.label}", choice="Yes")
    at = open_screen("export")
    assert not at.exception and not at.warning
    assert "Every answer is accepted" in at.success[0].value
    assert {m.label: m.value for m in at.metric}["Accepted"] == "4"


def test_a_long_list_goes_into_an_expander_and_markdown_is_shown_as_written(open_screen, ui_workspace, tmp_path):
    many = [(f"Q-{n:02d}", f"Is *control* {n} in place (see [policy]_{n})?") for n in range(1, 11)]
    book = write_questionnaire(tmp_path / "long.xlsx", questions=many)
    ui_workspace.add_questionnaire("long.xlsx", book.read_bytes())
    at = open_screen("export")
    assert not at.exception
    (warning,) = at.warning
    assert warning.value.startswith("10 questions are not accepted yet") and "Q-01" not in warning.value
    assert "Ticking" not in warning.value  # nothing drafted: the checkbox would add nothing
    (expander,) = at.expander
    assert expander.label == "Show the 10 questions not accepted yet"
    listed = expander.markdown[0].value
    assert listed.count("\n") == 9 and r"Is \*control\* 1 in place (see \[policy\]\_1)?" in listed
    assert {m.label: m.value for m in at.metric}["Not drafted"] == "10"


def test_an_experts_packet_downloads_with_the_rows_they_hold(open_screen, downloads, ui_workspace, tmp_path):
    """Issue #39, item 3: Export → Expert packets offers a packet per person holding rows; it is
    made (and recorded by the review store, issue #47) when asked for, not on every rerun."""
    from engine.review import team

    ws = ui_workspace
    add_handbook(ws, tmp_path)
    pid = add_questionnaire(ws, tmp_path)
    at = open_screen("export")
    assert "Assign rows to an expert" in " ".join(c.value for c in at.caption)  # nobody holds a row yet
    ws.jobs.start(pid, limit=2)
    status = ws.jobs.wait(pid, 120)
    assert status is not None and status.error is None
    review = ws.review(pid, by="lead")
    team.assign(review, team.targets(review, review.items(), rows=["ENC-01", "INC-01"]), "Ana")

    at = open_screen("export")
    assert not at.exception
    assert [s.value for s in at.selectbox if s.label == "Packet for"] == ["Ana"]
    assert "Download packet" not in by_label(at.download_button)  # nothing made yet, nothing recorded
    by_label(at.button)["Make packet"].click().run()
    packet = downloads(by_label(at.download_button)["Download packet"])
    assert packet.filename == "vendor_questionnaire - Ana packet.xlsx"
    sheet = openpyxl.load_workbook(io.BytesIO(packet.content))["Packet"]
    assert [sheet.cell(r, 1).value for r in (2, 3)] == ["ENC-01", "INC-01"] and sheet.max_row == 3
    assert sheet["C2"].value == review.item(review.items()[0].key).choice  # the current draft's choice
    made = ws.review_store.packet(openpyxl.load_workbook(io.BytesIO(packet.content))["_packet"]["B2"].value)
    assert (made.person, [r.id for r in made.rows], made.by) == ("Ana", ["ENC-01", "INC-01"], ws.reviewer)
    assert made.rows[0].version == review.items()[0].version
    at.run()  # a rerun makes no second packet
    with sqlite3.connect(ws.review_store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM packets").fetchone()[0] == 1


def test_a_pdf_form_downloads_filled_and_a_flat_pdf_as_a_word_response_document(
    open_screen, downloads, ui_workspace, tmp_path
):
    """A PDF questionnaire (#48): a form's completed file is the PDF with its fields filled (read back:
    the accepted answers in their fields); a flat PDF has no fields, so its answers download as a
    Word response document (each question with its number, page and answer), beside the CSV."""
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    form = supplier_form(tmp_path / "supplier.pdf")
    flat = flat_pdf(tmp_path / "flat.pdf", [[(50, 100, "1. Is customer data encrypted at rest?"),
                                             (50, 130, "2. How long are backups of the production databases kept?")]])  # fmt: skip
    for source in (form, flat):
        project, _ = ws.add_questionnaire(source.name, source.read_bytes())
        ws.jobs.start(project.id)
        assert ws.jobs.wait(project.id, 120).error is None
        review = ws.review(project.id)
        for item in review.items():
            review.accept(item.key, expected=item.version)

    at = open_screen("export")  # the last one added: the flat PDF
    assert not at.exception
    buttons = by_label(at.download_button)
    assert set(buttons) - {"Download report (XLSX)", "Download report (HTML)"} == {  # the coverage report's (#51)
        "Download the answers as a Word document", "Download answers (CSV)", "Download citations report"
    }  # fmt: skip
    answers = downloads(buttons["Download the answers as a Word document"])
    assert answers.filename == "flat_answers.docx" and answers.mimetype.endswith("wordprocessingml.document")
    lines = [p.text for p in docx.Document(io.BytesIO(answers.content)).paragraphs]
    assert "1 Is customer data encrypted at rest? (page 1)" in lines and "Answer: Yes" in lines
    assert "The PDF has no form fields to fill: its answers come as a Word response document" in texts_of(at)

    form_project = next(p for p in ws.projects() if p.file_name == "supplier.pdf")
    at.session_state["project_id"] = form_project.id
    at = at.run()
    assert not at.exception
    completed = downloads(by_label(at.download_button)["Download completed form"])
    assert completed.filename == "supplier_completed.pdf" and completed.mimetype == "application/pdf"
    (tmp_path / "back.pdf").write_bytes(completed.content)
    back = {x.text: x for x in read_questionnaire(tmp_path / "back.pdf").questions}
    review = ws.review(form_project.id)
    accepted = {i.question.text: i for i in review.items()}
    backups = "How long are backups of the production databases kept?"
    assert accepted[backups].answer  # quoted from the handbook by the stated fake
    assert back[backups].existing_answer == accepted[backups].answer
    assert back["Is customer data encrypted at rest?"].existing_choice == "Yes"


def texts_of(at) -> str:
    return "\n".join(str(e.value) for e in (*at.caption, *at.markdown, *at.info))


def test_an_answer_its_field_cannot_hold_is_reported_and_the_others_downloaded(
    open_screen, downloads, ui_workspace, tmp_path
):
    """One answer a PDF field refuses (longer than the field holds) never refuses the export (#55):
    the completed form downloads with the other answers, and the screen names the question and why."""
    from tests.pdf_forms import TEXT, add_field, label, save

    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 72, 100, "1. Vendor short code")
    add_field(page, TEXT, "code", (200, 88, 400, 104), max_chars=6)
    label(page, 72, 140, "2. How long are backups kept?")
    add_field(page, TEXT, "backups", (240, 128, 500, 144))
    form = save(doc, tmp_path / "codes.pdf")
    ws = ui_workspace
    project, questionnaire = ws.add_questionnaire(form.name, form.read_bytes())
    review = ws.review(project.id)
    code, backups = review.items()
    review.edit(code.key, "ACME-CORPORATION", None)  # longer than the 6 characters the field holds
    review.edit(backups.key, "Thirty-five days.", None)

    at = open_screen("export")
    assert not at.exception
    (refused,) = [w.value for w in at.warning if "could not be written" in w.value]
    assert "1 answer could not be written into the form; the others are in it" in refused
    assert "**1**: the answer for field 'code' has 16 characters; the field holds 6" in refused
    completed = downloads(by_label(at.download_button)["Download completed form"])
    (tmp_path / "back.pdf").write_bytes(completed.content)
    back = {x.text: x for x in read_questionnaire(tmp_path / "back.pdf").questions}
    assert back["2. How long are backups kept?"].existing_answer == "Thirty-five days."
    assert not back["1. Vendor short code (max 6 characters)"].existing_answer

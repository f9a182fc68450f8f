"""A Word questionnaire through the whole product, as a spreadsheet goes (issue #48 item 5): added
to a workspace (with a reviewer's correction kept), drafted, reviewed (accept, approval by a second
person), exported as the filled .docx with the CSV and citations report, an expert's packet out and
back in, and the filled document imported into the answer library as past answers.

The drafts come from ``TableDrafter`` (tests/unit/test_sections_drafting.py), a stated fake drafter:
these tests are about the document's path through review and export, not about generation; no
model loads. Real SQLite, real .docx files (python-docx and raw XML: tests/word_fixtures.py)."""

from __future__ import annotations

import openpyxl

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.types import Action
from engine.index.library import AnswerLibrary
from engine.questionnaire import ReadOptions, read_questionnaire
from engine.review import team
from engine.review.draft_run import draft_questionnaire
from engine.review.packet import apply_packet, packet_bytes, read_packet
from engine.review.review import Review, ReviewState
from tests import word_fixtures as wf
from tests.unit.test_sections_drafting import TableDrafter


def word_questionnaire(tmp_path):
    doc = wf.new()
    doc.add_heading("Vendor security questionnaire", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"], ["ENC-01", "Is customer data encrypted at rest?", ""],
                          ["BCK-01", "Describe how backups are tested.", ""]]))  # fmt: skip
    wf.add(doc, wf.para(wf.text("Do you use subprocessors? ☐ Yes ☐ No")))
    doc.add_paragraph("Thank you for completing this questionnaire.")
    return wf.save(doc, tmp_path / "vendor.docx")


def test_a_word_questionnaire_is_drafted_reviewed_approved_and_exported(tmp_path, encoder):
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    project, q = ws.add_questionnaire("vendor.docx", word_questionnaire(tmp_path).read_bytes())
    assert [x.id for x in q.questions] == ["ENC-01", "BCK-01", None]
    subprocessors = f"Document!{q.questions[2].question_cell}"
    q = ws.set_read_options(project.id, ReadOptions(exclude=(subprocessors,)))  # the reviewer's correction
    assert len(q.questions) == 2 and ws.read_options(project.id).exclude == (subprocessors,)
    assert len(ws.questionnaire(project.id).questions) == 2  # kept with the questionnaire

    draft_questionnaire(q, TableDrafter({}), ws.review_store, project_id=project.id, by="lead")
    lead = ws.review(project.id, q, by="lead")
    lead.require_approval(True)
    for item in lead.items():
        lead.accept(item.key, expected=item.version)
    bob = ws.review(project.id, q, by="bob")
    enc = next(i for i in bob.items() if i.question.id == "ENC-01")
    bob.approve(enc.key, expected=enc.version)

    filled = tmp_path / "vendor_completed.docx"
    filled.write_bytes(lead.workbook_bytes(approved_only=True))
    again = read_questionnaire(filled)
    answers = {x.id: x.existing_answer for x in again.questions}
    assert answers["ENC-01"] == "Drafted for ENC-01." and not answers["BCK-01"]  # only the approved answer
    filled.write_bytes(lead.workbook_bytes())
    assert {x.id: x.existing_answer for x in read_questionnaire(filled).questions}["BCK-01"] == "Drafted for BCK-01."
    csv = lead.answers_csv()
    assert "ENC-01" in csv and "Is customer data encrypted at rest?" in csv
    assert isinstance(lead.citations_report(), str)

    library = AnswerLibrary(tmp_path / "library", encoder)
    report = library.import_file(filled, by="lead")
    assert (report.questions, report.entries) == (3, 2)  # the filled .docx as past answers (the 3rd unanswered)


def test_an_experts_packet_for_a_word_questionnaire_goes_out_and_comes_back(tmp_path):
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    project, q = ws.add_questionnaire("vendor.docx", word_questionnaire(tmp_path).read_bytes())
    draft_questionnaire(q, TableDrafter({}), ws.review_store, project_id=project.id, by="lead")
    lead = Review(ws.review_store, project.id, q, by="lead")
    team.assign(lead, team.targets(lead, lead.items(), rows=["BCK-01"]), "Ana")
    packet = tmp_path / "packet.xlsx"
    packet.write_bytes(packet_bytes(lead, "Ana"))
    book = openpyxl.load_workbook(packet)
    sheet = book["Packet"]
    assert sheet.cell(2, 1).value == "BCK-01"
    sheet.cell(2, 8, "Restores are tested every quarter.")
    book.save(packet)
    done = apply_packet(lead, read_packet(packet, lead))
    assert len(done.decided) == 1
    bck = next(i for i in lead.items() if i.question.id == "BCK-01")
    assert (bck.decision.action, bck.decision.by, bck.answer) == (
        Action.EDIT,
        "Ana",
        "Restores are tested every quarter.",
    )
    assert bck.state is ReviewState.EDITED


def test_the_drafting_run_writes_the_filled_document(tmp_path):
    """What ``python -m engine draft FILE.docx --out OUT.docx`` does after drafting (draft_run's export)."""
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    project, q = ws.add_questionnaire("vendor.docx", word_questionnaire(tmp_path).read_bytes())
    out = tmp_path / "vendor_drafted.docx"
    run = draft_questionnaire(q, TableDrafter({}), ws.review_store, project_id=project.id, out=out)
    assert run.exported == out
    again = read_questionnaire(out)
    assert [x.existing_answer for x in again.questions[:2]] == ["Drafted for ENC-01.", "Drafted for BCK-01."]
    assert again.questions[2].existing_choice == "Yes"  # the ☐ Yes ☐ No pair: "Yes" ticked

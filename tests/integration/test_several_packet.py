"""A choice of several (issue #55) through an expert's packet and back: the packet offers the
options without enforcing one (several are typed joined by "; "), the import checks each and stores
them in the list's order, and the export ticks each box. The drafts come from ``TableDrafter``
(tests/unit/test_sections_drafting.py), a stated fake drafter: the test is about the packet's path,
not about generation. Real SQLite, a real .docx (tests/word_fixtures.py)."""

from __future__ import annotations

import openpyxl

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.questionnaire import read_questionnaire
from engine.review import team
from engine.review.draft_run import draft_questionnaire
from engine.review.packet import apply_packet, packet_bytes, read_packet
from engine.review.review import Review
from tests import word_fixtures as wf
from tests.unit.test_sections_drafting import TableDrafter


def test_an_expert_types_several_options_in_the_packet_and_the_export_ticks_each(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["ID", "Question", "Response"],
                          ["CLD-01", "Which clouds do you use? (select all that apply)", "☐ AWS ☐ Azure ☐ GCP"]]))  # fmt: skip
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    project, q = ws.add_questionnaire("clouds.docx", wf.save(doc, tmp_path / "clouds.docx").read_bytes())
    (cloud,) = q.questions
    assert cloud.several and cloud.choices == ("AWS", "Azure", "GCP")
    draft_questionnaire(q, TableDrafter({}), ws.review_store, project_id=project.id, by="lead")
    lead = Review(ws.review_store, project.id, q, by="lead")
    team.assign(lead, team.targets(lead, lead.items(), rows=["CLD-01"]), "Ana")
    packet = tmp_path / "packet.xlsx"
    packet.write_bytes(packet_bytes(lead, "Ana"))
    book = openpyxl.load_workbook(packet)
    sheet = book["Packet"]
    (rule,) = sheet.data_validations.dataValidation
    assert not rule.showErrorMessage and "joined by '; '" in rule.prompt  # offered, not enforced
    sheet.cell(2, 7, "GCP; aws")
    sheet.cell(2, 8, "We run on AWS and GCP.")
    book.save(packet)
    done = apply_packet(lead, read_packet(packet, lead))
    assert len(done.decided) == 1
    (item,) = lead.items()
    assert item.choice == "AWS; GCP"  # each option checked, stored in the list's order
    filled = tmp_path / "clouds_completed.docx"
    filled.write_bytes(lead.workbook_bytes())
    assert read_questionnaire(filled).questions[0].existing_choice == "AWS; GCP"

"""Drafting works the same for a Word and a PDF questionnaire as for a spreadsheet (issue #48 item 5):
a generated .docx (a table of questions) and a generated PDF form (AcroForm text fields and a Yes/No
pair of boxes) are added to a workspace and drafted through it (``Workspace.draft_file``, what
``python -m engine draft`` runs): the vendor's name is a profile row (answered from the profile,
without the model), the encryption question reuses the answer library's past answer, the backup
question is drafted from the knowledge base; every answer is accepted, exported into the original
file and read back in its place. A flat PDF's drafting run writes its Word response document.

The LLM is ``QuotingGenerator`` (tests/fixtures.py), a stated fake that quotes a retrieved sentence:
this test is about a document's path through drafting, review and export, not about generation.
Real MiniLM, Qdrant local mode, SQLite, real .docx (python-docx) and PDF (PyMuPDF) files."""

from __future__ import annotations

import argparse
from pathlib import Path

import docx
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.cli.draft import _say
from engine.index.kb import KnowledgeBase
from engine.index.profile import set_fact
from engine.questionnaire import read_questionnaire
from engine.review.draft_run import draft_questionnaire
from storage.vector_store import release
from tests import word_fixtures as wf
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf, write_questionnaire
from tests.pdf_forms import SUPPLIER_QUESTIONS, flat_pdf, supplier_form
from tests.unit.test_sections_drafting import TableDrafter

_, ENCRYPTED, BACKUPS = SUPPLIER_QUESTIONS


@pytest.fixture()
def workspace(tmp_path: Path, encoder):
    """A workspace with the handbook indexed, a past questionnaire in its answer library (ENC-01
    answered Yes, with its comment) and the vendor's name in its profile."""
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    ws.__dict__["kb"] = KnowledgeBase(ws.folder, ws.settings.engine, encoder)
    ws.__dict__["generator"] = QuotingGenerator()  # a stated fake LLM (see the module docstring)
    assert not ws.kb.add_file(write_pdf(tmp_path / "handbook.pdf", topic_pages()), "handbook.pdf").errors
    past = write_questionnaire(
        tmp_path / "past.xlsx",
        answered={4: "Yes"},
        questions=[("ENC-01", ENCRYPTED)],
        comments={4: "Customer data is encrypted with AES-256 in a hardware security module."},
    )
    assert ws.library.import_file(past, by="lead").entries == 1
    set_fact(ws.folder, "vendor_name", "Acme Cloud Ltd")  # as `profile --set vendor_name=…` does
    yield ws
    release(str(ws.folder / "qdrant"))


def word_questionnaire(path: Path) -> Path:
    doc = wf.new()
    doc.add_heading("Supplier questionnaire", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"], ["GNRL-01", "Vendor Name", ""], ["ENC-01", ENCRYPTED, ""],
                          ["BCK-01", BACKUPS, ""]]))  # fmt: skip
    return wf.save(doc, path)


def drafted_accepted_exported(ws: Workspace, source: Path, tmp_path: Path):
    """``source`` added, drafted, every draft accepted and exported: the drafts by ID (else question
    text) and the export read back."""
    project, q = ws.add_questionnaire(source.name, source.read_bytes())
    run = ws.draft_file(q, by="lead")
    drafts = {d.id or d.question: d for d in run.drafted}
    review = ws.review(project.id, by="lead")
    for item in review.items():
        review.accept(item.key, expected=item.version)
    out = tmp_path / f"completed{source.suffix}"
    out.write_bytes(review.workbook_bytes())
    return drafts, read_questionnaire(out)


def test_a_word_questionnaire_is_drafted_with_the_profile_the_library_and_the_documents(workspace, tmp_path):
    drafts, back = drafted_accepted_exported(workspace, word_questionnaire(tmp_path / "supplier.docx"), tmp_path)
    vendor, encrypted, backups = drafts["GNRL-01"], drafts["ENC-01"], drafts["BCK-01"]
    assert vendor.question == "Supplier questionnaire: Vendor Name"  # the label with its heading (docx_tables.py)
    assert (vendor.answer, vendor.profile_fact) == ("Acme Cloud Ltd", "vendor_name")  # the profile, no model
    assert encrypted.reused and encrypted.answer.startswith("Yes")  # the library's past answer
    assert "AES-256" in encrypted.answer
    assert not backups.reused and backups.citations and backups.citations[0].file == "handbook.pdf"
    answers = {x.id: x.existing_answer for x in back.questions}
    assert (answers["ENC-01"], answers["BCK-01"]) == (encrypted.answer, backups.answer)
    assert answers["GNRL-01"] == "Acme Cloud Ltd"  # a few words in the answer's place: an answer, not guidance
    assert {x.id: x.text for x in back.questions}["GNRL-01"] == vendor.question


def test_a_pdf_form_is_drafted_with_the_profile_the_library_and_the_documents(workspace, tmp_path):
    drafts, back = drafted_accepted_exported(workspace, supplier_form(tmp_path / "supplier.pdf"), tmp_path)
    vendor, encrypted, backups = drafts["Vendor Name"], drafts[ENCRYPTED], drafts[BACKUPS]
    assert (vendor.answer, vendor.profile_fact) == ("Acme Cloud Ltd", "vendor_name")
    assert encrypted.reused and encrypted.choice == "Yes"  # the pair of boxes: the past answer's choice
    assert backups.citations and backups.citations[0].file == "handbook.pdf"
    by_text = {x.text: x for x in back.questions}
    assert by_text["Vendor Name"].existing_answer == "Acme Cloud Ltd"
    assert by_text[ENCRYPTED].existing_choice == "Yes"  # the Yes box ticked in the filled form
    assert by_text[BACKUPS].existing_answer == backups.answer


def test_drafting_a_flat_pdf_writes_its_word_response_document_and_says_so(tmp_path, capsys):
    """What ``python -m engine draft FLAT.pdf --out OUT.pdf`` does after drafting: a flat PDF has no
    answer place, so the run's export is ``OUT.docx`` (each question with its number, page and answer),
    and the command's last line says why. The drafts come from ``TableDrafter``
    (tests/unit/test_sections_drafting.py), a stated fake drafter: no model loads."""
    flat = flat_pdf(tmp_path / "flat.pdf", [[(50, 100, f"1. {ENCRYPTED}"), (50, 130, f"2. {BACKUPS}")]])
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    project, q = ws.add_questionnaire(flat.name, flat.read_bytes())
    run = draft_questionnaire(q, TableDrafter({}), ws.review_store, project_id=project.id, out=tmp_path / "out.pdf")
    assert run.exported == tmp_path / "out.docx" and not (tmp_path / "out.pdf").exists()
    lines = [p.text for p in docx.Document(run.exported).paragraphs]
    assert f"1 {ENCRYPTED} (page 1)" in lines and "Answer: Yes" in lines and "Drafted for 2." in lines
    _say(run, argparse.Namespace(redo_answered=False, results=None), q)
    said = capsys.readouterr().out.splitlines()[-1]
    assert said.startswith(f"wrote {tmp_path / 'out.docx'}: flat.pdf is a flat PDF (no form fields to fill)")

"""PDF intake, one structure per test, on PDFs the tests generate with PyMuPDF (tests/pdf_forms.py):
form fields found and labelled (tooltip, label left, label above), check boxes grouped (a Yes/No
pair, a table row of boxes with a notes field), radio groups, combo boxes (their prompt is no
answer), list boxes, comb fields, fields left alone (signature, hidden, read-only); flat PDFs'
numbered, bulleted and checklist lines and ruled tables; and the write-back of every kind of
place, checked by reading the written file back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest

from engine.core.types import DraftStatus
from engine.drafting.drafter import within_limit
from engine.drafting.records import Draft
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.pdf.writer import PdfWriteError, changes, write_pdf
from engine.questionnaire.places import DOCUMENT_SHEET, FORM_SHEET, PlaceKind, place_key
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.records import QuestionnaireError
from tests.pdf_forms import (
    CHECKBOX,
    COMBO,
    LISTBOX,
    RADIO,
    SIGNATURE,
    TEXT,
    add_field,
    flat_pdf,
    label,
    name_states,
    ruled_table,
    save,
)

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Write:
    sheet: str
    cell: str
    value: str


def _one(q, text_start: str):
    found = [x for x in q.questions if x.text.startswith(text_start)]
    assert len(found) == 1, [x.text for x in q.questions]
    return found[0]


def _place(q, x, cell):
    return q.places[place_key(x.sheet, cell)]


# ---------------------------------------------------------------- form fields


def test_text_field_takes_its_tooltip(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Name")
    add_field(page, TEXT, "vendor_name", (120, 88, 400, 104), tooltip="Legal name of the vendor")
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert x.sheet == FORM_SHEET and x.row == 1001 and x.question_cell == "A1001"
    assert x.text == "Legal name of the vendor"  # the tooltip: the form's own name for the field
    assert x.choice_cell is None and x.text_cell == "C1001"
    place = _place(q, x, "C1001")
    assert place.kind == PlaceKind.PDF_FIELD and place.locator == "vendor_name"


def test_text_field_label_left_of_it_and_its_number_as_id(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "3. Company website:")
    add_field(page, TEXT, "Text1", (170, 88, 400, 104))
    label(page, 50, 130, "4. Number of employees:")
    add_field(page, TEXT, "Text2", (190, 118, 400, 134), value="250")
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    first, second = q.questions
    assert (first.id, first.text) == ("3", "3. Company website")
    assert (second.id, second.text, second.existing_answer) == ("4", "4. Number of employees", "250")


def test_text_field_label_above_it(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 60, 100, "1 Name (as shown on your income tax return)")
    add_field(page, TEXT, "f1_1", (60, 104, 500, 118))
    label(page, 60, 140, "2 Business name, if different from above")
    add_field(page, TEXT, "f1_2", (60, 144, 500, 158))
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("1", "1 Name (as shown on your income tax return)"),
        ("2", "2 Business name, if different from above"),
    ]


def test_yes_no_check_box_pair_is_one_choice_question(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 110, "Is data encrypted at rest?")
    add_field(page, CHECKBOX, "encrypted_yes", (250, 100, 260, 110))
    label(page, 263, 109, "Yes")
    add_field(page, CHECKBOX, "encrypted_no", (300, 100, 310, 110), value=True)
    label(page, 313, 109, "No")
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert x.text == "Is data encrypted at rest?"
    assert x.choices == ("Yes", "No") and x.choice_cell == "B1001" and x.text_cell is None
    assert x.existing_choice == "No"  # the ticked box
    place = _place(q, x, "B1001")
    assert place.kind == PlaceKind.PDF_BUTTONS
    assert [c for c, _ in place.options] == ["Yes", "No"]


def test_boxes_labelled_yes_no_on_one_line_are_one_question_whatever_their_names(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 110, "Was the last assessment completed?")
    add_field(page, CHECKBOX, "undefined", (250, 100, 260, 110))
    label(page, 263, 109, "Yes")
    add_field(page, CHECKBOX, "undefined_2", (300, 100, 310, 110))
    label(page, 313, 109, "No")
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert (x.text, x.choices) == ("Was the last assessment completed?", ("Yes", "No"))


def test_check_box_alone_is_a_yes_no_question_ticked_or_not(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    add_field(page, CHECKBOX, "storage", (60, 100, 70, 110))
    label(page, 74, 109, "Storage")
    add_field(page, CHECKBOX, "backup", (60, 120, 70, 130), value=True)
    label(page, 74, 129, "Backup mechanism or process")
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    storage, backup = q.questions
    assert (storage.text, storage.choices, storage.existing_choice) == ("Storage", ("Yes", "No"), None)
    assert (backup.text, backup.existing_choice) == ("Backup mechanism or process", "Yes")


def test_radio_group_is_one_question_with_its_buttons_labels(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 110, "Type of system:")
    for i, text in enumerate(("IaaS", "PaaS", "SaaS")):
        add_field(page, RADIO, "system_type", (150 + 70 * i, 100, 160 + 70 * i, 110))
        label(page, 163 + 70 * i, 109, text)
    path = save(doc, tmp_path / "f.pdf")
    name_states(path, {"system_type": ["iaas", "paas", "saas"]})
    q = read_pdf_questionnaire(path)
    (x,) = q.questions
    assert (x.text, x.choices) == ("Type of system", ("IaaS", "PaaS", "SaaS"))
    ticks = [json.loads(t) for _, t in _place(q, x, x.choice_cell).options]
    assert ticks == [[["system_type", "iaas", 0]], [["system_type", "paas", 1]], [["system_type", "saas", 2]]]


def test_combo_box_prompt_is_no_answer_and_no_choice(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 110, "Type of System")
    prompt = "Click on arrow to choose an item"
    add_field(page, COMBO, "sys_type", (200, 98, 400, 112), choices=[prompt, "IaaS", "PaaS", "SaaS"], value=prompt)
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert x.text == "Type of System"
    assert x.choices == ("IaaS", "PaaS", "SaaS") and x.existing_choice is None
    assert _place(q, x, x.choice_cell).kind == PlaceKind.PDF_FIELD


def test_list_box_choices_and_its_selection(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 110, "Hosting region")
    add_field(page, LISTBOX, "region", (200, 98, 400, 150), choices=["EU", "US", "APAC"], value="US")
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert (x.text, x.choices, x.existing_choice) == ("Hosting region", ("EU", "US", "APAC"), "US")


def test_signature_hidden_and_read_only_fields_are_left_alone(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Title")
    add_field(page, TEXT, "title", (120, 88, 400, 104))
    label(page, 50, 130, "Signature")
    add_field(page, SIGNATURE, "sig", (120, 118, 400, 134))
    label(page, 50, 160, "Form number")
    add_field(page, TEXT, "form_no", (120, 148, 400, 164), value="DD 2875", flags=1)  # Ff bit 1: read-only
    add_field(page, TEXT, "hidden", (120, 178, 400, 194))
    path = save(doc, tmp_path / "f.pdf")
    with pymupdf.open(path) as d:
        hidden = next(w.xref for w in d[0].widgets() if w.field_name == "hidden")
        d.xref_set_key(hidden, "F", "2")  # annotation flag Hidden
        d.saveIncr()
    q = read_pdf_questionnaire(path)
    assert [x.text for x in q.questions] == ["Title"]
    assert any("1 signature field" in n and "1 read-only field" in n and "1 hidden field" in n for n in q.notes)


def test_table_row_of_unlabelled_boxes_and_its_notes_field_is_one_question(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 120, 90, "Implemented")
    label(page, 190, 90, "Pending")
    label(page, 260, 90, "Not Applicable")
    label(page, 360, 90, "Implementation Status Notes")
    for r, control in enumerate(("AC-2 (11)", "AC-6 (3)")):
        y = 110 + 30 * r
        label(page, 50, y + 9, control)
        for c, tag in enumerate(("imp", "pend", "na")):
            add_field(page, CHECKBOX, f"r{r}_{tag}", (130 + 70 * c, y, 140 + 70 * c, y + 10))
        add_field(page, TEXT, f"r{r}_notes", (350, y - 8, 560, y + 18))
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    assert [x.id for x in q.questions] == ["AC-2 (11)", "AC-6 (3)"]
    x = q.questions[0]
    assert x.choices == ("Implemented", "Pending", "Not Applicable")  # the column headers
    assert x.choice_cell == "B1001" and x.text_cell == "C1001"
    assert _place(q, x, "C1001").locator == "r0_notes"
    assert "Implementation Status Notes" in x.text


def test_comb_fields_of_one_number_are_one_question(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 300, 90, "Social security number")
    for i, (x0, n) in enumerate(((300, 3), (350, 2), (390, 4))):
        add_field(page, TEXT, f"SSN[0].f1_1{i}[0]", (x0, 96, x0 + 12 * n, 112), flags=1 << 24, max_chars=n)
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert x.text == "Social security number (max 9 characters)"  # the fields' length, for the draft
    place = _place(q, x, x.text_cell)
    assert json.loads(place.locator) == ["SSN[0].f1_10[0]", "SSN[0].f1_11[0]", "SSN[0].f1_12[0]"]
    assert place.max_chars == 9


def test_stacked_boxes_are_one_place_and_a_text_field_over_a_box_is_refused(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 110, "Security Assessment Plan attached?")
    for name in ("Plan - Yes", "plan_attached_yes"):
        add_field(page, CHECKBOX, name, (250, 100, 260, 110))
    label(page, 263, 109, "Yes")
    for name in ("Plan - No", "plan_attached_no"):
        add_field(page, CHECKBOX, name, (300, 100, 310, 110))
    label(page, 313, 109, "No")
    path = save(doc, tmp_path / "f.pdf")
    q = read_pdf_questionnaire(path)
    (x,) = q.questions
    yes = json.loads(dict(_place(q, x, x.choice_cell).options)["Yes"])
    assert {name for name, _, _ in yes} == {"Plan - Yes", "plan_attached_yes"}
    doc = pymupdf.open(path)
    add_field(doc[0], TEXT, "over", (245, 98, 265, 112))
    with pytest.raises(QuestionnaireError, match="overlapping fields on page 1: .*'over'"):
        read_pdf_questionnaire(save(doc, tmp_path / "g.pdf"))


# ---------------------------------------------------------------- flat PDFs


def test_flat_numbered_and_bulleted_lines_that_ask(tmp_path):
    path = flat_pdf(
        tmp_path / "flat.pdf",
        [
            [
                (50, 60, "Section 1: Program foundation"),
                (50, 90, "1. Do you have a documented open source policy?"),
                (50, 110, "2. Describe how the policy is communicated to"),
                (64, 124, "all software staff."),
                (50, 150, "3. The program is reviewed every year."),  # states, does not ask
                (50, 180, "Have you documented the awareness of participants on the following topics?"),
                (64, 200, "\u2022 The open source policy and where to find it;"),
                (64, 214, "\u2022 Relevant open source objectives;"),
            ]
        ],
    )
    q = read_pdf_questionnaire(path)
    assert q.questions[0].sheet == DOCUMENT_SHEET
    got = [(x.id, x.text, x.choices) for x in q.questions]
    lead = "Have you documented the awareness of participants on the following topics?"
    assert got == [
        ("1", "Do you have a documented open source policy?", ("Yes", "No")),
        ("2", "Describe how the policy is communicated to all software staff.", ()),
        (None, lead, ("Yes", "No")),
        (None, f"{lead} — The open source policy and where to find it;", ("Yes", "No")),
        (None, f"{lead} — Relevant open source objectives;", ("Yes", "No")),
    ]
    x = q.questions[0]
    assert _place(q, x, x.choice_cell).kind == PlaceKind.RESPONSE == _place(q, x, x.text_cell).kind


def test_flat_checklist_statements_with_their_numbered_topics(tmp_path):
    path = flat_pdf(
        tmp_path / "list.pdf",
        [
            [
                (50, 60, "Section 3.1.1"),
                (50, 90, "\u2610 We have a documented policy governing security assurance."),
                (50, 120, "\u2610 We have documented the awareness of our participants on the following topics:"),
                (50, 140, "1. The security assurance policy;"),
                (50, 154, "2. Relevant objectives."),
                (50, 184, "\u2610 We have a set of metrics to measure performance."),
            ]
        ],
    )
    q = read_pdf_questionnaire(path)
    assert len(q.questions) == 3
    assert q.questions[1].text.endswith("topics: 1. The security assurance policy; 2. Relevant objectives.")
    assert all(x.choices == ("Yes", "No") for x in q.questions)


def test_flat_ruled_table_with_a_question_column_and_filled_answers(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    ruled_table(
        page,
        60,
        [60, 300, 60, 120],
        [
            ["Question ID", "Question", "Answer", "Notes"],
            ["IAM-01.1", "Is multi-factor authentication enforced?", "Yes", "For all staff"],
            ["IAM-02.1", "Are access reviews performed quarterly?", "No", ""],
            ["IAM-03.1", "Are service accounts inventoried?", "", ""],
        ],
    )
    q = read_pdf_questionnaire(save(doc, tmp_path / "t.pdf"))
    got = [(x.id, x.text, x.existing_choice, x.existing_answer) for x in q.questions]
    assert got == [
        ("IAM-01.1", "Is multi-factor authentication enforced?", "Yes", "For all staff"),
        ("IAM-02.1", "Are access reviews performed quarterly?", "No", None),
        ("IAM-03.1", "Are service accounts inventoried?", None, None),
    ]


_CAIQ_COLUMNS = [60, 300, 60, 120]


def _caiq_like(path: Path) -> Path:
    """A CAIQ-like table over two pages (the second without a header, its first row going on from
    the page before), and on a third page a heading and a ruled table of document revisions."""
    doc = pymupdf.open()
    header = ["Question ID", "Question", "Answer", "Notes"]
    ruled_table(
        doc.new_page(),
        60,
        _CAIQ_COLUMNS,
        [header, ["IAM-01.1", "Is multi-factor authentication enforced", "Yes", "For all staff"]],
    )
    ruled_table(
        doc.new_page(),
        60,
        _CAIQ_COLUMNS,
        [["", "for staff and contractors?", "", ""], ["IAM-02.1", "Are access reviews performed quarterly?", "No", ""]],
    )
    revisions = doc.new_page()
    label(revisions, 72, 60, "Document Revisions", size=14)
    changes = [
        ("November 2023", "Reviewed and updated responses to individual questions"),
        ("2016", "First publication"),
    ]
    ruled_table(revisions, 80, [230, 290], [["Date", "Description"], *map(list, changes)], 72)
    return save(doc, path)


def test_a_row_at_the_top_of_a_page_goes_on_from_the_page_before_and_a_table_under_a_heading_does_not(tmp_path):
    """A header-less table that starts its page continues the question above with its first row
    without an ID; one under a heading (the AWS CAIQ's "Document Revisions" on its last page) does
    not: UEM-14.1 had read "… organizational assets? November 2023 2022 2018 2018 2016"."""
    q = read_pdf_questionnaire(_caiq_like(tmp_path / "caiq.pdf"))
    assert [(x.id, x.text, x.existing_choice) for x in q.questions] == [
        ("IAM-01.1", "Is multi-factor authentication enforced for staff and contractors?", "Yes"),
        ("IAM-02.1", "Are access reviews performed quarterly?", "No"),
    ]


def test_tables_are_read_alike_whether_or_not_pymupdfs_layout_analyser_is_loaded(tmp_path):
    """PyMuPDF loads its layout analyser when it is imported before ``engine`` (engine/__init__.py
    keeps it out otherwise), and find_tables then keeps only the tables its model sees, cut to its
    boxes: a test file importing pymupdf first made the AWS CAIQ read 254 of its 261 questions, 5x
    slower, in whichever later test read it. The reader asks for MuPDF's own tables: in a process
    with the analyser loaded (the real one), it is never called and the questions are the same."""
    pdf = _caiq_like(tmp_path / "caiq.pdf")
    code = (
        "import pymupdf, json, sys\n"
        "assert pymupdf._get_layout is not None, 'the layout analyser did not load'\n"
        "calls = []\n"
        "real = pymupdf._get_layout\n"
        "pymupdf._get_layout = lambda *a, **k: calls.append(1) or real(*a, **k)\n"
        "from engine.questionnaire.pdf.reader import read_pdf_questionnaire\n"
        f"q = read_pdf_questionnaire({str(pdf)!r})\n"
        "print(json.dumps([len(calls), [[x.id, x.text, x.existing_choice] for x in q.questions]]))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    calls, questions = json.loads(done.stdout.strip().splitlines()[-1])
    here = [[x.id, x.text, x.existing_choice] for x in read_pdf_questionnaire(pdf).questions]
    assert calls == 0 and questions == here and len(here) == 2, (calls, questions, here)


def test_flat_pdf_that_asks_nothing_is_refused_with_one_line(tmp_path):
    path = flat_pdf(
        tmp_path / "rfq.pdf",
        [[(50, 60, "1.0 INSTRUCTIONS TO QUOTERS"), (50, 90, "1.1 Quotes will only be accepted via eBuy.")]],
    )
    with pytest.raises(QuestionnaireError, match="rfq.pdf: is a flat PDF .* no questions were found") as err:
        read_pdf_questionnaire(path)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- write-back


def _every_kind(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Company name")
    add_field(page, TEXT, "company", (160, 88, 400, 104))
    label(page, 50, 130, "Is data encrypted at rest?")
    add_field(page, CHECKBOX, "enc_yes", (250, 120, 260, 130))
    label(page, 263, 129, "Yes")
    add_field(page, CHECKBOX, "enc_no", (300, 120, 310, 130))
    label(page, 313, 129, "No")
    label(page, 50, 160, "Type of system:")
    for i, text in enumerate(("IaaS", "PaaS", "SaaS")):
        add_field(page, RADIO, "system_type", (150 + 70 * i, 150, 160 + 70 * i, 160))
        label(page, 163 + 70 * i, 159, text)
    label(page, 50, 190, "Hosting model")
    add_field(page, COMBO, "model", (200, 178, 400, 192), choices=["Select", ("pub", "Public"), ("prv", "Private")])
    add_field(page, CHECKBOX, "storage", (60, 210, 70, 220))
    label(page, 74, 219, "Storage")
    path = save(doc, tmp_path / "every.pdf")
    name_states(path, {"system_type": ["iaas", "paas", "saas"]})
    return path


def test_every_kind_of_place_is_filled_and_reads_back(tmp_path):
    q = read_pdf_questionnaire(_every_kind(tmp_path))
    company, encrypted, system, model, storage = q.questions
    assert model.choices == ("Public", "Private")
    writes = [
        Write(FORM_SHEET, company.text_cell, "Acme Corp"),
        Write(FORM_SHEET, encrypted.choice_cell, "No"),
        Write(FORM_SHEET, system.choice_cell, "SaaS"),
        Write(FORM_SHEET, model.choice_cell, "Private"),
        Write(FORM_SHEET, storage.choice_cell, "Yes"),
    ]
    out = write_pdf(q, tmp_path / "out.pdf", writes)
    back = read_pdf_questionnaire(out)
    got = [(x.existing_answer or x.existing_choice) for x in back.questions]
    assert got == ["Acme Corp", "No", "SaaS", "Private", "Yes"]
    with pymupdf.open(out) as d:
        values = {w.field_name: w.field_value for w in d[0].widgets()}
        assert values["model"] == "prv"  # a choice's export value
        assert d.xref_get_key(d.pdf_catalog(), "AcroForm/XFA")[0] == "null"
    assert out.read_bytes().startswith((tmp_path / "every.pdf").read_bytes())  # an incremental save


def _requirement_form(tmp_path: Path) -> Path:
    """A ruled requirement table "ID | Requirement | Response | Comments" with a combo box shipped
    showing "Select…" in each Response cell and a text field in each Comments cell, the second
    row's widgets stored with an upside-down /Rect; the rows' statements long, without "?"."""
    doc = pymupdf.open()
    page = doc.new_page()
    statements = [
        "The provider shall maintain an inventory of all system components and review it yearly.",
        "The provider shall review user accounts at least every six months and remove stale ones.",
    ]
    ruled_table(page, 60, [40, 330, 70, 90], [["ID", "Requirement", "Response", "Comments"]])
    for r, text in enumerate(statements):
        top = 82 + 22 * r
        ruled_table(page, top, [40, 330, 70, 90], [[f"1.{r + 1}", text, "", ""]])
        add_field(
            page,
            COMBO,
            f"row{r + 1}.response",
            (412, top + 3, 478, top + 19),
            choices=["Select…", "Yes", "No"],
            value="Select…",
        )
        add_field(page, TEXT, f"row{r + 1}.comments", (482, top + 3, 558, top + 19), value="Insert CSP Name")
    for w in page.widgets():
        if w.field_name.startswith("row2."):
            x0, y0, x1, y1 = doc.xref_get_key(w.xref, "Rect")[1].strip("[]").split()
            doc.xref_set_key(w.xref, "Rect", f"[{x0} {y1} {x1} {y0}]")
    return save(doc, tmp_path / "requirements.pdf")


def test_a_requirement_tables_combo_and_comments_field_are_one_question_named_by_its_row(tmp_path):
    """A row's combo box and the text field right after it are one question, its choice the combo
    (without the "Select…" prompt) and its text the comments field (they were two questions), named
    by the row's requirement left of them, not by the column's header above the first row
    ("Response": a column of fields under a header is a table, its rows named by their text); the
    shipped "Select…" and "Insert CSP Name" are no answers; the answers are written and read back,
    the upside-down /Rect included."""
    q = read_pdf_questionnaire(_requirement_form(tmp_path))
    assert [(x.id, x.text[:30], x.choices, x.answered) for x in q.questions] == [
        ("1.1", "1.1 The provider shall maintai", ("Yes", "No"), False),
        ("1.2", "1.2 The provider shall review ", ("Yes", "No"), False),
    ]
    first, second = q.questions
    writes = [
        Write(FORM_SHEET, first.choice_cell, "Yes"),
        Write(FORM_SHEET, first.text_cell, "Kept in the CMDB."),
        Write(FORM_SHEET, second.choice_cell, "No"),
        Write(FORM_SHEET, second.text_cell, "Planned for Q3."),
    ]
    back = read_pdf_questionnaire(write_pdf(q, tmp_path / "out.pdf", writes))
    assert [(x.existing_choice, x.existing_answer) for x in back.questions] == [
        ("Yes", "Kept in the CMDB."),
        ("No", "Planned for Q3."),
    ]


def test_a_choice_not_offered_is_refused_and_nothing_is_written(tmp_path):
    q = read_pdf_questionnaire(_every_kind(tmp_path))
    system = q.questions[2]
    with pytest.raises(PdfWriteError, match="'Mainframe' is not one of the choices"):
        write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, system.choice_cell, "Mainframe")])
    assert not (tmp_path / "out.pdf").exists()


def test_comb_answer_spread_over_its_boxes(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 300, 90, "Social security number")
    for i, (x0, n) in enumerate(((300, 3), (350, 2), (390, 4))):
        add_field(page, TEXT, f"SSN[0].f{i}[0]", (x0, 96, x0 + 12 * n, 112), flags=1 << 24, max_chars=n)
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, x.text_cell, "123-45-6789")])
    with pymupdf.open(out) as d:
        assert [w.field_value for w in d[0].widgets()] == ["123", "45", "6789"]
    assert read_pdf_questionnaire(out).questions[0].existing_answer == "123-45-6789"
    with pytest.raises(PdfWriteError, match="8 characters for 3 boxes of 3\\+2\\+4"):
        write_pdf(q, tmp_path / "bad.pdf", [Write(FORM_SHEET, x.text_cell, "12345678")])


def test_the_check_names_any_change_other_than_the_answers(tmp_path):
    original = _every_kind(tmp_path)
    q = read_pdf_questionnaire(original)
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, q.questions[0].text_cell, "Acme")])
    tampered = tmp_path / "tampered.pdf"
    tampered.write_bytes(out.read_bytes())
    with pymupdf.open(tampered) as d:
        label(d[0], 50, 400, "a line added to the page")
        other = next(w for w in d[0].widgets() if w.field_name == "storage")
        d.xref_set_key(other.xref, "Rect", "[60 600 70 610]")  # a field the export did not fill
        d.saveIncr()
    with pymupdf.open(out) as d:
        company = next(w.xref for w in d[0].widgets() if w.field_name == "company")
    filled = frozenset({company})
    assert changes(original, out, filled) == []
    found = changes(original, tampered, filled)
    assert any(f.startswith("page 1: its text") for f in found)
    assert any("/Rect" in f and "'storage'" in f for f in found), found


def test_a_fields_maximum_length_is_said_in_its_question_and_a_draft_is_cut_to_it(tmp_path):
    """A text field of at most 40 characters whose label states no limit: its question says it, so
    the drafter cuts a longer draft at the last sentence that fits (engine/drafting/drafter.py
    within_limit) and the form takes the answer (the writer refuses one the field cannot hold)."""
    doc = pymupdf.open()
    page = doc.new_page()
    add_field(page, TEXT, "summary", (120, 88, 400, 104), tooltip="Summarise your backup policy", max_chars=40)
    q = read_pdf_questionnaire(save(doc, tmp_path / "f.pdf"))
    (x,) = q.questions
    assert x.text == "Summarise your backup policy (max 40 characters)"
    long = "Backups run every night. They are kept for thirty-five days in two regions."
    draft = within_limit(x, Draft(question_key(x), x.id, x.sheet, x.row, x.text, long, None, DraftStatus.DRAFTED))
    assert (draft.answer, draft.cut_to) == ("Backups run every night.", "40 characters")
    with pytest.raises(PdfWriteError, match="has 75 characters; the field holds 40"):
        write_pdf(q, tmp_path / "long.pdf", [Write(FORM_SHEET, x.text_cell, long)])
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, x.text_cell, draft.answer)])
    assert read_pdf_questionnaire(out).questions[0].existing_answer == "Backups run every night."

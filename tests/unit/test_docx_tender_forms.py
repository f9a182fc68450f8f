"""What a council's tender template holds beside its questions (issue #55; the real file is the
Charnwood ITT, tests/integration/test_document_places_real.py): labels run into underscore lines,
a checklist of boxes to tick, and the contract's clauses, definitions, signature blocks and the
author's own placeholders, which ask the supplier nothing. One test per rule, on small documents
the tests write (tests/word_fixtures.py)."""

from __future__ import annotations

import zipfile

from lxml import etree

from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import CellWrite, export
from engine.questionnaire.places import PlaceKind, place_key
from tests import word_fixtures as wf

W = f"{{{wf.W_NS}}}"
ASKS = "Does your organisation hold all relevant licences and memberships?"  # a question, so no file is refused


def read(tmp_path, doc, name="q.docx"):
    return read_questionnaire(wf.save(doc, tmp_path / name))


def texts(q) -> list[str]:
    return [x.text for x in q.questions]


def test_labels_run_into_underscore_lines_are_each_answered_on_their_own_line(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Bank Name_____________ Account Name_____________")
    doc.add_paragraph("_______________\tAccount No.")
    doc.add_paragraph("_______________Postcode_______________")
    q = read(tmp_path, doc)
    assert texts(q) == ["Bank Name", "Account Name", "Account No.", "Postcode"]
    where = [q.places[place_key(x.sheet, x.text_cell)] for x in q.questions]
    assert {p.kind for p in where} == {PlaceKind.AFTER_LABEL}
    assert [p.locator.rsplit("#", 1)[1] for p in where] == ["0", "1", "0", "1"]  # the line after, else before
    writes = [CellWrite(x.sheet, x.text_cell, f"value {n}") for n, x in enumerate(q.questions)]
    out = tmp_path / "answered.docx"
    export(tmp_path / "q.docx", out, writes, q)
    body = etree.fromstring(zipfile.ZipFile(out).read("word/document.xml"))
    lines = ["".join(t.text or "" for t in p.iter(f"{W}t")) for p in body.iter(f"{W}p")]
    assert lines[:3] == [
        "Bank Name value 0  Account Name value 1 ",
        " value 2 Account No.",  # (the tab is a w:tab of its own)
        "_______________Postcode value 3 ",
    ]
    again = read_questionnaire(out)  # read back where the lines were
    assert [(x.text, x.existing_answer) for x in again.questions] == [
        (x.text, f"value {n}") for n, x in enumerate(q.questions)
    ]
    export(out, tmp_path / "again.docx", [CellWrite(x.sheet, x.text_cell, "new") for x in again.questions], again)
    assert [x.existing_answer for x in read_questionnaire(tmp_path / "again.docx").questions] == ["new"] * 4


def test_a_lone_box_to_tick_in_a_checklist_is_ticked_or_not(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["SCHEDULE HEADING", "COMPLETED?"], ["Schedule 5 – Business Questionnaire", "☐"],
                          ["Schedule 6 – Legal Obligations", "☐"]]))  # fmt: skip
    q = read(tmp_path, doc)
    assert [(x.text.endswith("Business Questionnaire"), x.choices) for x in q.questions][0] == (True, ("Yes", "No"))
    assert all(x.choices == ("Yes", "No") and x.text_cell is None for x in q.questions)


def test_a_clause_and_its_items_ask_nothing(tmp_path):
    doc = wf.new()
    doc.add_paragraph("41.2 The supplier shall:")
    doc.add_paragraph("41.2.1 make reasonable enquiries to ensure that its officers have not been convicted;")
    doc.add_paragraph("41.2.2 shall have and maintain throughout the term of each Contract its own policies;")
    doc.add_paragraph("(d) notify the Authority immediately if it receives:")
    doc.add_paragraph("(i) a request from a Data Subject to have access to that person's Personal Data;")
    doc.add_paragraph("Prohibited Act: the following constitute Prohibited Acts:")
    doc.add_paragraph("to directly or indirectly offer, promise or give any person a financial advantage;")
    doc.add_paragraph("must destroy this ITT and all associated documents at once; and")
    doc.add_paragraph(ASKS)
    doc.add_paragraph("Yes/No")
    assert texts(read(tmp_path, doc)) == [ASKS]


def test_a_signature_block_and_the_authors_blanks_ask_nothing(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Date:")
    doc.add_paragraph("For the attention of: [Procuring Officer]")
    doc.add_paragraph("Date: ")
    doc.add_paragraph("Dear Sir or Madam")
    doc.add_paragraph("For and on behalf of [Insert the name of your company here]")
    doc.add_paragraph("Contract Year: a period of 12 months, commencing on the [INSERT DATE OF SERVICE COMMENCEMENT].")
    doc.add_paragraph("The headings below are simply an indication of areas that need to be considered.")
    doc.add_paragraph("[Insert Contract Length and intended Start Date]")
    wf.add(doc, wf.table([["[Name]", "[Tel]"], ["[Job title]", "[Departmental Email]"]]))
    doc.add_paragraph(ASKS)
    doc.add_paragraph("Yes/No")
    assert texts(read(tmp_path, doc)) == [ASKS]


def test_a_field_and_a_prompt_the_supplier_fills_in_are_still_questions(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Name of ICT Item:")
    doc.add_paragraph("Acme Cloud Platform")
    doc.add_paragraph("Website:")
    doc.add_paragraph("https://acme.example")
    doc.add_paragraph("Describe your approach to quality assurance.")
    doc.add_paragraph("[Insert your response here]")
    doc.add_paragraph("System Name/Title: [State the name of the system]")
    doc.add_paragraph("Include a detailed topology narrative and graphic that depicts the system boundaries.")
    doc.add_paragraph("[Insert a system topology graphic.]")
    q = read(tmp_path, doc)
    assert texts(q) == [
        "Name of ICT Item",
        "Website",
        "Describe your approach to quality assurance.",
        "System Name/Title",
        "Include a detailed topology narrative and graphic that depicts the system boundaries.",
    ]
    assert [x.existing_answer for x in q.questions[:2]] == ["Acme Cloud Platform", "https://acme.example"]


def test_the_total_under_a_list_of_records_is_a_question(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Service component description", "Costs (£)"], ["", ""], ["", ""], ["", ""],
                          ["Total Costs (£) *", "£"]]))  # fmt: skip
    q = read(tmp_path, doc)
    (total,) = q.questions
    assert total.text.endswith("Total Costs (£) *") and total.existing_answer is None  # "£" is where it goes
    assert q.places[place_key(total.sheet, total.text_cell)].locator.endswith("w:tr[5]/w:tc[2]")


def test_a_condition_then_what_to_give_asks(tmp_path):
    doc = wf.new()
    doc.add_paragraph("A-4 If the Company is a member of a group of companies, give the name of the holding Company.")
    doc.add_paragraph("")
    wf.add(doc, TEXT_BOX)  # an empty text box drawn under it: the answer's box
    doc.add_paragraph("Do you hold a quality certificate such as ISO 9001 or an equivalent one?")
    doc.add_paragraph("")
    doc.add_paragraph("")
    q = read(tmp_path, doc)
    assert [x.id for x in q.questions] == ["A-4", None]
    box, blank = (q.places[place_key(x.sheet, x.text_cell)] for x in q.questions)
    assert box.kind is PlaceKind.PARAGRAPH and "txbxContent" in box.locator and "txbxContent" not in blank.locator


TEXT_BOX = (
    '<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:400pt;height:60pt">'
    "<v:textbox><w:txbxContent><w:p/></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"
)


def test_a_yes_no_line_is_a_pick_written_in_its_place_and_read_back(tmp_path):
    doc = wf.new()
    doc.add_paragraph("3.1 Do you have an environmental policy? If so please provide a copy of it.")
    doc.add_paragraph("Yes/No/Not Applicable")
    doc.add_paragraph("Bidders who answer 'No' will fail the Business Questionnaire.")
    doc.add_paragraph("Please confirm if your organisation has an annual turnover of £36m or more Yes/No")
    doc.add_paragraph("1.1 Please confirm whether your turnover is at least twice the annual estimated value.")
    doc.add_paragraph("Yes/No ")
    q = read(tmp_path, doc)
    assert [(x.choices, x.text_cell, x.existing_choice, x.existing_answer) for x in q.questions] == [
        (("Yes", "No", "Not Applicable"), None, None, None),
        (("Yes", "No"), None, None, None),
        (("Yes", "No"), None, None, None),  # "Yes/No" is no answer given
    ]
    picks = ["Not Applicable", "No", "Yes"]
    writes = [CellWrite(x.sheet, x.choice_cell, v) for x, v in zip(q.questions, picks)]
    export(tmp_path / "q.docx", tmp_path / "answered.docx", writes, q)
    again = read_questionnaire(tmp_path / "answered.docx")
    assert [x.existing_choice for x in again.questions] == picks


def test_an_answer_written_in_a_new_paragraph_or_a_text_box_reads_back_and_guidance_never_does(tmp_path):
    doc = wf.new()
    doc.add_paragraph("A-5 Please provide an up to date credit check report for your organisation.")
    doc.add_paragraph("Label response as A-5")
    doc.add_paragraph("A-4 If the Company is a member of a group of companies, give the name of the holding Company.")
    wf.add(doc, TEXT_BOX)
    doc.add_paragraph("C-1 Please provide details of your previous experience in delivering such services.")
    doc.add_paragraph("")
    doc.add_paragraph("")
    doc.add_paragraph("SECTION D")
    q = read(tmp_path, doc)
    assert [(x.id, x.existing_answer) for x in q.questions] == [("A-5", None), ("A-4", None), ("C-1", None)]
    kinds = [q.places[place_key(x.sheet, x.text_cell)].kind for x in q.questions]
    assert kinds == [PlaceKind.NEW_PARAGRAPH, PlaceKind.PARAGRAPH, PlaceKind.PARAGRAPH]
    answers = ["Report attached.", "Acme Holdings plc", "Ten years of grounds maintenance."]
    writes = [CellWrite(x.sheet, x.text_cell, a) for x, a in zip(q.questions, answers)]
    export(tmp_path / "q.docx", tmp_path / "answered.docx", writes, q)
    again = read_questionnaire(tmp_path / "answered.docx")
    assert [(x.id, x.existing_answer) for x in again.questions] == list(zip(["A-5", "A-4", "C-1"], answers))


def test_a_pick_whose_item_has_two_spaces_reads_back(tmp_path):
    doc = wf.new()
    wf.add(
        doc,
        wf.para(
            wf.text("The digital identity level is "), wf.sdt_dropdown("level", ["Level 1:  AAL1", "Level 2:  AAL2"])
        ),
    )
    q = read(tmp_path, doc)
    (level,) = q.questions
    export(
        tmp_path / "q.docx",
        tmp_path / "answered.docx",
        [CellWrite(level.sheet, level.choice_cell, "Level 2:  AAL2")],
        q,
    )
    assert read_questionnaire(tmp_path / "answered.docx").questions[0].existing_choice == "Level 2:  AAL2"


def test_the_answer_after_a_numbered_item_of_a_numbering_style_is_not_numbered(tmp_path):
    doc = wf.new()
    numbered = doc.add_paragraph(
        "Is the plan reviewed and approved by the authorizing official every year?", style="List Number"
    )
    numbered._p.get_or_add_pPr().get_or_add_numPr().get_or_add_numId().val = 1
    item = doc.add_paragraph("Distributes copies of the plan to the key personnel;", style="List Number")
    num = item._p.get_or_add_pPr().get_or_add_numPr()
    num.get_or_add_ilvl().val, num.get_or_add_numId().val = 0, 1  # the next item of its list
    q = read(tmp_path, doc)
    first = q.questions[0]
    export(
        tmp_path / "q.docx",
        tmp_path / "answered.docx",
        [CellWrite(first.sheet, first.text_cell, "Yes, by the CISO.")],
        q,
    )
    body = etree.fromstring(zipfile.ZipFile(tmp_path / "answered.docx").read("word/document.xml"))
    answer = next(p for p in body.iter(f"{W}p") if "by the CISO" in "".join(p.itertext()))
    assert answer.find(f"{W}pPr/{W}numPr/{W}numId").get(f"{W}val") == "0"  # the style's numbering switched off
    # (else Word numbers the answer as the list's next item, and a reader reads it as one)
    assert read_questionnaire(tmp_path / "answered.docx").questions[0].existing_answer == "Yes, by the CISO."


def test_a_table_answered_in_every_row_and_a_prompt_answered_in_its_place_read_back(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Security Objective", "Low, Moderate or High"], ["Confidentiality", ""], ["Integrity", ""],
                          ["Availability", ""]]))  # fmt: skip
    doc.add_paragraph("Include a detailed topology narrative and graphic that depicts the system boundaries.")
    doc.add_paragraph("[Insert a system topology graphic.]")
    q = read(tmp_path, doc)
    assert len(q.questions) == 4
    answers = ["Moderate", "Moderate", "Low", "See figure 2."]
    writes = [CellWrite(x.sheet, x.text_cell, a) for x, a in zip(q.questions, answers)]
    export(tmp_path / "q.docx", tmp_path / "answered.docx", writes, q)
    again = read_questionnaire(tmp_path / "answered.docx")  # every row filled: still its answer column
    assert [(x.text, x.existing_answer) for x in again.questions] == [(x.text, a) for x, a in zip(q.questions, answers)]

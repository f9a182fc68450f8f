"""Writing answers into a Word questionnaire (engine/questionnaire/word/writer.py): each kind of
answer place filled the way the document draws it, nothing else changed (the no-other-change
check, engine/questionnaire/word/check.py, refuses a package that differs elsewhere), and a round
trip: every question given a distinct answer, exported, read back from the written file."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from engine.core.ooxml import copy_package
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import place_key
from engine.questionnaire.word.check import ChangedOutsidePlaces, verify
from engine.questionnaire.writes import CellWrite, ExportError
from tests import word_fixtures as wf

W = f"{{{wf.W_NS}}}"
W14 = f"{{{wf.W14_NS}}}"


def questionnaire(tmp_path: Path):
    """One document holding every kind of answer place."""
    doc = wf.new()
    doc.add_heading("Security questionnaire", level=1)
    wf.add(doc, wf.table([["Question", "Response"], ["Describe your backup process.", ""]]))
    doc.add_paragraph("Do you have a documented security policy?", style="List Number")
    wf.add(doc, wf.para(wf.text("Company name: "), wf.sdt_text("name")))
    wf.add(doc, wf.para(wf.text("Hosting model: "), wf.sdt_dropdown("hosting", ["SaaS", "PaaS"])))
    wf.add(doc, wf.para(wf.text("Date of the last audit: "), wf.sdt_date("audit")))
    wf.add(doc, wf.para(wf.text("Do you use subprocessors? ☐ Yes ☐ No")))
    wf.add(doc, wf.para(wf.text("System owner: "), wf.formtext()))
    wf.add(doc, wf.table([["Is the system internet facing?", wf.para(wf.formcheckbox(), wf.text(" Yes"),
                                                                      wf.formcheckbox(), wf.text(" No"))]]))  # fmt: skip
    wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text(" We accept the terms")))
    wf.add(doc, wf.table([["gs2:Responsible Role:"], ["Title", ""]]))
    num = wf.box_bullets(doc)
    wf.add(doc, wf.table([["Question", "Implementation"],
                          ["Is there an open source policy?", wf.listed("Yes", num) + wf.listed("No", num)]]))  # fmt: skip
    doc.add_paragraph("Closing remarks that no answer may touch.")
    return read_questionnaire(wf.save(doc, tmp_path / "q.docx"))


def q_of(q, words):
    return next(x for x in q.questions if words in x.text)


def body_xml(path: Path) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(path).read("word/document.xml"))


def test_every_kind_of_place_is_filled_the_way_the_document_draws_it(tmp_path):
    q = questionnaire(tmp_path)
    writes = {
        "Describe your backup process": ("text", "Nightly encrypted backups.\n\nRestores are tested quarterly."),
        "documented security policy": ("text", "Yes, reviewed yearly."),
        "Company name": ("text", "Acme & Co"),
        "Hosting model": ("choice", "PaaS"),
        "Date of the last audit": ("text", "2025-03-01"),
        "subprocessors": ("choice", "No"),
        "System owner": ("text", "Jane Roe"),
        "internet facing": ("choice", "Yes"),
        "accept the terms": ("choice", "Yes"),
        "Responsible Role": ("text", "CISO"),
        "Title": ("text", "Head of security"),
        "open source policy": ("choice", "Yes"),
    }
    cells = []
    for words, (which, value) in writes.items():
        x = q_of(q, words)
        cells.append(CellWrite(x.sheet, x.choice_cell if which == "choice" else x.text_cell, value))
    out = export(q.path, tmp_path / "answered.docx", cells, q)
    root = body_xml(out)
    text = "".join(root.itertext())
    for value in ("Nightly encrypted backups.", "Restores are tested quarterly.", "Yes, reviewed yearly.", "Acme & Co",
                  "Jane Roe", "Responsible Role: CISO", "Head of security", "Closing remarks"):  # fmt: skip
        assert value in text
    sdts = {
        s.find(f"{W}sdtPr/{W}tag").get(f"{W}val"): s
        for s in root.iter(f"{W}sdt")
        if s.find(f"{W}sdtPr/{W}tag") is not None
    }
    name = sdts["name"]
    assert name.find(f"{W}sdtPr/{W}showingPlcHdr") is None  # filled: no longer its placeholder
    assert name.find(f"{W}sdtPr/{W}alias").get(f"{W}val") == "name"  # its tag and alias kept
    assert "PlaceholderText" not in etree.tostring(name).decode()  # the answer not in the placeholder's grey
    assert "".join(sdts["hosting"].itertext()).endswith("PaaS")
    assert sdts["audit"].find(f"{W}sdtPr/{W}date").get(f"{W}fullDate") == "2025-03-01T00:00:00Z"
    assert "Do you use subprocessors? ☐ Yes ☒ No" in text
    boxes = [b for b in root.iter(f"{W}checkBox")]
    assert [b.find(f"{W}checked").get(f"{W}val") for b in boxes[:2]] == ["1", "0"]  # FORMCHECKBOX ticked: Yes
    terms = next(s for s in root.iter(f"{W}sdt") if s.find(f"{W}sdtPr/{W14}checkbox") is not None)
    assert terms.find(f"{W}sdtPr/{W14}checkbox/{W14}checked").get(f"{W14}val") == "1" and "☒" in "".join(
        terms.itertext()
    )
    numbering = etree.fromstring(zipfile.ZipFile(out).read("word/numbering.xml"))
    assert any(lvl.get(f"{W}val") == "☒" for lvl in numbering.iter(f"{W}lvlText"))  # a list drawing ☒ for "Yes"
    again = read_questionnaire(out)
    assert q_of(again, "open source policy").existing_choice == "Yes"
    assert q_of(again, "internet facing").existing_choice == "Yes"
    assert q_of(again, "Hosting model").existing_choice == "PaaS"


def test_nothing_but_the_answer_places_changes(tmp_path):
    q = questionnaire(tmp_path)
    x = q_of(q, "Describe your backup process")
    out = export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.text_cell, "Nightly.")], q)
    original, written = zipfile.ZipFile(q.path), zipfile.ZipFile(out)
    assert written.namelist() == original.namelist()
    changed = [n for n in original.namelist() if original.read(n) != written.read(n)]
    assert changed == ["word/document.xml"]  # styles, numbering, settings, relationships: byte for byte


def test_the_check_refuses_a_change_outside_the_answer_places(tmp_path):
    q = questionnaire(tmp_path)
    place = q.places[place_key("Document", q_of(q, "Describe your backup process").text_cell)]
    original = zipfile.ZipFile(q.path)
    root = etree.fromstring(original.read("word/document.xml"))
    closing = next(t for t in root.iter(f"{W}t") if "Closing remarks" in (t.text or ""))
    closing.text = "Closing remarks, edited."  # a change no answer place allows
    buffer = io.BytesIO()
    edited = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    copy_package(original, buffer, {"word/document.xml": edited})
    with pytest.raises(ChangedOutsidePlaces, match=r"would change paragraph \d+ \('Closing remarks"):
        verify(original, zipfile.ZipFile(io.BytesIO(buffer.getvalue())), "word/document.xml", None, [place], q.path)


def test_a_refused_answer_writes_nothing(tmp_path):
    q = questionnaire(tmp_path)
    x = q_of(q, "Hosting model")
    target = tmp_path / "a.docx"
    with pytest.raises(ExportError, match="not one of the dropdown's items"):
        export(q.path, target, [CellWrite(x.sheet, x.choice_cell, "On premises")], q)
    assert not target.exists()
    with pytest.raises(ExportError, match="must keep that extension"):
        export(q.path, tmp_path / "a.xlsx", [], q)


def test_round_trip_every_answer_is_read_back_in_its_place(tmp_path):
    q = questionnaire(tmp_path)
    writes = []
    for n, x in enumerate(q.questions, 1):
        if x.choice_cell:
            writes.append(CellWrite(x.sheet, x.choice_cell, x.choices[0]))
        if x.text_cell:
            writes.append(CellWrite(x.sheet, x.text_cell, "2025-01-0" + str(n % 9 + 1) if "Date" in x.text else
                                    f"Answer number {n}, written by the test."))  # fmt: skip
    again = read_questionnaire(export(q.path, tmp_path / "a.docx", writes, q))
    assert [x.text for x in again.questions] == [x.text for x in q.questions]
    for n, (x, y) in enumerate(zip(q.questions, again.questions), 1):
        if x.text_cell and "Date" not in x.text:
            assert f"Answer number {n}," in (y.existing_answer or ""), x.text
        if x.choice_cell:
            assert (y.existing_choice or "").startswith(x.choices[0]), x.text


def hint(text: str, rpr: str) -> str:
    """A run of guidance in its look (italics, grey)."""
    return f'<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


def test_short_answers_read_back_as_answers_and_the_questions_unchanged(tmp_path):
    """A filled questionnaire read again (a library import of past answers, an export re-read): an
    answer of a few words ("Acme Cloud Ltd"), in a blank cell or below the cell's guidance, is the
    question's existing answer, and the question's text is the one the blank document gave. An answer
    below guidance set in italics or grey is written without that look (else it would read as more
    guidance)."""
    doc = wf.new()
    doc.add_heading("Supplier questionnaire", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"], ["GNRL-01", "Vendor Name", ""], ["GNRL-02", "Headquarters", ""],
                          ["RSK-01", "Residual risk", "Low, medium or high"], ["RSK-02", "Measure approved", "Yes/no"],
                          ["LGL-01", "Legal entity", wf.para(hint("Registered legal name", "<w:i/>"))],
                          ["LGL-02", "Registered office", wf.para(hint("Street and city", '<w:color w:val="808080"/>'))],
                          ["ENC-01", "Is customer data encrypted at rest?", ""]]))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    answers = {"GNRL-01": "Acme Cloud Ltd", "GNRL-02": "London", "RSK-01": "Medium", "RSK-02": "Yes",
               "LGL-01": "Acme Cloud Limited", "LGL-02": "1 Main Street, London", "ENC-01": "Yes, AES-256."}  # fmt: skip
    assert all(x.existing_answer is None for x in q.questions)
    writes = [CellWrite(x.sheet, x.text_cell, answers[x.id]) for x in q.questions]
    again = read_questionnaire(export(q.path, tmp_path / "answered.docx", writes, q))
    assert [(x.id, x.text) for x in again.questions] == [(x.id, x.text) for x in q.questions]
    assert {x.id: x.existing_answer for x in again.questions} == answers


def test_a_yes_no_column_cell_without_a_paragraph_takes_its_mark(tmp_path):
    """A Yes / No column whose empty cell holds no paragraph at all (Word accepts it) gets its "X" in a
    paragraph the export adds to that cell, and the check accepts it as the answer place's change."""
    doc = wf.new()
    bare = '<w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>'
    wf.add(doc, wf.table([["Question", "Yes", "No"], ["Is MFA enforced for administrators?", bare, bare]]))
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    x = q_of(q, "MFA")
    out = export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.choice_cell, "No")], q)
    row = list(body_xml(out).iter(f"{W}tr"))[1]
    assert ["".join(tc.itertext()) for tc in row.iter(f"{W}tc")] == ["Is MFA enforced for administrators?", "", "X"]
    assert read_questionnaire(out).questions[0].existing_choice == "No"


def test_the_check_raises_no_warning_on_a_legacy_field(tmp_path):
    """The no-other-change check climbs from a legacy field to its paragraph without testing an lxml
    element's truth value (a FutureWarning, and the wrong element when the paragraph has no children)."""
    import warnings

    q = questionnaire(tmp_path)
    x = q_of(q, "System owner")
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.text_cell, "Jane Roe")], q)


def test_a_dropdown_in_a_table_cell_takes_one_of_its_items(tmp_path):
    """A drop-down content control in a table's answer cell is written as the pick (the control's
    shown item), read back as the existing choice; nothing typed beside it."""
    doc = wf.new()
    level = wf.para(wf.sdt_dropdown("conf", ["Low", "Moderate", "High"]))
    wf.add(doc, wf.table([["Question", "Response"], ["What is the confidentiality level of the data?", level]]))
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    x = q_of(q, "confidentiality level")
    out = export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.choice_cell, "Moderate")], q)
    cell = list(body_xml(out).iter(f"{W}tc"))[-1]
    assert "".join(cell.itertext()) == "Moderate"
    assert read_questionnaire(out).questions[0].existing_choice == "Moderate"


def written_back(q, tmp_path: Path):
    """``q`` with every question given a distinct answer (its first option, "Answer number N"), exported and read again."""
    writes = []
    for n, x in enumerate(q.questions, 1):
        if x.choice_cell:
            writes.append(CellWrite(x.sheet, x.choice_cell, x.choices[0]))
        if x.text_cell:
            writes.append(CellWrite(x.sheet, x.text_cell, f"Answer number {n}, written by the test."))
    return read_questionnaire(export(q.path, tmp_path / "a.docx", writes, q))


def test_an_answer_written_into_a_field_inside_an_option_leaves_the_option_as_drawn(tmp_path):
    """A legacy text field inside an option's label (PCI DSS AOC: "… thereby (Merchant Company Name)
    has demonstrated compliance …"): the answer written into it is read back as the field's answer,
    and the option's label, the chosen one among them, stays the one the blank document gave."""
    doc = wf.new()
    doc.add_heading("Section 3: Validation and Attestation Details", level=1)
    name = wf.formtext(default="(Merchant Company Name)")
    wf.add(doc, wf.table([[wf.para(wf.formcheckbox()), wf.para(wf.text("Compliant: all requirements are in place; thereby "),
                                                               name, wf.text(" has demonstrated compliance."))],
                          [wf.para(wf.formcheckbox()), wf.para(wf.text("Non-Compliant: not all requirements are in place; "
                                                                       "thereby the merchant has not demonstrated compliance."))],
                          ["", wf.para(wf.text("Affected requirement"))], ["", wf.para(wf.formtext())]]))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    x = q_of(q, "Section 3")
    assert (
        x.choices[0]
        == "Compliant: all requirements are in place; thereby (Merchant Company Name) has demonstrated compliance."
    )
    assert x.text_cell
    again = written_back(q, tmp_path)
    assert [(y.text, y.choices) for y in again.questions] == [(y.text, y.choices) for y in q.questions]
    assert q_of(again, "Section 3").existing_choice == x.choices[0]
    assert "Answer number" in (q_of(again, "Section 3").existing_answer or "")


def test_an_answer_written_into_a_field_beside_the_options_leaves_the_question_as_drawn(tmp_path):
    """A question whose answer cell holds Yes / No legacy boxes and a legacy text field for the
    explanation (PCI DSS SAQ Part 2a): with both written, the question is read back as it was, its
    choice and its text in their places (the field's answer is not read as a label of the cell)."""
    doc = wf.new()
    doc.add_paragraph("Part 2a. Merchant Business Payment Channels (select all that apply):")
    boxes = wf.para(wf.formcheckbox(), wf.text(" Yes  "), wf.formcheckbox(), wf.text(" No"))
    wf.add(doc, wf.table([["Are any payment channels not included in this assessment? If yes, indicate which channel(s).",
                           boxes + wf.para(wf.formtext())]]))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    x = q_of(q, "payment channels")
    assert x.choices == ("Yes", "No") and x.text_cell
    again = written_back(q, tmp_path)
    assert [y.text for y in again.questions] == [y.text for y in q.questions]
    y = q_of(again, "payment channels")
    assert (y.existing_choice, "Answer number" in (y.existing_answer or "")) == ("Yes", True)


def test_an_answer_written_into_a_field_ending_a_label_reads_back_under_that_label(tmp_path):
    """A label ended by a legacy text field showing its default ("Self-assessment completion date:
    YYYY-MM-DD"): the label is the question before and after the field is written."""
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Self-assessment completion date: "), wf.formtext(default="YYYY-MM-DD")))
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    assert [x.text for x in q.questions] == ["Self-assessment completion date"]
    again = written_back(q, tmp_path)
    assert [x.text for x in again.questions] == ["Self-assessment completion date"]
    assert "Answer number 1," in (again.questions[0].existing_answer or "")


def test_answers_after_a_parameters_name_read_back_under_that_name(tmp_path):
    """A FedRAMP control's parameter rows, the answer written after the label in its cell: a name
    after "Parameter:" ("Parameter: SC-6-1") or a label ending in a space and no colon ("Parameter
    PE-14(b) "). The answer is set off by a colon, and the label read back is the one the blank gave
    (not "Parameter" with "SC-6-1: <answer>", nor the name and the answer as one label)."""
    doc = wf.new()
    wf.add(doc, wf.table([["gs2:SC-6", "Control Summary Information"], ["gs2:Responsible Role:"],
                          ["gs2:Parameter: SC-6-1"], ["gs2:Parameter SC-6(b) "], ["gs2:Parameter SC-6(c) Additional:"]]))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "q.docx"))
    texts = [x.text for x in q.questions]
    assert [t.removeprefix("SC-6 Control Summary Information: ") for t in texts] == [
        "Responsible Role", "Parameter: SC-6-1", "Parameter SC-6(b)", "Parameter SC-6(c) Additional"]  # fmt: skip
    again = written_back(q, tmp_path)
    assert [(x.id, x.text) for x in again.questions] == [(x.id, x.text) for x in q.questions]
    assert [x.existing_answer for x in again.questions] == [
        f"Answer number {n}, written by the test." for n in range(1, 5)
    ]

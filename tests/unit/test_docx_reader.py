"""The Word questionnaire reader (engine/questionnaire/word/reader.py, docx_tables.py), one test per
structure of issue #48 item 1, on small documents the tests write (python-docx, and raw XML for
content controls, legacy form fields and box bullets: tests/word_fixtures.py)."""

from __future__ import annotations

import pytest

from engine.questionnaire import QuestionnaireError, read_questionnaire
from engine.questionnaire.mapping import mapping
from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.qualifiers import QualifierSource, find_qualifiers, gates
from tests import word_fixtures as wf


def read(tmp_path, doc, name="q.docx", **options):
    return read_questionnaire(wf.save(doc, tmp_path / name), **options)


def places(q, question):
    """(choice place, text place) of a question."""
    get = lambda cell: q.places.get(place_key(question.sheet, cell)) if cell else None  # noqa: E731
    return get(question.choice_cell), get(question.text_cell)


def by_text(q, words):
    return next(x for x in q.questions if words in x.text)


def test_table_with_a_response_column(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["#", "Question", "Response"], ["1.1", "Do you encrypt data at rest?", ""],
                          ["1.2", "Describe your backup process.", ""]]))  # fmt: skip
    q = read(tmp_path, doc)
    assert [(x.id, x.text) for x in q.questions] == [
        ("1.1", "Do you encrypt data at rest?"),
        ("1.2", "Describe your backup process."),
    ]
    _, text = places(q, q.questions[0])
    assert text.kind is PlaceKind.TABLE_CELL and text.locator.endswith("w:tc[3]")
    assert q.questions[0].question_cell == f"A{q.questions[0].row}" and q.questions[0].sheet == "Document"


def test_yes_no_columns_to_mark_with_x(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Yes", "No"], ["Is MFA enforced for administrators?", "", ""],
                          ["Are logs kept for a year?", "X", ""]]))  # fmt: skip
    q = read(tmp_path, doc)
    first, second = q.questions
    choice, text = places(q, first)
    assert first.choices == ("Yes", "No") and choice.control == "X column" and text is None
    assert second.existing_choice == "Yes"  # marked already: kept


def test_table_without_an_answer_column_says_where_the_answer_goes(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Number", "Question Text"], ["1.a", "Do you have a documented policy?"],
                          ["1.b", "Do you have evidence of the following topics?"], ["1.b.i", "- Policy awareness"]]))  # fmt: skip
    q = read(tmp_path, doc)
    assert [x.id for x in q.questions] == ["1.a", "1.b"]
    assert "Policy awareness" in q.questions[1].text  # the item under 1.b is part of it
    _, text = places(q, q.questions[0])
    assert text.kind is PlaceKind.TABLE_CELL and "no answer column" in text.note


def test_merged_header_rows_over_one_row_to_fill(tmp_path):
    doc = wf.new()
    rows = [["Data in transit"], ["", "gs2:Source"], ["Ref #", "Area", "Module"], ["#", "<Fill In>", "<Fill In>"]]
    wf.add(
        doc, wf.table(rows, widths=3).replace("<w:tc><w:p>", '<w:tc><w:tcPr><w:gridSpan w:val="3"/></w:tcPr><w:p>', 1)
    )
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == ["Data in transit: Source: Area", "Data in transit: Source: Module"]


def test_question_row_over_its_answer_row_and_a_nested_table(tmp_path):
    doc = wf.new()
    nested = wf.table([["Name of the DPO", ""]])
    wf.add(doc, wf.table([["1.1.1", "Geef een korte beschrijving van het doel."], ["gs2:"], ["gs2:" + nested]]))
    q = read(tmp_path, doc)
    ids = {x.id: x for x in q.questions}
    assert "1.1.1" in ids and places(q, ids["1.1.1"])[1].kind is PlaceKind.TABLE_CELL
    assert any("Name of the DPO" in x.text for x in q.questions)  # the nested table read as a table of its own


def test_numbered_questions_without_space_get_a_new_paragraph_and_keep_their_items(tmp_path):
    doc = wf.new()
    doc.add_heading("Section 1: Program", level=2)
    doc.add_paragraph("Do you have a documented open source policy?", style="List Number")
    doc.add_paragraph("Have you documented the awareness of staff on these topics?", style="List Number")
    doc.add_paragraph("The policy and where to find it;", style="List Bullet 2")
    doc.add_paragraph("Its objectives.", style="List Bullet 2")
    doc.add_paragraph("This paragraph explains something? It is prose, not numbered.")
    q = read(tmp_path, doc)
    assert [x.id for x in q.questions] == ["1", "2"]
    assert "Its objectives" in q.questions[1].text
    _, place = places(q, q.questions[0])
    assert place.kind is PlaceKind.NEW_PARAGRAPH and "no space" in place.note


def test_questions_answered_in_empty_paragraphs_and_in_a_block_control(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Describe your incident response process.")
    doc.add_paragraph("")
    doc.add_paragraph("")
    wf.add(doc, wf.para(wf.text("Explain how access is reviewed.")))
    wf.add(doc, wf.sdt_block("explain"))
    q = read(tmp_path, doc)
    assert [places(q, x)[1].kind for x in q.questions] == [PlaceKind.PARAGRAPH, PlaceKind.CONTENT_CONTROL]


def test_content_controls_of_every_kind(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Company name: "), wf.sdt_text("name")))
    wf.add(doc, wf.para(wf.text("Hosting model: "), wf.sdt_dropdown("hosting", ["SaaS", "PaaS", "IaaS"])))
    wf.add(doc, wf.para(wf.text("Preferred region: "), wf.sdt_dropdown("region", ["EU", "US"], combo=True)))
    wf.add(doc, wf.para(wf.text("Date of the last audit: "), wf.sdt_date("audit")))
    wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text(" We accept the terms")))
    q = read(tmp_path, doc)
    kinds = {m.text: m.kind for m in mapping(q)}
    assert kinds == {
        "Company name": "text",
        "Hosting model": "choice",
        "Preferred region": "text",
        "Date of the last audit": "date",
        "We accept the terms": "checkbox",
    }
    assert by_text(q, "Hosting").choices == ("SaaS", "PaaS", "IaaS")


def test_an_inline_control_inside_the_question_is_part_of_its_text(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Does "), wf.sdt_text("csp", "CSP Name"), wf.text(" share PII with agencies?")))
    wf.add(doc, wf.table([[""]]))
    q = read(tmp_path, doc)
    assert q.questions[0].text == "Does CSP Name share PII with agencies?"


def test_legacy_form_fields(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("System owner: "), wf.formtext(max_length=40)))
    wf.add(doc, wf.para(wf.text("Data classification: "), wf.formdropdown(["Low", "Moderate", "High"])))
    wf.add(doc, wf.table([["Is the system internet facing?", wf.para(wf.formcheckbox(), wf.text(" Yes"),
                                                                      wf.formcheckbox(True), wf.text(" No"))]]))  # fmt: skip
    q = read(tmp_path, doc)
    owner, level, facing = q.questions
    assert places(q, owner)[1].kind is PlaceKind.FORM_FIELD and places(q, owner)[1].max_chars == 40
    assert level.choices == ("Low", "Moderate", "High")
    assert facing.choices == ("Yes", "No") and facing.existing_choice == "No"  # ticked already: kept
    assert places(q, facing)[0].control == "FORMCHECKBOX"


def test_box_glyph_pairs_and_options_drawn_as_list_items(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Do you use subprocessors? ☐ Yes ☐ No")))
    num = wf.box_bullets(doc)
    wf.add(doc, wf.table([["Question", "Implementation"],
                          ["Is there an open source policy?", wf.listed("Yes", num) + wf.listed("No", num)]]))  # fmt: skip
    q = read(tmp_path, doc)
    glyphs, items = q.questions
    assert glyphs.text == "Do you use subprocessors?" and glyphs.choices == ("Yes", "No")
    assert places(q, glyphs)[0].control == "glyph"
    assert items.choices == ("Yes", "No") and places(q, items)[0].control == "list glyph"


def test_a_run_of_boxes_is_a_question_per_box_unless_a_prompt_asks_for_one(tmp_path):
    doc = wf.new()
    doc.add_heading("General Exceptions", level=2)
    wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text("Legacy ICT")))
    wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text("Undue Burden")))
    doc.add_paragraph("Check one.")
    wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text("Opt-out")))
    wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text("Opt-in")))
    q = read(tmp_path, doc)
    assert [(x.text, x.choices) for x in q.questions] == [
        ("General Exceptions: Legacy ICT", ("Yes", "No")),
        ("General Exceptions: Undue Burden", ("Yes", "No")),
        ("Check one.", ("Opt-out", "Opt-in")),
    ]


def test_a_form_of_labels_beside_empty_cells_and_labels_alone(tmp_path):
    doc = wf.new()
    doc.add_heading("Point of contact", level=1)
    wf.add(doc, wf.table([["Name", ""], ["Email Address", ""], ["gs2:Responsible Role:"]]))
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == [
        "Point of contact: Name", "Point of contact: Email Address", "Point of contact: Responsible Role"]  # fmt: skip
    assert places(q, q.questions[2])[1].kind is PlaceKind.AFTER_LABEL


def test_length_limits_and_answers_already_given(tmp_path):
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Answer"], ["Describe your SDLC (max 250 words).", ""],
                          ["Do you run a bug bounty?", "Yes, since 2021."]]))  # fmt: skip
    q = read(tmp_path, doc)
    limited, answered = q.questions
    assert places(q, limited)[1].max_words == 250
    assert answered.existing_answer == "Yes, since 2021." and answered.answered
    assert any("already answered" in n for n in q.notes)


def _run(text: str, rpr: str) -> str:
    return f'<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


def test_guidance_in_an_answer_cell_goes_with_the_question_and_a_short_answer_is_an_answer(tmp_path):
    """What an answer cell shows: guidance (it asks, ends with ":" or ",", goes on from a line ending
    with ",", lists what to enter, is in brackets, italics or grey) is part of the question and the
    answer goes below it; a few words of anything else ("Acme Cloud Ltd") are an answer already
    given, not guidance."""
    rows = [
        ["Vendor Name", "Acme Cloud Ltd"],
        ["Headquarters", "London"],
        ["Residual risk", "Low, medium or high"],
        ["Effect on risk", "Eliminated reduced accepted"],
        ["Measure approved", wf.para(wf.text("Yes/no")) + wf.para(wf.text("Yes"))],
        [
            "How is AC-2 implemented?",
            wf.para(wf.text("Description of how AC-2 is implemented,")) + wf.para(wf.text("Customer Responsibilities")),
        ],  # fmt: skip
        ["Legal entity", wf.para(_run("Registered legal name", "<w:i/>"))],
        ["Registered office", wf.para(_run("Street and city", '<w:color w:val="808080"/>'))],
        ["Parent company", "(if any)"],
    ]
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Response"], *rows]))
    q = read(tmp_path, doc)
    assert [(x.text, x.existing_answer) for x in q.questions] == [
        ("Vendor Name", "Acme Cloud Ltd"),
        ("Headquarters", "London"),
        ("Residual risk (Low, medium or high)", None),
        ("Effect on risk (Eliminated reduced accepted)", None),
        ("Measure approved (Yes/no)", "Yes"),
        ("How is AC-2 implemented? (Description of how AC-2 is implemented; Customer Responsibilities)", None),
        ("Legal entity (Registered legal name)", None),
        ("Registered office (Street and city)", None),
        ("Parent company (if any)", None),
    ]


def test_records_revision_history_and_front_matter_are_not_questions(tmp_path):
    doc = wf.new()
    doc.add_heading("Revision History", level=1)
    wf.add(doc, wf.table([["Date", "Version", "Author"], ["", "", ""], ["", "", ""]]))
    doc.add_heading("Hardware inventory", level=1)
    wf.add(doc, wf.table([["Hostname", "Make", "Model"], ["", "", ""], ["", "", ""]]))
    doc.add_paragraph("Do you patch monthly?", style="List Number")
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == ["Do you patch monthly?"]
    assert any("list of records" in n for n in q.notes)


def test_corrections_exclude_include_and_like(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Do you have a security policy?", style="List Number")
    doc.add_paragraph("Is it reviewed yearly?", style="List Number")
    doc.add_paragraph("Our staff is trained", style="Intense Quote")
    doc.add_paragraph("Our vendors are assessed", style="Intense Quote")
    path = wf.save(doc, tmp_path / "q.docx")
    q = read_questionnaire(path)
    assert len(q.questions) == 2
    first = f"{q.questions[0].sheet}!{q.questions[0].question_cell}"
    trained = 3  # "Our staff is trained": the document's third paragraph
    fewer = read_questionnaire(path, exclude=[first])
    assert [x.text for x in fewer.questions] == ["Is it reviewed yearly?"]
    more = read_questionnaire(path, include=[str(trained)])
    added = by_text(more, "trained")
    assert places(more, added)[1].kind is PlaceKind.NEW_PARAGRAPH
    key = f"Document!{added.question_cell}"
    like = read_questionnaire(path, include=[str(trained)], like=[key])
    assert {x.text for x in like.questions} >= {"Our staff is trained", "Our vendors are assessed"}
    assert [x.row for x in fewer.questions] == [q.questions[1].row]  # a correction moves no other question's key


def test_docm_is_read_and_doc_refused_in_one_line(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Do you scan for vulnerabilities?", style="List Number")
    docx_path = wf.save(doc, tmp_path / "q.docx")
    docm = tmp_path / "q.docm"
    docm.write_bytes(docx_path.read_bytes())
    assert read_questionnaire(docm).questions[0].text == "Do you scan for vulnerabilities?"
    old = tmp_path / "old.doc"
    old.write_bytes(b"\xd0\xcf\x11\xe0" + b"\0" * 100)
    with pytest.raises(QuestionnaireError, match=r"old Word 97–2003 document .*save it as \.docx"):
        read_questionnaire(old)


def test_a_cut_off_docx_is_refused_in_the_products_words_not_the_zip_librarys(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Do you scan for vulnerabilities?", style="List Number")
    whole = wf.save(doc, tmp_path / "whole.docx").read_bytes()
    cut = tmp_path / "cut.docx"
    cut.write_bytes(whole[: len(whole) // 2])  # the zip directory is at the end: gone
    with pytest.raises(QuestionnaireError) as refused:
        read_questionnaire(cut)
    line = str(refused.value)
    assert "cut.docx" in line and "damaged, cut off or not a .docx" in line and "save it again as .docx" in line
    assert "zip" not in line.lower()


def test_a_document_without_questions_is_refused_in_one_line(tmp_path):
    doc = wf.new()
    doc.add_paragraph("Just a letter, nothing to answer.")
    with pytest.raises(QuestionnaireError, match="no questions found"):
        read(tmp_path, doc)


def test_qualifiers_the_document_states_govern_its_questions(tmp_path):
    """'If No, skip to section 4' in a question's row governs the questions up to section 4's first
    (4.1); 'If you answered No, go to question 4.' in a paragraph of its own after a numbered
    question is read with that question, and governs the ones up to question 4; answered No, they
    are not required, answered Yes they are (engine/questionnaire/qualifiers.py's wording rules)."""
    doc = wf.new()
    doc.add_heading("1 General", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"],
                          ["1.1", "Do you process protected health information? If No, skip to section 4.", "☐ Yes ☐ No"],
                          ["1.2", "Describe how you secure your office.", ""]]))  # fmt: skip
    doc.add_heading("2 Health data", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"], ["2.1", "Describe how health data is encrypted.", ""],
                          ["2.2", "Describe who can read health data.", ""]]))  # fmt: skip
    doc.add_heading("4 Closing", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"], ["4.1", "Describe anything else we should know.", ""]]))
    doc.add_paragraph("Do you sign business associate agreements?", style="List Number")
    doc.add_paragraph("If you answered No, go to question 4.", style="List Paragraph")
    for text in ("List your business associates.", "Describe your breach process.", "Describe your audit process."):
        doc.add_paragraph(text, style="List Number")
    q = read(tmp_path, doc)
    ids = [x.id for x in q.questions]
    assert ids == ["1.1", "1.2", "2.1", "2.2", "4.1", "1", "2", "3", "4"]
    baa = q.questions[5]
    assert baa.text == "Do you sign business associate agreements? If you answered No, go to question 4."
    assert baa.existing_answer is None  # the instruction is no answer written under the question

    phi, sign = find_qualifiers(q)
    assert (phi.id, phi.section, phi.governs_ids, phi.required_when) == (
        "1.1",
        "up to section 4",
        ("1.2", "2.1", "2.2"),
        ("yes",),
    )
    assert phi.off_when == ("No",) and phi.source is QualifierSource.WORDING
    assert (sign.id, sign.section, sign.governs_ids) == ("1", "up to question 4", ("2", "3"))
    off = gates((phi, sign), {phi.key: ("No", None), sign.key: ("Yes, with every processor.", None)})
    assert {k: g.required for k, g in off.items()} == {
        **{key: False for key in phi.governs},
        **{key: True for key in sign.governs},
    }
    assert off[phi.governs[0]].reason == "not required (1.1 = No)"


def test_a_dropdown_control_in_a_table_cell_is_a_choice(tmp_path):
    """A content-control drop-down in a table's answer cell is the row's choice (its items the options),
    not a text cell the answer would be typed into beside the control."""
    doc = wf.new()
    level = wf.para(wf.sdt_dropdown("conf", ["Low", "Moderate", "High"]))
    wf.add(doc, wf.table([["Question", "Response"], ["What is the confidentiality level of the data?", level],
                          ["Describe the boundary.", ""]]))  # fmt: skip
    q = read(tmp_path, doc)
    level = by_text(q, "confidentiality level")
    choice, text = places(q, level)
    assert level.choices == ("Low", "Moderate", "High") and text is None
    assert choice.kind is PlaceKind.CONTENT_CONTROL and choice.control == "dropdown"
    assert places(q, by_text(q, "boundary"))[1].kind is PlaceKind.TABLE_CELL  # a text cell stays one


def test_a_requirement_table_of_one_row_is_read_under_its_header(tmp_path):
    """A table titled over "ID | % | Requirement" with one row ("CO01 | 40% | Please complete Annex 3"):
    the row is a requirement to answer, not a second header row, even though it does not ask."""
    doc = wf.new()
    table = wf.table(
        [["gs2:ID", "%", "Requirement"], ["gs2:CO01", "40%", "Please complete Annex 3 (Pricing Approach)"]]
    )
    title = '<w:tr><w:tc><w:tcPr><w:gridSpan w:val="4"/></w:tcPr><w:p><w:r><w:t>Commercial – 40%</w:t></w:r></w:p></w:tc></w:tr>'
    wf.add(doc, table.replace("</w:tblGrid>", "</w:tblGrid>" + title, 1))
    q = read(tmp_path, doc)
    assert [(x.id, x.text) for x in q.questions] == [("CO01", "Please complete Annex 3 (Pricing Approach)")]


def test_numbered_instructions_and_a_signature_block_are_no_questions(tmp_path):
    """Numbered items under "Instructions" tell how to fill the document in; a table of "Supplier: /
    Date: / Name (print): / Position: / Signature:" beside empty cells is the signatory's block."""
    doc = wf.new()
    doc.add_paragraph("Instructions")
    doc.add_paragraph("Provide Company Name and Contact details above.", style="List Number")
    doc.add_paragraph("Complete Part 1 ensuring all answers are inserted in the space below.", style="List Number")
    doc.add_paragraph("Part 1")
    doc.add_paragraph("Describe your approach to data retention.", style="List Number")
    wf.add(doc, wf.table([["Supplier:", ""], ["Date:", ""], ["Name (print):", ""], ["Position:", ""],
                          ["Signature:", ""]]))  # fmt: skip
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == ["Describe your approach to data retention."]
    assert any("signature block" in n for n in q.notes)


def test_typed_numbers_yes_no_lines_and_a_run_of_answers_to_pick(tmp_path):
    """A council's pass/fail questionnaire: questions numbered by hand ("3.1 Do you …?", "C-1 Please
    provide …"), a "Yes/No" line under a question (a pick written in place of the options it lists, which
    are no answer), "… Yes/No" closing the question's own line (a pick written after them), and boxes
    "Yes …" / "No …" on lines apart (one pick)."""
    doc = wf.new()
    doc.add_paragraph("3.1 Do you have an environmental policy? If so please provide a copy")
    doc.add_paragraph("Yes/No/Not Applicable")
    doc.add_paragraph("Bidders who answer 'No' will fail.")
    doc.add_paragraph("Please confirm if your organisation has an annual turnover of £36m or more Yes/No")
    doc.add_paragraph("2.1 Please confirm that your organisation has the required level of cover")
    wf.add(doc, wf.para(wf.formcheckbox(), wf.text(" Yes have levels of cover already")))
    doc.add_paragraph("")
    wf.add(doc, wf.para(wf.formcheckbox(), wf.text(" No have not got cover")))
    doc.add_paragraph("C-1 Please provide details of your previous experience, labelled as C-1.")
    q = read(tmp_path, doc)
    assert [x.text[:24] for x in q.questions] == ["Do you have an environme", "Please confirm if your o",
                                                  "Please confirm that your", "Please provide details o"]  # fmt: skip
    assert [x.id for x in q.questions] == ["3.1", None, "2.1", "C-1"]  # the typed number: the ID, not the words
    env, turnover, cover, c1 = q.questions
    assert places(q, env)[0].kind is PlaceKind.PARAGRAPH and env.existing_choice is None
    assert env.choices == ("Yes", "No", "Not Applicable") and env.text_cell is None
    assert places(q, turnover)[0].kind is PlaceKind.AFTER_LABEL and turnover.choices == ("Yes", "No")
    assert cover.choices == ("Yes have levels of cover already", "No have not got cover")
    assert places(q, c1)[1].kind is PlaceKind.NEW_PARAGRAPH


def test_a_table_shown_as_an_example_is_no_question(tmp_path):
    """A table right after "Example:" shows how to fill in the one below it: not questions (a note
    says so); the table to fill in is read."""
    doc = wf.new()
    doc.add_paragraph("Example:")
    wf.add(doc, wf.table([["Information Type", "NIST Identifier"], ["System Development", "C.3.5.1"]]))
    doc.add_paragraph("Table 2-2. Sensitivity Categorization of Information Types")
    wf.add(doc, wf.table([["Question", "Response"], ["Which information types does the system process?", ""]]))
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == ["Which information types does the system process?"]
    assert any("follows 'Example:'" in n for n in q.notes)


def test_a_column_headed_by_a_short_question_and_a_list_of_the_authors_prompts(tmp_path):
    """ "SCHEDULE HEADING | COMPLETED?" is a header (a column's heading asked of every row), so each
    schedule is a row to answer; "[Insert Aim]" under "[Insert Contract Length …]" is the author's
    list of prompts, not a question each."""
    doc = wf.new()
    wf.add(doc, wf.table([["SCHEDULE HEADING", "COMPLETED?"], ["Schedule 5 – Business Questionnaire", ""],
                          ["Schedule 6 – Legal Obligations", ""]]))  # fmt: skip
    doc.add_paragraph("[Insert Contract Length and intended Start Date]")
    doc.add_paragraph("[Insert Aim]")
    doc.add_paragraph("[Insert Timetable]")
    q = read(tmp_path, doc)
    assert [x.text.split(": ")[-1] for x in q.questions] == ["Schedule 5 – Business Questionnaire",
                                                   "Schedule 6 – Legal Obligations"]  # fmt: skip


def _text_box(text: str = "") -> str:
    """A run anchoring a text box (Word's drawing, its older readers' VML copy left out)."""
    inner = wf.para(wf.text(text)) if text else "<w:p/>"
    return (
        '<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice '
        'Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
        'wordprocessingDrawing"><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
        '<a:graphicData><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        f"<wps:txbx><w:txbxContent>{inner}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic>"
        "</wp:anchor></w:drawing></mc:Choice></mc:AlternateContent></w:r>"
    )


def test_a_label_beside_an_empty_text_box_is_answered_in_the_box(tmp_path):
    """ "A-2 Registration Number" anchoring an empty text box, "Telephone/Mobile" under an empty
    paragraph anchoring one: each a question answered in its box; a text box holding text (a
    banner) is no place; the export writes into the box and passes the no-other-change check."""
    from engine.questionnaire.export import export
    from engine.questionnaire.writes import CellWrite

    doc = wf.new()
    wf.add(doc, wf.para(_text_box("5 BUSINESS QUESTIONNAIRE")))
    wf.add(doc, wf.para(wf.text("A-2 Registration Number"), _text_box()))
    doc.add_paragraph("")
    wf.add(doc, wf.para(_text_box()))
    doc.add_paragraph("Telephone/Mobile")
    q = read(tmp_path, doc)
    assert [(x.id, x.text) for x in q.questions] == [("A-2", "Registration Number"), (None, "Telephone/Mobile")]
    assert all(places(q, x)[1].kind is PlaceKind.PARAGRAPH for x in q.questions)
    x = q.questions[0]
    out = export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.text_cell, "01234567")], q)
    assert "01234567" in wf.docx.Document(str(out)).element.xml


def test_a_signature_block_with_an_address_over_two_rows_is_no_question(tmp_path):
    """ "SIGNED for and on behalf of the Supplier / Print Name and Address" over an empty second row
    for the address: still the signatory's block."""
    doc = wf.new()
    doc.add_paragraph("Describe the service you offer?", style="List Number")
    wf.add(doc, wf.table([["SIGNED for and on behalf of the Supplier", ""], ["Print Name and Address", ""], ["", ""],
                          ["In the presence of - Signature:", ""], ["Print Name and Address", ""], ["", ""]]))  # fmt: skip
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == ["Describe the service you offer?"]


def test_a_y_n_column_filled_in_is_read_back_as_answers(tmp_path):
    """A submission checklist "Document | Y / N" is read as questions answered in the Y / N column,
    also once every row is filled in (a returned questionnaire), not taken for a reference table."""
    rows = [["Document", "Y / N"], ["1. Confirm acceptance of the Terms and Conditions", "Y"],
            ["2. Confirm you have included one copy of a previous report", "N"],
            ["3. Confirm you have included copies of the CVs", "Y"]]  # fmt: skip
    doc = wf.new()
    wf.add(doc, wf.table(rows, widths=3))  # three grid columns, as the British Council checklist
    q = read(tmp_path, doc)
    assert [x.existing_answer for x in q.questions] == ["Y", "N", "Y"]


def test_a_sentence_of_prose_in_a_headings_style_is_no_section_title(tmp_path):
    """Charnwood's ITT sets "N.B. Tenders, cannot be opened …" in a heading's style; its checklist's
    rows were read as "N.B. Tenders, …: Schedule 5 – Business Questionnaire"."""
    doc = wf.new()
    note = (
        "N.B. Tenders cannot be opened until after the deadline has expired, so returning one early is no disadvantage."
    )
    doc.add_heading(note, level=2)
    wf.add(doc, wf.table([["SCHEDULE HEADING", "COMPLETED?"], ["Schedule 5 – Business Questionnaire", ""],
                          ["Schedule 6 – Legal Obligations", ""]]))  # fmt: skip
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == ["Schedule 5 – Business Questionnaire", "Schedule 6 – Legal Obligations"]

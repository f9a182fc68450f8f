"""The families issue #55 lists as read wrong on unseen Word files, drawn small (generated documents):
each test fails on the reader before the fix it pins."""

from __future__ import annotations

from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import place_key
from engine.questionnaire.writes import CellWrite
from tests import word_fixtures as wf


def _attestation(tmp_path):
    """An attestation form of legacy form fields: a date field shipped showing "YYYY-MM-DD", and Yes/No
    drop-downs whose first entry (shown until someone picks) is the prompt "?"."""
    doc = wf.new()
    doc.add_heading("Attestation", level=1)
    wf.add(doc, wf.para(wf.text("Date of assessment: "), wf.formtext(default="YYYY-MM-DD")))
    wf.add(doc, wf.para(wf.text("Does the organisation keep an inventory of its systems? "),
                        wf.formdropdown(["?", "Yes", "No"])))  # fmt: skip
    wf.add(doc, wf.table([["Requirement", "Compliant"],
                          ["Is the inventory reviewed each year?", wf.para(wf.formdropdown(["?", "Yes", "No"]))],
                          ["Are leavers' accounts removed within a day?", wf.para(wf.formdropdown(["-", "Yes", "No"]))]]))  # fmt: skip
    return read_questionnaire(wf.save(doc, tmp_path / "attestation.docx"))


def test_a_legacy_dropdowns_prompt_entry_is_no_option_and_no_answer(tmp_path):
    q = _attestation(tmp_path)
    got = [(x.text, x.choices, x.existing_choice, x.existing_answer) for x in q.questions]
    assert got == [
        ("Date of assessment", (), None, None),
        ("Does the organisation keep an inventory of its systems?", ("Yes", "No"), None, None),
        ("Is the inventory reviewed each year?", ("Yes", "No"), None, None),
        ("Are leavers' accounts removed within a day?", ("Yes", "No"), None, None),
    ]
    assert not any(x.answered for x in q.questions)


def test_a_legacy_dropdown_picked_is_read_back_as_picked(tmp_path):
    q = _attestation(tmp_path)
    picks = ["Yes", "No", "Yes"]
    cells = [CellWrite(x.sheet, x.choice_cell, v) for x, v in zip(q.questions[1:], picks)]
    cells.append(CellWrite(q.questions[0].sheet, q.questions[0].text_cell, "2026-12-03"))
    back = read_questionnaire(export(q.path, tmp_path / "answered.docx", cells, q))
    assert [x.existing_choice for x in back.questions[1:]] == picks
    assert back.questions[0].existing_answer == "2026-12-03"


def test_a_note_set_before_a_checklist_question_goes_after_it(tmp_path):
    """A Japanese checklist (header "No. | 確認項目 | はい | いいえ | 備考") whose question cells open with a
    translator's or author's note: "（注）" / "※" / "Note:" in a paragraph of its own or as the first
    sentence. The question's text starts with what it asks; the note follows in brackets."""
    doc = wf.new()
    two = lambda note, asked: wf.para(wf.text(note)) + wf.para(wf.text(asked))  # noqa: E731
    wf.add(doc, wf.table([["No.", "確認項目", "はい", "いいえ", "備考"],
                          ["１", "情報セキュリティ方針を定めていますか。", "", "", ""],
                          ["２", two("（注）ここでいう委託先には再委託先を含む。", "委託先の管理を行っていますか。"), "", "", ""],
                          ["３", two("※年に一回以上", "アクセス権の見直しを行っていますか。"), "", "", ""],
                          ["４", "Note: see annex B. バックアップを取得していますか。", "", "", ""],
                          ["５", "Do you keep logs? Note: for a year.", "", "", ""]]))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "checklist.docx"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("１", "情報セキュリティ方針を定めていますか。"),
        ("２", "委託先の管理を行っていますか。 (（注）ここでいう委託先には再委託先を含む。)"),
        ("３", "アクセス権の見直しを行っていますか。 (※年に一回以上)"),
        ("４", "バックアップを取得していますか。 (Note: see annex B.)"),
        ("５", "Do you keep logs? Note: for a year."),  # a note after the question stays where it is
    ]
    assert {x.choices for x in q.questions} == {("はい", "いいえ")}  # the header row: the options, no question


def _checklist(tmp_path, *header: list[str]):
    doc = wf.new()
    asked = [
        "情報セキュリティ方針を定めていますか。",
        "委託先の管理を行っていますか。",
        "アクセス権の見直しを行っていますか。",
    ]
    wf.add(doc, wf.table([*header, *([str(i), t, "", "", ""] for i, t in enumerate(asked, 1))]))
    return read_questionnaire(wf.save(doc, tmp_path / "checklist.docx")), asked


def test_a_checklists_header_labelled_in_two_languages_is_its_header(tmp_path):
    """A translated checklist labels each column in both languages ("はい / Yes", "Yes（はい）"): the header
    row is no question, no question is lost, and the answer's text goes in the notes column, never "Yes"."""
    for header, options, notes in (
        (
            ["項番 / No.", "確認事項 / Item", "はい / Yes", "いいえ / No", "備考 / Remarks"],
            ("Yes", "No"),
            "備考: Remarks",
        ),
        (
            ["No.", "Item", "Yes（はい）", "No（いいえ）", "Notes（備考）"],
            ("Yes（はい）", "No（いいえ）"),
            "Notes（備考）",
        ),
    ):
        q, asked = _checklist(tmp_path, header)
        assert [(x.id, x.text, x.choices) for x in q.questions] == [
            (str(i), t, options) for i, t in enumerate(asked, 1)
        ]
        text_places = [q.places[place_key(x.sheet, x.text_cell)] for x in q.questions]
        assert [(p.locator.endswith("w:tc[5]"), p.column) for p in text_places] == [(True, notes)] * 3


def test_a_header_row_said_again_in_another_language_is_header_too(tmp_path):
    """ "項番 | 確認項目 | はい | いいえ | 備考" over "No. | Item | Yes | No | Remarks": both rows are the header."""
    q, asked = _checklist(
        tmp_path, ["項番", "確認項目", "はい", "いいえ", "備考"], ["No.", "Item", "Yes", "No", "Remarks"]
    )
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        (str(i), t, ("Yes", "No")) for i, t in enumerate(asked, 1)
    ]
    assert {q.places[place_key(x.sheet, x.text_cell)].column for x in q.questions} == {"備考: Remarks"}


def test_a_header_cell_that_says_its_label_again_on_a_line_of_its_own_is_one_label(tmp_path):
    """ "はい" over "Yes" in one header cell, two paragraphs (a bilingual form's print): the cell is one label
    and its translation, as "はい / Yes" is; the header row is no question and the first question is kept."""
    two = [wf.para(wf.text(a)) + wf.para(wf.text(b)) for a, b in
           (("項番", "No."), ("確認項目", "Item"), ("はい", "Yes"), ("いいえ", "No"), ("備考", "Remarks"))]  # fmt: skip
    q, asked = _checklist(tmp_path, two)
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        (str(i), t, ("Yes", "No")) for i, t in enumerate(asked, 1)
    ]
    assert {q.places[place_key(x.sheet, x.text_cell)].column for x in q.questions} == {"備考: Remarks"}


def test_a_form_grids_question_names_its_column_by_the_header_cells_first_line(tmp_path):
    """A row to fill under a header whose cells say their label again in another language on a line of their
    own ("Notes" over "Remarques", "Date" over "Datum"): each question names its column as the form without
    the translation does ("Data in Transit: Notes"), not "Notes Remarques"; a one-line label stays whole."""
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Data in Transit")))
    two = [wf.para(wf.text(a)) + wf.para(wf.text(b)) for a, b in (("Date", "Datum"), ("Notes", "Remarques"))]
    wf.add(doc, wf.table([[two[0], "CMVP #", two[1]], ["", "", ""]]))
    q = read_questionnaire(wf.save(doc, tmp_path / "grid.docx"))
    assert [x.text for x in q.questions] == [
        "Data in Transit: Date",
        "Data in Transit: CMVP #",
        "Data in Transit: Notes",
    ]
    places = [q.places[place_key(x.sheet, x.text_cell)].locator for x in q.questions]
    assert places == [f"/w:document/w:body/w:tbl/w:tr[2]/w:tc[{c}]" for c in (1, 2, 3)]  # the row to fill


def _attachments(tmp_path, swap: bool, repeat: bool):
    """An SSP's attachments table: "Attachment | File Name | File Extension", each row an attachment, a
    control for its file name (a number typed after it) and ". " before a control for its extension."""
    head = ["Attachment", "File Name", "File Extension"]
    rows = []
    for i, name in enumerate(["Information Security Policies", "User Guide", "Rules of Behavior", "Inventory"]):
        fields = [wf.para(wf.sdt_text("name", "Enter File Name"), wf.text(f" A{i + 1} v1.0")),
                  wf.para(wf.text(". "), wf.sdt_text("ext", "enter extension"))]  # fmt: skip
        rows.append([name, *(fields[::-1] if swap else fields)])
    rows.insert(2, ["FIPS 199", *(["", "Included in Section 15"] if swap else ["Included in Section 15", ""])])
    head = [head[0], head[2], head[1]] if swap else head
    body = [head, *rows[:3], *([head] if repeat else []), *rows[3:]]
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Table 15-1. Names of Provided Attachments")))
    wf.add(doc, wf.table(body))
    wf.add(doc, wf.para(wf.text("Information System Owner")))
    wf.add(doc, wf.table([[x, wf.para(wf.sdt_text(x, f"Enter {x}"))] for x in ("Name", "Title", "Company")]))
    return read_questionnaire(wf.save(doc, tmp_path / "attachments.docx"))


def test_a_list_of_records_shipped_with_a_control_per_field_is_no_question_in_any_column_order(tmp_path):
    """A list of attachments whose rows each hold controls for the file's name and extension is filled in
    by hand, row by row: no question whichever order its last two columns come in, its header repeated or
    not (main read three or eleven questions named by a placeholder or an attachment); a form's label beside
    its control is still a question."""
    for swap in (False, True):
        for repeat in (False, True):
            q = _attachments(tmp_path, swap, repeat)
            assert [x.text for x in q.questions] == [
                f"Information System Owner: {x}" for x in ("Name", "Title", "Company")
            ], (swap, repeat)


def test_an_empty_row_over_a_placeholder_row_leaves_the_answer_in_the_placeholders_row(tmp_path):
    """A PIA's one-column table: each question over a "Click here to enter explanation." row, one with an
    empty row between them (a spacer): its answer goes in the placeholder's row, not the empty one, and the
    answers written there are read back in their places."""
    doc = wf.new()
    hint = "Click here to enter explanation."
    asked = ["Are there any data fields that hold PII?", "Can individuals opt out of PII fields?", "Is PII shared?"]
    wf.add(doc, wf.table([[asked[0]], [hint], [asked[1]], [""], [hint], [asked[2]], [hint]]))
    q = read_questionnaire(wf.save(doc, tmp_path / "pia.docx"))
    assert [x.text for x in q.questions] == asked
    places = [q.places[place_key(x.sheet, x.text_cell)].locator for x in q.questions]
    assert places == [f"/w:document/w:body/w:tbl/w:tr[{r}]/w:tc" for r in (2, 5, 7)]
    answers = ["Name and e-mail only.", "Yes, by leaving them empty.", "No."]
    cells = [CellWrite(x.sheet, x.text_cell, a) for x, a in zip(q.questions, answers)]
    back = read_questionnaire(export(q.path, tmp_path / "answered.docx", cells, q))
    assert [(x.text, x.existing_answer) for x in back.questions] == list(zip(asked, answers))
    assert [back.places[place_key(x.sheet, x.text_cell)].locator for x in back.questions] == places


def _levels(tmp_path, place: str, head: str, before: str = "Table 4. Digital Identity Level", name: str = "levels"):
    """A table whose rows are the options of one choice: "Level | Maximum Impact Profile | <head>", a level
    a row, ``place`` the cell of its pick (a check box control, a "☐", or an empty cell to mark)."""
    doc = wf.new()
    wf.add(doc, wf.para(wf.text(before)))
    rows = [["Level 1: AAL1, IAL1", "Low"], ["Level 2: AAL2, IAL2", "Moderate"], ["Level 3: AAL3, IAL3", "High"]]
    wf.add(doc, wf.table([["Digital Identity Level", "Maximum Impact Profile", head],
                          *([*r, place] for r in rows)]))  # fmt: skip
    return read_questionnaire(wf.save(doc, tmp_path / f"{name}.docx"))


def test_a_table_whose_rows_are_the_options_of_one_choice_is_one_choice(tmp_path):
    """Under a header whose box column names the pick ("Selection", "Auswahl", "選択"), or after a caption
    that asks for one ("Select one." over a box column headed "Status"), a level a row with its box (or an
    empty cell to mark "X") is one choice among the rows, its options the levels (main read a Yes/No question
    per row, named by its profile); the level picked is written in its row and read back."""
    levels = ("Level 1: AAL1, IAL1", "Level 2: AAL2, IAL2", "Level 3: AAL3, IAL3")
    boxes = wf.para(wf.sdt_checkbox())
    for i, (place, head, before) in enumerate([
        (boxes, "Selection", "Table 4. Digital Identity Level"),
        ("☐", "Auswahl", "Tabelle 4"),
        ("", "Sélection", "Tableau 4"),
        (boxes, "選択", "表 4"),
        (boxes, "Status", "Select one."),
    ]):  # fmt: skip
        q = _levels(tmp_path, place, head, before, name=f"levels{i}")
        assert [(x.choices, x.text_cell) for x in q.questions] == [(levels, None)], (head, q.questions)
        assert "Digital Identity Level" in q.questions[0].text
        x = q.questions[0]
        options = q.places[place_key(x.sheet, x.choice_cell)].options
        cells = [loc.split("/w:p")[0] for _, loc in options]  # the box in the cell, or the cell to mark
        assert cells == [f"/w:document/w:body/w:tbl/w:tr[{r}]/w:tc[3]" for r in (2, 3, 4)], options
        picked = [CellWrite(x.sheet, x.choice_cell, levels[1])]
        back = read_questionnaire(export(q.path, tmp_path / f"picked{i}.docx", picked, q))
        assert [y.existing_choice for y in back.questions] == [levels[1]], head


def test_a_checklist_whose_box_column_asks_of_every_row_is_still_a_pick_per_row(tmp_path):
    """A box column headed by a question asked of every row ("Included?"), or by no word that names a pick,
    with nothing before the table asking for one: each row is its own yes/no question, as before."""
    for head, before in (("Included?", "Table 4. Documents"), ("Status", "Table 4. Documents")):
        q = _levels(tmp_path, wf.para(wf.sdt_checkbox()), head, before, name="checklist")
        assert len(q.questions) == 3, (head, [x.text for x in q.questions])


def test_labels_over_the_documents_own_links_are_references_not_questions(tmp_path):
    """A list of the links a document gives ("… links to policies are detailed below:" over "Health and
    Safety Policy:" and its policy's web address, "Environmental Policy" and its): references, not questions
    answered by their addresses (main read each label with a colon as a question already answered); a form's
    "Website:" answered with an address, beside another, is still a question with its answer."""
    doc = wf.new()
    doc.add_heading("Council Policies", level=1)
    doc.add_paragraph("The Contractor shall comply with all Council policies, links to policies are detailed below: -")
    for label, url in (("Health and Safety Policy:", "https://example.gov.uk/pages/health_and_safety"),
                       ("Equal Opportunities Policy:", "https://example.gov.uk/files/equal_opportunities.pdf"),
                       ("Environmental Policy", "https://example.gov.uk/files/environmental_policy.pdf")):  # fmt: skip
        doc.add_paragraph(label)
        doc.add_paragraph(url)
        doc.add_paragraph("")
    doc.add_heading("Supplier details", level=1)
    for label, value in (("Company name:", "Acme Cloud Ltd"), ("Website:", "https://acme.example"),
                         ("LinkedIn page:", "https://www.linkedin.com/company/acme")):  # fmt: skip
        doc.add_paragraph(label)
        doc.add_paragraph(value)
    q = read_questionnaire(wf.save(doc, tmp_path / "links.docx"))
    assert [(x.text, x.existing_answer) for x in q.questions] == [
        ("Company name", "Acme Cloud Ltd"),
        ("Website", "https://acme.example"),
        ("LinkedIn page", "https://www.linkedin.com/company/acme"),
    ]

"""Word questionnaires saved by another word processor (issue #55, engine/bench/word_resaved.py): the
reader's rules for what LibreOffice writes differently, each on a small document written the way
LibreOffice writes it (tests/word_fixtures.py), read, exported and read back."""

from __future__ import annotations

from pathlib import Path

from engine.bench.document_intake import answers_for, round_trip
from engine.bench.document_places import Addresses
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import place_key
from tests.word_fixtures import (
    SAQ_OPTIONS,
    add,
    element,
    lettered_lists,
    listed,
    lo_formcheckbox,
    lo_sdt_checkbox,
    new,
    para,
    saq_table,
    save,
    symbol_text,
    table,
    text,
)

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
ROWS = [
    ("1.3.1", "Inbound traffic to the CDE is restricted.", "Examine NSC configurations."),
    ("1.3.2", "Outbound traffic from the CDE is restricted.", "Examine NSC configurations."),
    ("1.3.3", "NSCs are installed between all wireless networks and the CDE.", "Examine configuration settings."),
]


def _saq_as_libreoffice_saves_it(tmp_path: Path) -> Path:
    """A PCI SAQ requirement table as LibreOffice saves it: the "Response" header's footnote mark (the
    Symbol font's ♦, a ``w:sym`` in Word's file) written as a private-use character in a Symbol-font run,
    each box a legacy checkbox field in LibreOffice's form."""
    doc = new()
    table = saq_table(doc, ROWS)
    response = table.cell(0, 3).paragraphs[0]._p
    response.append(element(symbol_text("F0A8")))
    mark = 1
    for r in range(2, 2 + len(ROWS)):
        for c in range(3, 7):
            p = table.cell(r, c).paragraphs[0]._p
            for run in p.findall(f"{W}r"):
                p.remove(run)
            for run in element(f"<w:p>{lo_formcheckbox(mark)}</w:p>"):
                p.append(run)
            mark += 1
    return save(doc, tmp_path / "saq_saved.docx")


def test_a_symbol_fonts_glyph_written_as_text_is_read_as_its_w_sym(tmp_path):
    """The header's "Response♦" (a footnote mark in the Symbol font, written as text) is "Response": the
    row's four boxes one choice of the four options, the requirement its question (main's reader took the
    mark for a Wingdings box: each box a question of no text)."""
    path = _saq_as_libreoffice_saves_it(tmp_path)
    q = read_questionnaire(path)
    assert [(x.id, x.choices) for x in q.questions] == [(i, SAQ_OPTIONS) for i, _, _ in ROWS]
    assert [x.text for x in q.questions] == [text for _, text, _ in ROWS]
    written = tmp_path / "answered.docx"
    export(path, written, answers_for(q), q)
    back = round_trip(q, read_questionnaire(written))
    assert back["choices_back"] == back["choices"] == len(ROWS), back


STATUS = ("Implemented", "Partially implemented", "Planned")


def test_a_checkbox_control_inside_an_untyped_control_is_a_box_not_a_text_place(tmp_path):
    """The FedRAMP SSP's "Implementation Status (check all that apply):" over one box control per status,
    each as LibreOffice saves it (an untyped control around the box control): one choice of several, its
    options the statuses, no text place on the first box (main's reader took the outer control for a text
    control and wrote the text answer over the first box: a choice of two read back as one)."""
    doc = new()
    cell = "".join(
        [para(text("Implementation Status (check all that apply):"))]
        + [para(lo_sdt_checkbox(id_=10 + i), text(f" {label}")) for i, label in enumerate(STATUS)]
    )
    add(doc, para(text("AC-1 Control Summary Information")))
    add(doc, table([[cell]]))
    path = save(doc, tmp_path / "status_saved.docx")
    q = read_questionnaire(path)
    assert [(x.choices, x.several, x.text_cell) for x in q.questions] == [(STATUS, True, None)]
    written = tmp_path / "answered.docx"
    export(path, written, answers_for(q), q)
    assert read_questionnaire(written).questions[0].existing_choice == "Implemented; Partially implemented"


BORDERS = (
    '<w:tcBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/>'
    '<w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/></w:tcBorders>'
)
REQUESTS = [
    ("QU01", "Please provide a detailed overview of the project team and your experience."),
    ("QU02", "Highlight any specific research methodological strengths of your approach."),
    ("MA01", "Please provide a clear review methodology and plan."),
]


def _requirements_table(margin: str) -> str:
    """An ID / Requirement table, each cell drawing its borders, each row ending in a margin: Word's
    ``w:gridAfter`` (``margin`` "word") or LibreOffice's empty cell without borders ("libreoffice")."""
    rows = []
    for cells in [("ID", "Requirement"), *REQUESTS]:
        tcs = "".join(f"<w:tc><w:tcPr>{BORDERS}</w:tcPr>{para(text(c))}</w:tc>" for c in cells)
        if margin == "word":
            rows.append(f'<w:tr><w:trPr><w:gridAfter w:val="1"/></w:trPr>{tcs}</w:tr>')
        else:
            rows.append(f"<w:tr>{tcs}<w:tc><w:tcPr><w:tcBorders/></w:tcPr><w:p><w:r><w:rPr/></w:r></w:p></w:tc></w:tr>")
    grid = '<w:gridCol w:w="900"/><w:gridCol w:w="8000"/><w:gridCol w:w="700"/>'
    return f"<w:tbl><w:tblPr/><w:tblGrid>{grid}</w:tblGrid>{''.join(rows)}</w:tbl>"


def test_a_rows_empty_borderless_last_cell_is_its_margin_not_a_column(tmp_path):
    """The British Council's requirement tables, whose rows end in a margin (Word's ``w:gridAfter``),
    saved by LibreOffice (the margin an empty cell drawing no border): read as Word's, each request
    answered in its own cell (main's reader took the margins for an answer column)."""
    read = {}
    for margin in ("word", "libreoffice"):
        doc = new()
        add(doc, para(text("Quality")))
        add(doc, _requirements_table(margin))
        path = save(doc, tmp_path / f"{margin}.docx")
        q = read_questionnaire(path)
        where = Addresses(path)
        read[margin] = [
            (x.id, x.text, where.of(q.places[place_key(x.sheet, x.text_cell)].locator)) for x in q.questions
        ]
        written = tmp_path / f"answered_{margin}.docx"
        export(path, written, answers_for(q), q)
        back = round_trip(q, read_questionnaire(written))
        assert back["texts_back"] == back["texts"] == len(REQUESTS), (margin, back)
    assert [x[0] for x in read["word"]] == [i for i, _ in REQUESTS]  # each answered in its row's cell 1
    assert [x[2] for x in read["word"]] == [(0, r, 1) for r in (1, 2, 3)]
    assert read["libreoffice"] == read["word"]


SCHEME = [
    ("gs2:Question ", "Question Type", "Marking Scheme ", "Question weighting"),
    ("Section A Mandatory questions applicable to both lots",),
    ("All Lots", "Compliance with Framework Schedule 1 (Specification)", "Yes/No", "Pass/Fail", "N/A"),
    ("Lot 1a and Lot 1b", "Services you can provide", "Yes/No", "Pass/Fail", "N/A"),
    ("All Lots", "Social Value", "Yes/No", "Pass/Fail", "10%"),
]


def _scheme(form: str) -> str:
    """G-Cloud's marking-scheme table in a locked control wrapping the table (``form`` "word"), or as
    LibreOffice saves it ("libreoffice"): the control moved around the first cell's paragraph, its id
    alone left."""
    rows = [list(row) for row in SCHEME]
    if form == "libreoffice":
        label = rows[0][0][4:]
        rows[0][0] = (
            f'gs2:<w:sdt><w:sdtPr><w:id w:val="5"/></w:sdtPr><w:sdtContent>{para(text(label))}</w:sdtContent></w:sdt>'
        )
    tbl = table(rows, widths=5)
    tbl = tbl.replace(
        '<w:tr><w:tc><w:p><w:r><w:t xml:space="preserve">Section A',
        '<w:tr><w:tc><w:tcPr><w:gridSpan w:val="5"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">Section A',
    )
    if form == "word":
        return (
            '<w:sdt><w:sdtPr><w:lock w:val="contentLocked"/><w:id w:val="5"/><w:tag w:val="goog_rdk_0"/></w:sdtPr>'
            f"<w:sdtContent>{tbl}</w:sdtContent></w:sdt>"
        )
    return tbl


def test_a_control_wrapping_a_table_moved_into_its_first_cell_is_no_answer_place(tmp_path):
    """A table wrapped in a locked control, saved by LibreOffice (the control moved into the first cell,
    around its words "Question"): read as the table Word saved (main's reader took the first cell for a
    filled text control: the header row a question, its answer "Question")."""
    read = {}
    for form in ("word", "libreoffice"):
        doc = new()
        add(doc, para(text("Questionnaire, marking scheme and weightings")))
        add(doc, _scheme(form))
        add(doc, para(text("Do you adhere to relevant NCSC guidance?")))
        add(doc, table([["Yes"]]))
        q = read_questionnaire(save(doc, tmp_path / f"{form}.docx"))
        read[form] = [(x.text, x.existing_answer) for x in q.questions]
    assert read["libreoffice"] == read["word"]
    assert not any(answer == "Question" or text.startswith("Question") for text, answer in read["libreoffice"])


CONTROL = [  # (level, text): AC-2's items as the FedRAMP SSP writes them, under "The organization:"
    (0, "Monitors the use of information system accounts;"),
    (0, "Notifies account managers:"),
    (1, "When accounts are no longer required;"),
    (1, "When users are terminated or transferred; and"),
    (0, "Authorizes access to the information system based on:"),
    (1, "A valid access authorization;"),
    (1, "Intended system usage; and"),
]


def test_items_each_saved_with_its_own_list_of_one_definition_are_one_list(tmp_path):
    """A control's lettered list as LibreOffice saves it, each item naming its own ``w:num`` of the one
    definition (Word counts them as one list: (a), (b), (1), (2), (c)…), reads as the list Word saved
    with one ``w:num``: no item a question (main's reader took each item for a list of its own, so
    "Notifies account managers:" was a label and the item under it its answer)."""
    read = {}
    for form in ("word", "libreoffice"):
        doc = new()
        nums = lettered_lists(doc, len(CONTROL))
        add(doc, para(text("AC-2 What is the solution and how is it implemented?")))
        add(doc, table([[""]]))
        add(doc, para(text("The organization:")))
        for n, (level, line) in enumerate(CONTROL):
            add(doc, listed(line, nums[n] if form == "libreoffice" else nums[0], level))
        add(doc, para(text("AC-3 What is the solution and how is it implemented?")))
        add(doc, table([[""]]))
        path = save(doc, tmp_path / f"{form}.docx")
        read[form] = [(x.id, x.text, x.existing_answer) for x in read_questionnaire(path).questions]
    assert [x[:2] for x in read["word"]] == [
        ("AC-2", "What is the solution and how is it implemented?"),
        ("AC-3", "What is the solution and how is it implemented?"),
    ]
    assert read["libreoffice"] == read["word"]


def test_a_list_numbered_anew_is_a_list_of_its_own(tmp_path):
    """Lists of one definition each numbered anew (``w:startOverride``) stay lists of their own: a label
    ending a list ("Name:") over the one item of the next list is a label and its answer, as before."""
    doc = new()
    first, second = lettered_lists(doc, 2, restart=True)
    add(doc, listed("Monitors the use of information system accounts;", first))
    add(doc, listed("Name of the account manager:", first))
    add(doc, listed("Jane Smith", second))
    path = save(doc, tmp_path / "restarted.docx")
    q = read_questionnaire(path)
    assert [(x.text, x.existing_answer) for x in q.questions] == [("Name of the account manager", "Jane Smith")]


INVENTORY = [  # (level, text): CM-8's items, numbered "(a)" over "(1)" as LibreOffice saves them (drawn by Word too)
    (0, "Develops and documents an inventory of information system components that:"),
    (1, "Accurately reflects the current information system;"),
    (1, "Includes all components within the authorization boundary of the information system;"),
    (1, "Is at the level of granularity deemed necessary for tracking and reporting; and"),
    (0, "Reviews and updates the information system component inventory [Assignment: frequency]."),
]


def test_a_numbered_clause_opening_as_a_question_is_its_lead_ins_clause(tmp_path):
    """An item that opens with an interrogative ("Is at the level …") but ends as a clause of its list
    (";", "; and") goes on the sentence of its lead-in ("… components that:"): no question, numbered or
    not (main's reader took "(3) Is at the level …; and" for a numbered question with no place)."""
    doc = new()
    (num,) = lettered_lists(doc, 1)
    add(doc, para(text("CM-8 What is the solution and how is it implemented?")))
    add(doc, table([[""]]))
    add(doc, para(text("The organization:")))
    for level, line in INVENTORY:
        add(doc, listed(line, num, level))
    path = save(doc, tmp_path / "inventory.docx")
    q = read_questionnaire(path)
    assert [(x.id, x.text) for x in q.questions] == [("CM-8", "What is the solution and how is it implemented?")]


def test_an_interrogative_question_ending_as_a_sentence_is_still_asked(tmp_path):
    """The clause rule keeps a numbered question without a mark that ends as a sentence ("Is the system
    hosted … ."), answered in the cell under it."""
    doc = new()
    (num,) = lettered_lists(doc, 1)
    add(doc, listed("Is the information system hosted in a FedRAMP authorized data center.", num))
    add(doc, table([[""]]))
    path = save(doc, tmp_path / "asked.docx")
    q = read_questionnaire(path)
    assert [x.text for x in q.questions] == ["Is the information system hosted in a FedRAMP authorized data center."]

"""Flat PDF layouts of the #55 families, on PDFs drawn here with PyMuPDF (the shapes of the PCI SAQ's
and the UK PPN 03/24's flat PDFs): several numbered IDs in one ruled row, boxes drawn as squares,
a label with a blank after it, a table of statements each after a box, a header that names only
the answer column, guidance that asks nothing of the reader, a table without option columns
listed and corrected as an option table is, and its columns made the options of one choice per row
by the responder ("Always | Sometimes | Never" drawn without boxes, marked with an "X"); a
"Yes | No | N/A" table read the same whichever cells are marked; and a web form printed (the CCS
RM6264's): a panel over the page that is no table, and a run of numbered questions."""

from __future__ import annotations

import json

import pymupdf

from engine.cli.main import main
from engine.questionnaire.corrections import ColumnRole, parse_columns
from engine.questionnaire.pdf.layout import MAX_DRAWN_BOXES, drawn_boxes
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.places import place_key
from tests.pdf_forms import flat_pdf, label, ruled_table, save


def _rect(page: pymupdf.Page, x0: float, y0: float, x1: float, y1: float) -> None:
    page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), color=(0, 0, 0), width=0.6)


def _square(page: pymupdf.Page, x: float, y: float) -> None:
    """A box to tick, drawn as a square (not written as a character)."""
    page.draw_rect(pymupdf.Rect(x, y - 8, x + 8, y), color=(0, 0, 0), width=0.7)


def test_several_numbered_ids_in_one_ruled_row_are_one_question_each(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    ruled_table(page, 60, [100, 300], [["Question number", "Question"], ["4.1", "Do you agree?"]])
    _rect(page, 50, 104, 150, 170)
    _rect(page, 150, 104, 450, 170)
    for y, ident, text in (
        (118, "4.1(j)", "Do any of the following apply to you?"),
        (140, "4.1(j) - (i)", "You have withheld information."),
        (162, "4.1(j) - (ii)", "You cannot submit documents."),
    ):
        label(page, 53, y, ident, size=8)
        label(page, 153, y, text, size=8)
    q = read_pdf_questionnaire(save(doc, tmp_path / "ids.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("4.1", "Do you agree?"),
        ("4.1(j)", "Do any of the following apply to you?"),
        ("4.1(j)-(i)", "Do any of the following apply to you? — You have withheld information."),
        ("4.1(j)-(ii)", "Do any of the following apply to you? — You cannot submit documents."),
    ]


def test_boxes_drawn_as_squares_are_the_options_of_the_question_beside_or_above_them(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    _rect(page, 50, 60, 250, 100)
    _rect(page, 250, 60, 500, 100)
    label(page, 53, 75, "Are any payment channels excluded?", size=8)
    _square(page, 260, 78)
    label(page, 272, 78, "Yes", size=8)
    _square(page, 310, 78)
    label(page, 322, 78, "No", size=8)
    label(page, 50, 140, "Does the merchant use any validated product?", size=9)
    _square(page, 60, 160)
    label(page, 72, 160, "Yes", size=9)
    _square(page, 110, 160)
    label(page, 122, 160, "No", size=9)
    q = read_pdf_questionnaire(save(doc, tmp_path / "squares.pdf"))
    assert [(x.text, x.choices) for x in q.questions] == [
        ("Are any payment channels excluded?", ("Yes", "No")),
        ("Does the merchant use any validated product?", ("Yes", "No")),
    ]


def test_a_page_of_more_squares_than_the_bound_draws_no_boxes():
    doc = pymupdf.open()
    page = doc.new_page(width=1200, height=1200)
    for i in range(MAX_DRAWN_BOXES + 1):
        _square(page, 10 + (i % 100) * 11, 20 + (i // 100) * 11)
    drawings = page.get_drawings()
    assert len(drawings) > MAX_DRAWN_BOXES
    assert drawn_boxes(drawings) == []
    assert len(drawn_boxes(drawings[:10])) == 10


def test_a_label_with_a_blank_after_it_is_a_question_and_guidance_is_not(tmp_path):
    path = flat_pdf(
        tmp_path / "blanks.pdf",
        [
            [
                (50, 60, "21. Where you are using the selection questions, part 1 must be completed."),
                (50, 90, "Please ensure that all questions are completed in full."),
                (50, 120, "Requirement Number and Definition:       "),
                (50, 150, "Merchant Executive Officer Name:       "),
                (300, 150, "Title:       "),
                (50, 180, "5. Provide a high-level description of the environment."),
            ]
        ],
    )
    q = read_pdf_questionnaire(path)
    assert [x.text for x in q.questions] == [  # a numbered guidance paragraph and an instruction: none
        "Requirement Number and Definition",
        "Merchant Executive Officer Name",
        "Title",
        "Provide a high-level description of the environment.",
    ]


def test_a_table_of_statements_after_boxes_is_one_choice(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 50, "Select one:", size=9)
    statements = [
        "Compliant: All sections of the questionnaire are complete.",
        "Non-Compliant: Not all sections of the questionnaire are complete.",
    ]
    for r, statement in enumerate(statements):
        y = 60 + 30 * r
        _rect(page, 50, y, 80, y + 30)
        _rect(page, 80, y, 500, y + 30)
        _square(page, 60, y + 20)
        label(page, 83, y + 18, statement, size=8)
    q = read_pdf_questionnaire(save(doc, tmp_path / "select.pdf"))
    assert [(x.text, x.choices) for x in q.questions] == [(" / ".join(statements), ("Compliant", "Non-Compliant"))]


def test_a_header_naming_only_the_answer_column_asks_in_the_column_left_of_it(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    ruled_table(
        page,
        60,
        [100, 200, 200],
        [
            ["", "Information Required", "Explanation"],
            ["1. Constraints", "Document the business constraints.", ""],
            ["2. Objective", "Define the objective of the control.", ""],
        ],
    )
    q = read_pdf_questionnaire(save(doc, tmp_path / "worksheet.pdf"))
    assert [x.text for x in q.questions] == [
        "Document the business constraints.",
        "Define the objective of the control.",
    ]


def test_guidance_quoting_the_questions_without_an_answer_column_is_no_question(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    ruled_table(
        page,
        60,
        [30, 420],
        [
            ["M", "Have you been convicted of fraud?"],
            ["M", "Have you breached tax obligations?"],
            ["O", "Have you been involved in the procurement?"],
        ],
    )
    ruled_table(
        page,
        200,
        [60, 300, 100],
        [
            ["4.1", "Have you been convicted of fraud?", ""],
            ["4.2", "Have you breached tax obligations?", ""],
        ],
    )
    q = read_pdf_questionnaire(save(doc, tmp_path / "guidance.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("4.1", "Have you been convicted of fraud?"),
        ("4.2", "Have you breached tax obligations?"),
    ]


def test_a_table_without_option_columns_is_listed_and_corrected_once_for_every_row(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    ruled_table(
        page,
        60,
        [60, 300, 60, 120],
        [
            ["Question ID", "Question", "Answer", "Notes"],
            ["IAM-01.1", "Is multi-factor authentication enforced?", "", ""],
            ["IAM-02.1", "Are access reviews performed quarterly?", "", ""],
        ],
    )
    path = save(doc, tmp_path / "plain.pdf")
    q = read_pdf_questionnaire(path)
    (table,) = q.tables
    assert [(c.header, c.role) for c in table.columns] == [
        ("Question ID", ColumnRole.ID),
        ("Question", ColumnRole.QUESTION),
        ("Answer", ColumnRole.ANSWER),
        ("Notes", ColumnRole.NOTES),
    ]
    assert table.keys == tuple(place_key(x.sheet, x.question_cell) for x in q.questions)
    fixed = read_pdf_questionnaire(path, tables=parse_columns(f"{table.table}:0=other"))
    assert [(x.id, x.text) for x in fixed.questions] == [
        (None, "Is multi-factor authentication enforced?"),
        (None, "Are access reviews performed quarterly?"),
    ]
    assert fixed.tables[0].columns[0].role is ColumnRole.OTHER
    unchanged = read_pdf_questionnaire(path, tables=parse_columns(f"{table.table}:1=other"))  # no question left
    assert [x.id for x in unchanged.questions] == ["IAM-01.1", "IAM-02.1"]


def _marked_table(tmp_path, header: list[str]):
    """A table read by its header, the columns after the question marked with an "X" on both its
    rows, a comment on one row: under labels that name no options ("Always | Sometimes | Never"),
    the table model takes no option columns from the marks (under "Yes | No | N/A" it does:
    test_a_table_of_option_columns_reads_the_same_whichever_cells_are_marked)."""
    doc = pymupdf.open()
    page = doc.new_page()
    ruled_table(
        page,
        60,
        [60, 230, 45, 45, 45, 100],
        [
            header,
            ["HR-01", "Are background checks performed on all staff?", "", "X", "", ""],
            ["HR-02", "Is security training given every year?", "X", "", "", "Since 2020"],
        ],
    )
    return save(doc, tmp_path / "marked.pdf")


def test_columns_made_options_in_a_table_read_by_its_header_are_one_choice_per_row(tmp_path):
    path = _marked_table(tmp_path, ["Question ID", "Question", "Always", "Sometimes", "Never", "Comments"])
    before = read_pdf_questionnaire(path)
    (table,) = before.tables
    assert [c.role for c in table.columns][2:5] == [None, None, None]  # read by its header: no options
    assert [x.existing_choice for x in before.questions] == [None, None]  # the marks are lost
    fixed = read_pdf_questionnaire(path, tables=parse_columns(f"{table.table}:2-4=options"))
    assert [c.role for c in fixed.tables[0].columns] == [
        ColumnRole.ID,
        ColumnRole.QUESTION,
        ColumnRole.OPTIONS,
        ColumnRole.OPTIONS,
        ColumnRole.OPTIONS,
        ColumnRole.ANSWER,
    ]
    assert [(x.id, x.choices, x.existing_choice, x.existing_answer) for x in fixed.questions] == [
        ("HR-01", ("Always", "Sometimes", "Never"), "Sometimes", None),
        ("HR-02", ("Always", "Sometimes", "Never"), "Always", "Since 2020"),
    ]
    assert fixed.tables[0].keys == tuple(place_key(x.sheet, x.question_cell) for x in fixed.questions)


def test_one_column_made_options_is_a_tick_under_its_header(tmp_path):
    """One option column is not a table of options (the table model wants two): the table stays read
    by its header, each row's choice the column's header, ticked where the row is marked."""
    path = _marked_table(tmp_path, ["Question ID", "Question", "Compliant", "Status", "Owner", "Comments"])
    fixed = read_pdf_questionnaire(path, tables=parse_columns("0:3=options"))
    assert fixed.tables[0].columns[3].role is ColumnRole.OPTIONS
    assert [(x.choices, x.existing_choice, x.existing_answer) for x in fixed.questions] == [
        (("Status",), "Status", None),
        (("Status",), None, "Since 2020"),
    ]


def test_inspect_takes_a_flat_pdf_tables_option_columns_as_flags(tmp_path, capsys):
    path = _marked_table(tmp_path, ["Question ID", "Question", "Yes", "No", "N/A", "Comments"])
    assert main(["inspect", str(path), "--json", "--column", "0:2-4=option"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [c["role"] for c in out["tables"][0]["columns"]][2:5] == ["option", "option", "option"]
    assert [x["kind"] for x in out["sheets"][0]["questions"]] == ["choice", "choice"]


def _web_form_page(
    doc: pymupdf.Document, questions: list[tuple[str, list[str]]], first: int = 1, radio: tuple[str, ...] = ()
) -> None:
    """A page of a web form printed (the CCS RM6264's shape): a white panel over the page, each
    question numbered at the margin, wrapped back to its number, its options listed under it each
    after a box drawn as four thin filled bars (not one square), or, for the questions whose first
    option ``radio`` names, a radio circle drawn as a grey ring (two circles filled even-odd), one
    of them chosen when its label ends with " (chosen)" (a smaller filled circle inside); the page
    starts with the last option of the page before, its box across the panel's top edge (MuPDF then
    finds a table of one cell over the page)."""
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(43, 43, 552, 786), color=None, fill=(1, 1, 1))
    y = 39.0

    def option(text: str, circle: bool = False) -> None:
        nonlocal y
        if circle:
            shape = page.new_shape()
            shape.draw_circle((60, y + 11), 10.8)
            shape.draw_circle((60, y + 11), 10.2)
            shape.finish(color=None, fill=(0.43, 0.43, 0.43), even_odd=True)
            if text.endswith(" (chosen)"):
                text = text.removesuffix(" (chosen)")
                shape.draw_circle((60, y + 11), 5)
                shape.finish(color=None, fill=(0.2, 0.4, 0.7))
            shape.commit()
        else:
            for x0, y0, x1, y1 in (
                (49, y, 71, y + 1),
                (49, y + 21, 71, y + 22),
                (49, y, 50, y + 22),
                (70, y, 71, y + 22),
            ):
                page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), color=None, fill=(0.43, 0.43, 0.43))
        label(page, 79, y + 14, text, size=8.5)
        y += 39

    option("None of the above")
    for n, (text, options) in enumerate(questions, first):
        lines = text.split("\n")
        page.insert_text((43, y + 20), f"{n}. {lines[0]}\n" + "\n".join(lines[1:]), fontsize=8.5)
        y += 20 + 10 * len(lines)
        for text in options:
            option(text, circle=options[0] in radio)


def test_a_panel_around_a_printed_web_form_is_no_table(tmp_path):
    """The page's white panel with a box on its edge makes MuPDF find one table of one cell over the
    page: a frame, whose lines are read as the page's (no question was found in it before)."""
    doc = pymupdf.open()
    _web_form_page(
        doc,
        [
            ("Please confirm the organisation type of your Group member 1.", ["Sheltered Workshop", "Other"]),
            ("Is your Group member 1 a Small, Medium or Micro Enterprise (SME)?", ["Yes", "No"]),
        ],
    )
    q = read_pdf_questionnaire(save(doc, tmp_path / "panel.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("1", "Please confirm the organisation type of your Group member 1."),
        ("2", "Is your Group member 1 a Small, Medium or Micro Enterprise (SME)?"),
    ]


def test_a_run_of_numbered_questions_holds_the_ones_that_do_not_ask_by_their_words(tmp_path):
    """Six questions numbered one after the other, four of which ask by their first word: the two
    that do not ("In accordance with …, please confirm", "For all contracts …") are questions too;
    a question's lines wrapped back to its number ("Medium" / "or Micro Enterprise (SME)?") and an
    unnumbered paragraph that asks right under it are part of its text, not questions of their own.
    A numbered guidance paragraph on its own is still none."""
    doc = pymupdf.open()
    _web_form_page(
        doc,
        [
            ("Please confirm the organisation type of your Group.", ["Other"]),
            (
                "In accordance with questions 140 and 141 of the standard\nquestionnaire, please confirm your insurances.",
                ["Yes"],
            ),
            ("Is your organisation a Small,\nMedium or Micro Enterprise (SME)?", []),
        ],
    )
    page = doc[0]
    label(page, 43, 282, "Does your business have fewer than 250 employees?", size=8.5)
    _web_form_page(
        doc,
        [
            ("Please select the location(s) within Devon. Tick all that apply.", ["Plymouth", "Torbay"]),
            (
                "For all contracts entered into under the PCR 2015, please\nconfirm you include 30 day payment terms.",
                [],
            ),
            ("Please provide details of your Authorised Representative.", []),
        ],
        first=4,
    )
    label(doc[1], 43, 400, "21. Where you are using the selection questions, part 1 must be completed.", size=8.5)
    q = read_pdf_questionnaire(save(doc, tmp_path / "run.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("1", "Please confirm the organisation type of your Group."),
        (
            "2",
            "In accordance with questions 140 and 141 of the standard questionnaire, please confirm your insurances.",
        ),
        (
            "3",
            "Is your organisation a Small, Medium or Micro Enterprise (SME)? Does your business have fewer than 250 "
            "employees?",
        ),
        ("4", "Please select the location(s) within Devon. Tick all that apply."),
        ("5", "For all contracts entered into under the PCR 2015, please confirm you include 30 day payment terms."),
        ("6", "Please provide details of your Authorised Representative."),
    ]


def test_a_printed_web_forms_radio_circles_and_boxes_listed_under_a_question_are_its_options(tmp_path):
    """Radio circles (grey rings) and boxes of four bars, one a line under a numbered question, are
    its options, a radio's filled dot the choice made; a box listed under a paragraph that is no
    question stays none, and a "Tick all that apply" question's boxes are its options all the same
    (the choice is one: the response document names the options to tick)."""
    doc = pymupdf.open()
    _web_form_page(
        doc,
        [
            (
                "Please indicate which of the following VAT codes apply to you:",
                ["UK Company - VAT Registered in the UK", "EU Company - VAT Registered in the UK (chosen)", "Other"],
            ),
            ("Please select the location(s) within Devon. Tick all that apply.", ["Devon CC", "Plymouth", "Torbay"]),
            ("Is your organisation a Small, Medium or Micro Enterprise (SME)?", ["Yes", "No"]),
        ],
        radio=("UK Company - VAT Registered in the UK", "Yes"),
    )
    q = read_pdf_questionnaire(save(doc, tmp_path / "radio.pdf"))
    assert [(x.id, x.text, x.choices, x.existing_choice) for x in q.questions] == [
        (
            "1",
            "Please indicate which of the following VAT codes apply to you:",
            ("UK Company - VAT Registered in the UK", "EU Company - VAT Registered in the UK", "Other"),
            "EU Company - VAT Registered in the UK",
        ),
        (
            "2",
            "Please select the location(s) within Devon. Tick all that apply.",
            ("Devon CC", "Plymouth", "Torbay"),
            None,
        ),
        ("3", "Is your organisation a Small, Medium or Micro Enterprise (SME)?", ("Yes", "No"), None),
    ]
    assert all(x.choice_cell for x in q.questions)


def test_a_stroked_circle_is_a_drawn_box_and_a_filled_disk_or_a_large_circle_is_not():
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_circle((60, 60), 6, color=(0, 0, 0), width=0.7)  # a radio circle, stroked
    page.draw_circle((60, 100), 6, color=None, fill=(0, 0, 0))  # a bullet
    page.draw_circle((60, 200), 40, color=(0, 0, 0))  # a figure
    assert [(round(b.x0), round(b.y0)) for b in drawn_boxes(page.get_drawings())] == [(54, 54)]


def _yes_no_table(tmp_path, marks: list[str]):
    """A "# | Question | Yes | No | N/A | Comments" table, each row marked with an "X" under the
    option ``marks`` names for it ("" for none)."""
    doc = pymupdf.open()
    page = doc.new_page()
    questions = [
        "Are background checks performed on all staff?",
        "Is security training given every year?",
        "Are laptops encrypted?",
    ]
    options = ["Yes", "No", "N/A"]
    rows = [["#", "Question", *options, "Comments"]]
    for n, (question, mark) in enumerate(zip(questions, marks, strict=True), 1):
        rows.append([str(n), question, *("X" if o == mark else "" for o in options), ""])
    ruled_table(page, 60, [30, 230, 45, 45, 45, 100], rows)
    return save(doc, tmp_path / f"marked-{'-'.join(m or '0' for m in marks).replace('/', '')}.pdf")


def test_a_table_of_option_columns_reads_the_same_whichever_cells_are_marked(tmp_path):
    """The same Yes / No / N/A table blank, marked on different options, and marked "Yes" on every
    row: each reads as one choice of Yes / No / N/A per row, its existing choice the marked one (a
    column of marks is a column of options, as an empty one is; it was read as text before)."""
    read = []
    for marks in (["", "", ""], ["Yes", "No", "N/A"], ["Yes", "Yes", "Yes"], ["No", "", "Yes"]):
        q = read_pdf_questionnaire(_yes_no_table(tmp_path, marks))
        (table,) = q.tables
        assert [c.role for c in table.columns] == [
            ColumnRole.ID,
            ColumnRole.QUESTION,
            ColumnRole.OPTIONS,
            ColumnRole.OPTIONS,
            ColumnRole.OPTIONS,
            ColumnRole.ANSWER,
        ], marks
        assert [x.existing_choice for x in q.questions] == [m or None for m in marks]
        read.append([(x.id, x.text, x.choices) for x in q.questions])
    assert all(r == read[0] for r in read)
    assert read[0][0] == ("1", "Are background checks performed on all staff?", ("Yes", "No", "N/A"))


def test_a_ruled_table_headed_in_german_or_french_is_read_by_its_header(tmp_path):
    """Requirements stated without "?" under "Nr. | Anforderung | Antwort | Bemerkung" (or "N° |
    Exigence | Réponse | Remarque"): the header's words in any language the table model knows
    name the columns (the flat reader knew English labels only, and refused the file: "no table
    with a question column"), so each row is a question with its ID; the header is none."""
    for head, statements in (
        (
            ["Nr.", "Anforderung", "Antwort", "Bemerkung"],
            ["Der Anbieter muss ein Verzeichnis führen.", "Konten sind halbjährlich zu prüfen."],
        ),
        (
            ["N°", "Exigence", "Réponse", "Remarque"],
            ["Le prestataire doit tenir un inventaire.", "Chiffrer les données stockées."],
        ),
    ):
        doc = pymupdf.open()
        page = doc.new_page()
        rows = [head] + [[f"REQ-00{n}", s, "", ""] for n, s in enumerate(statements, 1)]
        ruled_table(page, 60, [50, 250, 100, 100], rows)
        q = read_pdf_questionnaire(save(doc, tmp_path / f"{head[1]}.pdf"))
        assert [(x.id, x.text) for x in q.questions] == [("REQ-001", statements[0]), ("REQ-002", statements[1])]
        assert all(x.text_cell for x in q.questions)


def _japanese_row(page: pymupdf.Page, y: float, cells: list[tuple[float, float, str]]) -> None:
    for x0, x1, text in cells:
        page.draw_rect(pymupdf.Rect(x0, y, x1, y + 22), color=(0, 0, 0), width=0.6)
        if text:
            page.insert_text((x0 + 3, y + 15), text, fontsize=8, fontname="japan")


def test_full_width_ids_are_ids_of_an_option_table(tmp_path):
    """ "１．２．１" in the ID column of a "番号 | 要求事項 | はい | いいえ" table numbers its row as "1.2.1"
    would (it was no ID, and the rows were lost): one choice of はい / いいえ per row, its ID as printed."""
    doc = pymupdf.open()
    page = doc.new_page()
    xs = [(50, 110), (110, 400), (400, 450), (450, 500)]
    _japanese_row(page, 60, [(a, b, t) for (a, b), t in zip(xs, ["番号", "要求事項", "はい", "いいえ"])])
    for n, text in enumerate(["台帳を維持すること。", "初期パスワードを変更すること。"], 1):
        _japanese_row(
            page, 60 + 22 * n, [(a, b, t) for (a, b), t in zip(xs, [f"１．２．{chr(0xFF10 + n)}", text, "", ""])]
        )
    q = read_pdf_questionnaire(save(doc, tmp_path / "fullwidth.pdf"))
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        ("１．２．１", "台帳を維持すること。", ("はい", "いいえ")),
        ("１．２．２", "初期パスワードを変更すること。", ("はい", "いいえ")),
    ]


def test_an_option_table_continued_on_the_next_page_without_its_header_keeps_its_options(tmp_path):
    """A requirement table "ID | Requirement | In Place | Not in Place" printed over two pages, its
    header not repeated: the rows at the top of page 2 line up with the header's columns and are read
    under it, each one choice of the same options (they were read as questions with no choices)."""
    doc = pymupdf.open()
    widths = [50, 250, 60, 60]
    page = doc.new_page()
    ruled_table(
        page, 60, widths, [["ID", "Requirement", "In Place", "Not in Place"], ["1.1", "Maintain an inventory.", "", ""]]
    )
    page = doc.new_page()
    ruled_table(page, 40, widths, [["1.2", "Encrypt stored data.", "", ""], ["1.3", "Log every access.", "", ""]])
    q = read_pdf_questionnaire(save(doc, tmp_path / "continued.pdf"))
    assert [(x.id, x.choices) for x in q.questions] == [("1.1", ("In Place", "Not in Place"))] * 1 + [
        ("1.2", ("In Place", "Not in Place")),
        ("1.3", ("In Place", "Not in Place")),
    ]


def _aligned(page: pymupdf.Page, top: float, xs: list[float], rows: list[list[str]], pitch: float = 14) -> None:
    """A table drawn without any line: each row's texts at the columns' x positions."""
    for r, row in enumerate(rows):
        for x, text in zip(xs, row):
            if text:
                label(page, x, top + r * pitch, text, size=8)


def test_a_table_aligned_by_text_position_only_is_read_as_a_ruled_one(tmp_path):
    """ "ID | Requirement | Yes | No | N/A | Comments" printed with no line at all, a box drawn under
    each option, a requirement wrapped onto a second line: one choice of Yes / No / N/A per row, the
    wrapped line part of its requirement (the page was refused: "no table with a question column")."""
    doc = pymupdf.open()
    page = doc.new_page()
    xs = [50, 100, 360, 400, 440, 490]
    _aligned(page, 80, xs, [["ID", "Requirement", "Yes", "No", "N/A", "Comments"]])
    _aligned(
        page, 100, xs, [["A.1", "Maintain an inventory of all system components"], ["", "and review it every year."]]
    )
    _aligned(page, 128, xs, [["A.2", "Encrypt stored customer data."]])
    for y in (100, 128):
        for x in xs[2:5]:
            _square(page, x + 4, y)
    q = read_pdf_questionnaire(save(doc, tmp_path / "aligned.pdf"))
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        ("A.1", "Maintain an inventory of all system components and review it every year.", ("Yes", "No", "N/A")),
        ("A.2", "Encrypt stored customer data.", ("Yes", "No", "N/A")),
    ]


def test_an_aligned_header_two_rows_deep_names_the_options_under_its_spanning_label(tmp_path):
    """ "Response" over "In Place | Not Applicable | Not in Place" (labels close to each other), no
    line and nothing under the options: the lower row's labels are the options of one choice per row;
    a "Antwort"/"Bemerkung" text table beside it is read by its header's words."""
    doc = pymupdf.open()
    page = doc.new_page()
    xs = [50, 100, 330, 388, 446, 504]
    _aligned(page, 80, [50, 100, 330, 504], [["ID", "Requirement", "Response", "Comments"]])
    _aligned(page, 94, xs[2:5], [["In Place", "Not Applicable", "Not in Place"]])
    _aligned(page, 112, xs, [["1.1", "Change default passwords."], ["1.2", "Log every access."]])
    page = doc.new_page()
    _aligned(
        page,
        80,
        [50, 100, 330, 450],
        [
            ["Nr.", "Anforderung", "Antwort", "Bemerkung"],
            ["1", "Konten sind zu prüfen."],
            ["2", "Daten sind zu verschlüsseln."],
        ],
    )
    q = read_pdf_questionnaire(save(doc, tmp_path / "aligned2.pdf"))
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        ("1.1", "Change default passwords.", ("In Place", "Not Applicable", "Not in Place")),
        ("1.2", "Log every access.", ("In Place", "Not Applicable", "Not in Place")),
        ("1", "Konten sind zu prüfen.", ()),
        ("2", "Daten sind zu verschlüsseln.", ()),
    ]


def test_an_aligned_table_goes_on_at_the_next_pages_top_without_its_header(tmp_path):
    """An aligned "ID | Requirement | Answer | Notes" table whose rows go on at the top of page 2,
    under a running header, its header not repeated: the rows that start with an ID at its first
    column are its rows, read in its columns (they were read as lines, the ID inside the text)."""
    doc = pymupdf.open()
    xs = [50, 100, 330, 450]
    page = doc.new_page()
    _aligned(
        page,
        80,
        xs,
        [["ID", "Requirement", "Answer", "Notes"], ["R-1", "Keep an inventory."], ["R-2", "Review accounts."]],
    )
    page = doc.new_page()
    label(page, 50, 25, "Supplier self-assessment, page 2", size=7)
    _aligned(page, 50, xs, [["R-3", "Encrypt stored data."], ["R-4", "Log every access."]])
    q = read_pdf_questionnaire(save(doc, tmp_path / "aligned3.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("R-1", "Keep an inventory."),
        ("R-2", "Review accounts."),
        ("R-3", "Encrypt stored data."),
        ("R-4", "Log every access."),
    ]


def test_a_continued_option_tables_first_row_with_an_id_and_boxes_is_no_header_of_its_own(tmp_path):
    """ "ID | Requirement | Ja | Nein" with a box drawn in each option cell, going on at the top of page 2
    without its header: the row "A.2 | … | ☐ | ☐" there would pass for a header of its own (options
    "☐" / "☐", its row lost, the rest without IDs); it starts with an ID, so the table continues the one
    before: each row one choice of Ja / Nein, its ID as printed."""
    doc = pymupdf.open()
    widths = [50, 250, 50, 50]
    rows = {
        1: [["ID", "Requirement", "Ja", "Nein"], ["A.1", "Ein Verzeichnis führen.", "", ""]],
        2: [["A.2", "Konten prüfen.", "", ""], ["A.3", "Daten verschlüsseln.", "", ""]],
    }
    for number, table in rows.items():
        page = doc.new_page()
        top = 60 if number == 1 else 40
        ruled_table(page, top, widths, table)
        for r, row in enumerate(table):
            if row[0] != "ID":
                for x in (350 + 21, 400 + 21):
                    _square(page, x, top + 22 * r + 15)
    q = read_pdf_questionnaire(save(doc, tmp_path / "continued-boxes.pdf"))
    assert [(x.id, x.choices) for x in q.questions] == [(f"A.{n}", ("Ja", "Nein")) for n in (1, 2, 3)]


def test_a_japanese_section_title_across_the_table_is_no_question(tmp_path):
    """ "第2節 システムの安全な設定" in a row across a "番号 | 要求事項 | 回答 | 備考" table: "第2節" numbers a
    section, not a question (it was read as an ID: a word of CJK letters and a digit); the rows under
    it are the questions."""
    doc = pymupdf.open()
    page = doc.new_page()
    xs = [(50, 110), (110, 330), (330, 430), (430, 530)]
    _japanese_row(page, 60, [(a, b, t) for (a, b), t in zip(xs, ["番号", "要求事項", "回答", "備考"])])
    _japanese_row(page, 82, [(50, 530, "第2節 システムの安全な設定")])
    for n, text in enumerate(["台帳を維持すること。", "初期パスワードを変更すること。"], 1):
        _japanese_row(page, 82 + 22 * n, [(a, b, t) for (a, b), t in zip(xs, [f"2.{n}", text, "", ""])])
    q = read_pdf_questionnaire(save(doc, tmp_path / "section.pdf"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("2.1", "台帳を維持すること。"),
        ("2.2", "初期パスワードを変更すること。"),
    ]


def test_ids_starting_the_requirements_cell_and_section_titles_between_them(tmp_path):
    """No ID column: "Requirement | Answer | Notes" (and "Requirement | In Place | Not in Place"), each
    requirement's cell starting with its ID ("1.2.1 The provider shall …", "A.1 …", "REQ-002 …") and a
    section's title in a row across the table: the ID is split off the text (it stayed in it, and
    "A.1" / full-width IDs were not known), the title row is no question (the rows start with IDs)."""
    for head, ids in (
        (["Requirement", "Answer", "Notes"], ["1.2.1", "1.2.2"]),
        (["Requirement", "In Place", "Not in Place"], ["A.1", "REQ-002"]),
    ):
        doc = pymupdf.open()
        page = doc.new_page()
        ruled_table(page, 60, [300, 80, 80], [head])
        ruled_table(page, 82, [460], [["Requirement 2: Apply secure configurations"]])
        ruled_table(
            page,
            104,
            [300, 80, 80],
            [[f"{ids[0]} Change default passwords.", "", ""], [f"{ids[1]} Log every access.", "", ""]],
        )
        q = read_pdf_questionnaire(save(doc, tmp_path / f"lead-{head[1]}.pdf"))
        assert [(x.id, x.text) for x in q.questions] == [
            (ids[0], "Change default passwords."),
            (ids[1], "Log every access."),
        ], head

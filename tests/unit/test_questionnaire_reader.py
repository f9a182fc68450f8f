"""The questionnaire reader on workbooks and CSVs generated here with openpyxl.

openpyxl cannot write the x14 data-validation extension nor cached formula values, so the
tests patch the saved sheet XML to add them, as Excel would have written them.
"""

from __future__ import annotations

import argparse
import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from engine.cli import inspect as cli_inspect
from engine.questionnaire import QuestionnaireError, read_questionnaire
from engine.questionnaire.sheet.validation import parse_sqref

X14_EXT = (
    '<extLst><ext uri="{{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}}" '
    'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
    '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    '<x14:dataValidation type="list" allowBlank="1" showErrorMessage="1">'
    "<x14:formula1><xm:f>{formula}</xm:f></x14:formula1><xm:sqref>{sqref}</xm:sqref>"
    "</x14:dataValidation></x14:dataValidations></ext></extLst>"
)


def patch_sheet(path: Path, member: str, edit) -> None:
    """Rewrite one part of an xlsx package with ``edit(xml) -> xml``."""
    with zipfile.ZipFile(path) as zf:
        parts = {name: zf.read(name) for name in zf.namelist()}
    parts[member] = edit(parts[member].decode()).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


def add_x14_list(path: Path, member: str, formula: str, sqref: str) -> None:
    patch_sheet(
        path,
        member,
        lambda xml: xml.replace("</worksheet>", X14_EXT.format(formula=formula, sqref=sqref) + "</worksheet>"),
    )


def cache_formula(path: Path, member: str, ref: str, value: str) -> None:
    """Give the formula cell ``ref`` a cached string value, as Excel stores it."""

    def edit(xml: str) -> str:
        pattern = rf'<c r="{ref}"([^>]*)><f>(.*?)</f><v\s*/?>(?:</v>)?</c>'
        assert re.search(pattern, xml), f"no formula cell {ref}"
        return re.sub(pattern, rf'<c r="{ref}"\1 t="str"><f>\2</f><v>{value}</v></c>', xml)

    patch_sheet(path, member, edit)


def hecvat_like(path: Path) -> Path:
    """A HECVAT-3-like sheet: title rows, questions above the header, section titles in the ID
    column, a header row repeated per section, a merged free-text answer, dropdowns by name."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Vendor Response"
    rows = [
        ["Security Questionnaire | Vendor Response", None, None, None, "Version 3"],
        ["DATE-01", "Date", "2024-05-20"],
        ["General Information"],
        ["Please answer every question in this sheet."],
        ["GNRL-01", "Vendor Name", "Acme"],
        ["GNRL-02", "Product Name"],
        [],
        ["Documentation", None, "Vendor Answers", "Additional Information", "Guidance", "Analyst Notes"],
        ["DOCU-01", "Have you undergone a SOC 2 audit?", "Yes", "Type II, 2024.", "Give the date."],
        ["DOCU-02", "Do you have a privacy policy?", "No", None, "Link it."],
        ["DOCU-03", "Describe your documentation.", "We keep it in a wiki."],
        ["Data", None, "Vendor Answers", "Additional Information", "Guidance", "Analyst Notes"],
        ["DATA-01", "Is data encrypted at rest?"],
        ["DATA-02", "Is data encrypted in transit?", "Yes"],
        [],
        ["End of questionnaire"],
    ]
    for row in rows:
        ws.append(row)
    ws.merge_cells("C11:D11")  # a free-text answer spanning the comment column
    ws.merge_cells("A3:E3")  # a section title across the sheet
    values = wb.create_sheet("Values")
    values.sheet_state = "hidden"
    for v in ("Yes", "No"):
        values.append([v])
    wb.defined_names["YesNo"] = DefinedName("YesNo", attr_text="Values!$A$1:$A$2")
    dv = DataValidation(type="list", formula1="YesNo", allow_blank=True)
    dv.add("C9:C10")
    dv.add("C13:C14")
    ws.add_data_validation(dv)
    wb.save(path)
    return path


def test_hecvat_like_layout_ids_cells_and_existing_answers(tmp_path):
    q = read_questionnaire(hecvat_like(tmp_path / "q.xlsx"))
    (s,) = q.sheets
    assert (s.sheet, s.header_row, s.id_col, s.question_col, s.answer_col, s.comment_col) == (
        "Vendor Response",
        8,
        "A",
        "B",
        "C",
        "D",
    )
    assert s.choices == ("Yes", "No")
    assert [x.id for x in s.questions] == [
        "DATE-01",
        "GNRL-01",
        "GNRL-02",
        "DOCU-01",
        "DOCU-02",
        "DOCU-03",
        "DATA-01",
        "DATA-02",
    ]
    by_id = {x.id: x for x in s.questions}
    soc2 = by_id["DOCU-01"]
    assert (soc2.row, soc2.question_cell, soc2.choice_cell, soc2.text_cell) == (9, "B9", "C9", "D9")
    assert (soc2.existing_choice, soc2.existing_answer, soc2.choices) == ("Yes", "Type II, 2024.", ("Yes", "No"))
    assert (by_id["DOCU-02"].existing_choice, by_id["DOCU-02"].existing_answer) == ("No", None)
    name = by_id["GNRL-01"]  # no dropdown: the answer cell itself takes the text
    assert (name.choice_cell, name.text_cell, name.existing_answer, name.choices) == (None, "C5", "Acme", ())
    wiki = by_id["DOCU-03"]  # answer merged C11:D11: written to its top-left cell
    assert (wiki.text_cell, wiki.existing_answer) == ("C11", "We keep it in a wiki.")
    assert not by_id["DATA-01"].answered and by_id["DATA-02"].answered
    assert by_id["GNRL-02"].existing_answer is None


def test_x14_dropdown_on_hidden_sheet_and_cached_formula_questions(tmp_path):
    """HECVAT 4 style: question text computed by VLOOKUP (read as cached), dropdown stored only
    in the x14 extension and pointing at a hidden sheet whose name needs quoting; an answer
    cell that is a formula makes its row not a question."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Product"
    ws.append(["ID", "Question", "Answer", "Additional Information"])
    ws.append(["APPL-01", "=VLOOKUP(A2,Questions!A:B,2,FALSE)"])
    ws.append(["APPL-02", "=VLOOKUP(A3,Questions!A:B,2,FALSE)"])
    ws.append(["GNRL-01", "Solution Name", "='Start Here'!C2"])
    ws.append(["APPL-03", "Which cloud hosts it?"])
    lists = wb.create_sheet("Auto Responses")
    lists.sheet_state = "hidden"
    for row in (["Yes"], ["No"], ["N/A"], [None], ["AWS"], ["Azure"]):
        lists.append(row)
    wb.create_sheet("Start Here")
    path = tmp_path / "hecvat4.xlsx"
    wb.save(path)
    sheet1 = "xl/worksheets/sheet1.xml"
    cache_formula(path, sheet1, "B2", "Do you use a WAF?")
    cache_formula(path, sheet1, "B3", "Is MFA enforced?")
    add_x14_list(path, sheet1, "'Auto Responses'!$A$1:$A$3", "C2:C3")
    patch_sheet(
        path,
        sheet1,
        lambda xml: xml.replace(
            "</x14:dataValidations>",
            "<x14:dataValidation type=\"list\"><x14:formula1><xm:f>'Auto Responses'!$A$5:$A$6</xm:f>"
            "</x14:formula1><xm:sqref>C5</xm:sqref></x14:dataValidation></x14:dataValidations>",
        ),
    )
    q = read_questionnaire(path)
    (s,) = q.sheets
    assert [(x.id, x.text) for x in s.questions] == [
        ("APPL-01", "Do you use a WAF?"),
        ("APPL-02", "Is MFA enforced?"),
        ("APPL-03", "Which cloud hosts it?"),
    ]
    assert all(not x.text.startswith("=") for x in s.questions)
    assert s.questions[0].choices == ("Yes", "No", "N/A") and s.questions[0].choice_cell == "C2"
    assert s.questions[0].text_cell == "D2"
    assert s.questions[2].choices == ("AWS", "Azure")
    assert s.choices == ("Yes", "No", "N/A")
    assert "Start Here" in " ".join(q.notes)  # the empty visible sheet is reported, not read


def test_literal_list_unresolvable_source_and_report_sheet(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Questions"
    ws.append(["Ref", "Question", "Response", "Comments"])
    for i in range(1, 5):
        ws.append([f"Q-{i}", f"Does the product support feature number {i}?"])
    literal = DataValidation(type="list", formula1='"Yes,No,Not applicable"')
    literal.add("C2:C3")
    indirect = DataValidation(type="list", formula1='INDIRECT("list_"&A4)')
    indirect.add("C4:C5")
    ws.add_data_validation(literal)
    ws.add_data_validation(indirect)
    report = wb.create_sheet("Analyst Report")
    report.append(["ID", "Question", "Vendor Answer"])
    for i in range(1, 5):
        report.append([f"Q-{i}", f"Does the product support feature number {i}?", f"=Questions!C{i + 1}"])
    path = tmp_path / "literal.xlsx"
    wb.save(path)
    q = read_questionnaire(path)
    (s,) = q.sheets
    assert s.sheet == "Questions" and s.id_col == "A" and s.comment_col == "D"
    assert [x.choices for x in s.questions] == [("Yes", "No", "Not applicable")] * 2 + [()] * 2
    assert s.questions[3].choice_cell is None and s.questions[3].text_cell == "C5"
    notes = " ".join(q.notes)
    assert "Analyst Report" in notes and "formulas" in notes
    assert "INDIRECT" in notes


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_csv_without_ids_skips_titles_blanks_and_repeated_headers(tmp_path, encoding):
    text = (
        "Vendor security review;;\n"
        "Question;Response;Notes\n"
        "Access Control;;\n"
        "Do you enforce MFA for all administrators?;Yes;Since 2021\n"
        ";;\n"
        "Describe your café’s password policy;;\n"
        "Question;Response;Notes\n"
        "Data Protection;;\n"
        "Is customer data encrypted at rest?;;\n"
    )
    path = tmp_path / "review.csv"
    path.write_bytes(text.encode(encoding))
    q = read_questionnaire(path)
    (s,) = q.sheets
    assert (s.sheet, s.header_row, s.question_col, s.answer_col, s.comment_col, s.id_col) == (
        "review",
        2,
        "A",
        "B",
        "C",
        None,
    )
    assert [(x.row, x.text) for x in s.questions] == [
        (4, "Do you enforce MFA for all administrators?"),
        (6, "Describe your café’s password policy"),
        (9, "Is customer data encrypted at rest?"),
    ]
    first = s.questions[0]
    assert (first.text_cell, first.existing_answer, first.choice_cell) == ("B4", "Yes", None)


def test_overrides_when_nothing_is_labelled(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet A"
    ws.append(["Notes for the vendor"])
    ws.append([])
    ws.append(["x", "Do you encrypt backups?", "", "Yes"])
    ws.append(["y", "Do you test restores every quarter?", "", "No"])
    other = wb.create_sheet("Sheet B")
    other.append(["Not a questionnaire either"])
    path = tmp_path / "odd.xlsx"
    wb.save(path)
    q = read_questionnaire(path, sheet="Sheet A", header_row=2, question_col="b", answer_col="D")
    (s,) = q.sheets
    assert (s.question_col, s.answer_col, s.header_row) == ("B", "D", 2)
    assert [(x.question_cell, x.text_cell, x.existing_answer) for x in s.questions] == [
        ("B3", "D3", "Yes"),
        ("B4", "D4", "No"),
    ]
    with pytest.raises(QuestionnaireError, match="no sheet named 'Nope'.*'Sheet A'"):
        read_questionnaire(path, sheet="Nope")
    with pytest.raises(QuestionnaireError, match="not a column letter"):
        read_questionnaire(path, question_col="B2")


def test_no_question_column_says_which_override(tmp_path):
    wb = openpyxl.Workbook()
    wb.active.append([1, 2, 3])
    wb.active.append([4, 5, 6])
    path = tmp_path / "numbers.xlsx"
    wb.save(path)
    with pytest.raises(QuestionnaireError) as err:
        read_questionnaire(path)
    assert "--question-col" in str(err.value) and err.value.file == "numbers.xlsx"


@pytest.mark.parametrize(
    "name, content, problem",
    [
        ("locked.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512, "password-protected"),
        ("broken.xlsx", b"PK\x03\x04 this is not really a zip", "not a readable Excel workbook"),
        ("empty.xlsx", b"", "is empty"),
        ("empty.csv", b"", "is empty"),
        ("blank.csv", b" ; ;\n\n", "no cells with text"),
        ("answers.pdf", b"%PDF-1.7", "not a readable PDF"),  # a PDF is read (#48): this one is damaged
        ("answers.odt", b"PK\x03\x04", "unsupported extension"),
        ("answers.doc", b"\xd0\xcf\x11\xe0" + b"\0" * 512, "old Word 97"),
        ("answers.xls", b"\xd0\xcf\x11\xe0" + b"\0" * 512, "old Excel 97"),
    ],
)
def test_bad_files_raise_a_clear_error(tmp_path, name, content, problem):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(QuestionnaireError, match=problem) as err:
        read_questionnaire(path)
    assert err.value.file == name and err.value.fix


def test_merged_question_cells_are_one_question(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Question", "Answer"])
    ws.append(["Is a question merged over two rows read once?", "Yes"])
    ws.append([None, None])
    ws.append(["A section title merged across the answer column"])
    ws.append(["Is the next question read?", None])
    ws.merge_cells("A2:A3")
    ws.merge_cells("A4:B4")
    path = tmp_path / "merged.xlsx"
    wb.save(path)
    (s,) = read_questionnaire(path).sheets
    assert [(x.row, x.text_cell) for x in s.questions] == [(2, "B2"), (5, "B5")]


def test_sqref_parsing():
    assert parse_sqref("C3:C5 $E$7 D:D") == ((3, 3, 3, 5), (5, 7, 5, 7), (4, 1, 4, 1_048_576))


def run_inspect(argv: list[str], capsys) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    cli_inspect.register(parser.add_subparsers(dest="command", required=True).add_parser("inspect"))
    args = parser.parse_args(["inspect", *argv])
    code = args.func(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_inspect_command_summary_json_and_error(tmp_path, capsys):
    path = hecvat_like(tmp_path / "q.xlsx")
    code, out, _ = run_inspect([str(path)], capsys)
    assert code == 0
    assert "8 questions in 1 sheet(s)" in out
    assert "id A, question B, answer C, comment D" in out and "choices: Yes / No" in out
    assert "DATE-01" in out and "… 3 more" in out
    code, out, _ = run_inspect([str(path), "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["questions"] == 8 and data["answered"] == 6
    assert data["sheets"][0]["questions"][3]["choice_cell"] == "C9"
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"nope")
    code, out, err = run_inspect([str(bad)], capsys)
    assert code == 2 and out == "" and err.startswith("error: bad.xlsx: ")


def test_a_5000_row_sheet(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["#", "Question", "Answer", "Comment"])
    for i in range(1, 5001):
        ws.append([f"SEC-{i}", f"Is control number {i} implemented?", "Yes" if i % 2 else None])
    dv = DataValidation(type="list", formula1='"Yes,No"')
    dv.add("C2:C5001")
    ws.add_data_validation(dv)
    path = tmp_path / "big.xlsx"
    wb.save(path)
    (s,) = read_questionnaire(path).sheets
    assert len(s.questions) == 5000 and s.questions[-1].choice_cell == "C5001"
    assert sum(x.answered for x in s.questions) == 2500

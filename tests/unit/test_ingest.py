"""Ingestion loaders: every fixture is generated in tmp_path."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import docx
import openpyxl
import pymupdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.types import IngestError, SourceKind
from engine.ingest import SUPPORTED_EXTENSIONS, load_document, validate_name
from engine.ingest.pdf import page_ranges
from engine.ingest.sheet import cell_text
from engine.ingest.text import split_sections


def assert_error(exc: pytest.ExceptionInfo[IngestError], file: str, *words: str) -> None:
    """The message names the file and contains the problem / fix words."""
    message = str(exc.value)
    assert message.startswith(f"{file}: "), message
    assert "\n" not in message
    for word in words:
        assert word.lower() in message.lower(), (word, message)


# ---------------------------------------------------------------- PDF


def make_pdf(path: Path, pages: list[str | None]) -> Path:
    """One page per entry; None makes a page without text (a 'scanned' page)."""
    doc = pymupdf.open()
    for i, body in enumerate(pages, 1):
        page = doc.new_page()
        if body is None:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), False)
            pix.clear_with(200)
            page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)
            continue
        page.insert_text((72, 40), "ACME Corp - Confidential", fontsize=9)
        page.insert_text((72, 100), body, fontsize=11)
        page.insert_text((72, 800), f"Page {i} of {len(pages)}", fontsize=9)
    doc.save(path)
    doc.close()
    return path


def test_pdf_one_unit_per_page_with_exact_text(tmp_path: Path) -> None:
    bodies = ["Encryption at rest uses AES-256.", "Backups run nightly.", "MFA is required."]
    path = make_pdf(tmp_path / "policy.pdf", bodies)
    loaded = load_document(path)
    assert loaded.name == "policy.pdf"
    assert loaded.kind is SourceKind.PDF
    assert loaded.pages == 3
    assert [u.page for u in loaded.units] == [1, 2, 3]
    assert loaded.notes == ()
    with pymupdf.open(path) as fresh:
        for unit, page in zip(loaded.units, fresh):
            assert unit.text == page.get_text()
    for unit, body in zip(loaded.units, bodies):
        assert body in unit.text
        assert "ACME Corp - Confidential" in unit.text  # boilerplate kept as is
        start = unit.text.index(body)
        assert unit.text[start : start + len(body)] == body


def test_pdf_scanned_page_in_middle_is_noted(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "mixed.pdf", ["first", None, "third", None, None])
    loaded = load_document(path)
    assert [u.page for u in loaded.units] == [1, 3]
    assert loaded.pages == 5
    assert len(loaded.notes) == 1
    note = loaded.notes[0]
    assert note.startswith("pages 2, 4-5 of 5 have no text layer")
    assert "OCR" in note


def test_pdf_single_scanned_page_note(tmp_path: Path) -> None:
    loaded = load_document(make_pdf(tmp_path / "m.pdf", ["a", None, "c"]))
    assert loaded.notes[0].startswith("page 2 of 3 has no text layer (scanned images)")


def test_pdf_fully_scanned_raises(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "scan.pdf", [None, None])
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "scan.pdf", "no text layer", "OCR")


def test_pdf_blank_page_counts_as_scanned(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page()
    doc.save(tmp_path / "blank.pdf")
    with pytest.raises(IngestError) as exc:
        load_document(tmp_path / "blank.pdf")
    assert_error(exc, "blank.pdf", "scanned", "ocrmypdf")


def test_pdf_encrypted_raises(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret", fontsize=11)
    path = tmp_path / "locked.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="u")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "locked.pdf", "password", "remove the password")


def test_pdf_owner_password_only_is_readable(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "readable text", fontsize=11)
    path = tmp_path / "owner.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="")
    assert "readable text" in load_document(path).units[0].text


@pytest.mark.parametrize("data", [b"this is not a pdf at all", b"%PDF-1.7\n1 0 obj\n<<"])
def test_pdf_corrupt_raises(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(data)
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "broken.pdf", "not a readable PDF", "re-export or re-download")


@pytest.mark.parametrize("keep", [0.33, 0.5, 0.9])
def test_pdf_truncated_raises_or_notes_repair(tmp_path: Path, keep: float) -> None:
    good = make_pdf(tmp_path / "good.pdf", ["some text here"]).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(good[: int(len(good) * keep)])
    try:
        loaded = load_document(path)  # MuPDF may repair it
    except IngestError as err:
        assert str(err).startswith("cut.pdf: is not a readable PDF")
        assert "re-download" in str(err)
    else:
        assert any("repaired" in note for note in loaded.notes)


# ---------------------------------------------------------------- common checks


def test_zero_byte_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "empty.pdf", "is empty (0 bytes)", "re-export or re-download")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(IngestError) as exc:
        load_document(tmp_path / "nope.docx")
    assert_error(exc, "nope.docx", "not found", "check the path")


def test_unsupported_extension(tmp_path: Path) -> None:
    path = tmp_path / "deck.pptx"
    path.write_bytes(b"PK\x03\x04whatever")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "deck.pptx", ".pptx", ".pdf", ".xlsx", "convert it to PDF")
    assert exc.value.file == "deck.pptx"


def test_supported_extensions() -> None:
    assert SUPPORTED_EXTENSIONS == (
        ".pdf",
        ".docx",
        ".xlsx",
        ".xlsm",
        ".csv",
        ".md",
        ".markdown",
        ".txt",
    )


def test_extension_is_case_insensitive(tmp_path: Path) -> None:
    path = tmp_path / "NOTES.TXT"
    path.write_text("hello", encoding="utf-8")
    assert load_document(path).units[0].text == "hello"


@pytest.mark.parametrize(
    "name",
    [
        "../x.pdf",
        "a/b.pdf",
        "a\\b.pdf",
        "/etc/x.pdf",
        "C:\\x.pdf",
        "C:x.pdf",
        "",
        ".",
        "..",
        "x\x00.pdf",
        "x\n.pdf",
        "x\x1b.pdf",
    ],
)
def test_validate_name_rejects_paths(name: str) -> None:
    with pytest.raises(IngestError) as exc:
        validate_name(name)
    assert "path" in exc.value.problem
    assert "rename the file to a plain name such as" in exc.value.fix
    assert "\n" not in str(exc.value) and "\x00" not in str(exc.value)


def test_validate_name_fix_suggests_basename() -> None:
    with pytest.raises(IngestError) as exc:
        validate_name("../x.pdf")
    assert_error(exc, "../x.pdf", "path", "rename the file to a plain name such as x.pdf")


@pytest.mark.parametrize("name", ["x.pdf", "Security Policy v2.docx", "résumé.md", "a..b.txt"])
def test_validate_name_accepts_plain_names(name: str) -> None:
    assert validate_name(name) == name


def test_load_document_validates_name(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "ok.pdf", ["text"])
    with pytest.raises(IngestError) as exc:
        load_document(path, name="../x.pdf")
    assert_error(exc, "../x.pdf", "path", "x.pdf")
    assert load_document(path, name="Shown.pdf").name == "Shown.pdf"


# ---------------------------------------------------------------- DOCX


def make_docx(path: Path) -> Path:
    d = docx.Document()
    d.add_paragraph("Intro before any heading.")
    d.add_heading("Security", level=1)
    d.add_paragraph("We take security seriously.")
    d.add_heading("Encryption", level=2)
    d.add_paragraph("Data is encrypted with AES-256.")
    table = d.add_table(rows=3, cols=3)
    table.cell(0, 0).text, table.cell(0, 1).text, table.cell(0, 2).text = "Control", "Status", "Owner"
    table.cell(1, 0).text, table.cell(1, 1).text, table.cell(1, 2).text = "TLS 1.2+", "Yes", "IT"
    merged = table.cell(2, 0).merge(table.cell(2, 1))
    merged.text = "Key rotation"
    table.cell(2, 2).text = "SecOps"
    d.add_paragraph("After the table.")
    d.add_paragraph("   ")
    d.add_heading("Only heading", level=3)
    d.add_heading("Operations", level=1)
    d.add_paragraph("Backups run nightly.")
    d.add_heading("Deep", level=3)
    d.add_paragraph("Deep text.")
    d.save(path)
    return path


def test_docx_sections_in_reading_order(tmp_path: Path) -> None:
    loaded = load_document(make_docx(tmp_path / "answers.docx"))
    assert loaded.kind is SourceKind.DOCX
    sections = [u.section for u in loaded.units]
    assert sections == [None, "Security", "Security > Encryption", "Operations", "Operations > Deep"]
    by_section = {u.section: u.text for u in loaded.units}
    assert by_section[None] == "Intro before any heading."
    assert by_section["Security"] == "Security\nWe take security seriously."
    assert by_section["Security > Encryption"] == (
        "Encryption\n"
        "Data is encrypted with AES-256.\n"
        "Control | Status | Owner\n"
        "TLS 1.2+ | Yes | IT\n"
        "Key rotation | SecOps\n"
        "After the table."
    )
    assert by_section["Operations"] == "Operations\nBackups run nightly."
    assert all(u.page is None and u.sheet is None for u in loaded.units)


def test_docx_title_style_is_a_heading(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_heading("Company Profile", level=0)  # "Title" style
    d.add_paragraph("About us.")
    d.add_heading("History", level=1)
    d.add_paragraph("Founded 1999.")
    d.save(tmp_path / "t.docx")
    units = load_document(tmp_path / "t.docx").units
    assert [(u.section, u.text) for u in units] == [
        ("Company Profile", "Company Profile\nAbout us."),
        ("History", "History\nFounded 1999."),
    ]


def test_docx_encrypted_raises(tmp_path: Path) -> None:
    path = tmp_path / "locked.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "locked.docx", "password", "remove the password")


@pytest.mark.parametrize("data", [b"not a zip", None])
def test_docx_corrupt_raises(tmp_path: Path, data: bytes | None) -> None:
    path = tmp_path / "bad.docx"
    if data is None:  # a zip that is not a Word document
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("hello.txt", "hi")
    else:
        path.write_bytes(data)
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "bad.docx", "not a readable Word document", "save it again as .docx")


def test_docx_without_text_raises(tmp_path: Path) -> None:
    docx.Document().save(tmp_path / "blank.docx")
    with pytest.raises(IngestError) as exc:
        load_document(tmp_path / "blank.docx")
    assert_error(exc, "blank.docx", "has no text")


# ---------------------------------------------------------------- XLSX


def test_xlsx_rows_header_detection_and_values(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Questions"
    ws["A1"] = "Security Questionnaire 2024"  # title row, one text cell
    ws.append([])
    ws.append(["ID", "Question", "Answer", None, "Due"])  # header on row 3, D has none
    ws.append([1, "  Do you encrypt data at rest?  ", "Yes", "extra", dt.datetime(2024, 5, 1)])
    ws.append([2.0, "Do you have MFA?", None, None, dt.date(2024, 6, 2)])
    ws.append([])
    ws.append([3.5, "Pen tests?", "Annual"])
    wb.save(tmp_path / "q.xlsx")
    loaded = load_document(tmp_path / "q.xlsx")
    assert loaded.kind is SourceKind.SHEET
    assert [(u.sheet, u.row) for u in loaded.units] == [("Questions", 4), ("Questions", 5), ("Questions", 7)]
    assert loaded.units[0].text == (
        "ID: 1\nQuestion: Do you encrypt data at rest?\nAnswer: Yes\nColumn D: extra\nDue: 2024-05-01"
    )
    assert loaded.units[1].text == "ID: 2\nQuestion: Do you have MFA?\nDue: 2024-06-02"
    assert loaded.units[2].text == "ID: 3.5\nQuestion: Pen tests?\nAnswer: Annual"


def _formula_workbook(path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Calc"
    ws.append(["Input", "Label", "Double"])
    ws.append([21, "x", "=A2*2"])
    wb.save(path)


def test_xlsx_formula_without_cached_value_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "calc.xlsx"
    _formula_workbook(path)
    unit = load_document(path).units[0]
    assert unit.text == "Input: 21\nLabel: x"
    assert "=" not in unit.text and "A2*2" not in unit.text


def test_xlsx_formula_with_cached_value(tmp_path: Path) -> None:
    plain = tmp_path / "plain.xlsx"
    _formula_workbook(plain)
    path = tmp_path / "cached.xlsx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                xml = data.decode()
                patched = xml.replace("<f>A2*2</f><v></v>", "<f>A2*2</f><v>42</v>")
                if patched == xml:
                    patched = xml.replace("<f>A2*2</f>", "<f>A2*2</f><v>42</v>")
                assert "<v>42</v>" in patched
                data = patched.encode()
            dst.writestr(item, data)
    unit = load_document(path).units[0]
    assert unit.text == "Input: 21\nLabel: x\nDouble: 42"
    assert unit.row == 2


def test_xlsx_hidden_sheet_and_merged_cells(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Controls"
    ws.append(["Category", "Control", "Answer"])
    ws.append(["Access", "MFA", "Yes"])
    ws.append([None, "SSO", "Yes"])
    ws.append([None, "PAM", "No"])
    ws.merge_cells("A2:A4")
    hidden = wb.create_sheet("Internal")
    hidden.append(["Key", "Value"])
    hidden.append(["owner", "alice"])
    hidden.sheet_state = "hidden"
    very = wb.create_sheet("Secret")
    very.append(["Key", "Value"])
    very.append(["k", "v"])
    very.sheet_state = "veryHidden"
    wb.create_sheet("Empty")
    wb.save(tmp_path / "c.xlsx")
    loaded = load_document(tmp_path / "c.xlsx")
    controls = [u for u in loaded.units if u.sheet == "Controls"]
    assert [u.row for u in controls] == [2, 3, 4]
    assert all(u.text.startswith("Category: Access\n") for u in controls)
    assert controls[2].text == "Category: Access\nControl: PAM\nAnswer: No"
    internal = [u for u in loaded.units if u.sheet == "Internal"]
    assert [(u.row, u.text) for u in internal] == [(2, "Key: owner\nValue: alice")]
    assert [u.sheet for u in loaded.units if u.sheet == "Secret"] == ["Secret"]
    assert "sheet 'Internal' is hidden; its rows were indexed too" in loaded.notes
    assert "sheet 'Secret' is hidden; its rows were indexed too" in loaded.notes
    assert len(loaded.notes) == 2


def test_xlsx_merged_cells_across_columns_are_one_value(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Q", "Answer", "Comment"])
    ws.append(["Backups?", "Yes, nightly", None])
    ws.merge_cells("B2:C2")
    wb.save(tmp_path / "m.xlsx")
    unit = load_document(tmp_path / "m.xlsx").units[0]
    assert unit.text == "Q: Backups?\nAnswer: Yes, nightly"


def test_xlsx_title_merged_across_the_sheet_is_not_the_header(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Approved answers, reviewed April 2026", None, None])
    ws.merge_cells("A1:C1")
    ws.append([])
    ws.append(["ID", "Question", "Answer"])
    ws.append(["PA-1", "Backups?", "Yes"])
    wb.save(tmp_path / "t.xlsx")
    (unit,) = load_document(tmp_path / "t.xlsx").units
    assert (unit.row, unit.text) == (4, "ID: PA-1\nQuestion: Backups?\nAnswer: Yes")


def test_xlsm_and_single_column_sheet(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "List"
    for value in ["Requirements", "Must support SSO", "Must log access"]:
        ws.append([value])
    wb.save(tmp_path / "list.xlsm")
    loaded = load_document(tmp_path / "list.xlsm")
    assert [(u.row, u.text) for u in loaded.units] == [
        (2, "Requirements: Must support SSO"),
        (3, "Requirements: Must log access"),
    ]


def test_xlsx_all_sheets_empty_raises(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "Header only"
    wb.create_sheet("Other")
    wb.save(tmp_path / "none.xlsx")
    with pytest.raises(IngestError) as exc:
        load_document(tmp_path / "none.xlsx")
    assert_error(exc, "none.xlsx", "has no data rows", "header row")


def test_xlsx_password_protected_raises(tmp_path: Path) -> None:
    path = tmp_path / "x.xlsx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"junk" * 200)
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(
        exc,
        "x.xlsx",
        "is password-protected (encrypted) or an old .xls file",
        "remove the password",
        "save it as .xlsx",
    )


def test_xlsx_corrupt_raises(tmp_path: Path) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(b"PK\x03\x04 truncated zip")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "bad.xlsx", "not a readable Excel workbook", "save it again as .xlsx")


# ---------------------------------------------------------------- CSV


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_csv_encodings(tmp_path: Path, encoding: str) -> None:
    text = "Name,Comment\r\nCafé,“quoted” – dash\r\nPlain,ok\r\n"
    path = tmp_path / "answers.csv"
    path.write_bytes(text.encode(encoding))
    loaded = load_document(path)
    assert loaded.kind is SourceKind.SHEET
    assert [(u.sheet, u.row, u.text) for u in loaded.units] == [
        ("answers", 2, "Name: Café\nComment: “quoted” – dash"),
        ("answers", 3, "Name: Plain\nComment: ok"),
    ]


def test_csv_semicolon_quotes_and_multiline(tmp_path: Path) -> None:
    text = 'ID;Question;Answer\n1;"Do you; really?";Yes\n2;Multi;"line one\nline two"\n3;;\n4;Last;No\n'
    path = tmp_path / "q.csv"
    path.write_text(text, encoding="utf-8")
    units = load_document(path).units
    assert [u.row for u in units] == [2, 3, 4, 5]
    assert units[0].text == "ID: 1\nQuestion: Do you; really?\nAnswer: Yes"
    assert units[1].text == "ID: 2\nQuestion: Multi\nAnswer: line one\nline two"
    assert units[2].text == "ID: 3"


def test_csv_header_only_raises(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("a,b,c\n", encoding="utf-8")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "h.csv", "has no data rows")


def test_csv_undecodable_raises(tmp_path: Path) -> None:
    path = tmp_path / "bin.csv"
    path.write_bytes(b"a,b\n\x81\x8d,\x90\n")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "bin.csv", "UTF-8", "save it again")


# ---------------------------------------------------------------- Markdown / TXT


MARKDOWN = """Preamble line.

# Security
Intro.

## Encryption
AES-256 everywhere.

```bash
# not a heading
## also not
```

### Keys ###
Rotated yearly.

# Operations
~~~
# still code
~~~
Backups.
## Empty

#hashtag is not a heading
"""


def test_markdown_sections(tmp_path: Path) -> None:
    path = tmp_path / "kb.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    loaded = load_document(path)
    assert loaded.kind is SourceKind.TEXT
    assert [u.section for u in loaded.units] == [
        None,
        "Security",
        "Security > Encryption",
        "Security > Encryption > Keys",
        "Operations",
        "Operations > Empty",
    ]
    assert "".join(u.text for u in loaded.units) == MARKDOWN  # raw text, nothing lost
    enc = loaded.units[2].text
    assert enc.startswith("## Encryption\n") and "# not a heading\n## also not\n" in enc
    assert loaded.units[4].text == "# Operations\n~~~\n# still code\n~~~\nBackups.\n"
    assert loaded.units[5].text == "## Empty\n\n#hashtag is not a heading\n"


def test_markdown_skips_heading_only_and_blank_sections(tmp_path: Path) -> None:
    path = tmp_path / "kb.markdown"
    path.write_text("\n\n# A\n\n## B\ntext b\n# C\n   \n", encoding="utf-8")
    units = load_document(path).units
    assert [(u.section, u.text) for u in units] == [("A > B", "## B\ntext b\n")]


def test_markdown_crlf_kept(tmp_path: Path) -> None:
    path = tmp_path / "w.md"
    path.write_bytes(b"# Title\r\nBody\r\n## Sub\r\nMore\r\n")
    units = load_document(path).units
    assert [(u.section, u.text) for u in units] == [
        ("Title", "# Title\r\nBody\r\n"),
        ("Title > Sub", "## Sub\r\nMore\r\n"),
    ]


def test_txt_without_headings_cp1252(tmp_path: Path) -> None:
    text = "Café – “quoted”\nSecond line\n"
    path = tmp_path / "notes.txt"
    path.write_bytes(text.encode("cp1252"))
    loaded = load_document(path)
    assert [(u.section, u.text) for u in loaded.units] == [(None, text)]


def test_txt_whitespace_only_raises(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text(" \n\t\n", encoding="utf-8")
    with pytest.raises(IngestError) as exc:
        load_document(path)
    assert_error(exc, "blank.txt", "has no text")


@given(st.text(alphabet="#`~ \t\r\nab", max_size=300))
def test_split_sections_is_lossless(text: str) -> None:
    assert "".join(raw for _, raw in split_sections(text)) == text


# ---------------------------------------------------------------- helpers


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, ""),
        (3, "3"),
        (3.0, "3"),
        (0.1 + 0.2, "0.3"),
        (2.5, "2.5"),
        (True, "TRUE"),
        ("  padded  ", "padded"),
        (dt.datetime(2024, 1, 2), "2024-01-02"),
        (dt.datetime(2024, 1, 2, 13, 5), "2024-01-02 13:05:00"),
        (dt.date(2024, 1, 2), "2024-01-02"),
    ],
)
def test_cell_text(value: object, expected: str) -> None:
    assert cell_text(value) == expected


def test_page_ranges() -> None:
    assert page_ranges([3]) == "3"
    assert page_ranges([1, 2, 3, 7, 9, 10]) == "1-3, 7, 9-10"

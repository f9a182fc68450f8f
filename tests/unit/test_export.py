"""Lossless export on workbooks and CSV files written by the tests themselves.

Every check compares the real files: zip members byte by byte, the sheet XML row by row and
cell by cell, and every cell value of every sheet as openpyxl reads the original and the export.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from engine.questionnaire.export import export
from engine.questionnaire.sheet.writer import export_csv, export_xlsx
from engine.questionnaire.writes import CellWrite, ExportError

X14_DROPDOWN = (
    '<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" '
    'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
    '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    '<x14:dataValidation type="list" allowBlank="1" showErrorMessage="1">'
    "<x14:formula1><xm:f>Lists!$A$1:$A$3</xm:f></x14:formula1><xm:sqref>D2:D20</xm:sqref>"
    "</x14:dataValidation></x14:dataValidations></ext></extLst>"
)
pytestmark = pytest.mark.filterwarnings("ignore:Data Validation extension:UserWarning")  # openpyxl reading x14
P = r"(?:\w+:)?"  # a namespace prefix, as some generators write
ROW = re.compile(rf'<{P}row r="(\d+)"(?:[^>]*?/>|[^>]*>.*?</{P}row>)', re.S)
CELL = re.compile(rf'<{P}c r="([A-Z]+\d+)"(?:[^>]*?/>|[^>]*>.*?</{P}c>)', re.S)


def make_questionnaire(path: Path) -> Path:
    """A questionnaire with what customers' workbooks carry: shared strings, a list
    validation, an x14 dropdown, conditional formatting, a formula, merged cells, a hidden
    sheet and a defined name."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Questions"
    ws.append(["ID", "Question", "Answer", "Check", "Notes"])
    ws.append(["Q1", "Do you encrypt data at rest?", "Old answer"])
    ws.append(["Q2", "Do you enforce MFA?"])
    ws["C3"].font = Font(bold=True)  # an empty cell that exists only for its style
    ws.append(["Q3", "Do you log access?", None, None, None, "far right"])
    ws.append(["Q4", "Length of Q1", None, "=LEN(B2)"])
    ws.append(["Q5", "Do you scan for vulnerabilities?"])
    ws["A8"], ws["B8"] = "Q6", "Do you train staff?"  # row 7 stays missing
    ws["A10"] = "Section: Privacy"
    ws.merge_cells("A10:B10")
    validation = DataValidation(type="list", formula1='"Yes,No,N/A"', allow_blank=True)
    ws.add_data_validation(validation)
    validation.add("C2:C20")
    red = PatternFill(start_color="FFC7CE", end_color="FFC7CE", fill_type="solid")
    ws.conditional_formatting.add("C2:C20", CellIsRule(operator="equal", formula=['"No"'], fill=red))
    notes = wb.create_sheet("Notes")
    notes.append(["Reviewer", "Alice"])
    notes.append(["Total", "=COUNTA(Questions!C2:C20)"])
    lists = wb.create_sheet("Lists")
    lists.sheet_state = "hidden"
    for value in ("Yes", "No", "N/A"):
        lists.append([value])
    wb.defined_names["Choices"] = DefinedName("Choices", attr_text="Lists!$A$1:$A$3")
    wb.save(path)
    # openpyxl writes neither x14 extensions nor (this version) shared strings: store the
    # dropdown and the texts the way Excel does
    with zipfile.ZipFile(path) as z:
        members = {info.filename: z.read(info).decode() for info in z.infolist()}
    strings: list[str] = []

    def shared(m: re.Match) -> str:
        strings.append(m[2])
        return f'<c r="{m[1]}" t="s"><v>{len(strings) - 1}</v></c>'

    for name in [n for n in members if n.startswith("xl/worksheets/")]:
        members[name] = re.sub(r'<c r="(\w+)" t="inlineStr"><is><t[^>]*>(.*?)</t></is></c>', shared, members[name])
    members["xl/worksheets/sheet1.xml"] = (
        members["xl/worksheets/sheet1.xml"]
        .replace("</worksheet>", X14_DROPDOWN + "</worksheet>")
        .replace('<row r="2">', '<row r="2" spans="1:3">')  # the hint Excel writes; must grow with E2
    )
    members["xl/sharedStrings.xml"] = (
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{len(strings)}" uniqueCount="{len(strings)}">'
        + "".join(f"<si><t>{t}</t></si>" for t in strings)
        + "</sst>"
    )
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        "</Types>",
        (
            '<Override PartName="/xl/sharedStrings.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
        ),
    )
    members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(
        "</Relationships>",
        (
            '<Relationship Id="rIdStrings" Target="sharedStrings.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/></Relationships>'
        ),
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def values(path: Path, read_only: bool = False) -> dict[tuple[str, str], object]:
    """Every non-empty cell of every sheet (formulas as their text)."""
    wb = openpyxl.load_workbook(path, read_only=read_only, data_only=False)
    out = {}
    for ws in wb.worksheets:
        if read_only:
            ws.reset_dimensions()
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is not None and hasattr(cell, "coordinate"):
                    out[ws.title, cell.coordinate] = cell.value
    wb.close()
    return out


def sheet_part(path: Path, sheet: str) -> str:
    with zipfile.ZipFile(path) as z:
        workbook = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
    rid = re.search(rf'<sheet [^>]*name="{re.escape(sheet)}"[^>]*r:id="(\w+)"', workbook)[1]
    target = re.search(rf'<Relationship [^>]*Id="{rid}"[^>]*Target="([^"]+)"', rels) or re.search(
        rf'<Relationship [^>]*Target="([^"]+)"[^>]*Id="{rid}"', rels
    )
    return "xl/" + target[1].lstrip("/").removeprefix("xl/")


def assert_lossless(
    source: Path,
    exported: Path,
    writes: list[CellWrite],
    read_only: bool = False,
    also_changed: frozenset[str] = frozenset(),
) -> None:
    written = {(w.sheet, w.cell): w.value for w in writes}
    parts = {sheet_part(source, sheet) for sheet, _ in written}
    with zipfile.ZipFile(source) as a, zipfile.ZipFile(exported) as b:
        assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()]
        assert [i.compress_type for i in a.infolist()] == [i.compress_type for i in b.infolist()]
        changed = {n for n in a.namelist() if a.read(n) != b.read(n)}
        if "xl/workbook.xml" in changed - also_changed:  # formulas read the answers: recalculation asked for
            assert_only_recalculation_asked(a.read("xl/workbook.xml").decode(), b.read("xl/workbook.xml").decode())
            changed.discard("xl/workbook.xml")
        assert changed == parts | also_changed
        for part in parts:
            old, new = a.read(part).decode(), b.read(part).decode()
            cells = {w.cell for w in writes if sheet_part(source, w.sheet) == part}
            assert_sheet_xml_lossless(old, new, cells)
    before, after = values(source, read_only), values(exported, read_only)
    for key in before.keys() | after.keys():
        if key in written:
            assert after.get(key) == (written[key] or None), key
        else:
            assert before.get(key) == after.get(key), key


def assert_only_recalculation_asked(old: str, new: str) -> None:
    """workbook.xml: the one change an export may make is ``fullCalcOnLoad="1"`` on ``<calcPr>``
    (added with it when there was none)."""
    assert re.search(rf'<{P}calcPr\b[^>]*\bfullCalcOnLoad="1"', new), "no full recalculation asked for"

    def without(xml: str) -> str:
        xml = re.sub(rf'<{P}calcPr fullCalcOnLoad="1"/>', "", xml)
        return re.sub(r'\s+fullCalcOnLoad="[^"]*"', "", xml)

    assert without(old) == without(new)


def assert_sheet_xml_lossless(old: str, new: str, cells: set[str]) -> None:
    """Outside <sheetData> only the dimension may change; inside it only the written cells
    (and the opening tag of a row whose spans grew)."""

    def outside(xml: str) -> str:
        xml = re.sub(rf"<{P}sheetData>.*</{P}sheetData>|<{P}sheetData/>", "<sheetData/>", xml, flags=re.S)
        return re.sub(rf'<{P}dimension ref="[^"]*"/>', "<dimension/>", xml)

    assert outside(old) == outside(new)
    assert re.findall(r"<extLst>.*?</extLst>", old, re.S) == re.findall(r"<extLst>.*?</extLst>", new, re.S)
    rows = {int(re.sub(r"[A-Z]", "", c)) for c in cells}
    old_rows = {int(m[1]): m[0] for m in ROW.finditer(old)}
    new_rows = {int(m[1]): m[0] for m in ROW.finditer(new)}
    assert list(new_rows) == sorted(new_rows) and set(new_rows) == set(old_rows) | rows
    for number, row in old_rows.items():
        if number not in rows:
            assert new_rows[number] == row, f"row {number} changed"
            continue
        old_cells = {m[1]: m[0] for m in CELL.finditer(row)}
        new_cells = {m[1]: m[0] for m in CELL.finditer(new_rows[number])}
        assert set(new_cells) == set(old_cells) | {c for c in cells if c.endswith(str(number)) and c in new_cells}
        assert all(new_cells[c] == x for c, x in old_cells.items() if c not in cells), f"row {number}"
        assert list(new_cells) == sorted(new_cells, key=column), f"row {number}: cells out of order"


def column(ref: str) -> int:
    number = 0
    for ch in re.sub(r"\d", "", ref):
        number = number * 26 + ord(ch) - 64
    return number


@pytest.fixture()
def workbook(tmp_path: Path) -> Path:
    return make_questionnaire(tmp_path / "questionnaire.xlsx")


WRITES = [
    CellWrite("Questions", "C2", "Yes"),  # a cell holding a shared string
    CellWrite("Questions", "C3", 'No, but <planned> & "scheduled"'),  # an empty styled cell
    CellWrite("Questions", "D4", "Daily review"),  # missing, between B4 and F4
    CellWrite("Questions", "C6", "=SUM(A1)"),  # formula-looking text
    CellWrite("Questions", "C7", "+1 -2 @me"),  # a missing row between rows 6 and 8
    CellWrite("Questions", "E30", "line one\nline two"),  # a missing row past the dimension
    CellWrite("Questions", "E2", "beyond the row's spans"),
    CellWrite("Notes", "C1", "-5 is text"),
]


def test_export_changes_only_the_written_cells(workbook: Path, tmp_path: Path):
    out = export(workbook, tmp_path / "answered.xlsx", WRITES)
    assert out == tmp_path / "answered.xlsx"
    assert_lossless(workbook, out, WRITES)
    with zipfile.ZipFile(out) as z:
        sheet = z.read("xl/worksheets/sheet1.xml").decode()
    assert X14_DROPDOWN in sheet and "<conditionalFormatting" in sheet and "<dataValidations" in sheet
    assert '<mergeCell ref="A10:B10"/>' in sheet
    assert '<dimension ref="A1:F30"/>' in sheet and '<row r="2" spans="1:5">' in sheet
    assert re.search(r'<c r="C3" s="[1-9]\d*" t="inlineStr">', sheet), "the written cell keeps its style"
    assert "&lt;planned&gt; &amp;" in sheet
    assert [c for c in CELL.findall(re.search(r'<row r="4".*?</row>', sheet)[0])] == ["A4", "B4", "D4", "F4"]
    assert sheet.index('<row r="6"') < sheet.index('<row r="7"') < sheet.index('<row r="8"')

    wb = openpyxl.load_workbook(out)  # opens, and keeps what openpyxl understands
    ws = wb["Questions"]
    assert wb["Lists"].sheet_state == "hidden" and "Choices" in wb.defined_names
    assert ws["D5"].value == "=LEN(B2)" and ws["D5"].data_type == "f"
    assert wb["Notes"]["B2"].value == "=COUNTA(Questions!C2:C20)"
    for cell in ("C6", "C7"):
        assert ws[cell].data_type == "s"
    assert ws["C6"].value == "=SUM(A1)" and "<f>" not in re.search(r'<c r="C6".*?</c>', sheet)[0]
    assert ws.data_validations.dataValidation[0].formula1 == '"Yes,No,N/A"'
    assert len(ws.conditional_formatting) == 1 and [r.coord for r in ws.merged_cells.ranges] == ["A10:B10"]


def test_styled_empty_cell_and_existing_cell_cases_are_real(workbook: Path):
    with zipfile.ZipFile(workbook) as z:
        sheet = z.read("xl/worksheets/sheet1.xml").decode()
    assert re.search(r'<c r="C3" s="\d+"( t="n">)?(/>|</c>)', sheet) and re.search(r'<c r="C2" [^>]*t="s"', sheet)
    assert "<v>" not in re.search(r'<c r="C3".*?(/>|</c>)', sheet)[0] and "xl/sharedStrings.xml" in z.namelist()
    assert '<row r="7"' not in sheet and '<c r="D4"' not in sheet and '<dimension ref="A1:F10"/>' in sheet


def test_overwriting_a_formula_and_the_merged_range_anchor(workbook: Path, tmp_path: Path):
    writes = [CellWrite("Questions", "D5", "typed over"), CellWrite("Questions", "A10", "Section: Security")]
    out = export_xlsx(workbook, tmp_path / "o.xlsx", writes)
    assert_lossless(workbook, out, writes)
    assert openpyxl.load_workbook(out)["Questions"]["D5"].data_type == "s"


def test_sheet_with_a_namespace_prefix(workbook: Path, tmp_path: Path):
    """Some generators write <x:worksheet xmlns:x="…"><x:sheetData>…: new cells take the prefix."""
    with zipfile.ZipFile(workbook) as z:
        members = {info.filename: z.read(info) for info in z.infolist()}
    notes = members["xl/worksheets/sheet2.xml"].decode()
    notes = re.sub(r"<(/?)(?![?])(\w+)\b", r"<\1x:\2", notes).replace("<x:worksheet xmlns=", "<x:worksheet xmlns:x=")
    members["xl/worksheets/sheet2.xml"] = notes.encode()
    with zipfile.ZipFile(src := tmp_path / "prefixed.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    writes = [CellWrite("Notes", "B1", "Bob"), CellWrite("Notes", "C2", "new"), CellWrite("Notes", "A4", "row 4")]
    out = export_xlsx(src, tmp_path / "o.xlsx", writes)
    assert_lossless(src, out, writes)
    with zipfile.ZipFile(out) as z:
        xml = z.read("xl/worksheets/sheet2.xml").decode()
    assert (
        '<x:row r="4"><x:c r="A4" t="inlineStr"><x:is><x:t xml:space="preserve">row 4</x:t></x:is></x:c></x:row>' in xml
    )


def test_calc_chain_loses_only_the_overwritten_formulas(tmp_path: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws.append([1, "=A1+1", "=B1+1"])
    wb.save(src := tmp_path / "calc.xlsx")
    with zipfile.ZipFile(src) as z:
        members = {info.filename: z.read(info).decode() for info in z.infolist()}
    members["xl/calcChain.xml"] = (  # the second entry's sheet is implied by the first one
        '<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<c r="B1" i="1"/><c r="C1"/></calcChain>'
    )
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        "</Types>",
        (
            '<Override PartName="/xl/calcChain.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>'
        ),
    )
    members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(
        "</Relationships>",
        (
            '<Relationship Id="rIdCalc" Target="calcChain.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain"/></Relationships>'
        ),
    )
    with zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)

    out = export_xlsx(src, tmp_path / "one.xlsx", [CellWrite("S", "B1", "typed")])
    with zipfile.ZipFile(out) as z:
        assert z.read("xl/calcChain.xml").decode().endswith('<c i="1" r="C1"/></calcChain>')
    out = export_xlsx(src, tmp_path / "all.xlsx", [CellWrite("S", "B1", "x"), CellWrite("S", "C1", "y")])
    with zipfile.ZipFile(out) as z:  # an empty chain is invalid: it goes, with its references
        assert "xl/calcChain.xml" not in z.namelist()
        assert "calcChain" not in z.read("[Content_Types].xml").decode() + z.read("xl/_rels/workbook.xml.rels").decode()
    assert [c.value for c in openpyxl.load_workbook(out)["S"][1]] == [1, "x", "y"]


def test_text_is_cleaned_and_kept_literal(workbook: Path, tmp_path: Path):
    writes = [CellWrite("Questions", "C2", "a\x00b\x0bc\r\nd"), CellWrite("Questions", "C3", "keep _x0041_ literally")]
    out = export_xlsx(workbook, tmp_path / "o.xlsx", writes)
    ws = openpyxl.load_workbook(out)["Questions"]
    assert ws["C2"].value == "abc\nd"
    with zipfile.ZipFile(out) as z:
        assert "keep _x005F_x0041_ literally" in z.read("xl/worksheets/sheet1.xml").decode()  # Excel shows "_x0041_"


def test_empty_value_clears_the_cell_and_an_empty_sheet_gets_rows(tmp_path: Path):
    wb = openpyxl.Workbook()
    wb.active.title = "Empty"
    wb.create_sheet("Filled")["A1"] = "old"
    wb.save(src := tmp_path / "s.xlsx")
    writes = [CellWrite("Empty", "B3", "first"), CellWrite("Filled", "A1", "")]
    out = export_xlsx(src, tmp_path / "o.xlsx", writes)
    assert_lossless(src, out, writes)
    with zipfile.ZipFile(out) as z:
        assert '<dimension ref="A1:B3"/>' in z.read("xl/worksheets/sheet1.xml").decode()


def test_last_write_to_a_cell_wins_and_target_is_replaced(workbook: Path, tmp_path: Path):
    target = tmp_path / "o.xlsx"
    export_xlsx(workbook, target, [CellWrite("Questions", "C2", "first")])
    export_xlsx(workbook, target, [CellWrite("Questions", "C2", "x"), CellWrite("Questions", "C2", "second")])
    assert openpyxl.load_workbook(target)["Questions"]["C2"].value == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.xlsx", "questionnaire.xlsx"]  # no temp files


@pytest.mark.parametrize(
    ("write", "problem"),
    [
        (CellWrite("Nope", "C2", "x"), "no sheet named 'Nope'"),
        (CellWrite("Questions", "2C", "x"), "not a cell reference"),
        (CellWrite("Questions", "C0", "x"), "not a cell reference"),
        (CellWrite("Questions", "XFE1", "x"), "not a cell reference"),
        (CellWrite("Questions", "B10", "x"), "inside the merged range A10:B10"),
        (CellWrite("Questions", "C2", "x" * 32_768), "Excel's limit"),
    ],
)
def test_bad_writes_are_refused_and_nothing_is_written(workbook: Path, tmp_path: Path, write, problem):
    target = tmp_path / "o.xlsx"
    with pytest.raises(ExportError) as err:
        export_xlsx(workbook, target, [CellWrite("Questions", "C2", "ok"), write])
    assert problem in err.value.problem and err.value.fix
    assert sorted(p.name for p in tmp_path.iterdir()) == ["questionnaire.xlsx"]


def test_bad_sources_and_targets(workbook: Path, tmp_path: Path):
    original = workbook.read_bytes()
    with pytest.raises(ExportError, match="source questionnaire itself"):
        export(workbook, workbook, WRITES)
    assert workbook.read_bytes() == original
    (corrupt := tmp_path / "corrupt.xlsx").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ExportError, match="corrupt"):
        export(corrupt, tmp_path / "o.xlsx", WRITES)
    (encrypted := tmp_path / "locked.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    with pytest.raises(ExportError, match="password-protected"):
        export(encrypted, tmp_path / "o.xlsx", WRITES)
    with pytest.raises(ExportError, match="does not exist"):
        export(tmp_path / "missing.xlsx", tmp_path / "o.xlsx", WRITES)
    with pytest.raises(ExportError, match="keep that extension"):
        export(workbook, tmp_path / "o.xlsm", WRITES)
    with pytest.raises(ExportError, match="cannot export a .odt"):
        export(tmp_path / "q.odt", tmp_path / "o.odt", WRITES)
    with pytest.raises(ExportError, match="a document questionnaire is exported with its answer places"):
        export(tmp_path / "q.pdf", tmp_path / "o.pdf", WRITES)  # a PDF is exported (#48), read first


# ----------------------------------------------------------------------------------- CSV


def grid(text: str, delimiter: str) -> dict[tuple[int, int], str]:
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return {(r, c): v for r, row in enumerate(rows, 1) for c, v in enumerate(row, 1) if v}


def assert_csv_lossless(source: Path, out: Path, encoding: str, delimiter: str, expected: dict[tuple[int, int], str]):
    before = grid(source.read_bytes().decode(encoding), delimiter)
    after = grid(out.read_bytes().decode(encoding), delimiter)
    assert {k: v for k, v in after.items() if k not in expected} == {
        k: v for k, v in before.items() if k not in expected
    }
    assert {k: after.get(k) for k in expected} == expected


def test_csv_cp1252_semicolon_crlf(tmp_path: Path):
    text = 'ID;Question;Answer\r\n1;Café policy?;\r\n2;"Multi;line\r\nquestion";Old\r\n3;Résumé "quoted";\r\n'
    (src := tmp_path / "q.csv").write_bytes(text.encode("cp1252"))
    writes = [
        CellWrite("q", "C2", "Oui — déjà"),
        CellWrite("q", "C3", '=HYPERLINK("http://x")'),
        CellWrite("q", "E4", "far; right"),
        CellWrite("q", "B6", "new row"),
    ]
    out = export_csv(src, tmp_path / "o.csv", writes)
    data = out.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert_csv_lossless(
        src,
        out,
        "cp1252",
        ";",
        {
            (2, 3): "Oui — déjà",
            (3, 3): '\'=HYPERLINK("http://x")',
            (4, 5): "far; right",
            (6, 2): "new row",
        },
    )
    lines = data.split(b"\r\n")
    assert lines[0] == b"ID;Question;Answer" and lines[4] == '3;Résumé "quoted";;;"far; right"'.encode("cp1252")
    assert b"\n" not in data.replace(b"\r\n", b"")  # every line ending is still CRLF
    assert data.endswith(b"\r\n;new row\r\n")


def test_csv_utf8_sig_comma_lf(tmp_path: Path):
    text = '\ufeffid,question,answer,comment\n"Q1","Do you, encrypt?",,\nQ2,"He said ""no""",Yes,x'
    (src := tmp_path / "q.csv").write_bytes(text.encode("utf-8"))
    writes = [CellWrite("", "C2", 'Yes, "AES-256" ✓'), CellWrite("", "D3", "@SUM(1)"), CellWrite("", "A5", "-")]
    out = export(src, tmp_path / "o.csv", writes)
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf" * 2)
    assert_csv_lossless(src, out, "utf-8-sig", ",", {(2, 3): 'Yes, "AES-256" ✓', (3, 4): "'@SUM(1)", (5, 1): "'-"})
    assert data.decode("utf-8-sig").split("\n")[:2] == [
        "id,question,answer,comment",
        '"Q1","Do you, encrypt?","Yes, ""AES-256"" ✓",',
    ]
    assert "\r" not in data.decode("utf-8-sig")


def test_csv_unencodable_answer_is_refused(tmp_path: Path):
    (src := tmp_path / "q.csv").write_bytes("a;b\r\nCafé;\r\n".encode("cp1252"))
    with pytest.raises(ExportError, match="cp1252"):
        export_csv(src, tmp_path / "o.csv", [CellWrite("", "B2", "✓")])
    assert not (tmp_path / "o.csv").exists()

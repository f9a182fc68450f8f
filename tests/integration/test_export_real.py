"""Lossless export of the real blank HECVAT 4.1.4 (../shared/data; skipped when absent).

"Product" holds questions with x14 dropdowns in column C (answers) and free text in D;
"Institution Evaluation" carries x14 dropdowns, conditional formats (with x14 extensions),
a shared formula and a merged range. Nothing from ../shared/data is copied into the repo:
the exports go to pytest's tmp_path.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite, ExportError
from tests.unit.test_export import (
    assert_lossless,
    assert_only_recalculation_asked,
    assert_sheet_xml_lossless,
    sheet_part,
)

pytestmark = pytest.mark.filterwarnings("ignore:.* extension is not supported:UserWarning")
PRESERVED = (  # blocks of a sheet that must come back byte for byte
    r"<dataValidations\b.*?</dataValidations>",
    r"<x14:dataValidations\b.*?</x14:dataValidations>",
    r"<conditionalFormatting\b.*?</conditionalFormatting>",
    r"<x14:conditionalFormattings\b.*?</x14:conditionalFormattings>",
    r"<mergeCells\b.*?</mergeCells>",
    r"<extLst>.*?</extLst>",
)


@pytest.fixture(scope="module")
def hecvat(shared_data: Path) -> Path:
    path = shared_data / "hecvat_blank" / "HECVAT414.xlsx"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path


def blocks(xml: str) -> list[str]:
    return [block for pattern in PRESERVED for block in re.findall(pattern, xml, re.S)]


def test_hecvat_answers_change_only_their_cells(hecvat: Path, tmp_path: Path):
    writes = [
        CellWrite("Product", "C20", "Yes"),  # x14 dropdown cell, existing and empty
        CellWrite("Product", "D20", "SAML 2.0 & OIDC for users <and> admins."),
        CellWrite("Product", "C21", "No"),
        CellWrite("Product", "D21", "=SUM(A1) is not a formula here"),
        CellWrite("Product", "C36", "Yes"),  # the second x14 list
        CellWrite("Product", "G20", "inserted between F20 and I20"),  # no <c> there yet
        CellWrite("Institution Evaluation", "H56", "Yes"),  # x14 dropdown on a sheet with conditional formats
    ]
    out = export(hecvat, tmp_path / "HECVAT414-answered.xlsx", writes)
    assert_lossless(hecvat, out, writes, read_only=True)  # also: every cell of every sheet, via openpyxl
    with zipfile.ZipFile(hecvat) as a, zipfile.ZipFile(out) as b:
        for sheet in ("Product", "Institution Evaluation"):
            old, new = a.read(sheet_part(hecvat, sheet)).decode(), b.read(sheet_part(hecvat, sheet)).decode()
            assert blocks(old) == blocks(new) and "<x14:dataValidations" in "".join(blocks(new))
        product = b.read(sheet_part(hecvat, "Product")).decode()
        assert re.search(r'<c r="D21" s="\d+" t="inlineStr"><is><t xml:space="preserve">=SUM', product)
        evaluation = b.read(sheet_part(hecvat, "Institution Evaluation")).decode()
        assert "<conditionalFormatting" in evaluation and "<x14:conditionalFormattings" in evaluation
        assert b.read("xl/calcChain.xml") == a.read("xl/calcChain.xml")


def test_hecvat_overwritten_formula_leaves_the_calc_chain(hecvat: Path, tmp_path: Path):
    writes = [CellWrite("Product", "E21", "typed over the guidance formula")]
    out = export(hecvat, tmp_path / "o.xlsx", writes)
    with zipfile.ZipFile(hecvat) as a, zipfile.ZipFile(out) as b:
        changed = {n for n in a.namelist() if a.read(n) != b.read(n)}
        assert changed == {
            sheet_part(hecvat, "Product"),
            "xl/calcChain.xml",
            "xl/workbook.xml",
        }  # formulas read Product
        assert_only_recalculation_asked(a.read("xl/workbook.xml").decode(), b.read("xl/workbook.xml").decode())
        part = sheet_part(hecvat, "Product")
        assert_sheet_xml_lossless(a.read(part).decode(), b.read(part).decode(), {"E21"})
        product_id = re.search(r'<sheet name="Product" sheetId="(\d+)"', a.read("xl/workbook.xml").decode())[1]
        old_chain = re.findall(r"<c [^>]*/>", a.read("xl/calcChain.xml").decode())
        new_chain = re.findall(r"<c [^>]*/>", b.read("xl/calcChain.xml").decode())
        assert [c for c in old_chain if c != f'<c r="E21" i="{product_id}"/>'] == new_chain
        assert len(new_chain) == len(old_chain) - 1


def test_hecvat_refuses_shared_formula_master_and_merged_cells(hecvat: Path, tmp_path: Path):
    with pytest.raises(ExportError, match="G22:G37"):
        export(hecvat, tmp_path / "o.xlsx", [CellWrite("Institution Evaluation", "G22", "x")])
    with pytest.raises(ExportError, match="write to A19 instead"):
        export(hecvat, tmp_path / "o.xlsx", [CellWrite("Institution Evaluation", "B19", "x")])
    with pytest.raises(ExportError, match="no sheet named 'Products'"):
        export(hecvat, tmp_path / "o.xlsx", [CellWrite("Products", "C20", "Yes")])
    assert not any(tmp_path.iterdir())

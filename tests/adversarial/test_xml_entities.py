"""The XML of uploaded files is parsed through defusedxml (issue #47, item 6): an entity a part
declares is refused, never expanded, by the product's own parsers too, not only by openpyxl's.

Before #47 the product read a workbook's parts with the standard library's parser
(engine/core/ooxml.py for the sheet list, engine/questionnaire/sheet/validation.py for formulas and
dropdowns, engine/questionnaire/sheet/writer.py for the export), which expands the entities a part declares:
a sheet named ``&s;`` was exported as "Security", a formula written ``&f;`` read as ``C2``.
(openpyxl, which reads the cells, uses defusedxml when it is installed, which is why such a
workbook was refused on upload; the project now declares it, and uses it itself.)"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from defusedxml import DefusedXmlException

from engine.core.ooxml import workbook_sheets
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.sheet.validation import scan_sheet
from engine.questionnaire.writes import CellWrite, ExportError

SHEET = "xl/worksheets/sheet1.xml"


def _rewritten(path: Path, part: str, edit) -> Path:
    with zipfile.ZipFile(path) as zin:
        members = [(i, zin.read(i.filename)) for i in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in members:
            zout.writestr(info, edit(data.decode("utf-8")).encode("utf-8") if info.filename == part else data)
    return path


def _declaring(xml: str, root: str, entity: str, value: str) -> str:
    """``xml`` with a DOCTYPE that declares ``entity`` as ``value``, before its root element."""
    at = xml.index(f"<{root}")
    return f'{xml[:at]}<!DOCTYPE {root} [<!ENTITY {entity} "{value}">]>{xml[at:]}'


def questionnaire(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Security"
    ws.append(["ID", "Question", "Answer"])
    ws.append(["ENC-01", "Is customer data encrypted at rest?", None])
    ws.append(["ENC-02", "Is it encrypted in transit?", "=C2"])
    wb.save(path)
    return path


def test_an_entity_in_the_workbook_part_is_refused_by_the_sheet_list_and_the_export(tmp_path):
    path = _rewritten(
        questionnaire(tmp_path / "vendor.xlsx"),
        "xl/workbook.xml",
        lambda xml: _declaring(xml, "workbook", "s", "Security").replace('name="Security"', 'name="&s;"'),
    )
    with zipfile.ZipFile(path) as zf, pytest.raises(DefusedXmlException):
        workbook_sheets(zf)
    with pytest.raises(ExportError) as refused:
        export(path, tmp_path / "out.xlsx", [CellWrite("Security", "C2", "Yes")])
    assert str(refused.value).startswith(f"{path}: the part xl/workbook.xml is missing or corrupt (")
    assert not (tmp_path / "out.xlsx").exists()
    with pytest.raises(QuestionnaireError, match="not a readable Excel workbook"):
        read_questionnaire(path)


def test_an_entity_in_a_sheet_is_refused_by_the_formula_scan(tmp_path):
    path = _rewritten(
        questionnaire(tmp_path / "vendor.xlsx"),
        SHEET,
        lambda xml: re.sub(r"<f>C2</f>", "<f>&f;</f>", _declaring(xml, "worksheet", "f", "C2")),
    )
    with zipfile.ZipFile(path) as zf, pytest.raises(DefusedXmlException):
        scan_sheet(zf, SHEET)
    with pytest.raises(QuestionnaireError):
        read_questionnaire(path)

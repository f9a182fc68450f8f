"""Qualifiers read from the workbook's own formulas (engine/questionnaire/formula_gates.py and
its use in engine/questionnaire/qualifiers.py), on workbooks generated here with openpyxl in
HECVAT 4's shape: REQU questions on a START HERE sheet, tabs that copy their answers
(``VLOOKUP($A2,'START HERE'!…,3,0)``) and Guidance formulas that say a row does not apply."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl.worksheet.datavalidation import DataValidation

from engine.questionnaire import read_questionnaire
from engine.questionnaire.formula_gates import formula_gates
from engine.questionnaire.qualifiers import QualifierSource, find_qualifiers, gates
from tests.unit.test_qualifiers import _state as file_state

HEADER = ["ID", "Question", "Answer", "Additional Information", "Guidance"]


def _yes_no(ws, *cells: str) -> None:
    dv = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
    ws.add_data_validation(dv)
    for c in cells:
        dv.add(c)


def requ_book(path: Path, answers: dict[str, str] | None = None, formulas: bool = True) -> Path:
    answers = answers or {}
    wb = openpyxl.Workbook()
    start = wb.active
    start.title = "START HERE"
    start.append(HEADER)
    start.append(
        [
            "REQU-01",
            "Does your solution process protected health information (PHI)?",
            answers.get("REQU-01"),
            None,
            '=IF(C2="No","DO NOT complete the HIPAA worksheet","DO complete the HIPAA worksheet")'
            if formulas
            else None,
        ]
    )
    start.append(["REQU-02", "Are you providing consulting services?", answers.get("REQU-02"), None, None])
    start.append(["GNRL-01", "Vendor Name", None, None, None])
    _yes_no(start, "C2", "C3")

    hipaa = wb.create_sheet("HIPAA")
    hipaa.append(HEADER)
    # the tab's copy of REQU-01's answer, as HECVAT 4's tabs have it
    hipaa.append(["REQU-01", None, "=VLOOKUP($A2,'START HERE'!$A$2:$C$4,3,0)&\"\"" if formulas else None, None, None])
    gate = '=IF($C$2="No","Based on the response to REQU-01, this question does not apply.","")'
    hipaa.append(
        ["HIPA-01", "Do your workforce members receive HIPAA training?", None, None, gate if formulas else None]
    )
    hipaa.append(["HIPA-02", "Have you conducted a HIPAA risk analysis?", None, None, gate if formulas else None])
    hipaa.append(
        ["HIPA-03", "Do you sign business associate agreements?", None, None, None]
    )  # the worksheet's words only
    _yes_no(hipaa, "C3", "C4", "C5")

    services = wb.create_sheet("Services")
    services.append(HEADER)
    services.append(
        [
            "CONS-01",
            "Do consultants receive security training?",
            None,
            None,
            "=IF(OR('START HERE'!C3=\"No\",'START HERE'!C3=\"N/A\"),0,1)",
        ]
    )
    services.append(
        [
            "CONS-02",
            "Are consultants background checked?",
            None,
            None,
            '=IF(\'START HERE\'!$C$3="Yes","Required","Not required")',
        ]
    )
    services.append(["CONS-03", "Do consultants need remote access?", None, None, None])
    # a follow-up on the same sheet: left to the declared map and the questionnaire's words
    services.append(
        ["CONS-04", "Is remote access logged?", None, None, '=IF($C$4="No","This question does not apply.","")']
    )
    services.append(["ENCR-01", "Is data encrypted at rest?", None, None, None])
    _yes_no(services, "C2", "C3", "C4", "C5", "C6")
    wb.save(path)
    return path


def _state(path: Path):
    """(qualifiers, gates from the file's own answers, ID → key), as tests/unit/test_qualifiers.py reads them."""
    _, quals, state, by_id = file_state(path)
    return quals, state, by_id


def test_formulas_on_other_sheets_make_qualifiers_of_the_answers_they_read(tmp_path):
    path = requ_book(tmp_path / "r.xlsx")
    cells = {g.cell: g for g in formula_gates(path)}
    assert cells["START HERE", "C2"].off_values == ("No",) and cells["START HERE", "C2"].sheets == ("HIPAA",)
    assert set(cells["START HERE", "C3"].off_values) == {"No", "N/A"} and cells["START HERE", "C3"].on_values == (
        "Yes",
    )
    assert ("Services", "C4") not in cells  # CONS-03 is read on its own sheet only

    quals = {x.id: x for x in find_qualifiers(read_questionnaire(path))}
    assert set(quals) == {"REQU-01", "REQU-02"}
    assert all(x.source is QualifierSource.FORMULAS for x in quals.values())
    hipaa, cons = quals["REQU-01"], quals["REQU-02"]
    assert hipaa.governs_ids == ("HIPA-01", "HIPA-02", "HIPA-03") and hipaa.section == "HIPAA worksheet"
    assert cons.governs_ids == ("CONS-01", "CONS-02") and cons.required_when == ("Yes",) and cons.off_when == ("No",)


def test_the_answers_switch_the_rows_the_formulas_name_off(tmp_path):
    quals, state, by_id = _state(requ_book(tmp_path / "no.xlsx", {"REQU-01": "No", "REQU-02": "Yes"}))
    assert all(not state[by_id[i]].required for i in ("HIPA-01", "HIPA-02", "HIPA-03"))
    assert state[by_id["HIPA-01"]].reason == "not required (REQU-01 = No)"
    assert state[by_id["CONS-01"]].required and by_id["ENCR-01"] not in state and by_id["CONS-04"] not in state
    _, state, by_id = _state(requ_book(tmp_path / "blank.xlsx"))
    assert all(g.required and g.value is None for g in state.values())  # unanswered: nothing off


def test_formulas_take_precedence_over_the_declared_map_which_stays_the_fallback(tmp_path):
    """REQU-05 with HECVAT's health wording: the declared map governs every HIPA row; the
    workbook's formulas say only HIPA-01 depends on it, and they win."""

    def book(path: Path, formulas: bool) -> Path:
        wb = openpyxl.Workbook()
        start = wb.active
        start.title = "START HERE"
        start.append(HEADER)
        start.append(["REQU-05", "Does your solution process protected health information (PHI)?", "No", None, None])
        _yes_no(start, "C2")
        case = wb.create_sheet("Case-Specific")
        case.append(HEADER)
        case.append(
            [
                "HIPA-01",
                "Do your workforce members receive HIPAA training?",
                None,
                None,
                '=IF(\'START HERE\'!C2="No","This question does not apply.","")' if formulas else None,
            ]
        )
        case.append(["HIPA-02", "Have you conducted a HIPAA risk analysis?", None, None, None])
        _yes_no(case, "C2", "C3")
        wb.save(path)
        return path

    (read,) = find_qualifiers(read_questionnaire(book(tmp_path / "f.xlsx", True)))
    assert read.source is QualifierSource.FORMULAS and read.governs_ids == ("HIPA-01",)
    (declared,) = find_qualifiers(read_questionnaire(book(tmp_path / "d.xlsx", False)))
    assert declared.source is QualifierSource.TEMPLATE and declared.governs_ids == ("HIPA-01", "HIPA-02")


def test_a_qualifier_without_a_dropdown_is_known_by_the_values_that_switch_it_off(tmp_path):
    wb = openpyxl.Workbook()
    start = wb.active
    start.title = "Intro"
    start.append(["ID", "Question", "Answer"])
    start.append(["Q1", "Do you store student records?", None])
    detail = wb.create_sheet("Records")
    detail.append(["ID", "Question", "Answer", "Notes"])
    detail.append(["R1", "Where are student records stored?", None, '=IF(Intro!C2="No","Not required","")'])
    path = tmp_path / "t.xlsx"
    wb.save(path)
    q = read_questionnaire(path)
    (qual,) = find_qualifiers(q)
    assert qual.required_when == () and qual.off_when == ("No",) and qual.governs_ids == ("R1",)
    for value, required in (("No", False), ("Yes", True), (None, True)):
        assert gates([qual], {qual.key: (value, None)})[qual.governs[0]].required is required

"""A qualifier is never dropped, and only one of its own values switches a section off (#36).

Before #36, on a workbook shaped like HECVAT 3.x Full's Vendor Response rows
(``tests/unit/test_qualifiers.hecvat_like``, generated here with openpyxl): QUAL-01's answer cell
holding a formula that reads itself (``=C9`` in C9) or ``=1/0`` saved with its value
``#DIV/0!`` made QUAL-01 disappear (9 questions instead of 10, no note), so its HIPAA section was
drafted whatever its answer; a typed ``#DIV/0!`` was read as QUAL-01's answer and switched HIPAA
off; "N/A" (not one of its Yes/No values) switched HIPAA off; rows merged across it made it
disappear without a note.

The drafting here is ``TableDrafter`` (tests/unit/test_sections_drafting.py), a stated fake that
answers from a fixed table: these tests are about which rows are read, drafted and exported, not
about generation.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from engine.drafting.sections import SectionGate
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import question_key
from engine.review.draft_run import draft_questionnaire
from engine.review.review import Review
from storage.review_store import ReviewStore
from tests.adversarial.conftest import CLI_IMPORTS_MB, measured
from tests.unit.test_qualifiers import ROWS, hecvat_like
from tests.unit.test_sections_drafting import TableDrafter

ROW = {ident: row for row, (ident, _) in enumerate(ROWS, start=2)}  # QUAL-01 is row 9, DCTR-15 row 8
TABLE = {"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"}


def _edited(path: Path, edit) -> Path:
    hecvat_like(path)
    wb = openpyxl.load_workbook(path)
    edit(wb.active)
    wb.save(path)
    return path


def _cell_xml(path: Path, ref: str, xml: str) -> Path:
    """``path`` with the XML of cell ``ref`` of its first sheet replaced (openpyxl saves no
    formula values; Excel and LibreOffice save ``=1/0`` with its value ``#DIV/0!``)."""
    with zipfile.ZipFile(path) as zin:
        members = [(i, zin.read(i.filename)) for i in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in members:
            if info.filename == "xl/worksheets/sheet1.xml":
                text, n = re.subn(rf'<c r="{ref}"[^>]*?(?:/>|>.*?</c>)', xml, data.decode("utf-8"), count=1)
                assert n == 1, f"no cell {ref} in the sheet"
                data = text.encode("utf-8")
            zout.writestr(info, data)
    return path


def _reads_itself(path: Path) -> Path:
    return _edited(path, lambda ws: ws.cell(ROW["QUAL-01"], 3, "=C9"))


def _typed_error(path: Path) -> Path:
    return _edited(path, lambda ws: ws.cell(ROW["QUAL-01"], 3, "#DIV/0!"))  # openpyxl types it as an error


def _formula_showing_an_error(path: Path) -> Path:
    _edited(path, lambda ws: ws.cell(ROW["QUAL-01"], 3, "=1/0"))
    return _cell_xml(path, "C9", '<c r="C9" t="e"><f>1/0</f><v>#DIV/0!</v></c>')


def _reads_beyond_the_data(path: Path) -> Path:
    """Issue #47: ``=Z99`` (the sheet ends at column E, row 12) made QUAL-01 disappear without a note."""
    return _edited(path, lambda ws: ws.cell(ROW["QUAL-01"], 3, "=Z99"))


HOSTILE = {
    "formula reading itself": _reads_itself,
    "typed error": _typed_error,
    "error formula": _formula_showing_an_error,
    "formula reading beyond the data": _reads_beyond_the_data,
}


def _by_id(questionnaire):
    return {q.id: q for q in questionnaire.questions}


@pytest.mark.parametrize("how", HOSTILE)
def test_a_qualifier_over_a_formula_or_an_error_is_kept_drafted_and_exported(tmp_path, how):
    path = HOSTILE[how](tmp_path / "hecvat.xlsx")
    questionnaire = read_questionnaire(path)
    clean = read_questionnaire(hecvat_like(tmp_path / "clean.xlsx"))
    assert [q.id for q in questionnaire.questions] == [q.id for q in clean.questions]  # 10: none dropped
    qual = _by_id(questionnaire)["QUAL-01"]
    assert qual.choice_cell == "C9" and qual.choices == ("Yes", "No")
    assert qual.existing_choice is None and not qual.answered  # a formula's value or an error is nobody's answer
    (note,) = [n for n in questionnaire.notes if "QUAL-01 C9" in n]
    assert "kept as questions to answer" in note and "export writes the answer over" in note

    # unanswered, it switches nothing off
    gate = SectionGate(questionnaire, {}, {}).gate(_by_id(questionnaire)["HIPA-01"])
    assert gate.required and gate.value is None and gate.reason == "depends on QUAL-01 (unanswered)"

    # drafted as any qualifier (first); its draft "No" switches HIPAA off, so those rows are not drafted
    store = ReviewStore(tmp_path / "review.sqlite")
    drafter = TableDrafter(TABLE)
    run = draft_questionnaire(questionnaire, drafter, store)
    assert drafter.asked[0] == "QUAL-01" and "QUAL-01" in drafter.qualifiers
    assert not {"HIPA-01", "HIPA-02"} & set(drafter.asked)
    assert run.counts["not_required"] >= 2

    # the export writes the answer over the formula / the error value
    review = Review(store, store.project_for(path).id, questionnaire)
    out = review.export_workbook(tmp_path / "out.xlsx", include_unreviewed=True)
    cell = openpyxl.load_workbook(out)["Vendor Response"]["C9"]
    assert (cell.value, cell.data_type) == ("No", "s")
    assert openpyxl.load_workbook(out, data_only=True)["Vendor Response"]["C9"].value == "No"


def test_a_value_outside_the_dropdown_switches_nothing_off(tmp_path):
    path = hecvat_like(tmp_path / "hecvat.xlsx", {"QUAL-01": ("N/A", ""), "QUAL-05": ("Maybe", "")})
    questionnaire = read_questionnaire(path)
    store = ReviewStore(tmp_path / "review.sqlite")
    drafter = TableDrafter({"QUAL-07": "4) AWS"})
    draft_questionnaire(questionnaire, drafter, store)
    assert {"HIPA-01", "HIPA-02", "PCID-01"} <= set(drafter.asked)  # their sections stay on

    review = Review(store, store.project_for(path).id, questionnaire)
    sections = {s.section: s for s in review.sections()}
    assert sections["HIPAA"].required is None
    assert sections["HIPAA"].reason == "depends on QUAL-01 (N/A is not one of its values)"
    assert sections["PCI DSS"].reason == "depends on QUAL-05 (Maybe is not one of its values)"
    # one of its own values decides
    review.edit(question_key(_by_id(questionnaire)["QUAL-01"]), "", "No")
    assert {s.section: s for s in review.sections()}["HIPAA"].required is False


# merged range on QUAL-01's row 9 → (what QUAL-01 is read as, the words its note has)
MERGES = {
    "C8:C9": ("kept, sharing DCTR-15's answer cell", "DCTR-15 and QUAL-01 in C8"),
    "B9:C9": ("kept, its answer going to the comment cell", "QUAL-01 B9:C9 (answer in D9)"),
    "B8:B9": ("kept, with the merged question text", "QUAL-01 B9 in B8:B9"),
    "A8:A9": ("kept without an ID", "row 9 A9 in A8:A9"),
    "A9:E9": ("left out: no question text", "QUAL-01 A9:E9"),
}


@pytest.mark.parametrize("merged", MERGES)
def test_merged_cells_across_a_qualifier_are_read_as_shown_or_noted(tmp_path, merged):
    path = hecvat_like(tmp_path / "hecvat.xlsx", {"DCTR-15": ("Yes", "")})
    wb = openpyxl.load_workbook(path)
    wb.active.merge_cells(merged)
    wb.save(path)
    questionnaire = read_questionnaire(path)
    read, words = MERGES[merged]
    assert [n for n in questionnaire.notes if words in n], questionnaire.notes
    rows = {q.row: q for q in questionnaire.questions}
    assert len(questionnaire.questions) == (9 if merged == "A9:E9" else 10)
    qual = rows.get(9)
    if merged == "C8:C9":  # the merged value is read: what C8 shows
        assert (qual.id, qual.choice_cell, qual.existing_choice) == ("QUAL-01", "C8", "Yes")
    elif merged == "B9:C9":
        assert (qual.id, qual.choice_cell, qual.text_cell) == ("QUAL-01", None, "D9")
    elif merged == "B8:B9":
        assert qual.id == "QUAL-01" and qual.text == rows[8].text
    elif merged == "A8:A9":
        assert qual.id is None and qual.choice_cell == "C9"
    else:
        assert qual is None


def test_inspect_lists_the_qualifier_and_its_note(tmp_path):
    path = _reads_itself(tmp_path / "hecvat.xlsx")
    run = measured("inspect", str(path))
    assert run.rc == 0 and "Traceback" not in run.stdout + run.stderr, run.stderr
    assert run.stdout.startswith("hecvat.xlsx: 10 questions in 1 sheet(s)")
    assert (
        "note: sheet 'Vendor Response': question rows whose answer cell holds a formula reading no other cell "
        "(QUAL-01 C9 =C9) are kept as questions to answer" in run.stdout
    )
    assert run.within(cpu_seconds=15, peak_mb=CLI_IMPORTS_MB), run

"""The spreadsheet export runs its format's no-other-change check before anything lands (#55), as the
Word and PDF writers do: the written temporary copy is read against the source (check_workbook,
check_csv) before it replaces the target.

A copy changed outside the answers is refused in one line, the target left as it was: the change is
made to the real temporary copy the real check reads (the check is wrapped so that it first corrupts
its own input, then runs unchanged), or by a writer broken on purpose (a cell not written edited
too). And no false refusal: every question of every real workbook answered (the sample in assets/,
the blank HECVAT 4.1.4, the Instructure HECVATs and CAIQ of ../shared/data) is written and passes."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

import engine.questionnaire.sheet.writer as sheet_writer
from engine.bench.export_all import every_answer
from engine.core.types import FileProblem
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.formats import format_of
from engine.questionnaire.writes import CellWrite, ExportError

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "sample" / "questionnaire"
pytestmark = pytest.mark.filterwarnings("ignore:.* extension is not supported:UserWarning")
BEFORE = b"the previous export, which a refused one leaves as it was"


def _answered(source: Path):
    q = read_questionnaire(source)
    return q, every_answer(q)


def _unwritten_cell(source: Path, written: set[str]) -> tuple[str, str]:
    """(sheet part, reference) of a cell of the source's first sheet that no write fills."""
    with zipfile.ZipFile(source) as z:
        part = next(n for n in z.namelist() if n.startswith("xl/worksheets/sheet"))
        text = z.read(part).decode()
    return part, next(r for r in ("A1", "A2", "B1", "B2") if r not in written and f'<c r="{r}"' in text)


def _restyled(path: Path, part: str, ref: str) -> None:
    """``path``'s package, in place, with the cell ``ref`` of ``part`` given another style."""
    with zipfile.ZipFile(path) as z:
        members = [(info, z.read(info)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w") as z:
        for info, data in members:
            if info.filename == part:
                data = data.replace(f'<c r="{ref}"'.encode(), f'<c r="{ref}" s="0"'.encode(), 1)
            z.writestr(info, data)


def _assert_refused(exc: pytest.ExceptionInfo, source: Path, where: tuple[str, ...], target: Path) -> None:
    """Refused in one line that names the source, the change (one of ``where``) and the fix; nothing written."""
    error = exc.value
    assert isinstance(error, ExportError) and Path(error.file) == source
    assert error.problem.startswith("the export would change more than the answers: ")
    assert any(w in error.problem for w in where), error.problem
    assert "nothing was written" in error.fix
    assert target.read_bytes() == BEFORE  # the target as it was
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temporary copy left


def test_a_workbook_copy_changed_outside_the_answers_is_refused_and_nothing_written(tmp_path, monkeypatch):
    source = SAMPLE / "Sample_Security_Questionnaire.xlsx"
    original = source.read_bytes()
    q, writes = _answered(source)
    part, ref = _unwritten_cell(source, {w.cell for w in writes})
    real_check = sheet_writer.check_workbook
    seen: list[Path] = []

    def corrupted_then_checked(original_path, written, writes, questionnaire=None):
        seen.append(written)
        _restyled(written, part, ref)  # the temporary copy, about to replace the target, changed
        return real_check(original_path, written, writes, questionnaire)

    monkeypatch.setattr(sheet_writer, "check_workbook", corrupted_then_checked)
    out = tmp_path / "out" / "answers.xlsx"
    out.parent.mkdir()
    out.write_bytes(BEFORE)
    with pytest.raises(ExportError) as exc:
        export(source, out, writes, q)
    assert seen and seen[0].parent == out.parent and seen[0] != out  # the check read the temporary copy
    _assert_refused(exc, source, (ref, f"row {ref[1:]}, where nothing was written"), out)
    assert source.read_bytes() == original
    monkeypatch.undo()  # the same export, the writer and check as they are: written, and it passes
    export(source, out, writes, q)
    assert format_of(source).check(source, out, writes, q) == []


@pytest.mark.parametrize(
    "fault", ["a cell not written restyled", "a cell beside an answer restyled", "a written row hidden"]
)
def test_a_writer_that_changes_more_than_the_answers_is_refused(fault, tmp_path, monkeypatch):
    source = SAMPLE / "Sample_Security_Questionnaire.xlsx"
    q, writes = _answered(source)
    _, ref = _unwritten_cell(source, {w.cell for w in writes})
    row = re.sub(r"[A-Z]", "", writes[0].cell)
    if fault == "a cell not written restyled":
        old, new, where = f'<c r="{ref}"', f'<c r="{ref}" s="0"', (ref, f"row {ref[1:]}, where nothing was written")
    elif fault == "a cell beside an answer restyled":  # in a row written: its cells compared one by one
        assert f"A{row}" not in {w.cell for w in writes}
        old, new, where = f'<c r="A{row}"', f'<c r="A{row}" s="0"', (f"A{row}, which was not written, changed",)
    else:
        old, new, where = f'<row r="{row}"', f'<row r="{row}" hidden="1"', (f"row {row}'s own attributes changed",)
    real_edit = sheet_writer._edit_sheet

    def broken(xml, *args, **kwargs):  # a writer fault: more than the answers edited
        edited, dropped = real_edit(xml, *args, **kwargs)
        assert old in edited
        return edited.replace(old, new, 1), dropped

    monkeypatch.setattr(sheet_writer, "_edit_sheet", broken)
    out = tmp_path / "out" / "answers.xlsx"
    out.parent.mkdir()
    out.write_bytes(BEFORE)
    with pytest.raises(ExportError) as exc:
        export(source, out, writes, q)
    _assert_refused(exc, source, where, out)


def test_a_csv_copy_changed_outside_the_answers_is_refused_and_nothing_written(tmp_path, monkeypatch):
    source = SAMPLE / "Sample_Security_Questionnaire.csv"
    q, writes = _answered(source)
    assert "A1" not in {w.cell for w in writes}
    real_check = sheet_writer.check_csv

    def corrupted_then_checked(original_path, written, writes, questionnaire=None):
        text = written.read_bytes().decode("utf-8-sig")
        first = text.split(",", 1)[0]
        written.write_bytes(text.replace(first, first + " (changed)", 1).encode("utf-8-sig"))
        return real_check(original_path, written, writes, questionnaire)

    monkeypatch.setattr(sheet_writer, "check_csv", corrupted_then_checked)
    out = tmp_path / "out" / "answers.csv"
    out.parent.mkdir()
    out.write_bytes(BEFORE)
    with pytest.raises(ExportError) as exc:
        export(source, out, writes, q)
    _assert_refused(exc, source, ("row 1, column 1, which was not written",), out)


def test_every_real_workbook_answered_is_written_and_passes(shared_data, tmp_path):
    sources = [SAMPLE / "Sample_Security_Questionnaire.xlsx", SAMPLE / "Sample_Security_Questionnaire.csv"]
    sources += [shared_data / "hecvat_blank" / "HECVAT414.xlsx", *sorted(shared_data.glob("instructure/*/*.xlsx"))]
    exported, failed = 0, []
    for source in (s for s in sources if s.is_file()):
        try:
            q, writes = _answered(source)
        except FileProblem:
            continue  # not a questionnaire (the ISO 27001 statement of applicability): nothing to export
        out = tmp_path / f"{exported}{source.suffix}"
        try:
            export(source, out, writes, q)  # refused, were the check to find a change
        except ExportError as exc:
            failed.append(f"{source.name}: {exc.problem}")
            continue
        exported += 1
        assert writes and format_of(source).check(source, out, writes, q) == [], source.name
    assert failed == [] and exported >= 3


def _variant(source: Path, path: Path, part: str, change) -> Path:
    """A copy of ``source`` with ``part``'s text changed by ``change``: the same workbook, written by
    another hand."""
    with zipfile.ZipFile(source) as a, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as b:
        for info in a.infolist():
            data = a.read(info)
            if info.filename == part:
                changed = change(data.decode("utf-8"))
                assert changed != data.decode("utf-8"), part
                data = changed.encode("utf-8")
            b.writestr(info, data)
    return path


SPELLINGS = {  # the same workbook spelt another valid way, each once refused by the check (no false refusal now)
    "a space before calcPr's '/>' (the recalculation asked keeps it)": (
        "hecvat_blank",
        "xl/workbook.xml",
        lambda x: re.sub(r"<calcPr([^>]*?)/>", r"<calcPr\1 />", x, count=1),
    ),
    "a space before dimension's '/>', the dimension widened": (
        "sample",
        "xl/worksheets/sheet1.xml",
        lambda x: re.sub(r"<dimension[^>]*>", '<dimension ref="A1:A1" />', x, count=1),
    ),
    "a sheet name with a character reference (&#39;)": (
        "sample",
        "xl/workbook.xml",
        lambda x: re.sub(r'(<sheet [^>]*name=")([^"]*)"', r'\1Vendor&#39;s \2"', x, count=1),
    ),
}


@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_a_workbook_spelt_another_way_is_not_refused(spelling, tmp_path, request):
    where, part, change = SPELLINGS[spelling]
    if where == "sample":
        original = SAMPLE / "Sample_Security_Questionnaire.xlsx"
    else:
        original = request.getfixturevalue("shared_data") / "hecvat_blank" / "HECVAT414.xlsx"
        if not original.is_file():
            pytest.skip(f"{original} is absent")
    source = _variant(original, tmp_path / "source.xlsx", part, change)
    q, writes = _answered(source)
    out = export(source, tmp_path / "out.xlsx", writes, q)
    assert writes and format_of(source).check(source, out, writes, q) == []


def test_an_answer_to_no_cell_is_left_out_and_the_others_written_and_checked(tmp_path):
    source = SAMPLE / "Sample_Security_Questionnaire.xlsx"
    q, writes = _answered(source)
    unwritten: list = []
    out = export(source, tmp_path / "out.xlsx", [*writes, CellWrite(writes[0].sheet, "ZZ", "x")], q, unwritten)
    assert [u.place for u in unwritten] == [f"{writes[0].sheet}!ZZ"]  # listed, not a crash of the check
    assert format_of(source).check(source, out, writes, q) == []

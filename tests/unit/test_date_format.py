"""The drafting date in the questionnaire's own format (engine/questionnaire/sheet/date_format.py,
engine/drafting/profile_answers.py, the date writes of engine/review/export_cells.py's ``answer_writes`` and
engine/questionnaire/sheet/writer.py), on workbooks and CSVs generated here: the answer cell's date
format first, then a format the question or its row names, then the dates already written in
the workbook, then ISO; the export writes a date into a date cell and the formatted text into a
text cell."""

from __future__ import annotations

import datetime
from pathlib import Path

import openpyxl

from engine.drafting.profile_answers import ProfileAnswers
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.sheet.date_format import DateFormat, date_format, from_number_format, from_text
from engine.review.export_cells import export_drafts

TODAY = datetime.date(2026, 11, 24)


def book(
    path: Path,
    question: str = "Date",
    fmt: str | None = None,
    guidance: str | None = None,
    written: list[object] | None = None,
) -> Path:
    """One sheet: DATE-01 (``question``) with its answer cell C2 in number format ``fmt`` and
    ``guidance`` beside it, a vendor-name row, and ``written`` values in another column."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "HECVAT"
    ws.append(["ID", "Question", "Vendor Answer", "Additional Information", "Guidance"])
    ws.append(["DATE-01", question, None, None, guidance])
    ws.append(["GNRL-01", "Vendor Name", None, None, None])
    if fmt:
        ws["C2"].number_format = fmt
    for i, value in enumerate(written or [], start=10):
        ws[f"H{i}"] = value
        if isinstance(value, datetime.date):
            ws[f"H{i}"].number_format = "d mmmm yyyy"
    wb.save(path)
    return path


def _date_q(path: Path):
    q = read_questionnaire(path)
    return q, next(x for x in q.questions if x.id == "DATE-01")


def _drafted(path: Path) -> str:
    q, dq = _date_q(path)
    return ProfileAnswers(None, today=TODAY).answer(dq, question_key(dq), None, source=q.path).answer


def test_the_answer_cells_own_date_format_comes_first(tmp_path):
    path = book(tmp_path / "cell.xlsx", "Date (MM/DD/YYYY)", fmt="dd.mm.yyyy", written=["2024-05-20"])
    q, dq = _date_q(path)
    fmt = date_format(dq, q.path)
    assert (fmt.pattern, fmt.source) == ("DD.MM.YYYY", "cell")
    assert _drafted(path) == "24.11.2026"


def test_a_format_named_in_the_question_or_its_row_comes_next(tmp_path):
    assert _drafted(book(tmp_path / "q.xlsx", "Date (MM/DD/YYYY)", fmt="@", written=["2024-05-20"])) == "11/24/2026"
    assert _drafted(book(tmp_path / "g.xlsx", guidance="Enter the date as MM-DD-YYYY")) == "11-24-2026"
    assert _drafted(book(tmp_path / "e.xlsx", "Date completed (e.g. January 5, 2024)")) == "November 24, 2026"
    assert _drafted(book(tmp_path / "d.xlsx", guidance="Format: dd.mm.yyyy")) == "24.11.2026"


def test_dates_already_written_in_the_workbook_come_next_then_iso(tmp_path):
    # "05/06/2024" alone cannot tell month from day; "05/20/2024" beside it says month first
    assert _drafted(book(tmp_path / "w.xlsx", written=["05/06/2024", "05/20/2024", "05/07/2024"])) == "11/24/2026"
    assert _drafted(book(tmp_path / "a.xlsx", written=["05/06/2024"])) == "2026-11-24"  # ambiguous: ISO
    assert _drafted(book(tmp_path / "c.xlsx", written=[datetime.datetime(2024, 5, 20)])) == "24 November 2026"
    assert _drafted(book(tmp_path / "n.xlsx")) == "2026-11-24"


def test_a_csv_takes_the_format_its_question_names_else_iso(tmp_path):
    for text, expected in (("Date (dd/mm/yyyy)", "24/11/2026"), ("Date", "2026-11-24")):
        path = tmp_path / f"{expected.replace('/', '')}.csv"
        path.write_text(f"ID,Question,Answer\nDATE-01,{text},\nGNRL-01,Vendor Name,\n", encoding="utf-8")
        assert _drafted(path) == expected


def test_formats_read_from_excel_codes_and_words_write_and_read_back_dates():
    for code, shown in (
        ("m/d/yyyy", "11/24/2026"),
        ("mm-dd-yy", "11/24/2026"),
        ("[$-409]mmmm d, yyyy;@", "November 24, 2026"),
        ("d-mmm-yy", "24-Nov-26"),
        ("yyyy-mm-dd h:mm", "2026-11-24"),
        ('dd"/"mm"/"yyyy', "24/11/2026"),
    ):
        fmt = from_number_format(code)
        assert fmt is not None and fmt.format(TODAY) == shown and fmt.parse(shown) == TODAY, code
    assert (
        from_number_format("General") is None and from_number_format("@") is None and from_number_format("0.00") is None
    )
    assert from_text("Date of the last penetration test") is None
    assert from_text("e.g. 01/05/2024") is None  # month or day first? not said
    assert DateFormat.of("MM/DD/YYYY").parse("13/01/2026") is None


def test_export_writes_a_date_into_a_date_cell_and_the_formatted_text_into_a_text_cell(tmp_path):
    from engine.core.types import DraftStatus
    from engine.drafting.records import Draft

    for fmt, cell_value in (("m/d/yyyy", datetime.datetime(2026, 11, 24)), ("@", "11/24/2026")):
        path = book(tmp_path / f"{fmt.replace('/', '')}.xlsx", "Date (MM/DD/YYYY)", fmt=fmt)
        q, dq = _date_q(path)
        draft = ProfileAnswers(None, today=TODAY).answer(dq, question_key(dq), None, source=q.path)
        assert draft.answer == "11/24/2026" and draft.profile_fact == "date"
        ws = openpyxl.load_workbook(export_drafts(q, [draft], tmp_path / f"out-{fmt.replace('/', '')}.xlsx"))["HECVAT"]
        assert ws["C2"].value == cell_value and ws["C2"].number_format == fmt
        # a reviewer's edit in another shape is written as it is
        edited = Draft(
            draft.key, "DATE-01", "HECVAT", 2, dq.text, "late November", None, DraftStatus.DRAFTED, profile_fact="date"
        )
        ws = openpyxl.load_workbook(export_drafts(q, [edited], tmp_path / f"edit-{fmt.replace('/', '')}.xlsx"))[
            "HECVAT"
        ]
        assert ws["C2"].value == "late November"

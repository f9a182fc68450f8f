"""Every questionnaire format behind one :class:`~engine.questionnaire.formats.Format` (issue #55
item 6): read, write, the no-other-change check, where a question is, and its noun, on real files:
the sample questionnaire (assets/sample, XLSX and CSV), the blank HECVAT 4.1.4, a Word questionnaire
and an AcroForm of ../shared/data (skipped when absent). Every question is answered
(engine.bench.export_all.every_answer), exported through ``export()`` (which calls the format's
write and nothing else), and the written copy passes its format's check; the same copy changed
outside the answers by hand fails it, with a line that says where."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pymupdf
import pytest

from engine.bench.export_all import every_answer
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.formats import FORMATS, SUFFIXES, format_of
from engine.questionnaire.mapping import location

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "sample" / "questionnaire"
pytestmark = pytest.mark.filterwarnings("ignore:.* extension is not supported:UserWarning")


def test_every_suffix_has_one_format_with_every_part():
    assert tuple(FORMATS) == SUFFIXES == (".xlsx", ".xlsm", ".csv", ".docx", ".docm", ".pdf")
    for f in FORMATS.values():
        assert all(callable(x) for x in (f.read, f.write, f.check, f.location)) and f.noun
    assert {s: f.noun for s, f in FORMATS.items()} == {
        ".xlsx": "workbook",
        ".xlsm": "workbook",
        ".csv": "workbook",
        ".docx": "document",
        ".docm": "document",
        ".pdf": "form",
    }


def _exported(source: Path, tmp_path: Path):
    q = read_questionnaire(source)
    writes = every_answer(q)
    written = export(source, tmp_path / f"out{source.suffix}", writes, q)
    return q, writes, written


def _rewrite_part(path: Path, part: str, change) -> None:
    """``path`` with one part of its package changed by ``change`` (bytes -> bytes), order kept."""
    copy = path.with_name("changed" + path.suffix)
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(copy, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info, change(data) if info.filename == part else data)
    copy.replace(path)


def test_a_workbook_passes_its_check_and_a_cell_changed_by_hand_fails_it(tmp_path):
    source = SAMPLE / "Sample_Security_Questionnaire.xlsx"
    q, writes, written = _exported(source, tmp_path)
    fmt = format_of(source)
    assert writes and fmt.check(source, written, writes, q) == []
    assert location(q, q.questions[0]) == f"sheet {q.questions[0].sheet} · row {q.questions[0].row}"
    written_cells = {w.cell for w in writes}
    with zipfile.ZipFile(source) as z:
        sheet = next(n for n in z.namelist() if n.startswith("xl/worksheets/sheet"))
        text = z.read(sheet).decode()
    ref = next(
        r for r in ("A1", "A2", "B1", "B2") if r not in written_cells and f'r="{r}"' in text
    )  # a cell of the original not written
    _rewrite_part(written, sheet, lambda b: b.replace(f'<c r="{ref}"'.encode(), f'<c r="{ref}" s="0"'.encode(), 1))
    found = fmt.check(source, written, writes, q)
    assert found and (ref in found[0] or f"row {ref[1:]}," in found[0]), found  # the cell, or its row


def test_the_blank_hecvat_passes_its_check(shared_data, tmp_path):
    source = shared_data / "hecvat_blank" / "HECVAT414.xlsx"
    if not source.is_file():
        pytest.skip(f"{source} is absent")
    q, writes, written = _exported(source, tmp_path)
    assert len(writes) > 100 and format_of(source).check(source, written, writes, q) == []


def test_a_csv_passes_its_check_and_a_field_changed_by_hand_fails_it(tmp_path):
    source = SAMPLE / "Sample_Security_Questionnaire.csv"
    q, writes, written = _exported(source, tmp_path)
    fmt = format_of(source)
    assert writes and fmt.check(source, written, writes, q) == []
    text = written.read_text(encoding="utf-8-sig")
    first = text.split(",", 1)[0]
    written.write_text(text.replace(first, first + " (changed)", 1), encoding="utf-8")
    found = fmt.check(source, written, writes, q)
    assert found and "row 1, column 1" in found[0], found


def test_a_word_questionnaire_passes_its_check_and_a_paragraph_changed_by_hand_fails_it(shared_data, tmp_path):
    source = shared_data / "questionnaires" / "docx" / "openchain_iso5230_self_certification_questionnaire_v3.docx"
    if not source.is_file():
        pytest.skip(f"{source} is absent")
    q, writes, written = _exported(source, tmp_path)
    fmt = format_of(source)
    assert writes and fmt.check(source, written, writes, q) == []
    assert location(q, q.questions[0]) == f"paragraph {q.questions[0].row}"
    with zipfile.ZipFile(source) as z:
        words = next(w for w in (b"OpenChain", b"the", b"The") if w in z.read("word/document.xml"))
    _rewrite_part(written, "word/document.xml", lambda b: b.replace(words, words.lower() + b"X", 1))
    found = fmt.check(source, written, writes, q)
    assert found and written.name in found[0], found


def test_a_pdf_form_passes_its_check_and_a_page_changed_by_hand_fails_it(shared_data, tmp_path):
    source = shared_data / "questionnaires" / "pdf" / "fedramp_significant_change_form_acroform.pdf"
    if not source.is_file():
        pytest.skip(f"{source} is absent")
    q, writes, written = _exported(source, tmp_path)
    fmt = format_of(source)
    assert writes and fmt.check(source, written, writes, q) == []
    assert location(q, q.questions[0]).startswith("page ")
    changed = tmp_path / "changed.pdf"
    shutil.copyfile(written, changed)
    with pymupdf.open(changed) as doc:
        doc[0].insert_text((72, 72), "added by hand")
        doc.saveIncr()
    found = fmt.check(source, changed, writes, q)
    assert found, "a page's new text passed the check"

"""Files that were already handled before #16 — encrypted, truncated (a truncated PDF is
rebuilt by MuPDF and indexed with a note), renamed, empty, XXE, billion laughs, merged cells
and formulas, 100,000 rows — so that they keep being handled; and
the one gap among them: a question cell holding a formula whose value was never saved was
dropped without a word, and is now named in a note."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.adversarial import corpus
from tests.adversarial.conftest import CLI_IMPORTS_MB, assert_queryable, measured
from tests.fixtures import write_pdf, write_questionnaire


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    real_book = write_questionnaire(folder / "real.xlsx")
    real_pdf = write_pdf(
        folder / "real.pdf", [f"Section {i}: the office plants are watered on day {i}." * 8 for i in range(1, 6)]
    )
    files = {
        "encrypted.xlsx": corpus.encrypted_xlsx(folder / "encrypted.xlsx"),
        "encrypted.pdf": corpus.encrypted_pdf(folder / "encrypted.pdf"),
        "truncated.xlsx": corpus.truncated(real_book, folder / "truncated.xlsx"),
        "truncated.pdf": corpus.truncated(real_pdf, folder / "truncated.pdf"),
        "renamed.xlsx": corpus.renamed(folder / "renamed.xlsx"),
        "renamed.docx": corpus.renamed(folder / "renamed.docx"),
        "empty.xlsx": folder / "empty.xlsx",
        "laughs.xlsx": corpus.billion_laughs(folder / "laughs.xlsx"),
        "xxe.xlsx": corpus.xxe(folder / "xxe.xlsx"),
    }
    files["empty.xlsx"].write_bytes(b"")
    real_book.unlink()
    real_pdf.unlink()
    return files


EXPECTED = {  # a word of each file's one-line error
    "encrypted.xlsx": "password",
    "encrypted.pdf": "password",
    "truncated.xlsx": "not a readable Excel workbook",
    "renamed.xlsx": "not a readable Excel workbook",
    "renamed.docx": "not a readable Word document",
    "empty.xlsx": "empty",
    "laughs.xlsx": "not a readable",
    "xxe.xlsx": "not a readable",
}


def test_kb_add_gives_each_hostile_file_one_line_and_keeps_the_store(tmp_path, hostile, store, encoder):
    folder = tmp_path / "hostile"
    shutil.copytree(next(iter(hostile.values())).parent, folder)
    run = measured("kb", "add", str(folder), "--store", str(store))
    assert run.rc == 1 and "2 documents" in run.stdout, run.stdout + run.stderr  # refused files: 1 (#38)
    for name, word in EXPECTED.items():
        assert word in run.error_line(name)
    # MuPDF rebuilds the truncated PDF: its surviving pages are indexed, with a note that says so
    assert "added: truncated.pdf (pdf, " in run.stdout
    assert "note: the file is damaged and was repaired on opening, so text may be missing" in run.stdout
    assert run.peak_mb <= 2_000, run.peak_mb  # the embedder is loaded for the files that pass the limits
    assert_queryable(store, encoder)


@pytest.mark.parametrize("name", ["encrypted.xlsx", "truncated.xlsx", "renamed.xlsx", "laughs.xlsx", "xxe.xlsx"])
def test_inspect_gives_each_hostile_workbook_one_line(hostile, name):
    run = measured("inspect", str(hostile[name]))
    assert run.rc == 2 and EXPECTED[name] in run.error_line(name)
    assert "root:" not in run.stdout + run.stderr and run.peak_mb <= CLI_IMPORTS_MB


def test_merged_cells_and_formulas_and_a_formula_without_a_value(tmp_path):
    """Merged section titles are not questions; a formula's saved value is its text; the two
    question cells whose formula has no saved value are named in a note (before #16: dropped
    without a word)."""
    run = measured("inspect", str(corpus.formulas_and_merges(tmp_path / "formulas.xlsx")), "--json")
    assert run.rc == 0 and "Traceback" not in run.stderr
    found = json.loads(run.stdout)
    assert [(q["id"], q["text"]) for q in found["sheets"][0]["questions"]] == [
        ("ENC-01", "Is customer data encrypted at rest?"),
        ("ENC-03", "Are encryption keys rotated every year?"),
    ]
    assert found["notes"] == [
        "sheet 'Security': 2 question cells (B4, B6) hold formulas without a saved value and were left out; the "
        "workbook was saved by a program that does not store computed values; open it in Excel or LibreOffice, "
        "save it and read it again"
    ]


def test_a_questionnaire_of_100000_rows_reads_in_bounded_time_and_memory(tmp_path):
    rows = "".join(
        f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>{chr(65 + r // 10_000)}X-{r % 10_000}</t></is></c>'
        f'<c r="B{r}" t="inlineStr"><is><t>Is control number {r} in place?</t></is></c></row>'
        for r in range(2, 100_002)
    )
    header = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>ID</t></is></c><c r="B1" t="inlineStr"><is><t>Question</t>'
        '</is></c><c r="C1" t="inlineStr"><is><t>Answer</t></is></c></row>'
    )
    book = corpus.workbook(tmp_path / "long.xlsx", corpus.SHEET_HEAD + header + rows + corpus.SHEET_TAIL)
    run = measured("inspect", str(book), "--json")
    assert run.rc == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["questions"] == 100_000 and found["answered"] == 0
    assert run.within(cpu_seconds=120, peak_mb=1_000), run

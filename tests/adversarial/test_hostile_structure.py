"""Hostile Word and PDF files (issue #56): each small and under every size limit, each built to
reach a reader's weak spot — a corrupt or deflate64 part, elements nested hundreds deep, a number
no reader can use (``w:gridSpan="two"``) or one far past the document's size (a cell spanning 2
billion columns), 6.6 million empty paragraphs in 90 kB, a main part renamed past the character
limit, two parts of one name, a lying zip directory; a PDF whose field tree loops or whose page
tree claims 10⁹ pages, a check box without an appearance, a field 2·10⁹ points tall, 1,999 fields
on one spot, a 60 × 60 ruled grid on 300 pages, a stream that inflates to 1 GB; a packet whose
styles hold 190 MB of cell formats; U+FFFE in an answer.

Each is refused by the real CLI (a child process, measured: tests/adversarial/conftest.py) in one
``error:`` line naming the file, the problem in words and the fix, exit status 2, no traceback,
in under 30 s of CPU and 1 GB of memory — or, for U+FFFE, written without it. Every case failed on
the code before this change (4a1873d): a traceback, a library's message, minutes, or gigabytes
(see the issue's closing note for each figure)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest

from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite
from tests.adversarial import hostile_structure as h
from tests.adversarial.conftest import measured
from tests.adversarial.test_expert_packet import by_id
from tests.adversarial.test_packet_forgery import cli_import, folder, review_as  # noqa: F401 (the fixture)
from tests.adversarial.test_packet_forgery import export as export_packet
from tests.pdf_forms import flat_pdf

CPU_SECONDS = 30  # the bound for every file here
PEAK_MB = 1_000
RESAVE = "save it again"
PDF_FIX = "save (or print to PDF) a new copy"

CASES = {  # file: (how it is written, what its one line says)
    # kind 1: a traceback or a library's message before
    "corrupt-part.docx": (h.corrupt_deflate, ("is damaged", "word/document.xml", "cannot be unpacked", RESAVE)),
    "deflate64.docx": (h.deflate64, ("word/document.xml compressed with deflate64", RESAVE)),
    "tables-600-deep.docx": (
        lambda p: h.nested_tables(p, 600),
        ("nests tables inside each other", "over the limit of 100 levels", "--max-nesting"),
    ),
    "controls-700-deep.docx": (lambda p: h.nested(p, "sdt", 700), ("nests content controls inside each other",)),
    "links-1500-deep.docx": (lambda p: h.nested(p, "hyperlink", 1500), ("nests hyperlinks inside each other",)),
    "insertions-1500-deep.docx": (lambda p: h.nested(p, "ins", 1500), ("nests tracked insertions",)),
    "smart-tags-1500-deep.docx": (lambda p: h.nested(p, "smartTag", 1500), ("nests smart tags",)),
    "span-two.docx": (
        lambda p: h.cell_attribute(p, '<w:gridSpan w:val="two"/>'),
        ("a cell's column span is 'two', not a whole number", RESAVE),
    ),
    "level-x.docx": (lambda p: h.list_level(p, "x"), ("word/numbering.xml", "a list level is 'x'", RESAVE)),
    "dropdown-x.docx": (lambda p: h.form_dropdown(p, "x"), ("a drop-down's chosen item is 'x'", RESAVE)),
    "field-loop.pdf": (h.field_loop, ("its form's fields loop back on themselves", PDF_FIX)),
    "billion-pages.pdf": (h.claimed_pages, ("its page tree claims 1,000,000,000 pages but holds 1", PDF_FIX)),
    "box-without-appearance.pdf": (h.colliding_boxes, ("check box or option (agree) on page 1 has no appearance",)),
    # kind 2: memory and time not bounded
    "skips-a-billion.docx": (
        lambda p: h.row_attribute(p, '<w:gridBefore w:val="999999999"/>'),
        ("a row says it skips 999,999,999 columns (its table has 2; Word allows 63)", RESAVE),
    ),
    "spans-2-billion.docx": (
        lambda p: h.cell_attribute(p, '<w:gridSpan w:val="2000000000"/>'),
        ("a cell says it spans 2,000,000,000 columns",),
    ),
    "empty-paragraphs.docx": (h.empty_paragraphs, ("has more than 200,000 paragraphs", "--max-paragraphs")),
    "tall-field.pdf": (h.tall_field, ("a form field (company) on page 1 is 240 × 2,000,000,104 points", PDF_FIX)),
    "crowded.pdf": (
        h.crowded_page,
        ("has 1,999 form fields on page 1, over the limit of 500", "--max-page-fields 1999"),
    ),
    "grid.pdf": (h.ruled_grid, ("crossings of ruling lines", "over the limit of 60,000 crossings", "--max-crossings")),
    "inflating.pdf": (h.inflating_stream, ("streams that inflate to more than 200 MB", "--max-unzipped-mb")),
    # kind 3: a limit stepped around
    "renamed-main-part.docx": (
        h.renamed_main_part,
        ("its text holds more than 20,000,000 characters", "word/main2.xml", "--max-chars 30"),
    ),
    # kind 4: what is read is not what is written
    "two-bodies.docx": (h.duplicate_body, ("holds two parts named word/document.xml", RESAVE)),
    # kind 6: a fix that misleads (before: "--max-chars 9908", far below the 20 million allowed)
    "lying-directory.docx": (h.lying_docx, ("is damaged", "word/document.xml", RESAVE)),
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, Path]:
    """Every hostile file once per module (≈ 10 s to write; 4 MB on disk)."""
    made = tmp_path_factory.mktemp("hostile")
    return {name: write(made / name) for name, (write, _) in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_inspect_refuses_it_in_one_line_in_bounded_time_and_memory(hostile, name):
    run = measured("inspect", str(hostile[name]), timeout=120)
    line = run.error_line(name)  # one line, no traceback
    assert run.rc == 2, (run.rc, line)
    for words in CASES[name][1]:
        assert words in line, line
    assert "Error:" not in line and "invalid literal" not in line and "code=" not in line, line  # no library words
    assert run.within(CPU_SECONDS, PEAK_MB), run


def test_no_fix_names_a_limit_that_would_not_work(hostile):
    """The lying directory's line (#56 kind 6) suggests no limit at all: none would make it safe;
    every other line that names a value names one at least as high as what was measured."""
    run = measured("inspect", str(hostile["lying-directory.docx"]))
    line = run.error_line("lying-directory.docx")
    assert "--max-" not in line and "RFP_MAX" not in line, line
    renamed = measured("inspect", str(hostile["renamed-main-part.docx"])).error_line("renamed-main-part.docx")
    needed = int(renamed.split("--max-chars ")[1].split()[0])
    assert needed > 30_000_000, renamed  # the part holds 30 million characters and more


@pytest.mark.parametrize("name", ["tables-600-deep.docx", "spans-2-billion.docx", "tall-field.pdf", "grid.pdf"])
def test_draft_refuses_it_before_any_model_loads(tmp_path, hostile, name):
    run = measured("draft", str(hostile[name]), "--store", str(tmp_path / "store"), timeout=120)
    line = run.error_line(name)
    assert run.rc == 2 and all(words in line for words in CASES[name][1]), line
    assert run.within(CPU_SECONDS, PEAK_MB), run


@pytest.mark.parametrize("name", ["corrupt-part.docx", "deflate64.docx", "empty-paragraphs.docx"])
def test_library_import_refuses_it_and_keeps_the_library(tmp_path, hostile, name):
    """``library import`` exits 1 when no file was imported (its convention: tests/adversarial/test_zip_bombs.py)."""
    run = measured("library", "import", str(hostile[name]), "--store", str(tmp_path / "store"), timeout=120)
    line = run.error_line(name)
    assert run.rc == 1 and all(words in line for words in CASES[name][1]), line
    assert "0 entries in" in run.stdout
    assert run.within(CPU_SECONDS, PEAK_MB), run


def test_a_packet_whose_styles_hold_millions_of_formats_is_refused(folder, tmp_path):  # noqa: F811
    """An expert packet (0.3 MB) whose ``xl/styles.xml`` holds 190 MB of ``<xf/>``: before, openpyxl
    unpacked it whole (killed at 3 GB); now the formats are counted while unpacking, up to the
    65,490 Excel itself allows (``--max-cell-formats``)."""
    packet = export_packet(folder, tmp_path / "packet.xlsx")
    with zipfile.ZipFile(packet) as zin:
        parts = [(i.filename, zin.read(i)) for i in zin.infolist()]
    bomb = tmp_path / "styles-bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for name, data in parts:
            if name != "xl/styles.xml":
                zout.writestr(name, data)
                continue
            at = data.index(b"</cellXfs>")
            with zout.open(name, "w") as part:
                part.write(data[:at])
                for _ in range(190):
                    part.write(b"<xf/>" * 200_000)
                part.write(data[at:])
    assert bomb.stat().st_size < 500_000
    run = cli_import(folder, bomb, timeout=120)
    line = run.error_line(str(bomb))  # a packet is named by its path
    assert run.rc == 2, line
    assert "more than 65,490 cell formats" in line and "--max-cell-formats" in line, line
    assert run.within(CPU_SECONDS, PEAK_MB), run


NOT_XML = "Yes\ufffe, nightly\uffff\x01."  # U+FFFE, U+FFFF and a C0 control character: what XML 1.0 cannot hold


def test_an_answer_xml_cannot_hold_is_written_without_it(folder, tmp_path):  # noqa: F811
    """A reviewer's edit holding U+FFFE and U+FFFF (a model's answer can too): the coverage report's
    XLSX and the packet are written, the characters dropped by the one rule (engine/core/xml_text.py);
    before, both failed with "All strings must be XML compatible" and no file named."""
    review = review_as(folder, "lead")
    try:
        review.edit(by_id(review, "ACC-01").key, NOT_XML, "Yes")
        review.edit(by_id(review, "ENC-01").key, NOT_XML, "Yes")
    finally:
        review.store.close()
    report = tmp_path / "coverage.xlsx"
    run = measured("report", "coverage", "1", "--store", str(folder), "--out", str(report))
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr[-2000:]
    texts = [str(c.value) for ws in openpyxl.load_workbook(report) for row in ws.iter_rows() for c in row if c.value]
    assert any("Yes, nightly." in t for t in texts) and not any("\ufffe" in t or "\uffff" in t for t in texts)
    packet = tmp_path / "packet.xlsx"
    run = measured("review", "packet-export", "1", "--to", "Ana", "--store", str(folder), "--out", str(packet))
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr[-2000:]
    texts = [str(c.value) for row in openpyxl.load_workbook(packet)["Packet"].iter_rows() for c in row if c.value]
    assert "Yes, nightly." in texts


def test_a_flat_pdfs_response_document_drops_what_xml_cannot_hold(tmp_path):
    """The flat PDF's answers go into a Word response document (engine/questionnaire/pdf/response.py):
    before, an answer holding U+FFFE made it fail (``draft --out`` exited 2, the Export screen raised)."""
    path = flat_pdf(
        tmp_path / "flat.pdf", [[(50, 100, "1. Do you encrypt backups?"), (50, 130, "2. Is MFA enforced?")]]
    )
    q = read_questionnaire(path)
    x = q.questions[0]
    out = export(q.path, tmp_path / "answers.docx", [CellWrite(x.sheet, x.text_cell, NOT_XML)], q)
    body = zipfile.ZipFile(out).read("word/document.xml").decode()
    assert "Yes, nightly." in body and "\ufffe" not in body and "\uffff" not in body

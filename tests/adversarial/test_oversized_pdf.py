"""A PDF over the page limit (2,000 pages by default, ``--max-pages``) is refused from its page
tree, before any text is extracted or the embedder loads, in one line naming the file, the page
count, the limit and the flag; a PDF under the limit next to it is indexed in the same run."""

from __future__ import annotations

import fitz

from tests.adversarial.conftest import CLI_IMPORTS_MB, assert_queryable, measured


def many_pages(path, pages: int):
    """``pages`` pages of one short line each (≈ 100 bytes a page)."""
    doc = fitz.open()
    for number in range(1, pages + 1):
        doc.new_page(width=200, height=200).insert_text((20, 40), f"Page {number}: nothing to see.")
    doc.save(path, garbage=1, deflate=True)
    doc.close()
    return path


def test_a_pdf_over_the_page_limit_is_refused_before_it_is_read(tmp_path, store, encoder):
    big = many_pages(tmp_path / "manual.pdf", 2_001)
    run = measured("kb", "add", str(big), "--store", str(store))
    line = run.error_line("manual.pdf")
    assert "has 2,001 pages, over the limit of 2,000 pages" in line, line
    assert "--max-pages 2001" in line and "RFP_MAX_PAGES=2001" in line, line
    assert run.rc == 1 and "1 documents" in run.stdout  # handbook.pdf only, as before
    assert run.within(cpu_seconds=10, peak_mb=CLI_IMPORTS_MB), run
    assert_queryable(store, encoder)


def test_the_page_limit_moves_with_its_flag(tmp_path, store, encoder):
    """Under ``--max-pages 10`` a 12-page PDF is refused and a 3-page one in the same command is
    indexed; the flag changes nothing else."""
    twelve = many_pages(tmp_path / "twelve.pdf", 12)
    three = tmp_path / "three.pdf"
    doc = fitz.open()
    for text in ("Audit logs are copied to a second region every night.", "Keys rotate yearly.", "Done."):
        doc.new_page().insert_text((72, 72), text)
    doc.save(three)
    run = measured("kb", "add", str(twelve), str(three), "--store", str(store), "--max-pages", "10")
    assert "has 12 pages, over the limit of 10 pages" in run.error_line("twelve.pdf")
    assert "added: three.pdf (pdf, 3 pages" in run.stdout and "2 documents" in run.stdout, run.stdout
    assert run.rc == 1 and run.peak_mb <= 2_000, run  # refused one (#38); the embedder loads for three.pdf
    assert run.lines[-1] == "refused: 1 file not indexed (twelve.pdf); the other files are indexed", run.lines
    assert_queryable(store, encoder)

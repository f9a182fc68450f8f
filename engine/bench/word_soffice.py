"""The shared Word questionnaires printed by a real word processor (``python -m engine bench word-printed
--printer soffice --json``, #55): each shared Word file with a committed truth
(tests/questionnaire_truth/places.json, read from ``$RFP_SHARED_DATA/questionnaires/docx``, never copied)
printed once to a flat PDF by LibreOffice (``soffice --headless --convert-to pdf``), read by the flat PDF
reader and scored as ``bench word-printed`` scores its own prints (engine/bench/word_printed.py's
``score``: recall, precision, usable, the trivial baseline). The print is LibreOffice's, not ours: real
fonts and kerning, list numbers and bullets printed, boxes as the font's glyphs, table rules as thin
filled rectangles, the processor's own cell padding, line breaks, header rows and running heads. Skipped,
saying why, where ``soffice`` is not installed. A print is kept under the system's temporary folder by the
hash of the file (``rfp_word_soffice/``) and printed again only when the file changes.

**The truth, by a written rule independent of the reader**: LibreOffice records no places, so each truth
item's page is found by searching its text in the print's page texts (both normalised as the PDF scorer
does, ``pdf_places.norm_text``), the items in the truth's (the document's) order: the item's page is the
first page at or after the previous item's page whose text holds the item's text; else, for a text whose
first word holds a digit (an ID the document prints apart from the words: "AC-1" in a table's title row
and "Part a" in its row, "SV01 | 10% | How will you …"), the first such page whose text holds the ID and,
after it, the rest; else the first such page whose text, joined with the next page's, holds the text (an
item cut by a page break: the page where it starts). An item found on no page is not printed (hidden
text, a text box's): counted as ``not_printed`` and left out of the truth, as the bench's own printer
leaves out what it does not draw. The item's kind (its options, choice or text place) is
``word_printed.item_kind``'s. No answer places are recorded (the print has none to record)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import pymupdf

from engine.bench.document_places import TRUTH, truth_places
from engine.bench.pdf_intake import shared_data
from engine.bench.pdf_places import norm_text
from engine.bench.word_printed import item_kind, read_and_score, summary

PRINTER = "soffice"
CACHE = Path(tempfile.gettempdir()) / "rfp_word_soffice"


def soffice_print(path: Path, program: str, cache: Path = CACHE) -> Path:
    """``path`` printed to a PDF by LibreOffice (``program``), kept in ``cache`` by the hash of the file
    (and of the program's path) and printed again only when either changes. Raises ``RuntimeError`` when LibreOffice writes no PDF."""
    digest = hashlib.sha256(path.read_bytes() + str(Path(program).resolve()).encode()).hexdigest()[:24]
    out = cache / f"{digest}.pdf"
    if out.is_file():
        return out
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:  # a profile of its own: no clash with another soffice running
        source = Path(tmp) / f"{digest}{path.suffix}"
        shutil.copyfile(path, source)
        command = [program, f"-env:UserInstallation={Path(tmp, 'profile').as_uri()}", "--headless"]
        command += ["--convert-to", "pdf", "--outdir", tmp, str(source)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
        printed = Path(tmp) / f"{digest}.pdf"
        if not printed.is_file():
            raise RuntimeError(f"soffice printed no PDF of {path.name}: {(done.stderr or done.stdout)[-300:]}")
        shutil.move(printed, out)
    return out


def truth_pages(pdf: Path, items: list[dict]) -> tuple[list[dict], list[str]]:
    """The truth ``items`` carried to ``pdf`` by the module docstring's rule: each found one's kind
    (``item_kind``) with its page (1-based), and the texts of those found on no page."""
    with pymupdf.open(pdf) as doc:
        pages = [norm_text(page.get_text()) for page in doc]
    out, missing, previous = [], [], 0
    for item in items:
        page = _page_of(norm_text(item["text"]), pages, previous)
        if page is None:
            missing.append(item["text"])
            continue
        previous = page
        out.append({"page": page + 1} | item_kind(item) | {"places": []})
    return out, missing


def _page_of(words: str, pages: list[str], start: int) -> int | None:
    """The first page from ``start`` holding ``words``; else holding its ID and the rest after it; else
    where it starts when it runs onto the next page (0-based)."""
    first, _, rest = words.partition(" ")
    rules = [lambda k: words in pages[k]]
    if rest and any(c.isdigit() for c in first):
        rules.append(lambda k: first in pages[k] and rest in pages[k][pages[k].index(first) + len(first) :])
    rules.append(lambda k: k + 1 < len(pages) and words in f"{pages[k]} {pages[k + 1]}")
    for rule in rules:
        hit = next((k for k in range(start, len(pages)) if rule(k)), None)
        if hit is not None:
            return hit
    return None


def bench_word_soffice(
    folder: Path | None = None, keep: Path | None = None, only: str | None = None, program: str | None = None
) -> dict:
    """Each shared Word file with a truth printed by LibreOffice (``program``, else ``soffice`` on the
    path), read and scored (the module docstring); ``only``: the files whose name holds it; ``keep``: a
    folder to leave the PDFs in. Skipped, with the reason, where LibreOffice is not installed."""
    program = program or shutil.which(PRINTER)
    if not program or not Path(program).is_file():
        return {"printer": PRINTER, "skipped": f"LibreOffice ({PRINTER}) is not installed: nothing printed"}
    folder = folder or shared_data() / "questionnaires" / "docx"
    rows: list[dict] = []
    for name, entry in sorted(truth_places(TRUTH).items()):
        path = folder / name
        if not path.is_file() or (only and only not in name):
            continue
        pdf = soffice_print(path, program)
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
            pdf = Path(shutil.copyfile(pdf, keep / f"{path.stem}_soffice.pdf"))
        carried, missing = truth_pages(pdf, entry["questions"])
        head = {"file": name, "printer": PRINTER, "not_printed": len(missing), "not_printed_texts": missing[:6]}
        rows.append(read_and_score(pdf, carried, head))
    return {
        "printer": PRINTER,
        "all": summary(rows),
        "by_file": {r["file"]: summary([r]) for r in rows},
        "prints": rows,
    }


__all__ = ["CACHE", "PRINTER", "bench_word_soffice", "soffice_print", "truth_pages"]

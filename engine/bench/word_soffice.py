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
item's page is found by searching its text in the print's text (each line normalised as the PDF scorer
does, ``pdf_places.norm_text``; the pages in order, a space between two words matching a line's end too),
the items in the truth's (the document's) order, each after the previous item's place: the item's page is
the page of the first place where its text is (the first page at or after the previous item's page whose
text holds it, counting on that page only the text after the previous item's place), its place on that page
the first where the text begins a line (a list's number before it aside), else that first place. Else, for a
text whose first word holds a digit (an ID the document prints apart from the words: "AC-1" in a table's
title row and "Part a" in its row, "SV01 | 10% | How will you …"), the first place of the rest after the
previous item's place whose page has, before it, that ID as the last word of its shape (letters and digits
alike: "PS-3" printed between "PS-2" and "Part a" is another control's). An item found nowhere is not
counted (``not_printed``; LibreOffice prints "Provide your ISO 20000-1" where the Word text holds
"certification" too, a row cut by a page break with its title row repeated between "Part" and "a"), as the
bench's own printer leaves out what it does not draw. The item's kind (its options, choice or text place)
is ``word_printed.item_kind``'s. No answer places are recorded (the print has none to record). The rule's
known limits: a short label ("Name") also found in a running header or a sentence before the item's own
line takes that earlier page."""

from __future__ import annotations

import bisect
import hashlib
import re
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
LABEL = r"(?:\(?(?:[0-9]{1,3}|[a-z]|[ivx]{1,4})[.)]|[0-9]+(?:\.[0-9]+)+\.?)"  # a list's number ("1.", "(a)", "3.1.2")


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
    (``item_kind``) with its page (1-based), and the texts of those found nowhere."""
    text, starts = _print_text(pdf)
    out, missing, place = [], [], -1
    for item in items:
        found = _place_of(norm_text(item["text"]), text, starts, place + 1)
        if found is None:
            missing.append(item["text"])
            continue
        place = found
        out.append({"page": bisect.bisect_right(starts, found)} | item_kind(item) | {"places": []})
    return out, missing


def _print_text(pdf: Path) -> tuple[str, list[int]]:
    """The print's text, each line normalised (``norm_text``), a line a row of the text, the pages in
    order; and where each page's text starts."""
    text, starts = "", []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            starts.append(len(text))
            text += "".join(f"\n{line}" for raw in page.get_text().split("\n") if (line := norm_text(raw)))
    return text, starts


def _place_of(words: str, text: str, starts: list[int], start: int) -> int | None:
    """Where, from ``start``, ``words`` is first found: on the page of its first place, the first place
    where it begins a line (a list's number before it aside), else that first place; else, for words
    whose first holds a digit (an ID), the first place of the rest whose page has, before it, the ID as
    the last word of its shape (its letters and digits as letters and digits: "PS-2" and "PS-3" alike)."""
    hit = re.compile(f"({_spaced(words)})").search(text, start)
    if hit is not None:
        end = _page_end(hit.start(1), text, starts)
        line = re.compile(rf"\n(?:{LABEL} ?)?({_spaced(words)})").search(text, start - 1, end)
        return (line or hit).start(1)
    first, _, rest = words.partition(" ")
    if not rest or not any(c.isdigit() for c in first):
        return None
    shape = re.compile(r"(?<!\S)" + "".join(_shape(run) for run in re.findall(r"\d+|[^\W\d_]+|.", first)))
    for hit in re.compile(f"({_spaced(rest)})").finditer(text, start):
        page = bisect.bisect_right(starts, hit.start(1)) - 1
        ids = shape.findall(text, starts[page], hit.start(1))
        if ids and ids[-1] == first:  # the last ID of its shape before the rest is the item's
            return hit.start(1)
    return None


def _shape(run: str) -> str:
    """A pattern of any run of digits for digits, of letters for letters, the sign itself else."""
    return r"\d+" if run.isdigit() else r"[^\W\d_]+" if run.isalpha() else re.escape(run)


def _page_end(place: int, text: str, starts: list[int]) -> int:
    page = bisect.bisect_right(starts, place)
    return starts[page] if page < len(starts) else len(text)


def _spaced(words: str) -> str:
    """A pattern of ``words``, a space between two of them a space or a line's end (a wrapped line)."""
    return re.escape(words).replace(r"\ ", "[ \n]")


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

"""PDF questionnaires against the questions counted by reading them: per file, the questions
found, recall and precision, the labels read, intake and export time, and a round trip (every
question given a distinct answer, exported, read back: each answer where it belongs); for the
filled CAIQ PDFs, the answers read back against a sample read by eye. The PDF half of
``python -m engine bench intake --json`` (engine/bench/document_intake.py): :func:`bench_pdf_intake`
returns the figures as a dict (defaults: the PDFs named by tests/questionnaire_truth/pdf.json,
found under ``$RFP_SHARED_DATA/questionnaires``, and the filled ones under
``$RFP_SHARED_DATA/instructure``, ``$RFP_SHARED_DATA`` defaulting to /work/shared/data).

How a found question matches the truth (tests/questionnaire_truth/pdf.json says how each file was
counted): by the first words of each question in order where the truth lists them ("starts"; a
listed topic's own words after " — "), by the document's IDs where it lists them ("ids", or
"ids_by_page" for the pages that have them), else by the count on each page (a page's matched
questions are the fewer of the found and the counted). A file the reader refuses with "no
questions were found" has found none.

The round trip: a form's every question gets an answer (a choice in turn, "Yes" for a box alone,
"Answer N" or digits for comb fields), :func:`~engine.questionnaire.pdf.writer.write_pdf` writes
them (its no-other-change check included) and the file is read again; a flat PDF's answers go
into the Word response document (and its XLSX), read back paragraph by paragraph.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import docx
import pymupdf

from engine.core.types import FileProblem
from engine.questionnaire.pdf.layout import page_widgets
from engine.questionnaire.pdf.questions import page_of_row
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.pdf.response import write_response_docx, write_response_table
from engine.questionnaire.pdf.writer import write_pdf
from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.records import Question, Questionnaire, QuestionnaireError, joined_choices
from engine.questionnaire.writes import CellWrite

TRUTH = Path(__file__).resolve().parents[2] / "tests" / "questionnaire_truth" / "pdf.json"
SUB = " — "


def shared_data() -> Path:
    return Path(os.environ.get("RFP_SHARED_DATA", "/work/shared/data"))


@dataclass(frozen=True)
class Match:
    found: int
    truth: int
    matched: int

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w&()./'-]+", " ", text.lower()).split())


def match(questions: tuple[Question, ...], truth: dict) -> Match:
    """The found questions against one file's truth (see the module docstring)."""
    n, total = len(questions), truth["questions"]
    if "starts" in truth:
        tails = [_norm(q.text.rsplit(SUB, 1)[-1]) for q in questions]
        used: set[int] = set()
        for start in map(_norm, truth["starts"]):
            hit = next((i for i, t in enumerate(tails) if i not in used and t.startswith(start)), None)
            if hit is not None:
                used.add(hit)
        return Match(n, total, len(used))
    if "ids" in truth:
        got = Counter(_id(q.id) for q in questions if q.id)
        return Match(n, total, sum((got & Counter(map(_id, truth["ids"]))).values()))
    matched = 0
    by_page = Counter(page_of_row(q.row) for q in questions)
    for page, count in truth.get("per_page", {}).items():
        ids = truth.get("ids_by_page", {}).get(page)
        if ids is not None:
            got = Counter(_id(q.id) for q in questions if q.id and page_of_row(q.row) == int(page))
            matched += sum((got & Counter(map(_id, ids))).values())
        else:
            matched += min(count, by_page.get(int(page), 0))
    return Match(n, total, matched)


def _id(ident: str) -> str:
    return re.sub(r"\s+", "", ident).upper()


def labels_read(questions: tuple[Question, ...], truth: dict) -> tuple[int, int, list[str]]:
    """How many of the truth's sample labels appear in a question found on their page."""
    missed = []
    for page, words in truth.get("labels", ()):
        on_page = [_norm(q.text) for q in questions if page_of_row(q.row) == page]
        if not any(_norm(words) in text for text in on_page):
            missed.append(f"p{page}: {words}")
    total = len(truth.get("labels", ()))
    return total - len(missed), total, missed


# ---------------------------------------------------------------- round trips


def answers_for(questionnaire: Questionnaire) -> tuple[list[CellWrite], dict[tuple[int, str], str]]:
    """A distinct answer for every question, and what reading the written file must give back."""
    writes, expect = [], {}
    for i, q in enumerate(questionnaire.questions):
        if q.choice_cell and q.choices:
            place = questionnaire.places[place_key(q.sheet, q.choice_cell)]
            single = place.kind == PlaceKind.PDF_BUTTONS and place.options[-1][1] == "[]"
            choice = "Yes" if single else q.choices[i % len(q.choices)]
            if q.several and not single:  # a choice of several: two of its options, read back as the same set
                two = {q.choices[i % len(q.choices)], q.choices[(i + 1) % len(q.choices)]}
                choice = joined_choices(c for c in q.choices if c in two)
            writes.append(CellWrite(q.sheet, q.choice_cell, choice))
            expect[(q.row, "choice")] = choice
        if q.text_cell:
            place = questionnaire.places[place_key(q.sheet, q.text_cell)]
            text = f"Answer {i} to {q.id or q.row}"
            if place.locator.startswith("["):  # comb fields: digits, shown back with dashes per field
                text = "".join(str((i + k) % 10) for k in range(place.max_chars or 0))
            elif place.max_chars:
                text = f"A{i}"[: place.max_chars]
            writes.append(CellWrite(q.sheet, q.text_cell, text))
            expect[(q.row, "text")] = text
    return writes, expect


def form_round_trip(questionnaire: Questionnaire, folder: Path) -> dict:
    """Write every answer into the form, read it back: the answers not where they belong."""
    writes, expect = answers_for(questionnaire)
    started = time.perf_counter()
    out = write_pdf(questionnaire, folder / f"filled-{Path(questionnaire.path).name}", writes)
    seconds = time.perf_counter() - started
    back = read_pdf_questionnaire(out)
    wrong = []
    for q in back.questions:
        for kind, got in (("choice", q.existing_choice), ("text", q.existing_answer)):
            want = expect.get((q.row, kind))
            if want is not None and re.sub(r"-", "", got or "") != re.sub(r"-", "", want):
                wrong.append(f"{q.id or q.row} {kind}: {got!r} for {want!r}")
    if len(back.questions) != len(questionnaire.questions):
        wrong.append(f"{len(back.questions)} questions read back for {len(questionnaire.questions)}")
    drawn, filled = drawn_fields(Path(questionnaire.path), out)
    return {
        "writes": len(writes),
        "wrong": wrong,
        "export_s": round(seconds, 3),
        "check": "passed",
        "drawn": f"{drawn} of {filled}",
    }


def drawn_fields(original: Path, written: Path) -> tuple[int, int]:
    """What a viewer shows: of the fields whose value the export set, how many look different
    once the page is drawn (MuPDF, 72 dpi: the appearance streams a viewer draws)."""
    drawn = filled = 0
    with pymupdf.open(original) as a, pymupdf.open(written) as b:
        for pa, pb in zip(a, b):
            before = {w.xref: w.field_value for w in page_widgets(pa)}
            changed = [w for w in page_widgets(pb) if w.field_value not in (before.get(w.xref), "", "Off", None)]
            if not changed:
                continue
            ia, ib = pa.get_pixmap(dpi=72), pb.get_pixmap(dpi=72)
            for w in changed:
                filled += 1
                clip = pymupdf.IRect(w.rect) & ia.irect
                drawn += clip.is_valid and not clip.is_empty and _pixels(ia, clip) != _pixels(ib, clip)
    return drawn, filled


def _pixels(pix: pymupdf.Pixmap, clip: pymupdf.IRect) -> bytes:
    return pymupdf.Pixmap(pix, pix.width, pix.height, clip).samples


def response_round_trip(questionnaire: Questionnaire, folder: Path) -> dict:
    """Write every answer into the Word response document (and its XLSX), read the document back."""
    writes, expect = answers_for(questionnaire)
    stem = Path(questionnaire.path).stem
    started = time.perf_counter()
    out = write_response_docx(questionnaire, folder / f"{stem}-answers.docx", writes)
    write_response_table(questionnaire, folder / f"{stem}-answers.xlsx", writes)
    seconds = time.perf_counter() - started
    paragraphs = [p.text for p in docx.Document(out).paragraphs]
    wrong, at = [], 0
    for n, q in enumerate(sorted(questionnaire.questions, key=lambda q: q.row), start=1):
        head = f"{q.id or f'Q{n}'} {q.text}"
        at = next((i for i in range(at, len(paragraphs)) if paragraphs[i].startswith(head)), None)
        if at is None:
            wrong.append(f"{q.id or n}: question not found in order")
            at = 0
            continue
        body = paragraphs[at + 1 : at + 3]
        if (q.row, "choice") in expect and f"Answer: {expect[(q.row, 'choice')]}" not in body:
            wrong.append(f"{q.id or n}: choice")
        if (q.row, "text") in expect and expect[(q.row, "text")] not in body:
            wrong.append(f"{q.id or n}: text")
    return {"writes": len(writes), "wrong": wrong, "export_s": round(seconds, 3), "check": "n/a (response document)"}


# ---------------------------------------------------------------- files


def bench_file(path: Path, truth: dict, folder: Path) -> dict:
    started = time.perf_counter()
    try:
        q = read_pdf_questionnaire(path)
    except QuestionnaireError as exc:
        if "no questions were found" not in exc.problem:
            raise
        m = match((), truth)
        return {"found": 0, "truth": m.truth, "recall": m.recall, "precision": m.precision, "refused": str(exc)}
    intake = time.perf_counter() - started
    m = match(q.questions, truth)
    read, total, missed = labels_read(q.questions, truth)
    form = bool(q.places) and next(iter(q.places.values())).kind != PlaceKind.RESPONSE
    try:
        trip = form_round_trip(q, folder) if form else response_round_trip(q, folder)
    except FileProblem as exc:  # the no-other-change check (or another refusal): the figure says so
        trip = {"wrong": [], "check": f"failed: {exc}"}
    out = {
        "found": m.found,
        "truth": m.truth,
        "matched": m.matched,
        "recall": round(m.recall, 4),
        "precision": round(m.precision, 4),
        "intake_s": round(intake, 3),
        "round_trip": trip,
    }
    if total:
        out["labels"] = {"read": read, "of": total, "missed": missed}
    return out


def bench_filled(path: Path, truth: dict) -> dict:
    """A filled CAIQ PDF: its questions found, and the sample's answers read back."""
    started = time.perf_counter()
    q = read_pdf_questionnaire(path)
    seconds = time.perf_counter() - started
    by_id = {x.id: x for x in q.questions if x.id}
    answered = sum(1 for x in q.questions if x.existing_choice)
    right, wrong = 0, []
    for ident, choice, notes in truth["sample"]:
        x = by_id.get(ident)
        ok = x is not None and x.existing_choice == choice and _norm(x.existing_answer or "").startswith(_norm(notes))
        right += ok
        if not ok:
            wrong.append(ident)
    return {
        "found": len(q.questions),
        "truth": truth["questions"],
        "with_choice": answered,
        "sample_right": right,
        "sample": len(truth["sample"]),
        "sample_wrong": wrong,
        "intake_s": round(seconds, 3),
    }


def bench_pdf_intake(
    folder: Path | None = None, truth_file: Path | None = None, filled: Path | None = None, only: str | None = None
) -> dict:
    """The figures of every PDF the truth file counts (found by name under ``folder``, searched
    recursively), and of its filled CAIQ PDFs under ``filled`` (``only``: the files whose name holds
    it; see the module docstring)."""
    truth = json.loads((truth_file or TRUTH).read_text(encoding="utf-8"))
    folder = Path(folder or shared_data() / "questionnaires")
    filled = Path(filled or shared_data() / "instructure")
    found = {p.name: p for p in sorted(folder.rglob("*.pdf"))}
    out: dict = {"files": {}, "filled": {}}
    with tempfile.TemporaryDirectory(prefix="pdf-intake-") as tmp:
        for name, t in truth["files"].items():
            if name in found and (not only or only in name):
                out["files"][name] = bench_file(found[name], t, Path(tmp))
    for name, t in truth.get("filled", {}).items():
        if (filled / name).is_file() and (not only or only in name):
            out["filled"][name] = bench_filled(filled / name, t)
    files = out["files"].values()
    out["totals"] = {
        "files": len(out["files"]),
        "min_recall": min((f["recall"] for f in files), default=None),
        "min_precision": min((f["precision"] for f in files), default=None),
        "round_trip_wrong": sum(len(f.get("round_trip", {}).get("wrong", [])) for f in files),
        "checks_failed": sum(1 for f in files if str(f.get("round_trip", {}).get("check", "")).startswith("failed")),
    }
    out["all_at_least_95"] = all(f["recall"] >= 0.95 and f["precision"] >= 0.95 for f in files)
    return out


__all__ = ["TRUTH", "bench_file", "bench_filled", "bench_pdf_intake"]

"""How well Word and PDF questionnaires are read and written back, per file of a folder
(``python -m engine bench intake --json``: one JSON object, ``word`` and ``pdf``).

Word (.docx, .docm) files, here:

* **questions found**: recall and precision against the truth file (tests/questionnaire_truth/
  docx.json: the questions counted by reading each document, in document order). The truth's
  items and the questions read are aligned in order: an item matches the first question not
  yet matched, at or after the previous match, whose ID and text hold all its words;
* **intake seconds**: reading the file (limits, parsing, finding the questions), best of
  ``repeat``;
* **export**: every question given a distinct answer ("answer 17 …", its first choice for a
  pick), written back (best of ``repeat`` seconds), and the written file read again: each answer
  found in its place (round trip), and the no-other-change check passed (the writer refuses to
  write otherwise, so a refused export is reported with its one line).

PDF files (engine/bench/pdf_intake.py: recall and precision against tests/questionnaire_truth/
pdf.json, labels read, intake and export time, a round trip into the form's fields or the flat
PDF's response document, what a viewer draws) and the filled CAIQ PDFs read as past answers.

``new_files``: the questionnaires added for issue #55, question by question against the answer
places counted from each document (engine/bench/document_places.py, pdf_places.py), with the
share of usable answer places and the trivial "?" baseline of the same file.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path

from engine.bench.document_places import baseline, score_places, truth_places
from engine.bench.pdf_intake import TRUTH as PDF_TRUTH
from engine.bench.pdf_intake import bench_pdf_intake, form_round_trip, response_round_trip
from engine.bench.pdf_places import pdf_baseline, pdf_truth_places, score_pdf_places
from engine.core.limits import Limits
from engine.core.types import FileProblem
from engine.questionnaire import Questionnaire, read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import response_only
from engine.questionnaire.records import QuestionnaireError, joined_choices, picked_choices
from engine.questionnaire.writes import CellWrite

TRUTH = Path(__file__).resolve().parents[2] / "tests" / "questionnaire_truth" / "docx.json"
WORD_SUFFIXES = (".docx", ".docm")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w#/&().-]+", " ", text.casefold()).split())


def score(q: Questionnaire, truth: list) -> dict:
    """Recall, precision and the unmatched items of ``q``'s questions against ``truth`` (in order)."""
    found = [_norm(f"{x.id or ''} {x.text}") for x in q.questions]
    matched, start = 0, 0
    misses = []
    for item in truth:
        words = [_norm(w) for w in ([item] if isinstance(item, str) else item)]
        at = next((i for i in range(start, len(found)) if all(w in found[i] for w in words)), None)
        if at is None:
            misses.append(item)
            continue
        matched += 1
        start = at + 1
    return {
        "truth": len(truth),
        "found": len(found),
        "matched": matched,
        "recall": round(matched / len(truth), 4) if truth else None,
        "precision": round(matched / len(found), 4) if found else None,
        "missed": misses[:10],
    }


def answers_for(q: Questionnaire) -> list[CellWrite]:
    """A distinct answer for every question: its first choice in its choice place, "answer N …"
    in its text place."""
    writes = []
    for n, x in enumerate(q.questions, 1):
        if x.choice_cell and x.choices:
            writes.append(CellWrite(x.sheet, x.choice_cell, joined_choices(x.choices[: 2 if x.several else 1])))
        if x.text_cell:
            writes.append(
                CellWrite(
                    x.sheet, x.text_cell, f"Answer {n} to {x.id or 'row ' + str(x.row)}, written by the round trip."
                )
            )
    return writes


def round_trip(q: Questionnaire, written: Questionnaire) -> dict:
    """How many answers written into ``q``'s places are read back from ``written`` where they belong.
    The questions are matched in order by ID and text (the paragraphs an export adds move the
    numbers of the questions after them)."""
    again = list(written.questions)
    texts = choices = ok_text = ok_choice = 0
    wrong: list[str] = []
    at = 0
    for n, x in enumerate(q.questions, 1):
        key = (x.id, _norm(x.text)[:60])
        found = next((i for i in range(at, len(again)) if (again[i].id, _norm(again[i].text)[:60]) == key), None)
        y = again[found] if found is not None else None
        at = found + 1 if found is not None else at
        if x.text_cell:
            texts += 1
            got = y.existing_answer if y else None
            if got and f"Answer {n} to" in got:
                ok_text += 1
            elif len(wrong) < 5:
                wrong.append(f"{x.question_cell} text: {got!r}" + ("" if y else " (question not read back)"))
        if x.choice_cell and x.choices:
            choices += 1
            got = y.existing_choice if y else None
            picked = joined_choices(x.choices[: 2 if x.several else 1])
            if got and (set(picked_choices(got, x.choices)) == set(picked_choices(picked, x.choices)) or got == picked):
                ok_choice += 1
            elif len(wrong) < 5:
                wrong.append(
                    f"{x.question_cell} choice: {got!r} (wrote {picked!r})" + ("" if y else " (not read back)")
                )
    return {"texts": texts, "texts_back": ok_text, "choices": choices, "choices_back": ok_choice, "wrong": wrong}


def bench_file(path: Path, truth: list | None, repeat: int = 1, limits: Limits | None = None) -> dict:
    """The figures of one questionnaire file (see the module docstring)."""
    limits = limits or Limits.from_env()
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        q = read_questionnaire(path, limits=limits)
        seconds.append(time.perf_counter() - started)
    out: dict = {"file": path.name, "questions": len(q.questions), "intake_s": round(min(seconds), 3)}
    out["several"] = sum(x.several for x in q.questions)  # choices of several ("tick all that apply")
    if truth is not None:
        out.update(score(q, truth))
    writes = answers_for(q)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / f"answered{path.suffix}"
        spent = []
        try:
            for _ in range(repeat):
                started = time.perf_counter()
                export(path, target, writes, q)
                spent.append(time.perf_counter() - started)
        except Exception as exc:  # noqa: BLE001 - a refused export is a figure too: its one line
            out["export_error"] = str(exc)
            return out
        out["export_s"] = round(min(spent), 3)
        out["writes"] = len(writes)
        out["round_trip"] = round_trip(q, read_questionnaire(target, limits=limits))
    return out


def bench_intake(
    folder: Path,
    truth_path: Path = TRUTH,
    repeat: int = 1,
    only: str | None = None,
    pdf_truth: Path | None = None,
    filled: Path | None = None,
) -> dict:
    """The figures of every Word and PDF questionnaire under ``folder`` (``only``: those whose name
    holds it), and of the filled CAIQ PDFs under ``filled`` (see the module docstring)."""
    word = bench_word_intake(folder, truth_path, repeat, only)
    pdf = bench_pdf_intake(folder, pdf_truth, filled, only)
    new = bench_new_files(folder, only)
    return {
        "word": word,
        "pdf": pdf,
        "new_files": new,
        "all_at_least_95": word["all_at_least_95"] and pdf["all_at_least_95"],
    }


def bench_new_files(folder: Path, only: str | None = None) -> dict:
    """The questionnaires added for issue #55 (every file of ``folder`` the older truth files,
    tests/questionnaire_truth/docx.json and pdf.json, do not count), reported apart: those counted
    question by question (places.json, pdf_places.json) with recall, precision, the share whose
    answer place is the right cell or box ("usable") and the trivial baseline (every paragraph, row
    or line with "?") of the same file; every one with its questions found, intake time and the
    export's check and round trip."""
    older = set(json.loads(TRUTH.read_text(encoding="utf-8"))["files"]) if TRUTH.is_file() else set()
    older |= set(json.loads(PDF_TRUTH.read_text(encoding="utf-8"))["files"]) if PDF_TRUTH.is_file() else set()
    truths = {**truth_places(), **pdf_truth_places()}
    files = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in (*WORD_SUFFIXES, ".pdf"))
    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="new-intake-") as tmp:
        for path in files:
            name = path.name
            if name in older or (only and only not in name):
                continue
            started = time.perf_counter()
            try:
                q = read_questionnaire(path, limits=Limits.from_env())
            except QuestionnaireError as exc:
                rows[name] = {"refused": str(exc), "recall": 0.0 if name in truths else None}
                continue
            row: dict = {"questions": len(q.questions), "intake_s": round(time.perf_counter() - started, 3)}
            row["several"] = sum(x.several for x in q.questions)  # choices of several ("tick all that apply")
            word = path.suffix.lower() in WORD_SUFFIXES
            if name in truths:
                items = truths[name]["questions"]
                row.update(score_places(q, path, items) if word else score_pdf_places(q, items))
                row["baseline"] = baseline(path, items) if word else pdf_baseline(path, items)
            if word:
                figures = bench_file(path, None)
                row.update({k: figures[k] for k in ("export_s", "export_error", "round_trip") if k in figures})
            else:
                try:
                    row["round_trip"] = (
                        response_round_trip(q, Path(tmp)) if response_only(q.places) else form_round_trip(q, Path(tmp))
                    )
                except FileProblem as exc:  # the no-other-change check, or another refusal: the figure says so
                    row["round_trip"] = {"wrong": [], "check": f"failed: {exc}"}
            rows[name] = row
    scored = [r for n, r in rows.items() if n in truths and r.get("recall") is not None]
    return {
        "files": rows,
        "done_when": all(
            r["recall"] >= 0.95 and (r.get("precision") or 0) >= 0.90 and (r.get("usable") or 0) >= 0.95 for r in scored
        ),
    }


def bench_word_intake(folder: Path, truth_path: Path = TRUTH, repeat: int = 1, only: str | None = None) -> dict:
    """The figures of every Word questionnaire under ``folder`` (``only``: those whose name holds it)."""
    truth = json.loads(truth_path.read_text(encoding="utf-8"))["files"] if truth_path.is_file() else {}
    files = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in WORD_SUFFIXES)
    files = [p for p in files if not only or only in p.name]
    rows = [bench_file(p, truth.get(p.name, {}).get("questions"), repeat) for p in files]
    scored = [r for r in rows if r.get("recall") is not None]
    return {
        "folder": str(folder),
        "truth": str(truth_path),
        "files": rows,
        "all_at_least_95": all(r["recall"] >= 0.95 and r["precision"] >= 0.95 for r in scored),
    }


__all__ = [
    "TRUTH",
    "answers_for",
    "bench_file",
    "bench_intake",
    "bench_new_files",
    "bench_word_intake",
    "round_trip",
    "score",
]

"""``bench export-all``: every question of every questionnaire of a folder (Word, PDF form, and
spreadsheet: .xlsx, .xlsm, .csv; ``suffixes`` narrows them) answered and exported, the way a
responder's answers go out (#55: one answer its place cannot take never refuses the others; every
format's export runs its no-other-change check before anything lands).

Each question gets an answer: its choice "No" where it offers one (a one-box question's "No"
included), else its last option; its text place "Answer N". The file is exported twice in the same
run: **strict** (the first answer a place refuses refuses the whole export: the behaviour before
#55, the baseline) and **tolerant** (that answer is left out and listed with why, the others
written). Per file: the writes, whether each export was written, the answers left out and why (the
first three), the tolerant export's seconds (its check included) and its format's check alone on the
copy written (``check_seconds``, timed apart: the write alone is the difference). A file the reader
refuses is listed as such."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from engine.core.types import FileProblem
from engine.questionnaire import Questionnaire, read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.formats import SUFFIXES, format_of
from engine.questionnaire.places import Unwritten, response_only
from engine.questionnaire.writes import CellWrite


def every_answer(q: Questionnaire) -> list[CellWrite]:
    """An answer for every question: "No" where offered (else its last option), "Answer N" as text."""
    writes = []
    for n, x in enumerate(q.questions):
        if x.choice_cell and x.choices:
            writes.append(CellWrite(x.sheet, x.choice_cell, "No" if "No" in x.choices else x.choices[-1]))
        if x.text_cell and x.text_cell != x.choice_cell:
            writes.append(CellWrite(x.sheet, x.text_cell, f"Answer {n}"))
    return writes


def _export(
    q: Questionnaire, writes: list[CellWrite], tolerant: bool
) -> tuple[bool, list[Unwritten], str, float, float | None]:
    """(written, the answers left out, why refused, the export's seconds, its check's seconds on the copy)."""
    unwritten: list[Unwritten] = []
    with tempfile.TemporaryDirectory(prefix="export-all-") as tmp:
        start = time.perf_counter()
        try:
            written = export(q.path, Path(tmp) / f"out{q.path.suffix}", writes, q, unwritten if tolerant else None)
        except FileProblem as exc:
            return False, unwritten, f"{exc.problem}"[:160], time.perf_counter() - start, None
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        format_of(q.path).check(q.path, written, writes, q)  # what the export ran before writing, timed alone
        return True, unwritten, "", seconds, time.perf_counter() - start


def bench_export_all(
    folders: Path | Sequence[Path], only: str | None = None, suffixes: Sequence[str] = SUFFIXES
) -> dict:
    folders = [Path(folders)] if isinstance(folders, (str, Path)) else [Path(f) for f in folders]
    wanted = {s.lower() for s in suffixes}
    files = sorted(p for f in folders for p in f.rglob("*") if p.suffix.lower() in wanted and p.is_file())
    out: dict[str, dict] = {}
    for path in files:
        if only and only not in path.name:
            continue
        try:
            q = read_questionnaire(path)
        except FileProblem as exc:
            out[path.name] = {"read": f"refused: {exc.problem}"[:160]}
            continue
        if response_only(q.places):
            continue  # a flat PDF: its answers go into a response document, nothing to refuse
        writes = every_answer(q)
        strict, _, refused, _, _ = _export(q, writes, tolerant=False)
        tolerant, unwritten, failed, seconds, check = _export(q, writes, tolerant=True)
        out[path.name] = {
            "writes": len(writes),
            "strict": "written" if strict else f"refused: {refused}",
            "tolerant": "written" if tolerant else f"refused: {failed}",
            "left_out": len(unwritten),
            "why": sorted({u.problem[:90] for u in unwritten})[:3],
            "seconds": round(seconds, 3),
            "check_seconds": None if check is None else round(check, 3),
        }
    read = [v for v in out.values() if "writes" in v]
    return {
        "folders": [str(f) for f in folders],
        "files": out,
        "totals": {
            "files_read": len(read),
            "strict_written": sum(v["strict"] == "written" for v in read),
            "tolerant_written": sum(v["tolerant"] == "written" for v in read),
            "writes": sum(v["writes"] for v in read),
            "left_out": sum(v["left_out"] for v in read),
        },
    }


__all__ = ["bench_export_all", "every_answer"]

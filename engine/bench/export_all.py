"""``bench export-all``: every question of every Word questionnaire and PDF form of a folder
answered and exported, the way a responder's answers go out (#55: one answer its place cannot take
never refuses the others).

Each question gets an answer: its choice "No" where it offers one (a one-box question's "No"
included), else its last option; its text place "Answer N". The file is exported twice in the same
run: **strict** (the first answer a place refuses refuses the whole export: the behaviour before
#55, the baseline) and **tolerant** (that answer is left out and listed with why, the others
written). Per file: the writes, whether each export was written, the answers left out and why (the
first three), and the tolerant export's seconds. A file the reader refuses is listed as such."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from engine.core.types import FileProblem
from engine.questionnaire import Questionnaire, read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.formats import DOCUMENT_SUFFIXES
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


def _export(q: Questionnaire, writes: list[CellWrite], tolerant: bool) -> tuple[bool, list[Unwritten], str, float]:
    unwritten: list[Unwritten] = []
    with tempfile.TemporaryDirectory(prefix="export-all-") as tmp:
        start = time.perf_counter()
        try:
            export(q.path, Path(tmp) / f"out{q.path.suffix}", writes, q, unwritten if tolerant else None)
        except FileProblem as exc:
            return False, unwritten, f"{exc.problem}"[:160], time.perf_counter() - start
        return True, unwritten, "", time.perf_counter() - start


def bench_export_all(folder: Path, only: str | None = None) -> dict:
    files = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in DOCUMENT_SUFFIXES and p.is_file())
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
        strict, _, refused, _ = _export(q, writes, tolerant=False)
        tolerant, unwritten, failed, seconds = _export(q, writes, tolerant=True)
        out[path.name] = {
            "writes": len(writes),
            "strict": "written" if strict else f"refused: {refused}",
            "tolerant": "written" if tolerant else f"refused: {failed}",
            "left_out": len(unwritten),
            "why": sorted({u.problem[:90] for u in unwritten})[:3],
            "seconds": round(seconds, 2),
        }
    read = [v for v in out.values() if "writes" in v]
    return {
        "folder": str(folder),
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

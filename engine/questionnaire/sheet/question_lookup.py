"""A question row whose question cell holds only its own ID, read with the question's text from
where the workbook keeps it.

A HECVAT's question cells are formulas that look the question up by its ID in a hidden sheet
(``=VLOOKUP(A104,Questions!$B$3:$C$256,2,FALSE)``). A vendor who pasted values over one of them
leaves the row's ID in its question cell: Parchment's HECVAT Full shows "AAAI-11" where its
question ("Do you allow the customer to specify attribute mappings …?") should be, and a draft
of "AAAI-11" is a model call whose result cannot be used. Such a row is read with the text beside
its ID in another sheet of the workbook (hidden ones too): the first cell right of the ID, on its
row, of three words or more. The question cell is not written (the export writes answers only);
a note names each row and where its text came from, and a row whose ID is found nowhere keeps
its ID as its text, the note saying so.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

import openpyxl

from engine.ingest.sheet import cell_text
from engine.questionnaire.records import Question, SheetLayout

MIN_WORDS = 3  # a question's text, not a label or a code beside the ID


def bare(q: Question) -> bool:
    """The question cell holds only the row's own ID."""
    return bool(q.id) and " ".join(q.text.split()) == q.id


def _texts_beside(path: Path, ids: set[str], skip: set[str]) -> dict[str, tuple[str, str]]:
    """ID → (where, its text) for each of ``ids`` found in a sheet of the workbook other than
    ``skip``, its text the first cell right of it on its row with ``MIN_WORDS`` words or more."""
    found: dict[str, tuple[str, str]] = {}
    with warnings.catch_warnings():  # openpyxl: "Data Validation extension is not supported", as rows are read
        warnings.simplefilter("ignore", UserWarning)
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            for ws in wb.worksheets:
                if ws.title not in skip:
                    _scan(ws, ids, found)
                if len(found) == len(ids):
                    break
        finally:
            wb.close()
    return found


def _scan(ws, ids: set[str], found: dict[str, tuple[str, str]]) -> None:
    """Add to ``found`` each of ``ids`` on worksheet ``ws`` with the text beside it."""
    ws.reset_dimensions()  # trust the rows in the file, not a stale <dimension>
    for row in ws.iter_rows():
        texts = [(c, cell_text(c.value)) for c in row if getattr(c, "value", None) is not None]
        for i, (cell, value) in enumerate(texts):
            if value not in ids or value in found:
                continue
            beside = next(((c, t) for c, t in texts[i + 1 :] if len(t.split()) >= MIN_WORDS), None)
            if beside is not None:
                found[value] = (f"'{ws.title}'!{beside[0].coordinate}", beside[1])


def questions_by_id(path: Path, layouts: list[SheetLayout]) -> tuple[list[SheetLayout], list[str]]:
    """``layouts`` with each question whose question cell holds only its ID read with its text
    from elsewhere in the workbook (module docstring), and the notes that say so."""
    ids = {q.id for s in layouts for q in s.questions if q.id and bare(q)}
    if not ids:
        return layouts, []
    found = _texts_beside(path, ids, {s.sheet for s in layouts})
    notes, out = [], []
    for s in layouts:
        rows = [q for q in s.questions if bare(q)]
        if not rows:
            out.append(s)
            continue
        read = [f"{q.id} {q.question_cell} from {found[q.id][0]}" for q in rows if q.id in found]
        left = [f"{q.id} {q.question_cell}" for q in rows if q.id not in found]
        if read:
            notes.append(
                f"sheet '{s.sheet}': question cells holding only their row's ID ({'; '.join(read)}) are read with "
                "the question beside that ID elsewhere in the workbook"
            )
        if left:
            notes.append(
                f"sheet '{s.sheet}': question cells holding only their row's ID ({'; '.join(left)}) have no question "
                "text anywhere in the workbook; type the question into the cell, or answer the row by hand"
            )
        questions = tuple(replace(q, text=found[q.id][1]) if bare(q) and q.id in found else q for q in s.questions)
        out.append(replace(s, questions=questions))
    return out, notes

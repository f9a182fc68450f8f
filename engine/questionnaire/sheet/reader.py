"""Read a questionnaire (XLSX/XLSM/CSV): which rows are questions and where their answers go.

Detection, per sheet (every visible sheet, or the one named with ``sheet=``):

1. **ID column**: the column with the most cells shaped like a question ID (``GNRL-01``,
   ``A&A-01.1``, ``AC-2``; at least 3). When there is one, the question rows are exactly the
   rows whose ID cell has that shape: section titles, instructions, repeated header rows and
   blank rows have none. This is how CAIQ and HECVAT are laid out.
2. **Header labels**: rows holding labels such as "Question", "Answer"/"Response"/"Vendor
   Answers", "Additional Information"/"Comments"/"Implementation Description" give the column
   roles (HECVAT repeats its header in every section; the most common column per role wins).
   "Analyst …", "Guidance" and "Compliant Response" columns are never answer columns.
3. Without a labelled question column, the column of the candidate rows with the most
   question-like text (several words, ending in "?") is the question column. Without a
   labelled answer column, the column whose cells carry the most list dropdowns is.
4. Without an ID column, every non-blank row below the header row is a question unless it
   looks like a section title (a short line without "?", alone on its row, without dropdown).

A row is not a question either when its answer cell holds a formula that reads another cell:
the workbook fills it itself (HECVAT 4 copies the "START HERE" answers into every tab); a sheet
whose answer cells are mostly such formulas is a report or an evaluation sheet and is skipped
with a note. An answer cell whose formula reads no other cell (``=C27`` in C27, ``=1/0``), reads
only cells beyond the sheet's data (``=Z99`` where the sheet ends at E12: nothing the workbook
fills), or that shows an error value (``#DIV/0!``, ``#REF!``) is nobody's answer: the row stays a
question (a qualifier is never lost), its cell is read as unanswered, and a note says so; the
export writes the answer over the formula or the error (engine/questionnaire/sheet/writer.py).

Merged cells are read as what the sheet shows, the top-left cell's value. Where ID rows meet a
merge, nothing is left out silently: a question cell inside a merged range is read as the merged
text; a row whose ID cell is merged with the ID above is read without an ID; a question merged
across its answer column is kept, its answer going to the comment cell when there is one; two
questions sharing one merged answer cell keep it both; a row merged into one cell with its ID
(no question text left) is left out. Each is named in a note.

Per question the **answer cell** (in the answer column) is a *choice cell* when a list data
validation covers it; the explanation then goes in the comment column (the *text cell*).
Without a dropdown the answer cell itself is the text cell. Cell values are the cached ones
(``data_only``): question text computed by formulas (HECVAT 4.x VLOOKUPs) is read as shown.
"""

from __future__ import annotations

import csv
import io
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import openpyxl
from openpyxl.formula.tokenizer import Tokenizer
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import column_index_from_string, range_boundaries

from engine.core.limits import Limits
from engine.core.ooxml import SheetInfo, is_ole, workbook_sheets
from engine.core.types import FileProblem
from engine.ingest.sheet import cell_text, sniff_delimiter
from engine.questionnaire.cues import ID_RE, header_role
from engine.questionnaire.records import (
    Question,
    Questionnaire,
    QuestionnaireError,
    ReadOptions,
    SheetLayout,
)
from engine.questionnaire.sheet.question_lookup import questions_by_id
from engine.questionnaire.sheet.validation import (
    Bounds,
    ListValidation,
    defined_names,
    resolve_list,
    scan_sheet,
)

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
OVERRIDE_FIX = (
    "pass --sheet NAME, --header-row N and --question-col LETTER "
    "(and --answer-col / --comment-col LETTER) to say where the questions are"
)


@dataclass
class _Grid:
    """One sheet's cell texts plus what the XML scan found (nothing for CSV)."""

    name: str
    cells: dict[tuple[int, int], str]
    formulas: frozenset[tuple[int, int]] = frozenset()
    merges: tuple[Bounds, ...] = ()
    dropdowns: tuple[tuple[ListValidation, tuple[str, ...]], ...] = ()  # with resolved values
    errors: frozenset[tuple[int, int]] = frozenset()  # cells whose saved value is an error (#DIV/0!…)
    formula: Callable[[int, int], str | None] = lambda row, col: None  # a cell's formula as written
    _anchor: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    _rows: dict[int, list[int]] = field(default_factory=dict)
    extent: tuple[int, int] = (0, 0)  # the last row and column holding a value or a formula

    def __post_init__(self) -> None:
        for r, c in sorted(self.cells):
            self._rows.setdefault(r, []).append(c)
        held = set(self.cells) | set(self.formulas)
        self.extent = (max((r for r, _ in held), default=0), max((c for _, c in held), default=0))
        for c0, r0, c1, r1 in self.merges:
            if (c1 - c0 + 1) * (r1 - r0 + 1) <= 10_000:
                for r in range(r0, r1 + 1):
                    for c in range(c0, c1 + 1):
                        self._anchor[(r, c)] = (r0, c0)

    def text(self, row: int, col: int) -> str:
        return self.cells.get((row, col), "")

    def anchor(self, row: int, col: int) -> tuple[int, int]:
        """The top-left cell of the merged range holding (row, col), or the cell itself."""
        return self._anchor.get((row, col), (row, col))

    def merged_range(self, row: int, col: int) -> str:
        """The A1 range of the merged cells holding (row, col) ("B8:B9"), for notes; the cell alone when none."""
        for c0, r0, c1, r1 in self.merges:
            if c0 <= col <= c1 and r0 <= row <= r1:
                return f"{_ref(r0, c0)}:{_ref(r1, c1)}"
        return _ref(row, col)

    def choices_at(self, row: int, col: int) -> tuple[str, ...]:
        return next((values for dv, values in self.dropdowns if dv.covers(row, col)), ())

    def row_cols(self, row: int) -> list[int]:
        """The columns of the non-empty cells of a row, left to right."""
        return self._rows.get(row, [])

    def rows(self, start: int = 1) -> list[int]:
        return [r for r in self._rows if r >= start]


# ---------------------------------------------------------------- reading a spreadsheet


def read_sheets(path: Path, ov: ReadOptions, limits: Limits) -> Questionnaire:
    """Detect the questions of an .xlsx/.xlsm/.csv questionnaire (see the module docstring), a
    regular, non-empty file checked by ``engine.questionnaire.read_questionnaire`` (the one
    entry point, engine/questionnaire/formats.py); ``ov`` the reviewer's overrides. Raises
    :class:`QuestionnaireError` for unreadable files and when no questions are found."""
    name, suffix = path.name, path.suffix.lower()
    with warnings.catch_warnings():  # openpyxl: "Data Validation extension is not supported"
        warnings.simplefilter("ignore", UserWarning)
        grids, notes = _load_csv(path, ov, limits) if suffix == ".csv" else _load_workbook(path, ov, limits)
    lenient = len(grids) == 1 or ov.sheet is not None or ov.question_col is not None
    layouts, skipped = [], {}
    for grid in grids:
        found = _detect(grid, ov, lenient)
        if isinstance(found, str):
            skipped[grid.name] = found
        else:
            layouts.append(found)
            notes += _uncached_note(grid, found) + list(found.notes)
    if not layouts:
        reasons = "; ".join(f"sheet '{k}': {v}" for k, v in skipped.items()) or "no sheets"
        raise QuestionnaireError(name, f"no questions found ({reasons})", OVERRIDE_FIX)
    notes += [f"sheet '{k}' skipped: {v}" for k, v in skipped.items() if "formulas" in v]
    plain = [k for k, v in skipped.items() if "formulas" not in v]
    if plain:
        notes.append("sheets without questions: " + ", ".join(f"'{k}'" for k in plain))
    if suffix in WORKBOOK_SUFFIXES:
        layouts, found = questions_by_id(path, layouts)
        notes += found
    if ov.exclude:
        layouts = [replace(s, questions=tuple(q for q in s.questions if not ov.excludes(q))) for s in layouts]
    return Questionnaire(path=path, sheets=tuple(layouts), notes=tuple(notes))


# ---------------------------------------------------------------- loading


def _load_workbook(path: Path, ov: ReadOptions, limits: Limits) -> tuple[list[_Grid], list[str]]:
    """Cell texts (cached values) and the XML scan of the sheets to look at."""
    name = path.name
    if is_ole(path):
        raise QuestionnaireError(
            name,
            "is password-protected (encrypted) or an old .xls file",
            "remove the password / save it as .xlsx and try again",
        )
    limits.check_workbook(path, name)  # before openpyxl unpacks anything
    try:
        zf = zipfile.ZipFile(path)
        infos = workbook_sheets(zf)
        names = defined_names(zf)
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # BadZipFile, KeyError, XML errors…
        raise QuestionnaireError(
            name,
            "is not a readable Excel workbook (corrupt, truncated or not an .xlsx)",
            "open it in Excel, save it again as .xlsx and try again",
        ) from exc
    try:
        if ov.sheet is not None:
            chosen = [i for i in infos if i.name == ov.sheet]
            if not chosen:
                raise QuestionnaireError(
                    name,
                    f"has no sheet named '{ov.sheet}'",
                    f"pass --sheet with one of: {', '.join(repr(i.name) for i in infos)}",
                )
        else:
            chosen = [i for i in infos if i.state == "visible"]
        notes: list[str] = []
        grids = [_sheet_grid(zf, wb, info, infos, names, notes) for info in chosen]
    except FileProblem:
        raise
    except Exception as exc:
        raise QuestionnaireError(
            name,
            f"could not be read ({type(exc).__name__}: {exc})",
            "open it in Excel, save it again as .xlsx and try again",
        ) from exc
    finally:
        wb.close()
        zf.close()
    return grids, notes


def _read_rows(wb, sheet: str, last_row: int, bounds: Bounds | None = None):
    """(row number, values) of a read-only worksheet up to ``last_row``."""
    ws = wb[sheet]
    if bounds is None:
        ws.reset_dimensions()  # trust the rows in the file, not a stale <dimension>
        rows = ws.iter_rows(values_only=True)
        first = 1
    else:
        c0, r0, c1, r1 = bounds
        rows = ws.iter_rows(min_row=r0, max_row=min(r1, last_row), min_col=c0, max_col=c1, values_only=True)
        first = r0
    for number, values in enumerate(rows, start=first):
        if number > last_row:
            break
        yield number, values


def _sheet_grid(zf, wb, info: SheetInfo, infos: list[SheetInfo], names, notes: list[str]) -> _Grid:
    """Cell texts, formulas, merges and resolved dropdowns of one worksheet."""
    scan = scan_sheet(zf, info.part)
    cells = {}
    for number, values in _read_rows(wb, info.name, scan.last_row):
        for col, value in enumerate(values, start=1):
            text = cell_text(value)
            if text:
                cells[(number, col)] = text
    parts = {i.name: i.part for i in infos}
    last_rows: dict[str, int] = {info.name: scan.last_row}

    def read_range(sheet: str, bounds: Bounds) -> list[str]:
        if sheet not in last_rows:
            last_rows[sheet] = scan_sheet(zf, parts[sheet]).last_row  # KeyError: no such sheet
        rows = _read_rows(wb, sheet, last_rows[sheet], bounds)
        return [t for _, values in rows for t in map(cell_text, values) if t]

    dropdowns = []
    for validation in scan.validations:
        resolved = resolve_list(validation.formula, info, names, read_range)
        if resolved is None:
            notes.append(
                f"sheet '{info.name}': dropdown source '{validation.formula}' could not be resolved; "
                "those cells are treated as free text"
            )
        elif resolved:
            dropdowns.append((validation, resolved))
    return _Grid(info.name, cells, scan.formulas, scan.merges, tuple(dropdowns), scan.errors, scan.formula)


def _load_csv(path: Path, ov: ReadOptions, limits: Limits) -> tuple[list[_Grid], list[str]]:
    text = limits.read_text(path, path.name, QuestionnaireError)
    sheet = ov.sheet or path.stem
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))
        records = [record for _, record in limits.bounded_rows(path.name, sheet, reader)]
    except csv.Error as exc:
        raise QuestionnaireError(
            path.name, f"is not valid CSV ({exc})", "export it from the spreadsheet as CSV again"
        ) from exc
    cells = {
        (r, c): value.strip()
        for r, record in enumerate(records, 1)
        for c, value in enumerate(record, 1)
        if value.strip()
    }
    if not cells:
        raise QuestionnaireError(path.name, "has no cells with text", "export the questionnaire again")
    return [_Grid(sheet, cells)], []


# ---------------------------------------------------------------- detection


def _id_column(g: _Grid, start: int) -> int | None:
    counts = Counter(c for (r, c), t in g.cells.items() if r >= start and ID_RE.match(t))
    if not counts:
        return None
    col, n = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))
    return col if n >= 3 else None


def _header_roles(g: _Grid, ov: ReadOptions, id_col: int | None) -> tuple[dict[str, int], int | None]:
    """Column per role from the header rows, and the first header row."""
    rows = [ov.header_row] if ov.header_row else g.rows()
    votes: dict[str, Counter] = {}
    first = None
    for r in rows:
        if id_col and ID_RE.match(g.text(r, id_col)):
            continue  # a question row, not a header
        found: dict[str, int] = {}
        for c in g.row_cols(r):
            role = header_role(g.text(r, c))
            if c == id_col and role != "id":
                continue  # the ID column holds section titles ("… Vendor Response"), not labels
            if role and role not in found:
                found[role] = c
        if {"answer", "comment", "question"} & found.keys() and len(found) >= (1 if id_col else 2):
            first = first or r
            for role, c in found.items():
                votes.setdefault(role, Counter())[c] += 1
    return {role: v.most_common(1)[0][0] for role, v in votes.items()}, first


def _question_likeness(text: str) -> int:
    return (len(text.split()) >= 3) + text.rstrip().endswith("?")


def _best_column(g: _Grid, rows: list[int], skip: set[int], score) -> int | None:
    totals: Counter = Counter()
    for r in rows:
        for c in g.row_cols(r):
            if c not in skip:
                totals[c] += score(r, c)
    best = [(n, -c) for c, n in totals.items() if n > 0]
    return -max(best)[1] if best else None


def _is_title(g: _Grid, r: int, qcol: int, acol: int) -> bool:
    """A section title: alone on its row, no dropdown, no "?", at most 8 words, Title Cased
    ("Access Control", "Business Continuity and Disaster Recovery"; not "Describe your …")."""
    text = g.text(r, qcol)
    words = text.split()
    if len(words) > 8 or "?" in text or g.choices_at(r, acol) or any(c != qcol for c in g.row_cols(r)):
        return False
    return all(w[0].isupper() or not w[0].isalpha() for w in words if len(w) > 3)


def _detect(g: _Grid, ov: ReadOptions, lenient: bool) -> SheetLayout | str:
    """The layout of one sheet, or the reason it holds no questions."""
    start = (ov.header_row or 0) + 1
    id_col = _id_column(g, start)
    roles, header_row = _header_roles(g, ov, id_col)
    header_row = ov.header_row or header_row
    id_mode = id_col is not None
    if id_mode:
        rows = [r for r in g.rows(start) if ID_RE.match(g.text(r, id_col)) or _merged_id(g, r, id_col)]
    else:
        id_col = roles.get("id")
        rows = g.rows(max(start, (header_row or 0) + 1))
    skip = {id_col} if id_col else set()
    qcol = ov.column("question_col") or roles.get("question")
    qcol = qcol or _best_column(g, rows, skip, lambda r, c: _question_likeness(g.text(r, c)))
    if qcol is None:
        return "no question column found (pass --question-col)"
    skip.add(qcol)
    acol = ov.column("answer_col") or roles.get("answer")
    acol = acol or _best_column(g, rows, skip, lambda r, c: c > qcol and bool(g.choices_at(r, c)))
    if acol is None and lenient:
        acol = qcol + 1
    if acol is None:
        return "no answer column found (no 'Answer'/'Response' header, no dropdowns; pass --answer-col)"
    ccol = ov.column("comment_col") or roles.get("comment")
    ccol = None if ccol in (acol, qcol) else ccol
    questions, computed, seen = [], 0, _Seen()
    for r in rows:
        q = _question(g, r, id_col, qcol, acol, ccol, id_mode, seen)
        if q == "computed":
            computed += 1
        elif q is not None:
            questions.append(q)
    if computed + seen.copies > len(questions) - seen.copies:  # a copy showing an error is a formula too
        return f"its answer cells ({get_column_letter(acol)}) are formulas: a report or evaluation sheet"
    if not questions:
        uncached = _uncached_questions(g, qcol, id_col, header_row)
        if uncached:
            return (
                f"no question rows in column {get_column_letter(qcol)}: its {len(uncached)} question cells hold "
                f"formulas without a saved value ({_UNCACHED_FIX})"
            )
        return f"no question rows in column {get_column_letter(qcol)}"
    lists = Counter(q.choices for q in questions if q.choices)
    return SheetLayout(
        sheet=g.name,
        header_row=header_row,
        question_col=get_column_letter(qcol),
        id_col=get_column_letter(id_col) if id_col else None,
        answer_col=get_column_letter(acol),
        comment_col=get_column_letter(ccol) if ccol else None,
        choices=lists.most_common(1)[0][0] if lists else (),
        questions=tuple(questions),
        notes=seen.notes(g.name),
    )


def _ref(row: int, col: int) -> str:
    return f"{get_column_letter(col)}{row}"


_UNCACHED_FIX = (
    "the workbook was saved by a program that does not store computed values; open it in Excel "
    "or LibreOffice, save it and read it again"
)


def _uncached_questions(g: _Grid, qcol: int, id_col: int | None, header_row: int | None) -> list[str]:
    """The question cells below the header that hold a formula whose value was never saved:
    their text is unknown (``data_only`` reads None), so they cannot be questions."""
    first = (header_row or 0) + 1
    return [
        _ref(r, c)
        for r, c in sorted(g.formulas)
        if c == qcol and r >= first and not g.text(r, c) and (id_col is None or g.text(r, id_col))
    ]


def _uncached_note(g: _Grid, layout: SheetLayout) -> list[str]:
    """A note naming the question cells left out because their formula has no saved value."""
    id_col = column_index_from_string(layout.id_col) if layout.id_col else None
    refs = _uncached_questions(g, column_index_from_string(layout.question_col), id_col, layout.header_row)
    if not refs:
        return []
    shown = ", ".join(refs[:5]) + (f" and {len(refs) - 5} more" if len(refs) > 5 else "")
    return [
        f"sheet '{g.name}': {len(refs)} question cell{'s' if len(refs) > 1 else ''} ({shown}) "
        f"{'hold formulas' if len(refs) > 1 else 'holds a formula'} without a saved value and "
        f"{'were' if len(refs) > 1 else 'was'} left out; {_UNCACHED_FIX}"
    ]


def _merged_id(g: _Grid, r: int, id_col: int) -> bool:
    """Row r's ID cell lies inside a merged range that starts on an ID above it (A8:A9)."""
    ar, ac = g.anchor(r, id_col)
    return ar < r and ac == id_col and bool(ID_RE.match(g.text(ar, ac)))


def _reads(formula: str, g: _Grid, row: int, col: int) -> str:
    """What a formula in cell (row, col) of ``g`` reads: "cells" when it reads a cell of the
    workbook other than its own (a reference or a range reaching into a sheet's data, another
    sheet's cell, a name): then the workbook fills the cell; "outside" when it reads only cells
    beyond ``g``'s data (``=Z99`` where the sheet ends at E12); "nothing" for ``C27`` in C27,
    ``1/0``, ``TODAY()`` and a formula that cannot be parsed. Unless "cells", such a cell is
    nobody's answer."""
    try:
        tokens = Tokenizer("=" + formula).items
    except Exception:  # noqa: BLE001 - openpyxl's TokenizerError and whatever a broken formula raises
        return "nothing"
    found = "nothing"
    for t in tokens:
        if t.type != "OPERAND" or t.subtype != "RANGE":
            continue
        where, _, ref = t.value.rpartition("!")
        where = where.strip("'").replace("''", "'")
        if where not in ("", g.name):
            return "cells"
        if ref.replace("$", "").upper() == _ref(row, col):
            continue
        try:
            c0, r0, _, _ = range_boundaries(ref.replace("$", "").upper())
        except (ValueError, TypeError):  # a name
            return "cells"
        if (r0 or 1) <= g.extent[0] and (c0 or 1) <= g.extent[1]:
            return "cells"
        found = "outside"
    return found


_SEEN = {  # kind: which rows a note names ({items}) and what was done with them
    "formula": "question rows whose answer cell holds a formula reading no other cell ({items}) are kept as "
    "questions to answer: the formula's value is not an answer, and the export writes the answer over the formula",
    "outside": "question rows whose answer cell holds a formula reading only cells beyond the sheet's data "
    "({items}) are kept as questions to answer: the formula's value is not an answer, and the export writes the "
    "answer over the formula",
    "error": "question rows whose answer cell shows an error value ({items}) are kept as questions to answer: "
    "the error is not an answer, and the export writes the answer over it",
    "merged question": "question rows whose question cell lies inside merged cells ({items}) are read with the "
    "merged text",
    "merged id": "question rows whose ID cell is merged with the ID above ({items}) are read without an ID",
    "across": "question rows whose question cell is merged across the answer column ({items}) are kept, the "
    "answer going to the comment cell when there is one; unmerge those cells to give them an answer cell",
    "no text": "ID rows merged into one cell with their ID ({items}) have no question text and are left out; "
    "unmerge those cells and read the questionnaire again",
    "shared": "question rows sharing one merged answer cell ({items}) show one answer for all; unmerge it to "
    "answer them apart",
}


@dataclass
class _Seen:
    """What detection met on one sheet's question rows that a note names (see ``_SEEN``), and how
    many answer cells were copies (formulas reading other cells) showing an error."""

    rows: dict[str, list[str]] = field(default_factory=dict)
    answer_cells: dict[str, list[str]] = field(default_factory=dict)  # answer cell → the rows writing there
    copies: int = 0

    def add(self, kind: str, item: str) -> None:
        self.rows.setdefault(kind, []).append(item)

    def notes(self, sheet: str) -> tuple[str, ...]:
        for cell, labels in self.answer_cells.items():
            if len(labels) > 1:
                self.add("shared", f"{' and '.join(labels)} in {cell}")
        out = []
        for kind, template in _SEEN.items():
            items = self.rows.get(kind, [])
            if items:
                shown = "; ".join(items[:5]) + (f"; and {len(items) - 5} more" if len(items) > 5 else "")
                out.append(f"sheet '{sheet}': {template.format(items=shown)}")
        return tuple(out)


def _question(g: _Grid, r: int, id_col, qcol: int, acol: int, ccol, id_mode: bool, seen: _Seen):
    """The Question on row r, "computed" when its answer cell is a formula the workbook fills
    (it reads other cells), else None. In ID mode a row is never left out silently: what its
    merged cells, formulas or error values made of it is recorded in ``seen`` for a note."""
    ident = g.text(r, id_col) if id_col else ""
    label = ident or f"row {r}"
    text = g.text(r, qcol)
    if g.anchor(r, qcol) != (r, qcol):  # covered by a merged cell that starts above / to the left
        if not id_mode:
            return None  # one question shown over several rows, or a title
        tr, tc = g.anchor(r, qcol)
        if tc != qcol or not g.text(tr, tc):
            seen.add("no text", f"{label} {g.merged_range(r, qcol)}")
            return None
        text = g.text(tr, tc)
        seen.add("merged question", f"{label} {_ref(r, qcol)} in {g.merged_range(r, qcol)}")
    if not text:
        return None
    if id_mode and not ident:
        seen.add("merged id", f"{label} {_ref(r, id_col)} in {g.merged_range(r, id_col)}")
    ar, ac = g.anchor(r, acol)
    if ac <= qcol:
        if not (id_mode and (ar, ac) != (r, acol)):
            return None  # the question cell spans the answer column: a title or an instruction
        text_cell = _ref(r, ccol) if ccol and g.anchor(r, ccol) == (r, ccol) else None
        seen.add("across", f"{label} {g.merged_range(r, acol)}" + (f" (answer in {text_cell})" if text_cell else ""))
        return Question(ident or None, g.name, r, text, _ref(r, qcol), None, text_cell, (), None, None)
    if not id_mode and (_is_title(g, r, qcol, acol) or header_role(text)):
        return None
    unanswered = False  # the answer cell holds nobody's answer: a formula reading nothing else, an error
    if (ar, ac) in g.formulas:
        formula = g.formula(ar, ac) or ""
        error, reads = (ar, ac) in g.errors, _reads(formula, g, ar, ac)
        if reads == "cells" and not error:
            return "computed"
        shown = f" showing {g.text(ar, ac)}" if error else ""
        kind = "error" if error else "formula" if reads == "nothing" else "outside"
        seen.add(kind, f"{label} {_ref(ar, ac)} ={formula[:60]}{shown}")
        seen.copies += int(reads == "cells")  # a copy whose source is broken: the workbook's, counted as a formula
        unanswered = True
    elif (ar, ac) in g.errors:
        seen.add("error", f"{label} {_ref(ar, ac)} {g.text(ar, ac)}")
        unanswered = True
    seen.answer_cells.setdefault(_ref(ar, ac), []).append(label)
    choices = g.choices_at(ar, ac)
    text_at: tuple[int, int] | None = (ar, ac)
    if choices:
        text_at = None
        if ccol and g.anchor(r, ccol) == (r, ccol) and (r, ccol) not in g.formulas:
            text_at = (r, ccol)
    answer = None if text_at is None or text_at in g.errors or (unanswered and text_at == (ar, ac)) else text_at
    return Question(
        id=ident or None,
        sheet=g.name,
        row=r,
        text=text,
        question_cell=_ref(r, qcol),
        choice_cell=_ref(ar, ac) if choices else None,
        text_cell=_ref(*text_at) if text_at else None,
        choices=choices,
        existing_answer=(g.text(*answer) or None) if answer else None,
        existing_choice=(g.text(ar, ac) or None) if choices and not unanswered else None,
    )

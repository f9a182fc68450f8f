"""The sections a workbook's own formulas switch off: which answer cell each formula reads, the
values it compares that answer with, and what it shows then ("does not apply", "DO NOT complete
the Product and Infrastructure worksheets"), read with openpyxl (``data_only=False``) when the
questionnaire is read, never evaluated by a spreadsheet program.

What is read, as HECVAT 4.1.4 has it:

* **Copies.** Each tab repeats the qualifiers it depends on in its header, as a formula that
  copies the START HERE answer: ``Product!C18 = VLOOKUP($A18,'START HERE'!$A$23:$F$36,3,0)&""``
  (``A18`` holds ``REQU-01``, so the copy is ``'START HERE'!C29``) or ``='START HERE'!$C$29``.
  A reference is followed through such copies (a direct reference, or an exact ``VLOOKUP``) to
  the cell the vendor answers.
* **Gates.** An ``IF`` whose condition compares that answer with values — ``$C$18='Auto
  Responses'!$J$4`` (the cell holding "No"), ``'START HERE'!C25="Yes"``, ``OR(N$24="1",N$24="2")``
  — and whose *then* branch shows a text or number: a text saying the row does not apply, is
  not required, or not to be completed (or ``0``, ``N/A``) makes the compared values switch
  the formula's row off; one saying "DO complete…" or "required" (or ``1``) makes them the
  values that keep it required. Branches that are ordinary guidance (a ``VLOOKUP`` into the
  guidance columns) or nothing (``""``: a hint hidden) say neither and are passed over. The *then* branch is evaluated as far as
  literals, references and exact ``VLOOKUP`` go.
* **Whole sheets.** A branch text that tells the vendor to complete or not complete named
  *worksheets* or a *tab* ("DO NOT complete the Privacy tab"), and no *section*, governs every
  question of the sheets it names.

Only answers that formulas on *another* sheet read are reported (HECVAT 4's REQU questions on
START HERE, read by every tab): a row's own guidance ("If No, no need to answer CONS-07") and
row-level follow-ups on the same sheet (AAAI-01, DCTR-01, AIQU-01) are left to the declared map
and the questionnaire's words (engine/questionnaire/qualifiers.py). Blank comparisons
(``$C$35=""``: "not answered yet") are ignored. A workbook that cannot be read yields nothing:
the declared map then applies. Results are cached per file (path, size, modification time).

Engine-only; the result is typed (:class:`FormulaGate`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from openpyxl.utils import column_index_from_string, get_column_letter

Cell = tuple[str, str]  # (sheet, "C29")

_REF = re.compile(r"(?:(?:'(?P<qs>(?:[^']|'')+)'|(?P<s>[A-Za-z_][\w.]*))!)?\$?(?P<col>[A-Z]{1,3})\$?(?P<row>\d+)")
_RANGE = re.compile(_REF.pattern + r":\$?(?P<col2>[A-Z]{1,3})\$?(?P<row2>\d+)")
_OFF = re.compile(
    r"does not apply|do(?:es)? not need|not required|not applicable|no need to|"
    r"\bdo not (?:complete|answer|fill)|\bdon't (?:complete|answer)|^\s*(?:0|n/?a)\s*$",
    re.I,
)
_ON = re.compile(r"\bdo complete\b|\brequired\b|^\s*(?:1|yes)\s*$", re.I)
_SHEETS = re.compile(
    r"\b(?:do not|don't|do|no need to)\s+(?:complete|answer|fill(?: in)?)\b.*\b(?:worksheets?|tabs?)\b", re.I | re.S
)
_WHAT = re.compile(
    r"\b(?:do not|don't|no need to)\s+(?:complete|answer|fill(?: in)?)\s+(?:the\s+)?(?P<what>.+?)"
    r"(?:\s+in the\s+.+)?\W*$",
    re.I | re.S,
)


@dataclass(frozen=True)
class FormulaGate:
    """What the workbook's formulas say about one answer cell (the qualifier's): ``off_values``
    switch the ``rows`` and ``sheets`` off, ``on_values`` keep them required (either may be
    empty); ``section`` is the workbook's own words for what it switches off, when it has them
    ("Consulting section", "Product and Infrastructure worksheets"), else None."""

    cell: Cell
    off_values: tuple[str, ...]
    on_values: tuple[str, ...]
    rows: tuple[tuple[str, int], ...]  # (sheet, row) of the rows whose formulas read it
    sheets: tuple[str, ...]  # whole sheets its texts name
    section: str | None = None


@dataclass
class _Acc:
    off: list[str] = field(default_factory=list)
    on: list[str] = field(default_factory=list)
    rows: list[tuple[str, int]] = field(default_factory=list)
    sheets: list[str] = field(default_factory=list)
    section: str | None = None
    other_sheet: bool = False


class _Book:
    """The cells of a workbook (formulas as written), and the little evaluation gates need."""

    def __init__(self, cells: dict[str, dict[tuple[int, int], object]]) -> None:
        self.cells = cells
        self._lower = {s.lower(): s for s in cells}

    def sheet(self, name: str | None, default: str) -> str | None:
        if name is None:
            return default
        return self._lower.get(name.replace("''", "'").lower())

    def get(self, sheet: str, col: int, row: int) -> object:
        return self.cells.get(sheet, {}).get((row, col))

    def ref(self, m: re.Match, sheet: str) -> tuple[str, int, int] | None:
        s = self.sheet(m["qs"] or m["s"], sheet)
        return None if s is None else (s, column_index_from_string(m["col"]), int(m["row"]))

    def locate(self, expr: str, sheet: str, depth: int = 0) -> tuple[str, int, int] | None:
        """The cell an expression copies (a reference, or an exact VLOOKUP's result), followed
        through cells that are themselves copies."""
        expr = _bare(expr)
        m = _REF.fullmatch(expr)
        if m:
            found = self.ref(m, sheet)
        else:
            found = self._vlookup_cell(expr, sheet, depth)
        if found is None or depth > 5:
            return found
        inner = self.get(*found)
        if isinstance(inner, str) and inner.startswith("="):
            further = self.locate(inner[1:], found[0], depth + 1)
            return further or found
        return found

    def value(self, expr: str, sheet: str, depth: int = 0) -> str | None:
        """The text an expression shows, as far as literals, references and exact VLOOKUPs go."""
        expr = _bare(expr)
        if depth > 5:
            return None
        if expr.startswith('"') and expr.endswith('"') and len(expr) >= 2 and '"' not in expr[1:-1].replace('""', ""):
            return expr[1:-1].replace('""', '"')
        if re.fullmatch(r"-?\d+(?:\.\d+)?", expr):
            return expr
        m = _REF.fullmatch(expr)
        found = self.ref(m, sheet) if m else self._vlookup_cell(expr, sheet, depth)
        if found is None:
            return None
        v = self.get(*found)
        if isinstance(v, str) and v.startswith("="):
            return self.value(v[1:], found[0], depth + 1)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        return "" if v is None else str(v)

    def _vlookup_cell(self, expr: str, sheet: str, depth: int) -> tuple[str, int, int] | None:
        if not expr.upper().startswith("VLOOKUP("):
            return None
        args = _args(expr, len("VLOOKUP"))
        if args is None or len(args) < 3 or (len(args) == 4 and args[3].strip().upper() not in ("0", "FALSE")):
            return None
        key = self.value(args[0], sheet, depth + 1)
        r = _RANGE.fullmatch(args[1].strip())
        if key is None or r is None or not args[2].strip().isdigit():
            return None
        s = self.sheet(r["qs"] or r["s"], sheet)
        if s is None:
            return None
        c1, c2 = column_index_from_string(r["col"]), column_index_from_string(r["col2"])
        n = int(args[2])
        if not 1 <= n <= c2 - c1 + 1:
            return None
        for row in range(int(r["row"]), int(r["row2"]) + 1):
            v = self.get(s, c1, row)
            if v is not None and str(v).strip().lower() == key.strip().lower():
                return (s, c1 + n - 1, row)
        return None


def _bare(expr: str) -> str:
    """An expression without its leading ``=``, outer spaces and a trailing ``&""``."""
    expr = expr.strip().lstrip("=").strip()
    while expr.endswith('&""'):
        expr = expr[:-3].rstrip()
    return expr


def _args(text: str, open_at: int) -> list[str] | None:
    """The top-level arguments of the call whose ``(`` is at ``open_at``; None when unbalanced."""
    if open_at >= len(text) or text[open_at] != "(":
        return None
    depth, start, out, i = 0, open_at + 1, [], open_at
    while i < len(text):
        ch = text[i]
        if ch in "\"'":  # a string literal or a quoted sheet name: skip to its end ("" and '' escape)
            j = i + 1
            while j < len(text) and (text[j] != ch or text[j + 1 : j + 2] == ch):
                j += 2 if text[j] == ch else 1
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
                return out
        elif ch == "," and depth == 1:
            out.append(text[start:i])
            start = i + 1
        i += 1
    return None


def _comparisons(cond: str) -> list[tuple[str, str]] | None:
    """``REF=OPERAND`` pairs of a condition (one comparison, or an OR of comparisons)."""
    cond = cond.strip()
    parts = _args(cond, 2) if cond.upper().startswith("OR(") else [cond]
    if parts is None:
        return None
    out = []
    for p in parts:
        left, eq, right = p.partition("=")
        if (
            not eq
            or not _REF.fullmatch(left.strip())
            or right.startswith((">", "<"))
            or left.rstrip().endswith(("<", ">"))
        ):
            return None
        out.append((left.strip(), right.strip()))
    return out


def _read_cells(path: Path) -> dict[str, dict[tuple[int, int], object]]:
    import warnings

    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Data Validation extension is not supported…", while the rows are read
        return _cells_of(openpyxl.load_workbook(path, read_only=True, data_only=False))


def _cells_of(wb) -> dict[str, dict[tuple[int, int], object]]:
    try:
        cells: dict[str, dict[tuple[int, int], object]] = {}
        for ws in wb.worksheets:
            grid = cells.setdefault(ws.title, {})
            for r, row in enumerate(ws.iter_rows(min_row=1, min_col=1, values_only=True), start=1):
                for c, v in enumerate(row, start=1):
                    if v is not None and v != "":
                        grid[(r, c)] = v
        return cells
    finally:
        wb.close()


def formula_gates(path: Path) -> tuple[FormulaGate, ...]:
    """The gates of an .xlsx/.xlsm questionnaire's formulas (see the module docstring), keyed
    by the answer cell they read; empty for any other file or one that cannot be read."""
    path = Path(path)
    if path.suffix.lower() not in (".xlsx", ".xlsm") or not path.is_file():
        return ()
    st = path.stat()
    return _cached(str(path), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=16)
def _cached(path: str, size: int, mtime: int) -> tuple[FormulaGate, ...]:
    try:
        book = _Book(_read_cells(Path(path)))
    except Exception:  # unreadable here: the reader has already said what is wrong with it
        return ()
    acc: dict[Cell, _Acc] = {}
    for sheet, grid in book.cells.items():
        for (row, col), v in grid.items():
            if not isinstance(v, str) or not v.startswith("=") or "IF(" not in v.upper():
                continue
            for m in re.finditer(r"(?<![A-Z.])IF\(", v, re.I):
                args = _args(v, m.end() - 1)
                if not args or len(args) < 2:
                    continue
                pairs = _comparisons(args[0])
                if not pairs:
                    continue
                targets = {book.locate(left, sheet) for left, _ in pairs}
                if len(targets) != 1 or None in targets:
                    continue
                target = targets.pop()
                values = [book.value(right, sheet) for _, right in pairs]
                if any(x is None or not x.strip() for x in values):
                    continue  # "not answered yet", or a value we cannot read
                then = book.value(args[1], sheet)
                if then is None:
                    continue
                off = bool(_OFF.search(then))
                if not off and not _ON.search(then):
                    continue
                key = (target[0], f"{get_column_letter(target[1])}{target[2]}")
                a = acc.setdefault(key, _Acc())
                (a.off if off else a.on).extend(x.strip() for x in values)
                a.other_sheet |= sheet != target[0]
                if _SHEETS.search(then) and not re.search(r"\bsection\b", then, re.I):
                    a.sheets += [s for s in book.cells if s != target[0] and _names_sheet(then, s)]
                w = _WHAT.search(then) if off else None
                if w and a.section is None:
                    a.section = w["what"].strip()
                if (sheet, row) != (target[0], target[2]):
                    a.rows.append((sheet, row))
    return tuple(
        FormulaGate(
            cell,
            tuple(dict.fromkeys(a.off)),
            tuple(dict.fromkeys(a.on)),
            tuple(dict.fromkeys(a.rows)),
            tuple(dict.fromkeys(a.sheets)),
            a.section,
        )
        for cell, a in acc.items()
        if a.other_sheet and (a.rows or a.sheets)
    )


def _names_sheet(text: str, sheet: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(sheet) + r"(?![\w-])", text, re.I) is not None


__all__ = ["FormulaGate", "formula_gates"]

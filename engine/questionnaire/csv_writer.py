"""Every CSV the product writes goes through here: the answers and citations downloads, and the
answer cells written into a CSV questionnaire.

Formula injection (OWASP "CSV injection"): a spreadsheet opening a CSV runs a cell that starts
with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which some spreadsheets skip
before looking) as a formula: ``=HYPERLINK(…)``, ``=1+2+cmd|' /C calc'!A0``. Text that reaches
a CSV comes from documents, questionnaires and models nobody vetted — a question, a sheet
name, a document name, a dropdown choice, a quote — so *every* cell of every column is
neutralised the same way: a leading single quote (``'=SUM(A1)``), which spreadsheets show as
text. The quote is visible in a text editor; it is the price of never running a cell.

Control characters other than a tab and line breaks (NUL, escape…) are dropped from every cell:
they mean nothing in an answer, and a CSV holding a NUL is refused as binary by the readers that
open it, this product's own included (engine/core/decoding.py).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # C0 controls but tab, line feed, carriage return


def safe_cell(value: object) -> str:
    """A cell's text that a spreadsheet never runs as a formula (None is empty), without control
    characters other than a tab and line breaks."""
    text = _CONTROL.sub("", "" if value is None else str(value))
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def csv_field(value: object, delimiter: str = ",") -> str:
    """One neutralised field as it is written between delimiters, quoted when it holds the
    delimiter, a quote or a line break (for splicing into an existing CSV file)."""
    text = safe_cell(value)
    if any(ch in text for ch in (delimiter, '"', "\r", "\n")):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """A whole CSV document (``\\r\\n`` line endings), every cell neutralised."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow([safe_cell(v) for v in header])
    writer.writerows([safe_cell(v) for v in row] for row in rows)
    return buf.getvalue()


__all__ = ["FORMULA_TRIGGERS", "csv_field", "csv_text", "safe_cell"]

"""The one shape every report takes on its way out (#51): :class:`Table` s of cells, where a count
is a :class:`Figure` that carries the rows it counts (:class:`Ref`: a questionnaire's row or a
library entry). The app draws the tables and opens a figure's rows in Review; the XLSX and HTML
writers (xlsx.py, html.py) write the same tables, each figure linked to the list of its rows. So a
figure is computed once, in the report, and every form shows the same number with the same rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Ref:
    """One thing a figure counts: a questionnaire's row (``project_id`` and ``key``) or an answer
    library entry (``entry_id``), with what a reader recognises it by: its ``label`` (the
    question ID, ``Sheet row N`` or ``#id``), its question and where it is (the questionnaire's
    name, or the entry's file)."""

    label: str
    question: str
    where: str
    project_id: int | None = None
    key: str | None = None
    entry_id: int | None = None

    @property
    def is_row(self) -> bool:
        return self.project_id is not None and self.key is not None


@dataclass(frozen=True)
class Figure:
    """A count and the rows it counts; ``name`` says what they are ("Canvas HECVAT: no source")."""

    name: str
    refs: tuple[Ref, ...]

    @property
    def value(self) -> int:
        return len(self.refs)

    def rows_of(self, project_id: int) -> list[str]:
        """The keys of the counted rows of one questionnaire, in the figure's order."""
        return [r.key for r in self.refs if r.project_id == project_id and r.key is not None]

    def projects(self) -> list[int]:
        """The questionnaires the counted rows are in, in the figure's order."""
        return list(dict.fromkeys(r.project_id for r in self.refs if r.project_id is not None))


Cell = Union[str, int, float, None, Figure]


@dataclass(frozen=True)
class Table:
    """One table of a report: a sheet of the XLSX, a section of the HTML, a table in the app.
    ``about`` says in a sentence how its figures are computed (docs/reports.md in full)."""

    name: str
    about: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def figures(self) -> list[Figure]:
        """Every figure of the table, row by row."""
        return [c for row in self.rows for c in row if isinstance(c, Figure)]

    def to_json(self) -> dict:
        """The table as JSON: a figure as its count and its rows (label, questionnaire or file, ids)."""
        return {
            "name": self.name,
            "about": self.about,
            "columns": list(self.columns),
            "rows": [[_json(c) for c in row] for row in self.rows],
        }

    def column(self, name: str) -> list[Cell]:
        i = self.columns.index(name)
        return [row[i] for row in self.rows]


def plain(cell: Cell) -> str | int | float | None:
    """A cell as a value: a figure's count, anything else as it is."""
    return cell.value if isinstance(cell, Figure) else cell


def _json(cell: Cell):
    if not isinstance(cell, Figure):
        return cell
    refs = [
        {
            k: v
            for k, v in (
                ("label", r.label),
                ("where", r.where),
                ("project", r.project_id),
                ("key", r.key),
                ("entry", r.entry_id),
            )
            if v is not None
        }
        for r in cell.refs
    ]
    return {"value": cell.value, "rows": refs}

"""The table model's column roles as the responder's corrections name them, for every format's
table reader (Word: word/tables.py, flat PDF: pdf/flat/): the model's inferred roles with the
responder's :class:`~engine.questionnaire.corrections.TableCorrection` applied through
:func:`~engine.questionnaire.corrections.column_roles` (the one apply step), and the table's
columns and roles as the mapping shows them (:class:`~engine.questionnaire.corrections.TableMap`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.questionnaire.corrections import ColumnRole, TableColumn, TableCorrection, TableMap, column_roles
from engine.questionnaire.table_model import Role, TableModel

# the table model's roles as the responder's corrections name them (owner or date is "other" there)
COLUMN_ROLE = {
    Role.ID: ColumnRole.ID,
    Role.QUESTION: ColumnRole.QUESTION,
    Role.GUIDANCE: ColumnRole.GUIDANCE,
    Role.OPTION: ColumnRole.OPTIONS,
    Role.ANSWER: ColumnRole.ANSWER,
    Role.NOTES: ColumnRole.NOTES,
    Role.OWNER_DATE: ColumnRole.OTHER,
    Role.OTHER: ColumnRole.OTHER,
}
_MODEL_ROLE = {
    ColumnRole.ID: Role.ID,
    ColumnRole.QUESTION: Role.QUESTION,
    ColumnRole.GUIDANCE: Role.GUIDANCE,
    ColumnRole.OPTIONS: Role.OPTION,
    ColumnRole.ANSWER: Role.ANSWER,
    ColumnRole.NOTES: Role.NOTES,
    ColumnRole.OTHER: Role.OTHER,
}


def detected_roles(model: TableModel) -> dict[int, ColumnRole]:
    """The roles the model inferred, by grid column, as the corrections name them."""
    return {c: COLUMN_ROLE[r] for c, r in model.roles.items()}


def corrected_model(model: TableModel, table: int, corrections: Iterable[TableCorrection]) -> TableModel:
    """The model with the responder's corrections of table ``table`` applied over the roles it
    inferred (:func:`column_roles`, the one step every table reader takes); a role the responder
    left as inferred keeps the model's own name for it (owner or date)."""
    detected = detected_roles(model)
    roles = dict(model.roles)
    for c, role in column_roles(detected, table, tuple(corrections)).items():
        if detected.get(c) is not role:
            roles[c] = _MODEL_ROLE[role]
    return replace(model, roles=roles) if roles != model.roles else model


def model_header(model: TableModel, col: int) -> str:
    """A column's header as the mapping shows it ("Response: In Place": a group over its label)."""
    return ": ".join(p.strip() for p in model.labels.get(col, "").split(" / ") if p.strip())


def model_table_map(model: TableModel, table: int, title: str, keys: tuple[str, ...] = ()) -> TableMap:
    """The table's columns, each with its header and role, as the mapping shows them."""
    cols = sorted(set(model.roles) | set(model.labels))
    columns = tuple(
        TableColumn(c, model_header(model, c), COLUMN_ROLE[model.roles[c]] if c in model.roles else None) for c in cols
    )
    return TableMap(table, title, columns, keys)


def options_column(headers: list[str]) -> str:
    """The name of one choice's place over option columns: their group ("Response", over "Response:
    In Place" and "Response: Not in Place"), else "one of the columns" (its options follow); one
    column of ticks: its header."""
    if len(headers) == 1:
        return headers[0] or "one of the columns"
    groups = {h.split(": ")[0] for h in headers if ": " in h}
    return groups.pop() if len(groups) == 1 and all(": " in h for h in headers) else "one of the columns"


__all__ = [
    "COLUMN_ROLE",
    "corrected_model",
    "detected_roles",
    "model_header",
    "model_table_map",
    "options_column",
]

"""A report's table in the app (#51): the same :class:`~engine.review.reports.Table` the XLSX and
HTML reports write, each figure shown as its count. Selecting a figure's cell shows what it counts
with *Open in Review* (its questionnaire rows, ui/components/review_focus.py), or, for a figure of
library entries, their list; and the report's two downloads."""

from __future__ import annotations

from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from engine.review.reports import Figure, Table, html_text, xlsx_bytes
from engine.review.reports.tables import plain
from ui.components.messages import count, escape_md
from ui.components.review_focus import open_buttons

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def frame(table: Table) -> pd.DataFrame:
    """The table's cells as values (a figure as its count), its columns named as in the XLSX."""
    return pd.DataFrame([[plain(c) for c in row] for row in table.rows], columns=list(table.columns))


def figure_table(table: Table, key: str, height: int | str = "auto") -> Figure | None:
    """Draw ``table``; the figure whose cell is selected (None: none, or not a figure)."""
    st.caption(escape_md(table.about))
    if not table.rows:
        st.caption("None.")
        return None
    event = st.dataframe(
        frame(table), key=key, on_select="rerun", selection_mode="single-cell", hide_index=True, height=height
    )
    for row, column in event.selection.get("cells", ()):
        cell = table.rows[row][table.columns.index(column)]
        if isinstance(cell, Figure):
            return cell
    return None


def figure_rows(figure: Figure, key: str, names: dict[int, str], first: int | None = None) -> None:
    """What a selected figure counts: its rows with *Open in Review*, or the entries it lists."""
    what = count(figure.value, "row") if figure.projects() else count(figure.value, "entry", "entries")
    st.markdown(f"**{escape_md(figure.name)}**: {what}")
    if figure.projects():
        open_buttons(figure, key, names, first)
    if figure.refs:
        shown = [{"Row": r.label, "Question": r.question, "Where": r.where} for r in figure.refs]
        st.dataframe(pd.DataFrame(shown), hide_index=True, height=min(38 + 35 * len(shown), 300))


def downloads(title: str, tables: list[Table], stem: str, key: str) -> None:
    """The report as XLSX (a sheet per table) and as one HTML page, each made when pressed."""
    made = datetime.now(timezone.utc).isoformat(timespec="seconds")
    left, right = st.columns(2)
    left.download_button(
        "Download report (XLSX)",
        lambda: xlsx_bytes(title, made, tables),
        file_name=f"{stem}.xlsx",
        mime=XLSX,
        icon=":material/table_view:",
        on_click="ignore",
        key=f"{key}_xlsx",
        width="stretch",
    )
    right.download_button(
        "Download report (HTML)",
        lambda: html_text(title, made, tables),
        file_name=f"{stem}.html",
        mime="text/html",
        icon=":material/html:",
        on_click="ignore",
        key=f"{key}_html",
        width="stretch",
    )

"""A report's figure opened in Review (#51): the rows a figure counts (``Figure.rows_of``) become
the Review screen's list, under a line naming the figure with *Show all questions* beside it.
The reports (ui/components/coverage_pane.py, library_pane.py) call :func:`open_rows` and switch
to Review; the Review screen's sidebar calls :func:`focus_bar` and lists only :func:`rows`."""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from engine.review.reports import Figure
from ui.components.messages import count, escape_md
from ui.resources import PROJECT, QUESTION

FOCUS = "review_focus"  # {"project": id, "keys": [...], "what": the figure's name}


def open_rows(project_id: int, keys: Sequence[str], what: str) -> None:
    """Make ``keys`` of questionnaire ``project_id`` the Review list, the first one open (a
    button's callback: the caller then switches to the Review screen)."""
    st.session_state[FOCUS] = {"project": project_id, "keys": list(keys), "what": what}
    st.session_state[PROJECT] = project_id
    if keys:
        st.session_state[QUESTION] = keys[0]


def open_buttons(figure: Figure, key: str, names: dict[int, str], first: int | None = None) -> None:
    """One *Open in Review* button per questionnaire of ``figure``'s rows (``first``'s first),
    each switching to Review with that questionnaire's rows listed."""
    projects = figure.projects()
    if first in projects:
        projects = [first] + [p for p in projects if p != first]
    for pid in projects:
        keys = figure.rows_of(pid)
        label = f"Open {count(len(keys), 'row')} in Review" + ("" if pid == first else f" ({names.get(pid, pid)})")
        if st.button(label, key=f"{key}:{pid}", icon=":material/open_in_new:", on_click=open_rows,
                     args=(pid, keys, figure.name)):  # fmt: skip
            st.switch_page("screens/review.py")


def _clear() -> None:
    st.session_state.pop(FOCUS, None)


def focus_bar(project_id: int) -> set[str] | None:
    """The rows a report opened in this questionnaire (None: no figure is open here), with a line
    naming the figure and *Show all questions*."""
    focus = st.session_state.get(FOCUS)
    if not focus or focus.get("project") != project_id:
        return None
    keys = set(focus.get("keys") or ())
    st.caption(f":material/filter_alt: {count(len(keys), 'row')} of the report's figure **{escape_md(focus['what'])}**")
    st.button("Show all questions", key="review_focus_clear", on_click=_clear, type="tertiary", icon=":material/close:")
    return keys

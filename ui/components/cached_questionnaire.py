"""A project's questionnaire read once per file and overrides, not on every rerun: reading a
HECVAT Full workbook takes seconds (openpyxl plus the data-validation scan), and a screen reruns
on every click. The parsed :class:`Questionnaire` is immutable (frozen dataclasses and tuples),
so one copy is shared; a changed file or other overrides make a new cache key."""

from __future__ import annotations

import streamlit as st

from engine.app.workspace import Workspace
from engine.questionnaire import Questionnaire, read_questionnaire
from engine.review.review import Review


@st.cache_resource(max_entries=16, show_spinner="Reading the questionnaire…")
def _read(path: str, mtime_ns: int, size: int, options: tuple[tuple[str, object], ...]) -> Questionnaire:
    return read_questionnaire(path, **dict(options))


def questionnaire(ws: Workspace, project_id: int) -> Questionnaire:
    """``ws.questionnaire(project_id)``, cached by the file's identity and the read options."""
    path = ws.questionnaire_path(ws.project(project_id))
    stat = path.stat()
    frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in ws.read_options(project_id).to_json().items()}
    options = tuple(sorted(frozen.items()))  # hashable: the corrections' lists as tuples
    return _read(str(path), stat.st_mtime_ns, stat.st_size, options)


def review(ws: Workspace, project_id: int) -> Review:
    """``ws.review(project_id)`` with the cached questionnaire (drafts and decisions are read
    from the review store each time)."""
    return ws.review(project_id, questionnaire(ws, project_id))

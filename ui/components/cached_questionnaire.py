"""A project's questionnaire as the screens read it: from the workspace, which reads each file
once per file and read options (engine/app/read_once.py; a HECVAT Full takes seconds, and a
screen reruns on every click), with a spinner while the file is read."""

from __future__ import annotations

import streamlit as st

from engine.app.workspace import Workspace
from engine.questionnaire import Questionnaire
from engine.review.review import Review


def questionnaire(ws: Workspace, project_id: int) -> Questionnaire:
    """``ws.questionnaire(project_id)``, saying so while the file is read."""
    if ws.questionnaire_read(project_id):
        return ws.questionnaire(project_id)
    with st.spinner("Reading the questionnaire…"):
        return ws.questionnaire(project_id)


def review(ws: Workspace, project_id: int) -> Review:
    """``ws.review(project_id)`` with the questionnaire read once (drafts and decisions are read
    from the review store each time)."""
    return ws.review(project_id, questionnaire(ws, project_id))

"""Shared engine objects, created once per app process (``st.cache_resource``), and the few
session-state keys the screens share. The workspace folder comes from ``RFP_WORKSPACE``
(default ``./workspace``); ``make run`` points it at the bundled sample's store."""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from engine.app.workspace import Workspace

DEFAULT_WORKSPACE = "workspace"

# session_state keys: only what is on screen
PROJECT = "project_id"  # the questionnaire being worked on
QUESTION = "question_key"  # the question open on the Review screen


def workspace_folder() -> Path:
    return Path(os.environ.get("RFP_WORKSPACE") or DEFAULT_WORKSPACE).resolve()


@st.cache_resource(show_spinner=False)
def workspace(folder: str | None = None) -> Workspace:
    """The process's workspace, snapshotted (``backups/``); unfinished drafting runs resume in
    the background. A damaged review store raises ``ReviewStoreDamaged``, a folder another process
    writes to ``FolderBusy`` (nothing cached)."""
    ws = Workspace(Path(folder) if folder else workspace_folder(), uploads_apart=True)  # uploads read apart (#56)
    ws.hold("the app")  # one writer per folder: `restore`, `draft`… refuse while the app is open
    ws.back_up()
    ws.jobs.resume()
    return ws


def current_project(ws: Workspace) -> int | None:
    """The project on screen: the one chosen in this session, else the newest."""
    projects = ws.projects()
    ids = {p.id for p in projects}
    chosen = st.session_state.get(PROJECT)
    if chosen in ids:
        return chosen
    if projects:
        st.session_state[PROJECT] = projects[-1].id
        return projects[-1].id
    return None

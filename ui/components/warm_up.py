"""How the models loading in the background (``Workspace.warm_up``, started by ui/app.py) look
on a screen: a caption while one loads, its one-line error when it failed (a missing or damaged
model file: the file, the problem and the fix), and how long it took once loaded. The status
redraws itself every second while something is loading, then the screen once."""

from __future__ import annotations

import streamlit as st

from engine.app.workspace import WarmState, Workspace
from ui.components.messages import escape_md

NOUNS = {"embedder": "embedder", "model": "language model"}
REFRESH_S = 1.0


def warm_up_status(ws: Workspace, names: tuple[str, ...] = ("embedder", "model"), *, show_ready: bool = True) -> None:
    """The state of the named warm-up steps (``show_ready``: a caption for loaded ones too)."""
    warm = ws.warming
    if warm is None or not any(name in warm.steps for name in names):
        return
    running = warm.running
    st.fragment(_status, run_every=REFRESH_S if running else None)(ws, names, show_ready, running)


def _status(ws: Workspace, names: tuple[str, ...], show_ready: bool, was_running: bool) -> None:
    warm = ws.warming
    if warm is None:
        return
    if was_running and not warm.running:
        st.rerun()  # loaded (or failed): redraw the screen once, without refreshing any more
    for name in names:
        step = warm.steps.get(name)
        if step is None:
            continue
        noun, what = NOUNS[name], escape_md(step.what)
        if step.state is WarmState.FAILED:
            st.error(f"The {noun} could not be loaded: {escape_md(step.error)}", icon=":material/error:")
        elif step.state is WarmState.LOADING:
            st.caption(f":material/hourglass_top: Loading the {noun} {what} in the background…")
        elif show_ready:
            st.caption(f":material/check_circle: The {noun} {what} is loaded ({step.seconds:.1f} s).")

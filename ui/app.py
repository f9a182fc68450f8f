"""Entry point: ``streamlit run ui/app.py`` (``make run`` does it on the bundled sample).
One navigation map; each screen is a module under ``ui/screens``. A damaged store (the review
database, the knowledge base's manifest or index: ``engine.core.types.StoreDamaged``) is shown on
every screen as its one line (file, problem, how to restore or rebuild it), never a traceback:
the review store's in place of every screen (so is a folder another process writes to, and a
store replaced on disk under the app), the knowledge base's above the Export screen and in
place of the others (each reads the knowledge base), a later one where the screen stopped. A
snapshot that could not be written in ``backups/`` is one warning line above every screen, which
works on."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # streamlit puts ui/ on the path, the engine lives beside it
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from engine.core.types import FolderBusy, StoreDamaged, StoreReplaced  # noqa: E402
from ui.components.messages import problem_text  # noqa: E402
from ui.components.uploads import guard_uploads  # noqa: E402
from ui.resources import workspace  # noqa: E402

st.set_page_config(
    page_title="RFP Review Assistant",
    page_icon=str(ROOT / "assets" / "logo.png"),
    layout="wide",
    initial_sidebar_state="expanded",
)
st.logo(str(ROOT / "assets" / "logo.png"), size="large")

pages = [
    st.Page("screens/knowledge_base.py", title="Knowledge base", icon=":material/library_books:"),
    st.Page("screens/questionnaire.py", title="Questionnaire", icon=":material/upload_file:"),
    st.Page("screens/review.py", title="Review", icon=":material/fact_check:", default=True),
    st.Page("screens/export.py", title="Export", icon=":material/download:"),
    st.Page("screens/settings.py", title="Settings", icon=":material/settings:"),
]
guard_uploads()  # a name Streamlit's uploader refuses (a NUL) becomes a message, not a traceback
try:
    ws = workspace()
except (StoreDamaged, FolderBusy) as exc:
    st.error(problem_text(exc), icon=":material/error:")
    st.stop()
try:
    # opened here (not first inside a screen's fragment), so a damaged one is said once, on top (a call:
    # Streamlit's "magic" writes a bare attribute of the main script onto the page, st.help, not a call)
    ws.open_knowledge_base()
    kb_damaged = None
except StoreDamaged as exc:
    kb_damaged = exc
ws.warm_up()  # the embedder and the LLM load in background threads; no page waits for them
page = st.navigation(pages)
if ws.backup_problem is not None:  # backups never block (storage/snapshots.py): one warning line, the app works on
    st.warning(problem_text(ws.backup_problem), icon=":material/warning:")
if kb_damaged is not None:
    st.error(problem_text(kb_damaged), icon=":material/error:")
    if page.title != "Export":  # the reviewed answers can still be exported; every other screen reads the KB
        st.stop()
try:
    page.run()
except (StoreDamaged, StoreReplaced) as exc:  # damaged, or replaced on disk (storage/sqlite.py), while the app runs
    st.error(problem_text(exc), icon=":material/error:")

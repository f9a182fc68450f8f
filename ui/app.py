"""Entry point: ``streamlit run ui/app.py`` (``make run`` does it on the bundled sample).
One navigation map; each screen is a module under ``ui/screens``. A damaged store (the review
database, the knowledge base's manifest or index: ``engine.core.types.StoreDamaged``) is shown on
every screen as its one line (file, problem, how to restore or rebuild it), never a traceback:
the review store's in place of every screen (so is a folder another process writes to, and a
store replaced on disk under the app), the knowledge base's above the Export screen and in
place of the others (each reads the knowledge base), a later one where the screen stopped. A
snapshot that could not be written in ``backups/`` is one warning line above every screen, which
works on.

Served to a team (``python -m engine serve --address …``, SECURITY.md): when the workspace has
accounts, the sign-in form (ui/components/sign_in.py) comes before anything else, and the
navigation holds only the screens the account's role may open (``SCREENS``: a screen left out
cannot be reached by its URL either); the engine's write entries check the role again."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # streamlit puts ui/ on the path, the engine lives beside it
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from engine.core.files import NotRegularFile  # noqa: E402
from engine.core.types import FolderBusy, StoreDamaged, StoreReplaced  # noqa: E402
from ui.components.messages import problem_text  # noqa: E402
from ui.components.sign_in import SCREEN_NEEDS, role_note, signed_in  # noqa: E402
from ui.components.uploads import guard_uploads  # noqa: E402
from ui.resources import workspace  # noqa: E402

st.set_page_config(
    page_title="RFP Review Assistant",
    page_icon=str(ROOT / "assets" / "logo.png"),
    layout="wide",
    initial_sidebar_state="expanded",
)
st.logo(str(ROOT / "assets" / "logo.png"), size="large")

SCREENS = (  # (file, title, icon) in the navigation's order; what a role needs to open each: SCREEN_NEEDS
    ("screens/knowledge_base.py", "Knowledge base", ":material/library_books:"),
    ("screens/questionnaire.py", "Questionnaire", ":material/upload_file:"),
    ("screens/review.py", "Review", ":material/fact_check:"),  # "/" opens it (``start``): every role may
    ("screens/my_questions.py", "My questions", ":material/assignment_ind:"),  # what waits for me (#39)
    ("screens/export.py", "Export", ":material/download:"),
    ("screens/settings.py", "Settings", ":material/settings:"),
)
guard_uploads()  # a name Streamlit's uploader refuses (a NUL) becomes a message, not a traceback
every = {path: st.Page(path, title=title, icon=icon) for path, title, icon in SCREENS}


def _open_review() -> None:
    """The app's own address ("/") opens the Review screen at its address ("/review"), so that
    address, typed or bookmarked, opens the same screen (a default page is served at "/" only:
    its name alone was "page not found", a box that left the screen under it inert)."""
    st.switch_page(every["screens/review.py"])


start = st.Page(_open_review, title="Review", url_path="start", default=True, visibility="hidden")
try:
    account = signed_in(
        [start, *every.values()]
    )  # None: no accounts, one person on this machine; else the form until signed in
except StoreDamaged as exc:  # the accounts file: the app serves no one until it reads
    st.error(problem_text(exc), icon=":material/error:")
    st.stop()
pages = [start] + [  # a page left out cannot be reached by its address either
    page for path, page in every.items() if account is None or account.may(SCREEN_NEEDS[path])
]
try:
    ws = workspace()
except (StoreDamaged, FolderBusy, NotRegularFile) as exc:  # NotRegularFile: its lock file is a link, a folder…
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
if role_note(account):
    st.caption(role_note(account))
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

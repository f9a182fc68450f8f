"""My questions: the rows waiting for the reviewer (the Settings screen's name, else the login
name) across every questionnaire — assigned to them and not settled since, or mentioned in a
comment (``@name``) and not answered since (engine/review/queue.py) — with the overdue count.
*Open* takes a row to the Review screen. Another name (a group's, a colleague's) can be looked at.
Below, a filled expert packet made for the signed-in person is imported as their decisions
(ui/components/packets.py): an expert, who cannot open the Export screen, brings theirs back here."""

from __future__ import annotations

import streamlit as st

from engine.review.queue import my_questions
from ui.components.messages import escape_md, problem_text
from ui.components.packets import packet_import
from ui.components.sign_in import is_expert
from ui.resources import PROJECT, QUESTION, workspace
from ui.review.team import when

NAME = "my_questions_name"
GROUPS = "my_questions_groups"


def _open(project_id: int, key: str) -> None:
    st.session_state[PROJECT], st.session_state[QUESTION] = project_id, key


ws = workspace()
st.title("My questions")
if NAME not in st.session_state or is_expert():  # an expert sees only their own (ui/components/sign_in.py)
    st.session_state[NAME] = ws.reviewer
name = st.text_input(
    "Whose questions", key=NAME, help="Your name (Settings), a group's, or a colleague's", disabled=is_expert()
)
groups = st.text_input(
    "And the groups",
    key=GROUPS,
    placeholder="e.g. infra, legal",
    help="Rows given to these groups, and comments mentioning them, are listed too",
    disabled=is_expert(),
)
also = [g.strip() for g in (groups or "").split(",") if g.strip()] if not is_expert() else []
try:
    queue = my_questions(ws.review_store, (name or "").strip() or ws.reviewer, groups=also)
except Exception as exc:  # ReviewStoreError: plain words from the engine
    st.error(problem_text(exc), icon=":material/error:")
    st.stop()

count = len(queue.items)
overdue = f", :red[{queue.overdue} overdue]" if queue.overdue else ""
whose = escape_md(", ".join([queue.name, *also]))
st.markdown(f"**{count} question{'s' if count != 1 else ''}** for {whose}{overdue}")
if not queue.items:
    st.info(
        "Nothing waits for this name: no row is assigned to it, and no comment mentions it.", icon=":material/inbox:"
    )
for i, item in enumerate(queue.items):
    with st.container(border=True):
        head, go = st.columns([6, 1], vertical_alignment="center")
        due = (f" · :red[due {item.due}, overdue]" if item.overdue else f" · due {item.due}") if item.due else ""
        why = "assigned" if item.why == "assigned" else "mentioned"
        head.markdown(
            f"**{escape_md(item.label)}** · {escape_md(item.questionnaire)}{due}  \n{escape_md(item.question)}"
        )
        said = f": “{escape_md(item.note)}”" if item.note else ""
        head.caption(f"{why} by {escape_md(item.by)}, {when(item.since)}{said}")
        if go.button("Open", key=f"my_questions_open:{i}", icon=":material/open_in_new:", on_click=_open,
                     args=(item.project_id, item.key)):  # fmt: skip
            st.switch_page("screens/review.py")

st.divider()
packet_import(
    ws,
    None,
    "Import your filled packet",
    "A packet made for you (Export → Expert packets) and filled in: its answers become your decisions on "
    "the rows assigned to you now. Rows changed since it was made are shown here as conflicts, never overwritten.",
)

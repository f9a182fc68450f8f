"""The team's part of the Review card (issue #39): who holds the row (assign it, its section or
sheet, or every row in *Review first* to a person or a group, with a due date and a note;
unassign), its comments (an ``@name`` puts the row in that person's "My questions"), and its
history (every draft and decision: who, when, what changed, as a text diff) with "Restore this
version". Each is written to the review store at once by engine/review/team.py and
engine/review/history.py under the reviewer's name (``Workspace.reviewer``, the Settings screen).

Restoring passes the row version the card was drawn with (``card.seen_key``), so a row changed
since is refused (``RowChanged``: who changed it and its answer now, nothing written) like any
decision; a restore is a new decision, never a rewrite."""

from __future__ import annotations

from datetime import date, datetime

import streamlit as st

from engine.app import ReviewStoreError, RowChanged
from engine.core.accounts import Permission
from engine.core.types import StoreReplaced
from engine.review import team
from engine.review.history import HistoryItem, history, restore
from engine.review.review import ReviewItem
from ui import resources
from ui.components import cached_questionnaire
from ui.components.messages import escape_md, problem_text
from ui.components.sign_in import may
from ui.review.card import NOTICE, conflict_key, seen_key

THIS_ROW, REVIEW_FIRST = "row", "review_first"


def when(created: str) -> str:
    """``2026-05-01T09:30:00+00:00`` → ``2026-05-01 09:30 UTC``."""
    try:
        return datetime.fromisoformat(created).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return created


def holder_line(item: ReviewItem) -> str | None:
    """``Held by ana · due 2026-12-01 (overdue) · by lead, 2026-11-27 09:30 UTC · note``, or None."""
    a = item.assignment
    if a is None or a.to is None:
        return None
    parts = [f":material/assignment_ind: Held by **{escape_md(a.to)}**"]
    if a.due:
        late = " :red[(overdue)]" if date.fromisoformat(a.due) < date.today() else ""
        parts.append(f"due {a.due}{late}")
    parts.append(f"assigned by {escape_md(a.by)}, {when(a.created)}")
    if a.note:
        parts.append(f"“{escape_md(a.note)}”")
    return " · ".join(parts)


def _key(what: str, pid: int, key: str) -> str:
    return f"review_{what}:{pid}:{key}"


def _say(kind: str, text: str) -> None:
    st.session_state[NOTICE] = (kind, text)


# ---- callbacks (they run before the page is drawn again) ------------------------------------------
def _assign(pid: int, key: str, unassign: bool) -> None:
    review = cached_questionnaire.review(resources.workspace(), pid)
    items = review.items()
    label = escape_md(next(i.label for i in items if i.key == key))
    scope = st.session_state.get(_key("assign_scope", pid, key)) or THIS_ROW
    due = st.session_state.get(_key("assign_due", pid, key))
    try:
        if scope == THIS_ROW:
            rows = team.targets(review, items, rows=[key])
        elif scope == REVIEW_FIRST:
            rows = team.targets(review, items, review_first=True)
        else:
            rows = team.targets(review, items, section=scope)
        to = None if unassign else (st.session_state.get(_key("assign_to", pid, key)) or "")
        made = team.assign(
            review,
            rows,
            to,
            due.isoformat() if isinstance(due, date) else None,
            st.session_state.get(_key("assign_note", pid, key)),
        )
    except (ValueError, ReviewStoreError, StoreReplaced) as exc:
        _say("error", f"{label}: not assigned. {problem_text(exc)}")
        return
    rows_said = label if len(made) == 1 else f"{len(made)} rows"
    _say("success", f"{rows_said} {'unassigned' if unassign else 'assigned to ' + escape_md(made[0].to)}.")
    for field in ("assign_to", "assign_due", "assign_note"):
        st.session_state.pop(_key(field, pid, key), None)


def _comment(pid: int, key: str) -> None:
    review = cached_questionnaire.review(resources.workspace(), pid)
    box = _key("comment", pid, key)
    try:
        made = team.comment(review, key, st.session_state.get(box) or "")
    except (ValueError, KeyError, ReviewStoreError, StoreReplaced) as exc:
        _say("error", f"The comment was not saved. {problem_text(exc)}")
        return
    st.session_state.pop(box, None)
    _say("success", f"Comment saved by {escape_md(made.by)}.")


def _restore(pid: int, key: str, ref: str, seen) -> None:
    review = cached_questionnaire.review(resources.workspace(), pid)
    label = escape_md(review.item(key).label)
    try:
        restore(review, key, ref, expected=seen or review.item(key).version)
    except RowChanged as exc:  # nothing written; the card is drawn again with the row as it is now
        _say("error", f"{label}: not restored — the row changed since you opened it: {escape_md(exc.by)}.")
        return
    except (ValueError, ReviewStoreError, StoreReplaced) as exc:
        _say("error", f"{label}: not restored. {problem_text(exc)}")
        return
    for done_with in (conflict_key(pid, key), seen_key(pid, key)):  # the answer box reloads the row
        st.session_state.pop(done_with, None)
    _say("success", f"{label}: {ref} restored (a new decision).")


# ---- the panels -------------------------------------------------------------------------------------
def _scopes(item: ReviewItem, sections: list[str], first: int) -> dict[str, str]:
    """What the Assign panel can give at once: this row, its sections and sheet, Review first."""
    scopes = {THIS_ROW: "This row"}
    for name in sections:
        scopes[name] = f"Its section: {name}"
    scopes[item.question.sheet] = f"Its sheet: {item.question.sheet}"
    if first:
        scopes[REVIEW_FIRST] = f"Every row in Review first ({first})"
    return scopes


def assign_panel(pid: int, item: ReviewItem, sections: list[str], first: int, review) -> None:
    """Who holds the row, and the Assign expander."""
    line = holder_line(item)
    if line:
        st.caption(line)
    with st.expander("Assign", icon=":material/assignment_ind:", key=_key("assign_open", pid, item.key)):
        scopes = _scopes(item, sections, first)
        st.selectbox("Rows", list(scopes), key=_key("assign_scope", pid, item.key), format_func=scopes.__getitem__)
        st.text_input("Assign to", key=_key("assign_to", pid, item.key), placeholder="a person or a group")
        st.date_input("Due date", value=None, key=_key("assign_due", pid, item.key), format="YYYY-MM-DD")
        st.text_input("Assignment note", key=_key("assign_note", pid, item.key), placeholder="Optional")
        b = st.columns(2)
        b[0].button(
            "Assign", icon=":material/person_add:", width="stretch", on_click=_assign, args=(pid, item.key, False)
        )
        b[1].button(
            "Unassign",
            icon=":material/person_remove:",
            width="stretch",
            on_click=_assign,
            args=(pid, item.key, True),
            disabled=item.holder is None,
        )
        for a in team.assignment_history(review, item.key):
            to = f"to {escape_md(a.to)}" if a.to else "unassigned"
            due = f", due {a.due}" if a.due else ""
            note = f": “{escape_md(a.note)}”" if a.note else ""
            st.caption(f"{when(a.created)} · {escape_md(a.by)} assigned it {to}{due}{note}")


def comments_panel(pid: int, item: ReviewItem, review) -> None:
    """The row's comments, oldest first, and a box to add one."""
    found = team.comments(review, item.key)
    with st.expander(f"Comments ({len(found)})", icon=":material/forum:", key=_key("comments_open", pid, item.key)):
        for c in found:
            st.markdown(f"**{escape_md(c.by)}** · {when(c.created)}  \n{escape_md(c.text)}")
        st.text_area(
            "Comment",
            key=_key("comment", pid, item.key),
            height=80,
            placeholder="@name puts this row in that person's My questions",
        )
        st.button("Add comment", icon=":material/add_comment:", on_click=_comment, args=(pid, item.key))


def _step_md(h: HistoryItem) -> str:
    note = f" — “{escape_md(h.note)}”" if h.note else ""
    return f"**{when(h.when)}** · {escape_md(h.by)} · {h.what}{note}"


def history_panel(pid: int, item: ReviewItem, review) -> None:
    """Every draft and decision of the row, newest first: who, when, what changed; restore one
    (on the row version the card was drawn with)."""
    shown = st.session_state.get(seen_key(pid, item.key))
    seen = shown.version if shown is not None else item.version
    steps = history(review, item.key)
    with st.expander(f"History ({len(steps)})", icon=":material/history:", key=_key("history_open", pid, item.key)):
        if not steps:
            st.caption("Nothing drafted or decided yet.")
        for h in reversed(steps):
            st.markdown(_step_md(h))
            if h.choice_changed:
                st.caption(f"Choice: {escape_md(h.choice_before or '—')} → {escape_md(h.choice or '—')}")
            if h.diff:
                st.code("\n".join(h.diff), language="diff", wrap_lines=True)
            current = (h.answer, h.choice) == (item.answer, item.choice)
            if h.answer or h.choice:
                st.button(
                    "Restore this version",
                    key=_key("restore", pid, f"{item.key}:{h.ref}"),
                    icon=":material/restore:",
                    type="tertiary",
                    disabled=current,
                    help="The answer now"
                    if current
                    else "Make this the answer again (a new decision, on the row as shown)",
                    on_click=_restore,
                    args=(pid, item.key, h.ref, seen),
                )


def panels(pid: int, item: ReviewItem, review, items: list[ReviewItem]) -> None:
    """Under the card's actions: the holder and Assign, the comments, the history (each read
    through ``review``, the run's one :class:`Review`)."""
    sections = [s.section for s in review.sections(items) if item.question.id and item.question.id in s.rows]
    if may(Permission.ASSIGN):  # not an expert's (ui/components/sign_in.py; the engine refuses it too)
        assign_panel(pid, item, sections, sum(i.review_first for i in items), review)
    comments_panel(pid, item, review)
    history_panel(pid, item, review)

"""The approval line of the Review card (issue #39, item 6): when the questionnaire requires a
second person's approval (``Review.approval_required``), an accepted or edited row says who
approved it, or that it waits for approval, with an Approve button for a reviewer who did not
make its decision (the decision's author never approves their own). One quiet line.

Approving passes the row version the card was drawn with (``card.seen_key``), so a row changed
since (an edit after the reviewer looked) is refused (``RowChanged``, nothing written), like any
decision; a later decision leaves the approval behind and the row waits again."""

from __future__ import annotations

import streamlit as st

from engine.app import ReviewStoreError, RowChanged
from engine.core.people import same
from engine.core.types import StoreReplaced
from engine.review.review import ReviewItem
from ui import resources
from ui.components import cached_questionnaire
from ui.components.messages import escape_md, problem_text
from ui.review.card import NOTICE, seen_key
from ui.review.team import when


def _approve(pid: int, key: str) -> None:
    review = cached_questionnaire.review(resources.workspace(), pid)
    item = review.item(key)
    label = escape_md(item.label)
    shown = st.session_state.get(seen_key(pid, key))
    try:
        made = review.approve(key, expected=shown.version if shown is not None else item.version)
    except RowChanged as exc:  # nothing written; the card is drawn again with the row as it is now
        st.session_state[NOTICE] = (
            "error",
            f"{label}: not approved — the row changed since you opened it: {escape_md(exc.by)}. Look at it again.",
        )
        return
    except (ValueError, PermissionError, ReviewStoreError, StoreReplaced) as exc:
        st.session_state[NOTICE] = ("error", f"{label}: not approved. {problem_text(exc)}")
        return
    st.session_state[NOTICE] = ("success", f"{label} approved by {escape_md(made.by)}.")


def line(pid: int, item: ReviewItem, viewer: str | None) -> None:
    """Says "Approved by X" on an approved row; on an accepted or edited row of a questionnaire that
    requires approval, "Waiting for approval" and, for ``viewer`` when they did not decide it, the
    Approve button."""
    if not item.state.approved:
        return
    if item.approval is not None:
        st.caption(f":material/verified: Approved by **{escape_md(item.approval.by)}**, {when(item.approval.created)}")
        return
    if not item.approval_required:
        return
    author = item.decision.by if item.decision is not None else None
    if same(author, viewer):
        st.caption(":material/pending: Waiting for approval by a second reviewer (you made this decision)")
        return
    said, button = st.columns([3, 1], vertical_alignment="center")
    decided = f" of {escape_md(author)}'s answer" if author else ""
    said.caption(f":material/pending: Waiting for approval{decided}")
    button.button(
        "Approve",
        icon=":material/verified:",
        width="stretch",
        help="Approve this answer as it is shown: it counts as final (and goes into an export of approved answers)",
        on_click=_approve,
        args=(pid, item.key),
    )

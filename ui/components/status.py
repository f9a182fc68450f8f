"""How review states and citation labels look (colour, icon, words), in one place, so every
screen shows them the same way. The words come from the engine's enums, never typed here."""

from __future__ import annotations

import streamlit as st

from engine.app import AnchorLabel
from engine.review.review import ReviewState

# state → (badge colour, Material icon)
STATE_STYLE: dict[ReviewState, tuple[str, str]] = {
    ReviewState.PENDING: ("gray", ":material/hourglass_empty:"),
    ReviewState.DRAFTED: ("blue", ":material/edit_note:"),
    ReviewState.NO_CONTEXT: ("orange", ":material/search_off:"),
    ReviewState.ERROR: ("red", ":material/error:"),
    ReviewState.ACCEPTED: ("green", ":material/check_circle:"),
    ReviewState.EDITED: ("green", ":material/edit:"),
    ReviewState.NEEDS_SME: ("violet", ":material/support_agent:"),
    ReviewState.REJECTED: ("red", ":material/cancel:"),
    ReviewState.NOT_REQUIRED: ("gray", ":material/block:"),
}

LABEL_STYLE: dict[AnchorLabel, tuple[str, str, str]] = {
    AnchorLabel.VERIFIED: ("Verified", "green", ":material/verified:"),
    AnchorLabel.REPAIRED: ("Repaired", "blue", ":material/auto_fix_high:"),
    AnchorLabel.UNVERIFIED: ("Unverified", "orange", ":material/warning:"),
}


def state_badge_md(state: ReviewState, suffix: str = "") -> str:
    color, icon = STATE_STYLE[state]
    return f":{color}-badge[{icon} {state.label}{suffix}]"


def state_icon_md(state: ReviewState) -> str:
    color, icon = STATE_STYLE[state]
    return f":{color}[{icon}]"


def state_badge(state: ReviewState) -> None:
    color, icon = STATE_STYLE[state]
    st.badge(state.label, icon=icon, color=color)


def label_badge_md(label: AnchorLabel) -> str:
    words, color, icon = LABEL_STYLE[label]
    return f":{color}-badge[{icon} {words}]"

"""Writing an answer into the library by hand (#51): the form the coverage report's *Write a
library answer* opens, prefilled with the topic's question and the answers the reviewers accepted
for it (``Topic.entry``), on the Knowledge base screen. Saved by
:meth:`engine.index.library.AnswerLibrary.write`: reused from then on, for the product chosen."""

from __future__ import annotations

import streamlit as st

from engine.index.library import AnswerLibrary
from engine.review.reports import EntryDraft
from ui.components.messages import escape_md, flash, problem_text

PREFILL = "library_entry_prefill"  # the EntryDraft to open the form with
OPEN = "library_entry_open"
FIELDS = ("library_entry_question", "library_entry_choice", "library_entry_answer")
COMPANY_WIDE = "Company-wide"
PRODUCT = "library_entry_product"


def prefill(draft: EntryDraft, product: str | None = None) -> None:
    """Open the form with ``draft``, for ``product`` (None: company-wide): a button's callback,
    the caller switches to the Knowledge base screen."""
    st.session_state[PREFILL] = draft
    for field, value in zip(FIELDS, (draft.question, draft.choice or "", draft.answer)):
        st.session_state[field] = value
    st.session_state[PRODUCT] = product or COMPANY_WIDE
    st.session_state[OPEN] = True


def opened() -> bool:
    """Whether the coverage report sent a topic here (the form is then drawn first on the screen)."""
    return bool(st.session_state.get(OPEN))


def _save(library: AnswerLibrary, by: str, flash_key: str) -> None:
    question, choice, answer = (st.session_state.get(f, "") for f in FIELDS)
    product = st.session_state.get(PRODUCT)
    try:
        entry = library.write(
            question, choice, answer, None if product in (None, COMPANY_WIDE) else product, owner=None, by=by
        )
    except Exception as exc:  # ValueError, a damaged library: the engine's words
        flash(flash_key, "error", f"The answer was not saved: {problem_text(exc)}")
        return
    flash(
        flash_key,
        "success",
        f"Saved library answer #{entry.id}: reused from now on ({escape_md(entry.question[:90])}).",
    )
    for field in FIELDS:
        st.session_state.pop(field, None)
    st.session_state.pop(PREFILL, None)
    st.session_state[OPEN] = False


def entry_form(library: AnswerLibrary, products: list[str], by: str, flash_key: str, drafting: bool) -> None:
    """The form, open when the coverage report sent a topic here."""
    draft = st.session_state.get(PREFILL)
    with st.expander("Write a library answer", expanded=bool(st.session_state.get(OPEN)), icon=":material/edit_note:"):
        if draft is not None and draft.sources:
            st.caption(
                "Prefilled with the answers reviewers accepted for this topic: "
                + escape_md(", ".join(draft.sources[:8]))
            )
        elif draft is not None:
            st.caption("No reviewer has accepted an answer for this topic yet: write it from what the company does.")
        st.text_area("Question", key=FIELDS[0], height=80)
        st.text_input("Choice (Yes, No, … or empty)", key=FIELDS[1])
        st.text_area("Answer", key=FIELDS[2], height=160)
        if st.session_state.get(PRODUCT) not in (COMPANY_WIDE, *products):
            st.session_state[PRODUCT] = COMPANY_WIDE
        st.selectbox("For", [COMPANY_WIDE, *products], key=PRODUCT)
        st.button(
            "Save to the library",
            key="library_entry_save",
            icon=":material/save:",
            type="primary",
            on_click=_save,
            args=(library, by, flash_key),
            disabled=drafting,
        )

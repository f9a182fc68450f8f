"""The notes under a question's header on the Review card: what its state asks of the reviewer
(the section's gate, a contradiction, not drafted yet, no context, an error) and the reasons to
look at the draft, read in a second.

The reasons are the draft's warnings (``Draft.warnings``, engine/drafting/warnings.py), one
short line each: the ones in doubt ("Other products disagree: Yes ×5, No ×2", "Written by the
model") in one warning box while nobody has decided on the draft, a grey line each after (the
"until decided" rule: the row's decision settles them); a quiet one ("Yes, as 8 other products
answered") is always one grey line, never a box. The lists behind them (which product said what,
what was taken out) wait behind one "Details" expander. Nothing in doubt: no box at all. The
question list marks an undecided draft with the icons of its warnings in doubt (:func:`marks`).
What is true of many rows at once is one line above the list instead (:func:`stale_line`: the
drafts reusing library answers past their review-by date), never a line of each card.
"""

from __future__ import annotations

import streamlit as st

from engine.app import Warning
from engine.review.review import ReviewItem, ReviewState
from ui.components.messages import escape_md


def in_doubt(item: ReviewItem) -> list[Warning]:
    """The draft's warnings in doubt (not quiet) while nobody has decided on it; [] after, or without a draft."""
    if item.state is not ReviewState.DRAFTED or item.draft is None:
        return []
    return [w for w in item.draft.warnings if not w.quiet]


def marks(item: ReviewItem) -> list[str]:
    """The question list's icons for the row (Material names): one per kind of warning in doubt."""
    return list(dict.fromkeys(w.icon for w in in_doubt(item)))


def stale(item: ReviewItem) -> bool:
    """A draft nobody has decided on that reuses a library answer past its review-by date."""
    return item.state is ReviewState.DRAFTED and item.draft is not None and bool(item.draft.reused_due)


def stale_line(count: int) -> str:
    """The one line above the list for the drafts reusing library answers past their review-by
    date (a card says nothing of it: true of many rows at once, it is not a reason to doubt one)."""
    if count == 1:
        return "1 draft reuses a library answer past its review-by date — review it in the Knowledge base"
    return f"{count} drafts reuse library answers past their review-by date — review them in the Knowledge base"


def _line(warning: Warning) -> str:
    return f":material/{warning.icon}: {escape_md(warning.line)}"


def warnings(item: ReviewItem) -> None:
    """One line per warning of the draft (module docstring): the ones in doubt in one box until
    decided, the quiet ones and the decided ones as grey lines, the details behind an expander."""
    found = item.draft.warnings if item.draft is not None else ()
    if not found:
        return
    boxed = in_doubt(item)
    if boxed:  # one box, a line each; the first line's icon is the box's
        first, *rest = boxed
        st.warning("  \n".join([escape_md(first.line)] + [_line(w) for w in rest]), icon=f":material/{first.icon}:")
    for w in found:
        if w.quiet or not boxed:  # information, or decided: a grey line
            st.caption(_line(w))
    detailed = [w for w in found if w.details]
    if detailed:  # closed on each row until opened there (its own key)
        with st.expander("Details", icon=":material/list:", key=f"review_details:{item.key}"):
            for w in detailed:
                head = [f"**{escape_md(w.line)}**"] if len(detailed) > 1 else []  # whose list it is
                st.markdown("  \n".join(head + [escape_md(d) for d in w.details]))


def state_notes(item: ReviewItem) -> None:
    """The section's gate, a contradiction, what the state asks for, the draft's warnings and
    the reviewer's note."""
    state = item.state
    if item.gate is not None:
        text = f"{escape_md(item.gate.section)} section: {escape_md(item.gate.reason)}."
        if state is ReviewState.NOT_REQUIRED:
            st.info(
                f"{text} Left blank on export; answer {escape_md(item.gate.qualifier)} differently to "
                "switch it back on (then Start drafting drafts it).",
                icon=":material/block:",
            )
        else:
            st.caption(text)
    if item.conflict:
        st.warning(f"Contradiction: {escape_md(item.conflict)}.", icon=":material/rule:")
    if state is ReviewState.PENDING:
        st.info(
            "Not drafted yet. Start drafting on the Questionnaire screen, press Regenerate, "
            "or write the answer yourself and Save edit.",
            icon=":material/hourglass_empty:",
        )
    elif state is ReviewState.NO_CONTEXT and item.draft is not None and item.draft.profile_fact:
        st.info(
            f"No profile fact answers this: {escape_md(item.draft.profile_fact)} comes from the company or product "
            "profile only, never from the documents (they name other people's contacts and links). Set it under "
            "Company and product profiles on the Knowledge base screen, then Regenerate, or write the answer here.",
            icon=":material/badge:",
        )
    elif state is ReviewState.NO_CONTEXT and item.draft is not None and item.draft.error:
        # the model's reply was set aside (another script, labels that do not exist, a loop): never a draft
        reason = item.draft.error[:1].upper() + item.draft.error[1:]
        st.warning(f"{escape_md(reason)}.", icon=":material/report:")
    elif state is ReviewState.NO_CONTEXT:
        found = (
            "The passages found (cited below) do not support an answer."
            if item.citations
            else "The knowledge base has nothing that supports an answer."
        )
        st.info(
            f"{found} Write one, mark the question Needs SME, or add documents and Regenerate.",
            icon=":material/search_off:",
        )
    elif state is ReviewState.ERROR and item.draft is not None:
        st.error(
            f"Drafting failed: {escape_md(item.draft.error)}. Press Regenerate to try again.", icon=":material/error:"
        )
    warnings(item)
    if item.decision is not None and item.decision.note:
        st.caption(f"Note: {escape_md(item.decision.note)}")

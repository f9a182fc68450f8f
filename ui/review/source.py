"""The Review screen's source pane and citation list: the cited source of the open question (its
PDF page with the quoted lines outlined, a text document's passage with the quote marked, or a
past answer of the answer library), a switch between its citations, and "Ask this document"
under it (engine/drafting/ask.py): an excerpt it returns is shown in the same viewer with its
lines outlined and can be added to the draft's citations. A question opens on its first
highlighted citation (:func:`follow`).

A draft whose only source is a past answer (a reused answer cites the answer library) also
offers the knowledge base's best page for its question ("Best document page: X.pdf p. 4",
engine/review/best_page.py), worked out once per row and knowledge base, so the reviewer sees
what the documents say before accepting the past answer.

The citation list (:func:`citation_list`, drawn under the card's actions) names each citation,
its label, score and third party, and warns about a quote not found in its source."""

from __future__ import annotations

import streamlit as st

from engine.app import AnchorLabel, Citation
from engine.core.location import SHORT
from engine.core.types import SourceKind
from engine.review.best_page import best_page
from engine.review.review import ReviewItem
from ui import resources
from ui.components import ask_pane, cached_questionnaire
from ui.components.messages import escape_md, problem_text
from ui.components.pdf_pane import show_pdf_citation
from ui.components.source_text import show_past_answer, show_text_citation
from ui.components.status import label_badge_md

# widget / on-screen keys of the pane
SOURCE = "review_source"
SOURCE_FOR = "review_source_for"  # the question the pane's source was chosen for
SOURCE_NEXT = "review_source_next"  # the source to open on the next run (set after the radio is drawn)
ASK = "review_ask"  # the ask pane's keys
ASK_DOC = "review_ask_doc"  # the document asked when the question cites none
BEST = "review_best_page"  # the best document page per row: {(pid, key, question): (product and documents, page)}


def follow(items: list[ReviewItem], current: str) -> None:
    """A newly opened question shows its first highlighted citation, not an asked excerpt."""
    if st.session_state.get(SOURCE_FOR) == current:
        return
    st.session_state[SOURCE_FOR] = current
    st.session_state.pop(ask_pane.shown_key(ASK), None)  # the new question's own citation, not an asked excerpt
    cited = next(i for i in items if i.key == current).citations
    st.session_state[SOURCE] = next((n for n, c in enumerate(cited) if c.label is not AnchorLabel.UNVERIFIED), 0)


def reset() -> None:
    """The question's source is chosen anew (after a new draft)."""
    st.session_state.pop(SOURCE, None)


def _best_page(ws, pid: int, item: ReviewItem) -> Citation | None:
    """The knowledge base's best page for a question whose only source is a past answer (None
    for any other, or when no document speaks to it); worked out once per row and knowledge
    base. A failure is said under the switch, never raised: the past answer is still shown."""
    if not item.citations or any(c.kind is not SourceKind.LIBRARY for c in item.citations):
        return None
    docs = ws.documents()
    if not docs:
        return None
    kb = (ws.project(pid).product, tuple((d.name, d.doc_hash, repr(d.scope)) for d in docs))  # what it depends on
    found = st.session_state.setdefault(BEST, {})
    row = (pid, item.key, item.question.text)
    if row not in found or found[row][0] != kb:
        try:
            with st.spinner("Finding the best document page…"):
                found[row] = (kb, best_page(ws.drafter_for(pid), item.question.text))
        except Exception as exc:  # the knowledge base or the model's setting failed: the past answer stays
            st.caption(f"No best document page: {problem_text(exc)}")
            return None
    return found[row][1]


def _citation_option(citations: list[Citation], n: int, best: Citation | None) -> str:
    """A source's label in the switch (Markdown: file names are shown as text)."""
    c = citations[n]
    where = c.location.label(SHORT) or c.file
    if c is best:
        page = "page" if c.kind is SourceKind.PDF else "passage"
        return f"Best document {page}: {escape_md(c.file)} {escape_md(where)}"
    mark = "" if c.label is not AnchorLabel.UNVERIFIED else " ⚠"
    if c.kind is SourceKind.LIBRARY:
        return f"[{n + 1}] past answer · {escape_md(c.file)}{mark}"
    return f"[{n + 1}] {escape_md(c.file)} · {escape_md(where)}{mark}"


def _hide_excerpt() -> None:
    st.session_state.pop(ask_pane.shown_key(ASK), None)


def _add_excerpt(pid: int, key: str, excerpt) -> str:
    """Add an asked excerpt to the question's citations (written to the review store at once)
    and show it as the question's source."""
    review = cached_questionnaire.review(resources.workspace(), pid)
    added = review.add_citation(key, excerpt.citation())
    item = review.item(key)
    if not added:
        return f"{escape_md(item.label)} already cites excerpt [{excerpt.number}]."
    st.session_state[SOURCE_NEXT] = len(item.citations) - 1  # the source radio is drawn already in this run
    _hide_excerpt()
    return f"Excerpt [{excerpt.number}] added to the citations of {escape_md(item.label)}."


def source(pid: int, item: ReviewItem) -> None:
    """The cited source (or an asked excerpt), then "Ask this document"; switching between
    citations or excerpts reruns only this pane (a fragment)."""
    ws = resources.workspace()
    head = st.container()  # switcher and messages; the viewer keeps its place below them
    c = None
    added = SOURCE_NEXT in st.session_state  # an asked excerpt was just added: its citation is shown as the excerpt was
    if added:
        st.session_state[SOURCE] = st.session_state.pop(SOURCE_NEXT)
    with head:
        best = _best_page(ws, pid, item)
    citations = list(item.citations) + ([best] if best is not None else [])
    if citations:
        n = 0
        if len(citations) > 1:
            if st.session_state.get(SOURCE) not in range(len(citations)):
                st.session_state[SOURCE] = 0
            n = head.radio(
                "Source",
                list(range(len(citations))),
                key=SOURCE,
                horizontal=True,
                on_change=_hide_excerpt,
                format_func=lambda i: _citation_option(citations, i, best),
                label_visibility="collapsed",
            )
        c = citations[n]
    cited_doc = c.file if c is not None and c.kind is not SourceKind.LIBRARY else None
    doc = cited_doc or st.session_state.get(ASK_DOC)
    excerpt = ask_pane.shown_excerpt(ws, ASK, doc)
    if excerpt is not None:
        ask_pane.show_excerpt(ws, excerpt, key="review_pdf", head=head)
    elif c is None:
        words = (
            "The source appears here once the question is drafted."
            if item.draft is None
            else "No source to show: the draft cites nothing. Ask a document below."
        )
        head.info(words, icon=":material/menu_book:")
    elif c.kind is SourceKind.PDF:
        # just added: a new viewer (its own key) that scrolls the browser to the outlined lines, which the
        # click on "Add to citations", below the viewer, left off-screen
        show_pdf_citation(ws, c, key="review_pdf:added" if added else "review_pdf", head=head, scroll=added)
    elif c.kind is SourceKind.LIBRARY:
        show_past_answer(ws, c)
    else:
        show_text_citation(ws, c)
    _ask(ws, pid, item, cited_doc)


def _ask(ws, pid: int, item: ReviewItem, cited_doc: str | None) -> None:
    """Ask the shown document (or, when the question cites none, a document chosen here)."""
    names = [d.name for d in ws.documents()]
    if not names:
        return
    doc = cited_doc or st.session_state.get(ASK_DOC)
    open_now = ask_pane.current_run(ws, ASK, doc) is not None
    with st.expander(
        f"Ask {'this document' if cited_doc else 'a document'}",
        icon=":material/quick_reference_all:",
        expanded=open_now,
    ):
        if cited_doc is None:
            if st.session_state.get(ASK_DOC) not in names:
                st.session_state[ASK_DOC] = names[0]
            doc = st.selectbox("Document", names, key=ASK_DOC, on_change=_hide_excerpt)
        else:
            st.caption(
                f"The local model reads **{escape_md(doc)}** and quotes what answers your question; "
                "each excerpt can be shown on its page and added to the citations."
            )
        ask_pane.ask_form(
            ws, doc, key=ASK, on_add=lambda e: _add_excerpt(pid, item.key, e), added=lambda e: item.cites(e.citation())
        )


def citation_list(item: ReviewItem) -> None:
    """Each citation of the question: its label, number, place, score and third party, and its quote."""
    if not item.citations:
        return
    st.markdown("**Citations**")
    for n, c in enumerate(item.citations, 1):
        where = c.location.label()
        with st.container(border=True):
            name = (
                escape_md(where)
                if c.kind is SourceKind.LIBRARY
                else escape_md(c.file) + (f" · {escape_md(where)}" if where else "")
            )
            party = f" · :orange-badge[third party: {escape_md(c.third_party)}]" if c.third_party else ""
            st.markdown(f"{label_badge_md(c.label)} **[{n}]** {name} · score {c.score:.0f}{party}")
            st.caption(f"“{escape_md(c.quote)}”")
            if c.label is AnchorLabel.UNVERIFIED:
                st.warning(
                    "This quote was not found in the source: it is not highlighted. "
                    "Check the claim by hand before accepting.",
                    icon=":material/warning:",
                )

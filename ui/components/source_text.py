"""A non-PDF source (spreadsheet row, Word or Markdown section) shown as text with the quoted
span marked. Only verified and repaired quotes are marked; for an unverified quote the text of
the place the retrieved passage came from is shown unmarked, with a warning."""

from __future__ import annotations

import html

import streamlit as st

from engine.app import AnchorLabel, Citation, KnowledgeBaseError
from engine.app.workspace import Workspace
from engine.core.location import CAPTION
from engine.core.types import SourceKind, StoreDamaged, Unit
from engine.index.library import answer_text
from ui.components.messages import escape_md, problem_text

PANE_HEIGHT = 560


@st.cache_data(max_entries=32, show_spinner=False)
def _units(_ws: Workspace, folder: str, name: str, doc_hash: str) -> list[Unit]:
    return _ws.document_units(name)


def units_of(ws: Workspace, name: str) -> list[Unit]:
    """A document's units, cached per stored version."""
    return _units(ws, str(ws.folder), name, ws.document_hash(name))


def find_unit(units: list[Unit], citation: Citation) -> Unit | None:
    """The unit the citation's offsets point into: same sheet and row (spreadsheets), same
    section (Word, Markdown, text) or same page; among several, one long enough for the span
    and, when possible, holding the quote's first words."""
    if citation.kind is SourceKind.SHEET:
        same = [u for u in units if u.sheet == citation.sheet and u.row == citation.row]
    elif citation.kind is SourceKind.PDF:
        same = [u for u in units if u.page == citation.page]
    else:
        same = [u for u in units if u.section == citation.section]
    if not same:
        return None
    if citation.end is not None:
        fits = [u for u in same if len(u.text) >= citation.end] or same
        head = " ".join(citation.quote.split()[:4]).lower()
        for u in fits:
            if head and head in " ".join(u.text[citation.start : citation.end].split()).lower():
                return u
        return fits[0]
    return same[0]


def marked_html(text: str, start: int | None, end: int | None) -> str:
    """``text`` as HTML (escaped, line breaks kept) with ``text[start:end]`` in a <mark>."""
    if start is None or end is None or not 0 <= start < end <= len(text):
        return f'<div class="rfp-source">{html.escape(text)}</div>'
    return (
        '<div class="rfp-source">'
        + html.escape(text[:start])
        + '<mark id="rfp-quote">'
        + html.escape(text[start:end])
        + "</mark>"
        + html.escape(text[end:])
        + "</div>"
    )


STYLE = """<style>
.rfp-source { white-space: pre-wrap; font-size: 0.92rem; line-height: 1.55; }
.rfp-source mark { background: #ffe08a; outline: 2px solid #e8a400; border-radius: 2px; padding: 0 1px; }
</style>"""


def place(citation: Citation) -> str:
    return citation.location.label(CAPTION)


def show_text_citation(ws: Workspace, citation: Citation) -> str | None:
    """Render the cited unit with the quote marked; returns the HTML shown (None: nothing)."""
    try:
        units = units_of(ws, citation.file)
    except KnowledgeBaseError as exc:
        st.warning(f"The source cannot be shown. {problem_text(exc)}", icon=":material/broken_image:")
        return None
    unit = find_unit(units, citation)
    if unit is None:
        st.info(
            f"{escape_md(citation.file)}: {escape_md(place(citation))} is no longer in the knowledge base "
            "(the document was replaced). Regenerate the draft.",
            icon=":material/info:",
        )
        return None
    verified = citation.label is not AnchorLabel.UNVERIFIED
    st.caption(f":material/description: **{escape_md(citation.file)}**, {escape_md(place(citation))}")
    if not verified:
        st.warning(
            f"This quote was not found in {escape_md(citation.file)}, so nothing is marked. "
            "Shown: where the retrieved passage is. Check it by hand.",
            icon=":material/warning:",
        )
    body = marked_html(unit.text, citation.start, citation.end) if verified else marked_html(unit.text, None, None)
    with st.container(border=True, height=PANE_HEIGHT):
        st.html(STYLE + body)
    return body


def show_past_answer(ws: Workspace, citation: Citation) -> str | None:
    """A past answer from the answer library: the past question, and the answer as stored
    (choice — explanation) with the quoted span marked; returns the HTML shown."""
    try:
        entry = ws.library.entry_at(citation.file, citation.sheet, citation.row)
    except StoreDamaged as exc:  # a damaged answer library: its one line, not a traceback
        st.error(f"The answer library cannot be opened: {problem_text(exc)}", icon=":material/error:")
        return None
    if entry is None:
        st.info(
            f"This past answer ({escape_md(citation.file)}, row {citation.row}) is no longer in the answer "
            "library (its file was imported again without it). Regenerate the draft.",
            icon=":material/info:",
        )
        return None
    label = entry.location.label()
    origin = {"import": "imported", "review": "approved in review"}.get(entry.origin.value, "written in the library")
    st.caption(
        f":material/history: **{escape_md(label)}** · {origin} {escape_md(entry.imported[:10])}"
        + (" · retired" if entry.retired else "")
    )
    verified = citation.label is not AnchorLabel.UNVERIFIED
    if not verified:
        st.warning(
            "This quote was not found in the past answer, so nothing is marked. Check it by hand.",
            icon=":material/warning:",
        )
    body = f'<div class="rfp-source"><b>Q:</b> {html.escape(entry.question)}</div>' + marked_html(
        answer_text(entry), citation.start if verified else None, citation.end if verified else None
    )
    with st.container(border=True):
        st.html(STYLE + body)
    return body

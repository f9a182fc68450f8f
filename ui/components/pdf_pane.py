"""The source PDF page of a citation, with its verified quote outlined.

Only the page(s) the quote is on are sent to the viewer (a one- or two-page excerpt built by
``engine.review.pdf_pages``; cached there), with the highlight boxes renumbered to the excerpt. One
page is shown whole; two pages (a quote across a page break) are scrolled to the first box. Every
page is fit to the pane's width, portrait or landscape (the viewer's own zoom); a landscape page
so fit has small words (70 % on a 1440-pixel screen), so it also opens in a dialog at the
window's width. An unverified quote is never highlighted: its page is shown plain, with a
warning."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import streamlit as st

from engine.app import Citation, KnowledgeBaseError
from engine.app.workspace import Workspace
from engine.core.location import Location
from engine.core.types import SourceKind
from engine.review.pdf_pages import PageExcerpt, SourcePageError, citation_excerpt, highlightable
from ui.components.messages import escape_md, problem_text
from ui.components.pdf_viewer import pdf_viewer

VIEWER_HEIGHT = 780  # px: one A4 page at the pane's width on a 1440×900 screen


def excerpt_for(ws: Workspace, citation: Citation, path: Path | None = None) -> PageExcerpt | None:
    """What the viewer is sent for ``citation`` (None: no page to show): a page of the knowledge
    base's copy of the cited file, or of ``path`` (a solicitation's requirement on its page).
    Raises KnowledgeBaseError / SourcePageError with the file, problem and fix."""
    return citation_excerpt(path if path is not None else ws.source_path(citation.file), citation)


def show_pdf_citation(
    ws: Workspace,
    citation: Citation,
    *,
    key: str,
    height: int = VIEWER_HEIGHT,
    head=None,
    scroll: bool = False,
    path: Path | None = None,
) -> PageExcerpt | None:
    """Render the citation's page(s); returns what was sent (for tests and callers). Messages go
    to ``head`` (a container above) when given, so the viewer keeps its place on the page and
    is updated, not reloaded, when the next question opens. ``scroll``: bring the first
    outlined line into the browser's view even on one page (shown from a button below the
    viewer, the page's top may be scrolled away). ``path``: the file the page is cut from, when it
    is not the knowledge base's (a solicitation's own page)."""
    head = head if head is not None else st.container()
    try:
        excerpt = excerpt_for(ws, citation, path)
    except (KnowledgeBaseError, SourcePageError) as exc:
        head.warning(f"The source page cannot be shown. {problem_text(exc)}", icon=":material/broken_image:")
        return None
    if excerpt is None:
        head.info(f"{escape_md(citation.file)} has no page recorded for this quote.", icon=":material/info:")
        return None
    where = Location(citation.file, SourceKind.PDF, excerpt.pages).label()
    if highlightable(citation) and excerpt.annotations:
        head.caption(
            f":material/picture_as_pdf: **{escape_md(citation.file)}**, {where} — the quoted lines are outlined."
        )
    else:
        head.warning(
            f"This quote was not found in {escape_md(citation.file)}, so nothing is highlighted. "
            f"Shown: {where}, where the retrieved passage is. Check it by hand.",
            icon=":material/warning:",
        )
    shown = f"{key}:{content_key(citation.file, excerpt)}"
    if excerpt.wide and head.button(
        "Open the page larger",
        key=f"{shown}:larger",
        icon=":material/open_in_full:",
        help="A landscape page fit to this pane's width has small words: this shows it at the window's width.",
    ):
        larger_page(excerpt, f"**{escape_md(citation.file)}**, {where}", shown)
    pdf_viewer(**viewer_args(excerpt, height, scroll), key=shown)
    return excerpt


@st.dialog("Source page", width="large")
def larger_page(excerpt: PageExcerpt, title: str, key: str) -> None:
    """A wide page (a landscape page, :attr:`PageExcerpt.wide`) fit to the window's width (the
    dialog's), where its words are as large as a portrait page's in the pane; outlined as there."""
    st.caption(f":material/picture_as_pdf: {title}")
    pdf_viewer(**viewer_args(excerpt), key=f"{key}:dialog")


def content_key(file: str, excerpt: PageExcerpt) -> str:
    """Part of the viewer's key that changes with what it shows. streamlit-pdf-viewer 0.0.30
    redraws on a new PDF only (not on new annotations) and drops a new PDF that arrives while
    it is still drawing, so a viewer kept across questions could show the previous quote; a new
    key per page-and-boxes gives a fresh viewer, and the same content keeps the one shown."""
    raw = json.dumps([file, excerpt.pages, excerpt.annotations], sort_keys=True)
    return hashlib.sha1(raw.encode()).hexdigest()[:12]


def viewer_args(excerpt: PageExcerpt, height: int = VIEWER_HEIGHT, scroll: bool = False) -> dict:
    """One page is shown whole at the pane's width (its height follows), so the quote is in
    view without scrolling and the screen does not jump when the next question opens; two
    pages (a quote across a page break) get a fixed-height box scrolled to the first box, and
    so does one page with ``scroll`` (the viewer scrolls the browser to the box too)."""
    two = len(excerpt.pages) > 1
    return dict(
        input=excerpt.pdf,
        annotations=list(excerpt.annotations),
        scroll_to_annotation=1 if excerpt.annotations and (two or scroll) else None,
        scroll_behavior="instant",
        annotation_outline_size=2,
        width="100%",
        height=height if two else None,
        show_page_separator=two,
    )

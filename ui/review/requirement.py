"""A solicitation's requirement on its own page in the Review card (issue #57): the page of the
solicitation file the requirement was found on, its words outlined, beside the evidence page
(ui/review/source.py). The page is cut out, cropped and outlined as an evidence page is
(engine/review/requirement_page.py cites the requirement; ui/components/pdf_pane.py shows it).
A Word solicitation has no pages: one quiet line says so, with the quote. A questionnaire's
card shows nothing here."""

from __future__ import annotations

import streamlit as st

from engine.questionnaire.solicitation.as_questionnaire import is_solicitation
from engine.review.pdf_pages import SourcePageError
from engine.review.requirement_page import requirement_citation
from engine.review.review import ReviewItem
from ui import resources
from ui.components import cached_questionnaire
from ui.components.messages import escape_md, problem_text
from ui.components.pdf_pane import show_pdf_citation

LABEL = "The requirement on its page"  # one label for every question: opened or closed, it stays so
VIEWER_HEIGHT = 520  # px: the card's column is narrower than the evidence pane


def requirement_page(pid: int, item: ReviewItem) -> None:
    """The requirement of ``item`` outlined on its solicitation page (nothing for a questionnaire's row)."""
    ws = resources.workspace()
    questionnaire = cached_questionnaire.review(ws, pid).questionnaire
    if not is_solicitation(questionnaire):
        return
    try:
        shredded = ws.solicitation(pid, questionnaire)
    except Exception as exc:  # the stored file cannot be read again: the card still works
        st.caption(f"The requirement's page cannot be shown. {problem_text(exc)}")
        return
    req = next((r for r in shredded.requirements if r.id == item.question.id), None) if shredded else None
    if req is None:
        return
    with st.expander(LABEL, expanded=True, icon=":material/gavel:"):
        try:
            cited = requirement_citation(questionnaire.path, req)
        except SourcePageError as exc:
            st.warning(f"The requirement's page cannot be shown. {problem_text(exc)}", icon=":material/broken_image:")
            return
        if cited is None:
            st.caption(
                f"{escape_md(req.file)} is a Word document: it has no pages to show. "
                f"The requirement as quoted: “{escape_md(req.quote)}”"
            )
            return
        show_pdf_citation(ws, cited, key="review_requirement_pdf", height=VIEWER_HEIGHT, path=questionnaire.path)


__all__ = ["LABEL", "requirement_page"]

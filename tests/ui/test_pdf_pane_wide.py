"""The source pane offers a wide page (a landscape page: ``PageExcerpt.wide``) larger: fit to
the Review pane's width its words are small (tests/unit/test_pdf_landscape.py), so a button opens
it in a dialog at the window's width, fit to that width, the quote outlined as in the pane. A
portrait page gets no button. AppTest of the pane alone, on PDFs PyMuPDF writes here."""

from __future__ import annotations

import json

import pytest

from tests.unit.test_pdf_landscape import write_page


def pane_script(pdf: str) -> None:
    """The pane as the Review screen shows it, on the stored copy ``pdf`` (a stand-in workspace
    that only says where a document's stored copy is)."""
    from pathlib import Path

    import fitz

    from engine.core.types import SourceKind
    from engine.drafting.anchoring import AnchorLabel
    from engine.drafting.records import Citation
    from ui.components.pdf_pane import show_pdf_citation

    quote = "Color is only used as a supplemental attribute of the interface."
    with fitz.open(pdf) as doc:
        rects = tuple((1, r.x0, r.y0, r.x1, r.y1) for r in doc[0].search_for(quote))

    class Stored:
        def source_path(self, name: str) -> Path:
            return Path(pdf)

    citation = Citation(Path(pdf).name, SourceKind.PDF, quote, AnchorLabel.VERIFIED, 100.0, 0.5, page=1, rects=rects)
    show_pdf_citation(Stored(), citation, key="review_pdf")


@pytest.mark.parametrize(("width", "height", "offered"), [(792, 612, True), (612, 792, False)])
def test_the_pane_offers_a_wide_page_larger(tmp_path, width, height, offered):
    from streamlit.testing.v1 import AppTest

    pdf = write_page(tmp_path / "page.pdf", width, height)
    at = AppTest.from_function(pane_script, args=(str(pdf),), default_timeout=30).run()
    assert not at.exception
    labels = [b.label for b in at.button]
    assert labels == (["Open the page larger"] if offered else [])
    if offered:
        at.button[0].click().run()
        assert not at.exception
        # a dialog holds the page again, under the file and page it shows: a second viewer, fit to the
        # dialog's width (no zoom level: the viewer's fit-to-width), with the quote outlined as in the pane
        assert at.caption[-1].value == ":material/picture_as_pdf: **page.pdf**, page 1"
        pane, dialog = (json.loads(c.proto.json_args) for c in at.get("component_instance"))
        assert dialog["width"] == "100%" and dialog.get("zoom_level") is None
        assert dialog["annotations"] == pane["annotations"] and dialog["annotations"]

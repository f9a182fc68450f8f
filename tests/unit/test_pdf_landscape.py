"""Landscape pages in the source pane (ui/components/pdf_pane.py): every page is fit to the pane's
width by the viewer, so a landscape page's words come out smaller than a portrait page's (a
landscape VPAT page: 70 % in the Review pane on a 1440-pixel screen, against 93-116 % for the
portrait pages); a page shown wider than a portrait page (``PageExcerpt.wide``) also opens in a
dialog at the window's width. On PDFs PyMuPDF writes here: a landscape page, a portrait one, and
a portrait sheet turned 90° (how scanned certificates are landscape)."""

from __future__ import annotations

from pathlib import Path

import fitz

from engine.core.types import SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation
from engine.review.pdf_pages import WIDE_POINTS, citation_excerpt

QUOTE = "Color is only used as a supplemental attribute of the interface."
ROW = (
    "1.4.1 Use of Color (Level A) · Web: Supports · Electronic Docs: Supports · Software: Supports · "
    "Authoring Tool: Supports · Remarks: " + QUOTE
)


def write_page(path: Path, width: float, height: float, rotate: int = 0) -> Path:
    """One page of ``width`` × ``height`` points whose text runs from margin to margin."""
    doc = fitz.open()
    page = doc.new_page(width=width, height=height)
    assert page.insert_textbox(fitz.Rect(36, 36, width - 36, height - 36), (ROW + "\n") * 6, fontsize=10) >= 0
    if rotate:
        page.set_rotation(rotate)
    doc.save(path)
    doc.close()
    return path


def excerpt_of(pdf: Path):
    with fitz.open(pdf) as doc:
        rects = tuple((1, r.x0, r.y0, r.x1, r.y1) for r in doc[0].search_for(QUOTE))
    assert rects
    citation = Citation(pdf.name, SourceKind.PDF, QUOTE, AnchorLabel.VERIFIED, 100.0, 0.5, page=1, rects=rects)
    return citation_excerpt(pdf, citation)


def test_a_landscape_page_is_wide_a_portrait_page_is_not(tmp_path):
    landscape = excerpt_of(write_page(tmp_path / "vpat.pdf", 792, 612))
    (size,) = landscape.sizes
    assert size[0] > size[1] and size[0] > WIDE_POINTS  # cropped to its text, still wider than any portrait page
    assert landscape.wide and landscape.annotations  # the quote is outlined as on a portrait page
    portrait = excerpt_of(write_page(tmp_path / "policy.pdf", 612, 792))
    assert not portrait.wide and portrait.sizes[0][0] <= 612


def test_a_portrait_sheet_turned_90_degrees_is_wide(tmp_path):
    turned = excerpt_of(write_page(tmp_path / "certificate.pdf", 595, 842, rotate=90))
    ((width, height),) = turned.sizes
    assert (width, height) == (842, 595) and turned.wide  # shown as the viewer turns it

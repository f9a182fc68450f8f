"""What the review screen's PDF viewer is sent for one citation: a small PDF holding only the
page(s) the citation is on, and the highlight boxes of its quote remapped to that excerpt.

The viewer receives the whole PDF (base64) on every rerun, so sending a 200-page manual to
show one page is slow; an excerpt of one or two pages keeps a question switch well under a
second. Excerpts are cached per (file, modification time, size, pages).

Only verified and repaired quotes are highlighted: an unverified citation gets its page shown
(the retrieved passage's page) and no annotation at all, whatever its ``rects`` say.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.core.types import FileProblem, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation

HIGHLIGHT = "#e8a400"  # amber outline around each quoted line
MAX_PAGES = 2  # a quote crosses at most one page break
PADDING = 1.5  # points added around each line box, so the outline does not cut the glyphs
MARGIN = 18.0  # points of white kept around the text when a page's empty margins are cropped
WIDE_POINTS = 640.0  # a page shown wider than this is wider than any portrait page (Letter: 612 pt, A4: 595 pt)


class SourcePageError(FileProblem):
    """A cited page cannot be shown (the source file is missing, unreadable or shorter)."""


@dataclass(frozen=True)
class PageExcerpt:
    """The pages of one citation, ready for ``streamlit_pdf_viewer.pdf_viewer``."""

    pdf: bytes  # a PDF with only ``pages``, each cropped to its text (the words come out larger)
    pages: tuple[int, ...]  # the source's page numbers (1-based), in excerpt order
    annotations: tuple[dict, ...]  # {page, x, y, width, height, color}; page is 1-based in the excerpt
    origins: tuple[tuple[float, float], ...] = ()  # each excerpt page's crop corner on its source page

    def source_page(self, excerpt_page: int) -> int:
        """The source page number of an excerpt page."""
        return self.pages[excerpt_page - 1]

    @property
    def sizes(self) -> tuple[tuple[float, float], ...]:
        """Each excerpt page's (width, height) in points as it is shown: cropped, and turned by
        its rotation (a portrait sheet turned 90° is a landscape page)."""
        import pymupdf

        with pymupdf.open(stream=self.pdf, filetype="pdf") as doc:
            return tuple((round(page.rect.width, 2), round(page.rect.height, 2)) for page in doc)

    @property
    def wide(self) -> bool:
        """A page wider than a portrait page is (a landscape page, a wide table, once cropped):
        fit to a half-screen pane's width its words come out too small to read (a landscape VPAT
        page at 70 %, 10.5 pt text at 7 px), so the pane offers it at the window's width too."""
        return any(w > WIDE_POINTS for w, _ in self.sizes)


def highlightable(citation: Citation) -> bool:
    return citation.label is not AnchorLabel.UNVERIFIED and bool(citation.rects)


def pages_for(citation: Citation, max_pages: int = MAX_PAGES) -> tuple[int, ...]:
    """The source pages to show: those the highlight boxes are on (at most ``max_pages``),
    else the citation's page, else none."""
    if highlightable(citation):
        pages = sorted({int(r[0]) for r in citation.rects})
        return tuple(pages[:max_pages])
    return (citation.page,) if citation.page else ()


def annotations(
    citation: Citation,
    pages: tuple[int, ...],
    color: str = HIGHLIGHT,
    origins: tuple[tuple[float, float], ...] | None = None,
) -> list[dict]:
    """Viewer annotations for the quote's boxes on ``pages``, renumbered to the excerpt
    (the first of ``pages`` becomes page 1) and moved by each excerpt page's crop ``origins``
    (its top-left corner on the source page). An unverified citation gets none."""
    if not highlightable(citation):
        return []
    position = {page: i for i, page in enumerate(pages, 1)}
    origins = origins or tuple((0.0, 0.0) for _ in pages)
    out = []
    for page, x0, y0, x1, y1 in citation.rects:
        if int(page) not in position:
            continue
        ox, oy = origins[position[int(page)] - 1]
        out.append(
            {
                "page": position[int(page)],
                "x": round(max(float(x0) - ox - PADDING, 0.0), 2),
                "y": round(max(float(y0) - oy - PADDING, 0.0), 2),
                "width": round(float(x1) - float(x0) + 2 * PADDING, 2),
                "height": round(float(y1) - float(y0) + 2 * PADDING, 2),
                "color": color,
            }
        )
    return out


def page_count(path: str | Path) -> int:
    import pymupdf

    with pymupdf.open(path) as doc:
        return doc.page_count


def excerpt_bytes(path: str | Path, pages: tuple[int, ...]) -> tuple[bytes, tuple[tuple[float, float], ...]]:
    """A PDF with only ``pages`` (1-based) of ``path``, each cropped to its text, and each
    page's crop origin (top-left corner on the source page); cached per file version and pages."""
    path = Path(path)
    version = file_version(path, "the stored copy", "add the document to the knowledge base again")
    return _excerpt(str(path), *version, tuple(int(p) for p in pages))


def file_version(path: Path, what: str, fix: str) -> tuple[int, int]:
    """``path``'s version (modification time in ns, size), which the caches of its pages are keyed
    by; a file that cannot be read is a :class:`SourcePageError` naming ``what`` it is and the fix."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise SourcePageError(path.name, f"{what} cannot be read ({exc.strerror or exc})", fix) from exc
    return st.st_mtime_ns, st.st_size


def crop_to_text(page) -> tuple[float, float]:
    """Crop a page's empty margins (keeping ``MARGIN`` around its text and images), so the
    viewer's fit-to-width shows the words larger; the crop's origin on the page. A rotated
    page, one already cropped, or one without content is left whole: origin (0, 0)."""
    import pymupdf

    if page.rotation or page.cropbox != page.mediabox:
        return (0.0, 0.0)
    boxes = [pymupdf.Rect(b[:4]) for b in page.get_text("blocks")] + [
        pymupdf.Rect(i["bbox"]) for i in page.get_image_info()
    ]
    boxes = [b for b in boxes if b.is_valid and not b.is_empty]
    if not boxes:
        return (0.0, 0.0)
    content = boxes[0]
    for b in boxes[1:]:
        content |= b
    crop = (content + (-MARGIN, -MARGIN, MARGIN, MARGIN)) & page.rect
    if crop.is_empty or crop == page.rect:
        return (0.0, 0.0)
    page.set_cropbox(crop)
    return (round(crop.x0, 2), round(crop.y0, 2))


@lru_cache(maxsize=64)
def _excerpt(
    path: str, mtime_ns: int, size: int, pages: tuple[int, ...]
) -> tuple[bytes, tuple[tuple[float, float], ...]]:
    import pymupdf

    name = Path(path).name
    try:
        src = pymupdf.open(path)
    except Exception as exc:
        raise SourcePageError(
            name, f"it cannot be opened as a PDF ({exc})", "add the document to the knowledge base again"
        ) from exc
    try:
        bad = [p for p in pages if not 1 <= p <= src.page_count]
        if not pages or bad:
            raise SourcePageError(
                name,
                f"page {bad[0] if bad else '(none)'} is not in the file ({src.page_count} pages)",
                "re-index the knowledge base, then regenerate the draft",
            )
        out = pymupdf.open()
        try:
            for p in pages:
                out.insert_pdf(src, from_page=p - 1, to_page=p - 1, links=False, annots=False)
            origins = tuple(crop_to_text(page) for page in out)
            return out.tobytes(garbage=1, deflate=True), origins
        finally:
            out.close()
    finally:
        src.close()


def citation_excerpt(path: str | Path, citation: Citation, color: str = HIGHLIGHT) -> PageExcerpt | None:
    """The excerpt for a PDF citation, or None when the citation names no page (or is not
    from a PDF)."""
    if citation.kind is not SourceKind.PDF:
        return None
    pages = pages_for(citation)
    if not pages:
        return None
    pdf, origins = excerpt_bytes(path, pages)
    return PageExcerpt(pdf, pages, tuple(annotations(citation, pages, color, origins)), origins)


__all__ = [
    "HIGHLIGHT",
    "PageExcerpt",
    "SourcePageError",
    "WIDE_POINTS",
    "annotations",
    "citation_excerpt",
    "excerpt_bytes",
    "file_version",
    "highlightable",
    "page_count",
    "pages_for",
]

"""A solicitation's requirement on its own page, its words outlined: what the Review card shows
beside the evidence page when the questionnaire is a solicitation (issue #57).

The requirement is cited as a draft cites its evidence (a :class:`Citation` of the solicitation
file, its page and the boxes of its words), so the same code cuts the page out, crops it and
outlines the boxes (engine/review/pdf_pages.py: :func:`citation_excerpt`). A requirement's quote
is a verbatim substring of its page's text with whitespace collapsed
(engine/questionnaire/solicitation/pages.py); its offsets there are carried back to the page's
raw text (``page.get_text()``), whose characters :func:`rects_for` boxes. A Word solicitation
has no pages: no citation (None), the screen says so and shows the quote."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from engine.core.types import SourceKind
from engine.drafting.anchoring import AnchorLabel, rects_for
from engine.drafting.records import Citation
from engine.questionnaire.solicitation import Requirement
from engine.review.pdf_pages import SourcePageError, file_version

_WORD = re.compile(r"\S+")


def raw_offsets(raw: str) -> tuple[str, list[int]]:
    """``raw`` with every run of whitespace one space, stripped (as solicitation pages are read),
    and the offset in ``raw`` of each of its characters (a space: the run's first character)."""
    parts: list[str] = []
    index: list[int] = []
    for m in _WORD.finditer(raw):
        if parts:
            parts.append(" ")
            index.append(index[-1] + 1)
        parts.append(m.group())
        index.extend(range(m.start(), m.end()))
    return "".join(parts), index


def quote_span(raw: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` (whitespace collapsed) is in the raw page text ``raw``: its start and end
    offsets there, or None when the page does not hold it."""
    text, index = raw_offsets(raw)
    at = text.find(" ".join(quote.split()))
    if at < 0 or not quote.strip():
        return None
    end = at + len(" ".join(quote.split()))
    return index[at], index[end - 1] + 1


def requirement_citation(path: str | Path, req: Requirement) -> Citation | None:
    """The requirement cited on its page of the solicitation file ``path`` (its words' boxes:
    verified), its page alone when the words are not found there (unverified: shown plain), or
    None for a file without pages (Word). Cached per file version and requirement."""
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        return None
    version = file_version(
        path, "the stored copy of the solicitation", "upload the solicitation again on the Questionnaire screen"
    )
    return _cited(str(path), *version, req.file, req.page, req.quote)


@lru_cache(maxsize=256)
def _cited(path: str, mtime_ns: int, size: int, file: str, page: int, quote: str) -> Citation:
    import pymupdf

    rects: list = []
    try:
        with pymupdf.open(path) as doc:
            if 1 <= page <= doc.page_count:
                raw = doc[page - 1].get_text()
                span = quote_span(raw, quote)
                rects = rects_for(doc, page, raw, *span) if span else []
    except (RuntimeError, ValueError) as exc:  # a damaged file: MuPDF's own errors
        raise SourcePageError(
            file, f"the solicitation cannot be opened as a PDF ({exc})", "upload it again on the Questionnaire screen"
        ) from exc
    label = AnchorLabel.VERIFIED if rects else AnchorLabel.UNVERIFIED
    return Citation(
        file=file,
        kind=SourceKind.PDF,
        quote=quote,
        label=label,
        score=100.0 if rects else 0.0,
        retrieval_score=0.0,
        page=page,
        rects=tuple(rects),
    )


__all__ = ["quote_span", "raw_offsets", "requirement_citation"]

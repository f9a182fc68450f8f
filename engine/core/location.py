"""Where a passage, quote or past answer sits in its file, and that place in words.

:class:`Location` is the one record of a source location (file, kind, page(s), sheet and row,
section, past-answer question ID) and :meth:`Location.label` the one way it is written. Readers
see it in a few forms, kept apart as :class:`Style` values rather than separate formatters: the
prompt the model reads (``PROMPT``: its wording is part of what the model sees, so drafting
figures depend on it), the review screen, CSV reports and the PDF pane (``WORDS``: "page 3",
"pages 3–4"), the ask answer (``SHORT``: "p. 3", "pp. 3–4"), the text-source caption
(``CAPTION``), the demo (``DEMO``) and ``python -m engine search`` (``SEARCH``). A past answer of
the answer library is named the same in every form ("past answer: file, sheet, row, ID").

Records that carry a place build one: :meth:`Location.of_chunk` (a retrieved chunk),
``Citation.location()`` (engine/drafting/records.py), ``LibraryEntry.location``
(engine/index/library.py), ``Excerpt.location`` (engine/drafting/ask.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.types import Chunk, SourceKind


@dataclass(frozen=True)
class Style:
    """How a location is written: a ``str.format`` template per case, with the fields ``file``,
    ``page`` (one page), ``first``/``last`` (a page range), ``sheet``, ``row`` and ``section``."""

    page: str  # one page
    pages: str  # more than one page
    sheet: str  # a spreadsheet row
    section: str  # a heading path
    nowhere: str = ""  # none of these (a Word or text file before its first heading)


WORDS = Style("page {page}", "pages {first}–{last}", "sheet {sheet}, row {row}", "section {section}")
SHORT = Style("p. {page}", "pp. {first}–{last}", "sheet {sheet}, row {row}", "section {section}")
PROMPT = Style(
    "{file} p. {page}", "{file} pp. {first}–{last}", "{file}, sheet {sheet} row {row}", "{file}, {section}", "{file}"
)
CAPTION = replace(WORDS, section="section “{section}”", nowhere="before the first heading")
DEMO = replace(WORDS, nowhere="whole file")
SEARCH = Style("p. {page}", "pp. {first}–{last}", "{sheet} row {row}", "{section}")


@dataclass(frozen=True)
class Location:
    """A place in a knowledge-base document or answer-library file. ``pages``: the PDF page(s)
    (empty outside PDFs); ``qid``: a past answer's question ID."""

    file: str
    kind: SourceKind
    pages: tuple[int, ...] = ()
    sheet: str | None = None
    row: int | None = None
    section: str | None = None
    qid: str | None = None

    @classmethod
    def of_chunk(cls, chunk: Chunk, page: int | None = None) -> Location:
        """Where a retrieved chunk is cited: its page (``page`` when given: a page finder's),
        sheet and row, or section."""
        page = page if page is not None else chunk.page
        return cls(chunk.doc, chunk.kind, (page,) if page is not None else (), chunk.sheet, chunk.row, chunk.section)

    @classmethod
    def past_answer(cls, file: str, sheet: str | None, row: int | None, qid: str | None) -> Location:
        return cls(file, SourceKind.LIBRARY, sheet=sheet, row=row, qid=qid)

    def label(self, style: Style = WORDS) -> str:
        """This place in words, in ``style`` (see the module docstring); a past answer is
        "past answer: file, sheet S, row R, ID Q" in every style."""
        if self.kind is SourceKind.LIBRARY:
            parts = [self.file] + ([f"sheet {self.sheet}"] if self.sheet else [])
            parts += ([f"row {self.row}"] if self.row is not None else []) + ([f"ID {self.qid}"] if self.qid else [])
            return "past answer: " + ", ".join(parts)
        if self.pages:
            template = style.page if len(self.pages) == 1 else style.pages
        elif self.sheet is not None:
            template = style.sheet
        else:
            template = style.section if self.section else style.nowhere
        first, last = (self.pages[0], self.pages[-1]) if self.pages else (None, None)
        return template.format(
            file=self.file, page=first, first=first, last=last, sheet=self.sheet, row=self.row, section=self.section
        )


__all__ = ["CAPTION", "DEMO", "PROMPT", "SEARCH", "SHORT", "WORDS", "Location", "Style"]
